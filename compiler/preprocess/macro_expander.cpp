// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Macro expansion with hide sets (Prosser's algorithm, as in chibicc): every token remembers the
// macros whose expansion produced it, and a macro name is not expanded again inside its own
// expansion. Pending tokens live on a stack (reversed), so a replacement list is pushed in front
// of the rest of the input and rescanned with it, which is how a function-like macro at the end
// of a replacement finds its arguments in the source. Directives among a kernel's source tokens
// are applied when they are reached, so `#define` and `#if` inside a kernel body act in file
// order. A token budget and a nesting limit stop runaway macros.

#include "lex/lexer.hpp"
#include "preprocess/preprocessor.hpp"

#include <algorithm>
#include <optional>

namespace brcc {

namespace {

constexpr std::size_t max_expanded_tokens = 1'000'000;
constexpr int max_argument_nesting = 200;

struct PPToken {
    Token token;
    std::vector<std::string> hide; ///< macros this token came from; never expanded again
    bool from_source = false;      ///< an original token (only those can be directives)
};

bool is_hidden(const PPToken& token, const std::string& name) {
    return std::find(token.hide.begin(), token.hide.end(), name) != token.hide.end();
}

void add_hidden(PPToken& token, const std::vector<std::string>& names) {
    for (const std::string& name : names)
        if (!is_hidden(token, name))
            token.hide.push_back(name);
}

} // namespace

class MacroExpander {
public:
    MacroExpander(Preprocessor& pp, bool apply_directives, std::size_t& budget, int nesting)
        : pp_(pp), apply_directives_(apply_directives), budget_(budget), nesting_(nesting) {}

    std::vector<PPToken> run(std::vector<PPToken> input);

private:
    std::optional<PPToken> pop();
    bool next_is_l_paren();
    bool collect_arguments(const Macro& macro, const PPToken& name,
                           std::vector<std::vector<PPToken>>& args, PPToken& r_paren);
    std::vector<PPToken> substitute(const Macro& macro,
                                    const std::vector<std::vector<PPToken>>& args,
                                    const PPToken& use, const std::vector<std::string>& hide);
    std::vector<PPToken> expand_argument(const std::vector<PPToken>& arg);
    PPToken stringize(const std::vector<PPToken>& arg, const PPToken& use) const;
    void paste(std::vector<PPToken>& result, const PPToken& rhs, const PPToken& use);
    PPToken from_body(const Token& body_token, const PPToken& use) const;
    int parameter_index(const Macro& macro, const Token& token) const;
    bool spend(std::size_t count, const PPToken& use);

