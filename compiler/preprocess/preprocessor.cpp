// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "preprocess/preprocessor.hpp"

// Directives arrive one at a time as `directive` tokens, in file order: from the parser's walk
// over host code, and from inside kernels during their expansion. Each is re-lexed; #define and
// #undef edit the macro table, the conditionals push and pop a stack whose top says whether the
// current text is taken. A condition is evaluated as C does: `defined` first, then macro
// expansion, then every remaining identifier is 0. Other directives (#include, #pragma, #error,
// line markers) belong to the C++ compiler, which sees them in the copied host text; the parser
// asks which file a quoted #include names, to read its macros and declarations too, and reads
// the line markers of `cpp` output.

#include "lex/lexer.hpp"
#include "preprocess/pp_expression.hpp"

#include <filesystem>

namespace brcc {

bool is_identifier_or_keyword(TokenKind kind) {
    // The keywords sit between `unknown` and the first punctuator in TokenKind.
    return kind == TokenKind::identifier ||
           (kind > TokenKind::unknown && kind < TokenKind::l_paren);
}

Preprocessor::Preprocessor(SourceManager& sources, const PreprocessorOptions& options,
                           DiagnosticEngine& diags)
    : sources_(sources), diags_(diags), include_dirs_(options.include_dirs) {
    // -D NAME=VALUE is `#define NAME VALUE` in a buffer of its own, so that mistakes in it are
    // reported like any other, at "<command line>:1:col".
    for (const auto& [name, value] : options.defines) {
        const std::uint32_t file =
            sources_.add_buffer("<command line>", "#define " + name + " " + value + "\n");
        const std::vector<Token> tokens = lex_file(sources_, file, diags_);
        if (!tokens.empty() && tokens.front().is(TokenKind::directive))
            handle_directive(tokens.front());
    }
}

const Macro* Preprocessor::find_macro(std::string_view name) const {
    const auto it = macros_.find(std::string(name));
    return it == macros_.end() ? nullptr : &it->second;
}

void Preprocessor::handle_directive(const Token& directive) {
    // A first look without diagnostics: `#error don't` must not be reported as a bad literal.
    std::vector<Token> tokens = lex_directive(sources_, directive, nullptr);
    if (!is_identifier_or_keyword(tokens.front().kind))
        return; // `#` alone, or a line marker `# 12 "file"`
    const std::string name = tokens.front().text;
    const bool conditional_directive = name == "if" || name == "ifdef" || name == "ifndef" ||
                                       name == "elif" || name == "else" || name == "endif";
    if (!conditional_directive && (!is_active() || (name != "define" && name != "undef")))
        return;
    const bool evaluated = is_active() || name == "elif";
    if (evaluated && name != "else" && name != "endif")
        tokens = lex_directive(sources_, directive, &diags_);
    if (conditional_directive)
        conditional(name, tokens, directive);
    else if (name == "define")
        define(tokens, directive);
    else
        undefine(tokens, directive);
}

// #if expression | #ifdef name | #ifndef name | #elif expression | #else | #endif
void Preprocessor::conditional(std::string_view name, const std::vector<Token>& tokens,
                               const Token& directive) {
    const SourceRange directive_range = directive.range();
    if (name == "if" || name == "ifdef" || name == "ifndef") {
        const bool parent_active = is_active();
        bool value = false;
        if (parent_active) {
            if (name == "if") {
                value = evaluate_condition(tokens, name, directive);
            } else if (!is_identifier_or_keyword(tokens[1].kind)) {
                diags_.report(DiagId::pp_macro_name_missing, tokens[1].range()) << name;
            } else {
                value = (find_macro(tokens[1].text) != nullptr) == (name == "ifdef");
            }
        }
        conditionals_.push_back(
            {directive.loc, std::string(name), parent_active, value, false, value});
        return;
    }
    if (conditionals_.empty()) {
        diags_.report(DiagId::pp_unmatched_directive, directive_range) << name;
        return;
    }
    Conditional& block = conditionals_.back();
    if (name == "endif") {
        conditionals_.pop_back();
        return;
    }
    if (block.seen_else) {
        diags_.report(DiagId::pp_else_after_else, directive_range) << name;
        diags_.report(DiagId::pp_note_conditional_here, block.loc);
        block.active = false;
        return;
    }
    if (name == "else") {
        block.seen_else = true;
        block.active = block.parent_active && !block.taken;
    } else {
        block.active =
            block.parent_active && !block.taken && evaluate_condition(tokens, name, directive);
    }
    block.taken = block.taken || block.active;
}

bool Preprocessor::evaluate_condition(const std::vector<Token>& tokens,
                                      std::string_view directive_name, const Token& directive) {
    // `defined NAME` and `defined(NAME)` first: their operands must not be expanded.
    std::vector<Token> resolved;
    for (std::size_t i = 1; i < tokens.size() && !tokens[i].is(TokenKind::end_of_file); ++i) {
        if (!tokens[i].is_identifier("defined")) {
            resolved.push_back(tokens[i]);
            continue;
        }
        const Token& defined = tokens[i];
        std::size_t name = i + 1;
        const bool parenthesised = tokens[name].is(TokenKind::l_paren);
        if (parenthesised)
            ++name;
        if (!is_identifier_or_keyword(tokens[name].kind) ||
            (parenthesised && !tokens[name + 1].is(TokenKind::r_paren))) {
            diags_.report(DiagId::pp_defined_without_name, defined.range());
            return false;
        }
        Token value = defined;
        value.kind = TokenKind::int_literal;
        value.text = find_macro(tokens[name].text) ? "1" : "0";
        resolved.push_back(value);
        i = parenthesised ? name + 1 : name;
    }
    std::vector<Token> expanded = expand_tokens(resolved, false);
    for (Token& token : expanded) {
        if (!is_identifier_or_keyword(token.kind))
            continue;
        token.text = token.text == "true" ? "1" : "0";
        token.kind = TokenKind::int_literal;
    }
    const std::optional<long long> value =
        evaluate_pp_expression(expanded, directive_name, directive.range(), diags_);
    return value.value_or(0) != 0;
}

// define := '#define' name [params] body ; params := '(' [param {',' param}] ')' (no blank
// between the name and the `(`), param := identifier | '...' | identifier '...'
void Preprocessor::define(const std::vector<Token>& tokens, const Token& directive) {
    const Token& name = tokens[1];
    if (name.is(TokenKind::end_of_file)) {
        diags_.report(DiagId::pp_macro_name_missing, directive.range()) << "define";
        return;
    }
    if (!is_identifier_or_keyword(name.kind)) {
        diags_.report(DiagId::pp_macro_name_not_identifier, name.range());
        return;
    }
    if (name.text == "defined") {
        diags_.report(DiagId::pp_defined_as_macro_name, name.range());
        return;
    }
    Macro macro;
    macro.name = name.text;
    macro.loc = name.loc;
    std::size_t i = 2;
    if (tokens[i].is(TokenKind::l_paren) && !tokens[i].space_before) {
        macro.is_function_like = true;
        ++i;
        bool expect_param = !tokens[i].is(TokenKind::r_paren);
        while (expect_param) {
            const Token& param = tokens[i];
            if (param.is(TokenKind::ellipsis)) {
                macro.is_variadic = true;
                macro.params.push_back("__VA_ARGS__");
                ++i;
                break;
            }
            if (!is_identifier_or_keyword(param.kind)) {
                diags_.report(DiagId::pp_bad_macro_parameter, param.range()) << macro.name;
                return;
            }
            for (const std::string& existing : macro.params) {
                if (existing == param.text) {
                    diags_.report(DiagId::pp_duplicate_macro_parameter, param.range())
                        << param.text;
                    return;
                }
            }
            macro.params.push_back(param.text);
            ++i;
            if (tokens[i].is(TokenKind::ellipsis)) { // GNU named variadic: `args...`
                macro.is_variadic = true;
                ++i;
                break;
            }
            expect_param = tokens[i].is(TokenKind::comma);
            if (expect_param)
                ++i;
        }
        if (!tokens[i].is(TokenKind::r_paren)) {
            diags_.report(DiagId::pp_bad_macro_parameter, tokens[i].range()) << macro.name;
            return;
        }
        ++i;
    }
    for (; !tokens[i].is(TokenKind::end_of_file); ++i)
        macro.body.push_back(tokens[i]);
    if (!macro.body.empty()) {
        macro.body.front().space_before = false;
        if (macro.body.front().is(TokenKind::hashhash) ||
            macro.body.back().is(TokenKind::hashhash)) {
            const Token& edge =
                macro.body.front().is(TokenKind::hashhash) ? macro.body.front() : macro.body.back();
            diags_.report(DiagId::pp_hashhash_at_edge, edge.range());
            return;
        }
    }
    if (macro.is_function_like) {
        for (std::size_t j = 0; j < macro.body.size(); ++j) {
            if (!macro.body[j].is(TokenKind::hash))
                continue;
            bool names_param = false;
            if (j + 1 < macro.body.size())
                for (const std::string& param : macro.params)
                    names_param = names_param || macro.body[j + 1].text == param;
            if (!names_param) {
                diags_.report(DiagId::pp_hash_not_parameter, macro.body[j].range());
                return;
            }
        }
    }
    macros_[macro.name] = std::move(macro);
}

// undef := '#undef' name
void Preprocessor::undefine(const std::vector<Token>& tokens, const Token& directive) {
    const Token& name = tokens[1];
    if (name.is(TokenKind::end_of_file)) {
        diags_.report(DiagId::pp_macro_name_missing, directive.range()) << "undef";
        return;
    }
    if (!is_identifier_or_keyword(name.kind)) {
        diags_.report(DiagId::pp_macro_name_not_identifier, name.range());
        return;
    }
    macros_.erase(name.text);
}

// quoted_include := '#' 'include' string_literal
std::optional<QuotedInclude> Preprocessor::quoted_include(const Token& directive) const {
    const std::vector<Token> tokens = lex_directive(sources_, directive, nullptr);
    if (!tokens[0].is_identifier("include") || !tokens[1].is(TokenKind::string_literal) ||
        tokens[1].text.size() < 2 || tokens[1].text.front() != '"')
        return std::nullopt;
    return QuotedInclude{tokens[1].text.substr(1, tokens[1].text.size() - 2)};
}

std::string Preprocessor::find_include(std::string_view name, std::string_view includer) const {
    namespace fs = std::filesystem;
    std::error_code error;
    const fs::path beside = fs::path(includer).parent_path() / name;
    if (fs::is_regular_file(beside, error))
        return beside.string();
    for (const std::string& dir : include_dirs_) {
        const fs::path candidate = fs::path(dir) / name;
        if (fs::is_regular_file(candidate, error))
            return candidate.string();
    }
    return {};
}

// line_marker := '#' integer string_literal {integer}
std::optional<LineMarker> Preprocessor::line_marker(const Token& directive) const {
    const std::vector<Token> tokens = lex_directive(sources_, directive, nullptr);
    if (!tokens[0].is(TokenKind::int_literal) || !tokens[1].is(TokenKind::string_literal) ||
        tokens[1].text.size() < 2)
        return std::nullopt;
    LineMarker marker;
    marker.file = tokens[1].text.substr(1, tokens[1].text.size() - 2);
    for (std::size_t i = 2; tokens[i].is(TokenKind::int_literal); ++i) {
        marker.enters = marker.enters || tokens[i].text == "1";
        marker.returns = marker.returns || tokens[i].text == "2";
    }
    return marker;
}

void Preprocessor::finish() {
    for (const Conditional& block : conditionals_)
        diags_.report(DiagId::pp_unterminated_conditional, block.loc) << block.directive;
    conditionals_.clear();
}

} // namespace brcc