    Preprocessor& pp_;
    bool apply_directives_;
    std::size_t& budget_;
    int nesting_;
    std::vector<PPToken> pending_; // reversed: back() is the next token
};

// Takes the next token, applying directives and dropping tokens of blocks not taken.
std::optional<PPToken> MacroExpander::pop() {
    while (!pending_.empty()) {
        PPToken token = std::move(pending_.back());
        pending_.pop_back();
        if (apply_directives_ && token.from_source) {
            if (token.token.is(TokenKind::directive)) {
                pp_.handle_directive(token.token);
                continue;
            }
            if (!pp_.is_active())
                continue;
        }
        return token;
    }
    return std::nullopt;
}

bool MacroExpander::next_is_l_paren() {
    // Directives between a function-like macro's name and its `(` are applied first, as in C.
    while (!pending_.empty()) {
        const PPToken& next = pending_.back();
        if (apply_directives_ && next.from_source &&
            (next.token.is(TokenKind::directive) || !pp_.is_active())) {
            const Token skipped = next.token;
            pending_.pop_back();
            if (skipped.is(TokenKind::directive))
                pp_.handle_directive(skipped);
            continue;
        }
        return next.token.is(TokenKind::l_paren);
    }
    return false;
}

bool MacroExpander::spend(std::size_t count, const PPToken& use) {
    if (count <= budget_) {
        budget_ -= count;
        return true;
    }
    budget_ = 0;
    if (!pp_.expansion_limit_reported_) {
        pp_.expansion_limit_reported_ = true;
        pp_.diags_.report(DiagId::pp_expansion_too_large, use.token.range()) << max_expanded_tokens;
    }
    pending_.clear();
    return false;
}

std::vector<PPToken> MacroExpander::run(std::vector<PPToken> input) {
    std::reverse(input.begin(), input.end());
    pending_ = std::move(input);
    std::vector<PPToken> output;
    while (std::optional<PPToken> next = pop()) {
        PPToken token = std::move(*next);
        const Macro* macro =
            is_identifier_or_keyword(token.token.kind) ? pp_.find_macro(token.token.text) : nullptr;
        if (!macro || is_hidden(token, macro->name) ||
            (macro->is_function_like && !next_is_l_paren())) {
            if (!spend(1, token))
                break;
            output.push_back(std::move(token));
            continue;
        }
        std::vector<PPToken> replacement;
        if (!macro->is_function_like) {
            std::vector<std::string> hide = token.hide;
            hide.push_back(macro->name);
            replacement = substitute(*macro, {}, token, hide);
        } else {
            std::vector<std::vector<PPToken>> args;
            PPToken r_paren;
            if (!collect_arguments(*macro, token, args, r_paren))
                continue;
            // The hide set of a function-like expansion: what both the name and the `)` had.
            std::vector<std::string> hide;
            for (const std::string& name : token.hide)
                if (is_hidden(r_paren, name))
                    hide.push_back(name);
            hide.push_back(macro->name);
            replacement = substitute(*macro, args, token, hide);
        }
        if (!spend(replacement.size(), token))
            break;
        if (!replacement.empty())
            replacement.front().token.space_before = token.token.space_before;
        for (auto it = replacement.rbegin(); it != replacement.rend(); ++it)
            pending_.push_back(std::move(*it));
    }
    return output;
}

// arguments := '(' [argument {',' argument}] ')', commas inside parentheses do not split.
bool MacroExpander::collect_arguments(const Macro& macro, const PPToken& name,
                                      std::vector<std::vector<PPToken>>& args, PPToken& r_paren) {
    pop(); // the `(`
    args.emplace_back();
    int depth = 0;
    while (true) {
        std::optional<PPToken> next = pop();
        if (!next) {
            pp_.diags_.report(DiagId::pp_unterminated_macro_call, name.token.range()) << macro.name;
            return false;
        }
        const TokenKind kind = next->token.kind;
        if (kind == TokenKind::r_paren && depth == 0) {
            r_paren = std::move(*next);
            break;
        }
        if (kind == TokenKind::l_paren)
            ++depth;
        else if (kind == TokenKind::r_paren)
            --depth;
        if (kind == TokenKind::comma && depth == 0 &&
            !(macro.is_variadic && args.size() == macro.params.size())) {
            args.emplace_back();
            continue;
        }
        args.back().push_back(std::move(*next));
    }
    if (macro.params.empty() && args.size() == 1 && args[0].empty())
        args.clear();
    if (macro.is_variadic && args.size() + 1 == macro.params.size())
        args.emplace_back(); // F(a) for F(x, ...): __VA_ARGS__ is empty
    if (args.size() != macro.params.size()) {
        pp_.diags_.report(DiagId::pp_macro_argument_count, name.token.range())
            << macro.name << macro.params.size() << args.size();
        return false;
    }
    return true;
}

int MacroExpander::parameter_index(const Macro& macro, const Token& token) const {
    if (!macro.is_function_like || !is_identifier_or_keyword(token.kind))
        return -1;
    for (std::size_t i = 0; i < macro.params.size(); ++i)
        if (macro.params[i] == token.text)
            return static_cast<int>(i);
    return -1;
}

PPToken MacroExpander::from_body(const Token& body_token, const PPToken& use) const {
    PPToken token;
    token.token = body_token;
    // Diagnostics inside an expansion point at the macro's use.
    token.token.loc = use.token.loc;
    token.token.length = use.token.length;
    token.token.at_line_start = false;
    return token;
}

std::vector<PPToken> MacroExpander::expand_argument(const std::vector<PPToken>& arg) {
    if (nesting_ >= max_argument_nesting) {
        if (!pp_.expansion_limit_reported_ && !arg.empty()) {
            pp_.expansion_limit_reported_ = true;
            pp_.diags_.report(DiagId::pp_nesting_too_deep, arg.front().token.range());
        }
        return arg;
    }
    std::vector<PPToken> copy = arg;
    for (PPToken& token : copy)
        token.from_source = false; // directives were applied while collecting
    return MacroExpander(pp_, false, budget_, nesting_ + 1).run(std::move(copy));
}

PPToken MacroExpander::stringize(const std::vector<PPToken>& arg, const PPToken& use) const {
    std::string text = "\"";
    for (std::size_t i = 0; i < arg.size(); ++i) {
        if (i > 0 && arg[i].token.space_before)
            text += ' ';
        for (const char c : arg[i].token.text) {
            if (c == '"' || c == '\\')
                text += '\\';
            text += c;
        }
    }
    text += '"';
    PPToken token;
    token.token.kind = TokenKind::string_literal;
    token.token.text = std::move(text);
    token.token.loc = use.token.loc;
    token.token.length = use.token.length;
    return token;
}

void MacroExpander::paste(std::vector<PPToken>& result, const PPToken& rhs, const PPToken& use) {
    PPToken& lhs = result.back();
    const std::string spelling = lhs.token.text + rhs.token.text;
    if (std::optional<Token> pasted = lex_single_token(spelling)) {
        lhs.token.kind = pasted->kind;
        lhs.token.text = spelling;
        return;
    }
    pp_.diags_.report(DiagId::pp_invalid_paste, use.token.range())
        << lhs.token.text << rhs.token.text;
    result.push_back(rhs);
}

// Replaces parameters by their arguments (macro-expanded, except as operands of # and ##),
// applies # and ##, and marks every resulting token with the hide set.
std::vector<PPToken> MacroExpander::substitute(const Macro& macro,
                                               const std::vector<std::vector<PPToken>>& args,
                                               const PPToken& use,
                                               const std::vector<std::string>& hide) {
    std::vector<PPToken> result;
    const std::vector<Token>& body = macro.body;
    bool placemarker = false; // the last operand was an empty argument: `##` has no left token
    for (std::size_t i = 0; i < body.size(); ++i) {
        const Token& part = body[i];
        if (part.is(TokenKind::hashhash) && i + 1 < body.size()) {
            // `##` joins the last token so far with the first of the next operand.
            const Token& next = body[++i];
            std::vector<PPToken> rhs;
            if (const int param = parameter_index(macro, next); param >= 0)
                rhs = args[static_cast<std::size_t>(param)];
            else if (next.is(TokenKind::hash) && macro.is_function_like && i + 1 < body.size() &&
                     parameter_index(macro, body[i + 1]) >= 0)
                rhs = {stringize(args[static_cast<std::size_t>(parameter_index(macro, body[++i]))],
                                 use)};
            else
                rhs = {from_body(next, use)};
            if (rhs.empty())
                continue;
            std::size_t first = 0;
            if (!result.empty() && !placemarker) {
                paste(result, rhs.front(), use);
                first = 1;
            }
            result.insert(result.end(), rhs.begin() + static_cast<std::ptrdiff_t>(first),
                          rhs.end());
            placemarker = false;
            continue;
        }
        placemarker = false;
        if (part.is(TokenKind::hash) && macro.is_function_like && i + 1 < body.size() &&
            parameter_index(macro, body[i + 1]) >= 0) {
            result.push_back(
                stringize(args[static_cast<std::size_t>(parameter_index(macro, body[++i]))], use));
            continue;
        }
        if (const int param = parameter_index(macro, part); param >= 0) {
            const std::vector<PPToken>& arg = args[static_cast<std::size_t>(param)];
            const bool pasted_next = i + 1 < body.size() && body[i + 1].is(TokenKind::hashhash);
            std::vector<PPToken> value = pasted_next ? arg : expand_argument(arg);
            if (!value.empty())
                value.front().token.space_before = part.space_before;
            placemarker = value.empty();
            for (PPToken& token : value) {
                token.from_source = false;
                result.push_back(std::move(token));
            }
            continue;
        }
        result.push_back(from_body(part, use));
    }
    for (PPToken& token : result)
        add_hidden(token, hide);
    return result;
}

std::vector<Token> Preprocessor::expand_tokens(std::span<const Token> tokens,
                                               bool apply_directives) {
    std::vector<PPToken> input;
    input.reserve(tokens.size());
    for (const Token& token : tokens) {
        if (token.is(TokenKind::end_of_file))
            break;
        input.push_back(PPToken{token, {}, true});
    }
    std::size_t budget = max_expanded_tokens;
    std::vector<PPToken> expanded =
        MacroExpander(*this, apply_directives, budget, 0).run(std::move(input));
    std::vector<Token> result;
    result.reserve(expanded.size());
    for (PPToken& token : expanded)
        result.push_back(std::move(token.token));
    return result;
}

std::vector<Token> Preprocessor::expand(std::span<const Token> tokens) {
    return expand_tokens(tokens, true);
}

} // namespace brcc
