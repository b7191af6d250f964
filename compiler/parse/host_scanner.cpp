// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "parse/parser.hpp"

// The top-level split. The file's tokens are walked once, tracking brace and parenthesis depth;
// host code is never parsed, only searched for the Brook constructs in it:
//   - at file scope, `kernel ...{...}` / `reduce ...{...}` (or a prototype ending in `;`;
//     Brook+'s `reduce kernel void ...` and `void kernel ...` too),
//     `typedef struct [tag] {...} Name;`, `struct Name {...};`, `typedef T Name;` of a Brook
//     type (recorded, and kept as host text), and `void main (`;
//   - anywhere, a stream declaration `T name<extents> [, name<extents>]...;` with T a Brook
//     element type however C spells it (type_spelling.hpp), or `T name<>` or a pointer
//     `T (*name)<>` in a parameter list, and an iterator declaration
//     `iter T name<extents> = iter(begin, end);`;
//   - anywhere, the last argument of `streamGatherOp(...)` / `streamScatterOp(...)` when it is a
//     plain name: the reduce function that codegen rewrites into a reference to its kernel;
//   - anywhere, an integer literal like `0718` (lexer.hpp), which codegen writes in decimal;
//   - at file scope, the names host declarations declare (`const int N = 4;`, `float g, h[2];`),
//     which sema names when a kernel uses one.
// Kernels and struct typedefs are macro-expanded and handed to the KernelParser. Everything else
// becomes HostText, so the items cover the file in order and codegen can reproduce the host code
// byte for byte. Directives go to the preprocessor as they are met; in a conditional block that
// is not taken only the directive lines are kept (the C++ compiler sees the same conditions).
// The file a quoted `#include` names (beside the includer, then -I) is read by a scanner of its
// own that shares the macro table and the unit but emits nothing: its macros, struct typedefs and
// kernel prototypes become known, its text stays the C++ compiler's. An `#include "x.brh"` (or
// `.brhi`) becomes `#include "x.hpp"`, the header brcc makes from it. In `cpp` output the text
// between the line markers that enter and leave a file the main file included is read the same
// way and given back as one `#include "file"`.

#include "lex/lexer.hpp"
#include "parse/kernel_parser.hpp"

#include <algorithm>
#include <iterator>
#include <optional>
#include <set>
#include <vector>

namespace brcc {

namespace {

/// A declarator's name: Brook's keywords are ordinary names to C++ (`float in<10>;`).
bool is_name(const Token& token) {
    return token.is(TokenKind::identifier) || is_contextual_keyword(token.kind);
}

/// What the scanners of a file and of the headers it includes share.
struct ScanState {
    ScanState(SourceManager& sources, const PreprocessorOptions& options, DiagnosticEngine& diags)
        : unit(std::make_unique<TranslationUnit>()), context{*unit, diags, options.limits, {}, {}},
          preprocessor(sources, options, diags) {}

    std::unique_ptr<TranslationUnit> unit;
    ParseContext context;
    Preprocessor preprocessor;
    std::set<std::string, std::less<>> headers_read; ///< each header is read once
    int include_depth = 0;                           ///< headers being read, one inside another
    /// The kernels and reduce functions defined or declared so far, which have host stubs.
    std::set<std::string, std::less<>> stubbed_kernels;
};

/// `.brh` and `.brhi` name Brook headers, which brcc translates to `.hpp` headers.
bool is_brook_header(std::string_view name) {
    return name.ends_with(".brh") || name.ends_with(".brhi");
}

/// The header brcc makes from a Brook header: the same name, with `.hpp` for its extension.
std::string generated_header_name(std::string_view name) {
    return std::string(name.substr(0, name.rfind('.'))) + ".hpp";
}

class HostScanner {
public:
    /// `emits`: the file's text is the output (the main file), not only read (a header).
    HostScanner(SourceManager& sources, std::uint32_t file, ScanState& state, bool emits)
        : sources_(sources), file_(file), text_(sources.text(file)), diags_(state.context.diags),
          state_(state), unit_(state.unit.get()), context_(state.context),
          preprocessor_(state.preprocessor), emits_(emits) {}

    void run();

private:
    const Token& token(std::size_t index) const {
        return tokens_[std::min(index, tokens_.size() - 1)];
    }
    SourceLocation location(std::uint32_t offset) const { return {file_, offset}; }
    std::uint32_t end_of(const Token& token) const { return token.loc.offset + token.length; }
    /// Host text up to `offset` becomes (or extends) a HostText item.
    void flush_host_text(std::uint32_t offset);
    /// Adds a Brook item covering [begin, end): the host text before it is flushed first.
    void add_item(TopLevelItem item, std::uint32_t begin, std::uint32_t end);
    /// A parsed kernel definition, or prototype, whose source is [begin, end).
    void add_kernel(KernelDecl* kernel, bool prototype, std::uint32_t begin, std::uint32_t end);
    void skip_inactive_block();
    void keep_directive_line(const Token& directive);
    /// Offset of the start of the line holding `offset`.
    std::uint32_t line_start(std::uint32_t offset) const;
    /// The text is output: a main file, outside the text of an included file in `cpp` output.
    bool emitting() const { return emits_ && marker_depth_ == 0; }
    /// Whether the innermost bracket open is a `(`: a parameter list, or a call's arguments.
    bool in_parentheses() const {
        return !open_brackets_.empty() && open_brackets_.back() == TokenKind::l_paren;
    }
    /// Closes the innermost `opener` and whatever opened inside it and was left open (host
    /// code brcc does not check); a closer that nothing opened is ignored, as the compiler
    /// reports it.
    void close_bracket(TokenKind opener) {
        const auto open = std::find(open_brackets_.rbegin(), open_brackets_.rend(), opener);
        if (open != open_brackets_.rend())
            open_brackets_.erase(std::prev(open.base()), open_brackets_.end());
    }
    void handle_directive(const Token& directive);
    void rewrite_directive_literals(const Token& directive);
    /// An `#include "file"`: reads the file and, for a Brook header, rewrites the line.
    void read_include(const Token& directive, const QuotedInclude& include);
    void follow_line_marker(const Token& directive, const LineMarker& marker);
    /// The element traits of the structs read since the unit had `first` of them, at `offset`.
    void add_header_struct_traits(std::size_t first, std::uint32_t offset);

    /// Tokens of the return type spelled from token `index` on (`void` or a type), or 0.
    std::size_t return_type_length(std::size_t index) const;
    bool try_kernel();
    /// A macro at file scope whose expansion is kernel definitions (`KERNEL(scale)`): BrookGPU
    /// ran the C preprocessor over the whole file first, so they are kernels.
    bool try_macro_kernel();
    /// Parses the kernel definition or prototype whose text starts at token `first` and whose
    /// head goes on from token `head` to its `{` or `;` (a macro may spell the start).
    void take_kernel(std::size_t first, std::size_t head);
    bool try_struct_typedef();
    /// Reports `decl` when an earlier Brook struct has its name or tag (unless `quiet`).
    void report_redefinition(const StructDecl& decl, bool quiet);
    bool try_typedef();
    bool try_void_main();
    /// Records the head of the host function whose body opens at pos_ when a C++ file can
    /// declare it (TranslationUnit::host_function_heads).
    void note_host_function();
    /// True when tokens [first, end) spell a type of C scalars, Brook types, pointers,
    /// references and Brook+'s Stream<T> (then, `ends_in_name`, a parameter's name).
    bool declarable_type_tokens(std::size_t first, std::size_t end, bool ends_in_name) const;
    bool try_stream_declaration();
    bool try_stream_pointer_parameter();
    bool try_iterator_declaration();
    bool try_reduce_operator();
    bool try_kernel_domain();
    bool try_octal_literal();
    /// A kernel named as a value (HostRewrite): `(inverse ? ifft : fft)(a, b)`, `&k`, `{k, l}`.
    bool try_kernel_value();
    /// Records the name at pos_ when it stands where a declarator's name does.
    void note_declared_name();
    /// Notes a `.error(` or `.errorLog(` at pos_ (TranslationUnit::queries_stream_errors).
    void note_error_query();
    /// Records the name at pos_ when it is one a file-scope host declaration declares.
    void note_host_variable();
    /// Reads `name<extents>` from token `i` on, leaving `i` after the `>`; false when the tokens
    /// are not a stream declarator.
    bool scan_stream_declarator(std::size_t& i, StreamDeclarator& declarator);
    bool scan_plain_declarator(std::size_t& i, StreamDeclarator& declarator);
    std::optional<std::size_t> declarator_end(std::size_t i) const;
    bool declares_stream_after(std::size_t i) const;
    /// The type spelled from token `index` on (type_spelling.hpp).
    TypeSpelling spelling_at(std::size_t index) const;
    /// Element type of a host declaration: a Brook type however spelled; a host-only struct
    /// is reported.
    std::optional<Type> host_element_type(const TypeSpelling& spelling);
    std::size_t find_matching_brace(std::size_t open) const;
    std::vector<Token> expand(std::size_t first, std::size_t last, bool& quiet);

    SourceManager& sources_;
    std::uint32_t file_;
    std::string_view text_;
    DiagnosticEngine& diags_;
    ScanState& state_;
    TranslationUnit* unit_;
    ParseContext& context_;
    Preprocessor& preprocessor_;
    bool emits_;
    std::vector<Token> tokens_;
    std::size_t pos_ = 0;
    /// The `{` and `(` that enclose the current token, innermost last: a stream declarator
    /// is a parameter where the innermost is a `(` (a lambda's body inside a call's
    /// parentheses declares streams, as any block does).
    std::vector<TokenKind> open_brackets_;
    std::uint32_t cursor_ = 0; ///< the file is covered by items up to here
    /// The names this file's host code declares (variables, parameters, fields), which keep
    /// their meaning where a kernel has the same name (try_kernel_value).
    std::set<std::string, std::less<>> declared_names_;
    // `cpp` output: how deep in included files the text is, where the outermost one's text
    // starts and its name, and the file the last marker outside them named.
    int marker_depth_ = 0;
    std::size_t included_structs_start_ = 0;
    std::uint32_t included_text_start_ = 0;
    std::string included_file_;
    std::string marked_file_;
};

void HostScanner::flush_host_text(std::uint32_t offset) {
    if (offset <= cursor_ || !emitting())
        return;
    if (!unit_->items.empty()) {
        if (auto* last = std::get_if<HostText>(&unit_->items.back());
            last && last->range.end.offset == cursor_) {
            last->range.end = location(offset);
            cursor_ = offset;
            return;
        }
    }
    unit_->items.emplace_back(HostText{{location(cursor_), location(offset)}});
    cursor_ = offset;
}

void HostScanner::add_item(TopLevelItem item, std::uint32_t begin, std::uint32_t end) {
    if (!emitting())
        return;
    flush_host_text(begin);
    unit_->items.push_back(std::move(item));
    cursor_ = end;
}

void HostScanner::add_kernel(KernelDecl* kernel, bool prototype, std::uint32_t begin,
                             std::uint32_t end) {
    if (!kernel->is_helper())
        state_.stubbed_kernels.insert(kernel->name);
    if (prototype) {
        add_item(KernelPrototype{kernel}, begin, end);
        unit_->prototypes.push_back(kernel);
    } else {
        add_item(kernel, begin, end);
        unit_->kernels.push_back(kernel);
    }
}

std::uint32_t HostScanner::line_start(std::uint32_t offset) const {
    while (offset > 0 && text_[offset - 1] != '\n')
        --offset;
    return offset;
}

void HostScanner::handle_directive(const Token& directive) {
    if (const std::optional<LineMarker> marker = preprocessor_.line_marker(directive)) {
        follow_line_marker(directive, *marker);
        return;
    }
    if (emitting())
        rewrite_directive_literals(directive);
    preprocessor_.handle_directive(directive);
    if (!preprocessor_.is_active())
        return;
    if (const std::optional<QuotedInclude> include = preprocessor_.quoted_include(directive))
        read_include(directive, *include);
}

// The C++ compiler reads the directives of host code too (`#define SEED 0718`, `#if`): their
// leading-zero literals with an 8 or 9 are rewritten as those of host code are.
void HostScanner::rewrite_directive_literals(const Token& directive) {
    const std::vector<Token> tokens = lex_directive(sources_, directive, nullptr);
    const std::string_view name = tokens.front().text;
    if (name != "define" && name != "if" && name != "elif")
        return; // `#error 09` keeps its text
    // The preprocessor warns about them as it reads the directive.
    for (const Token& token : tokens) {
        if (token.is(TokenKind::int_literal) && misread_octal_prefix(token.text) != 0)
            add_item(HostRewrite{token.range(), misread_octal_in_decimal(token.text)},
                     token.loc.offset, end_of(token));
    }
}

void HostScanner::read_include(const Token& directive, const QuotedInclude& include) {
    const std::string path = preprocessor_.find_include(include.name, sources_.name(file_));
    if (is_brook_header(include.name)) {
        const std::string header = generated_header_name(include.name);
        add_item(HostInclude{header, directive.range()}, directive.loc.offset, end_of(directive));
        if (!path.empty() && emits_)
            unit_->brook_headers.push_back({path, header});
    }
    // A missing file is the C++ compiler's to report, as every other #include.
    if (path.empty() || !state_.headers_read.insert(path).second)
        return;
    if (state_.include_depth >= context_.limits.include_depth) {
        diags_.report(DiagId::include_too_deep, directive.range()) << context_.limits.include_depth;
        return;
    }
    std::string error;
    const std::uint32_t header_file = sources_.add_file(path, error);
    if (header_file == 0) {
        diags_.report(DiagId::cannot_read_include, directive.range()) << error;
        return;
    }
    const std::size_t structs_before = unit_->structs.size();
    ++state_.include_depth;
    HostScanner(sources_, header_file, state_, false).run();
    --state_.include_depth;
    if (!is_brook_header(include.name))
        add_header_struct_traits(structs_before, end_of(directive));
}

void HostScanner::add_header_struct_traits(std::size_t first, std::uint32_t offset) {
    for (std::size_t i = first; i < unit_->structs.size(); ++i)
        add_item(HeaderStructTraits{unit_->structs[i], {location(offset), location(offset)}},
                 offset, offset);
}

// The text of a file the main file included runs from the marker entering it to the marker
// returning from it; it becomes one HostInclude.
void HostScanner::follow_line_marker(const Token& directive, const LineMarker& marker) {
    const std::uint32_t start = line_start(directive.loc.offset);
    const std::uint32_t end = end_of(directive);
    if (marker_depth_ == 0 && marker.enters) {
        flush_host_text(start);
        included_structs_start_ = unit_->structs.size();
        included_text_start_ = start;
        included_file_ = marker.file;
        marker_depth_ = 1;
        return;
    }
    if (marker_depth_ > 0) {
        marker_depth_ += marker.enters ? 1 : marker.returns ? -1 : 0;
        if (marker_depth_ > 0)
            return;
        // Files the compiler itself includes first (`<command-line>`) have no line to give back.
        if (!marked_file_.starts_with("<")) {
            std::string header = included_file_;
            if (is_brook_header(header))
                header = generated_header_name(header);
            add_item(HostInclude{header, {location(included_text_start_), location(end)}},
                     included_text_start_, end);
            add_header_struct_traits(included_structs_start_, end);
        }
        cursor_ = std::max(cursor_, end);
        return;
    }
    // A marker of the main file's own text (`# 12 "main.br"`) stays for the C++ compiler.
    marked_file_ = marker.file;
}

// Emits the whole line of a directive (with its newline) as host text, dropping what precedes
// it since the cursor (the text of a block not taken).
void HostScanner::keep_directive_line(const Token& directive) {
    std::uint32_t line_start = directive.loc.offset;
    while (line_start > cursor_ && text_[line_start - 1] != '\n')
        --line_start;
    cursor_ = std::max(cursor_, line_start);
    std::uint32_t line_end = end_of(directive);
    while (line_end < text_.size() && text_[line_end] != '\n')
        ++line_end;
    if (line_end < text_.size())
        ++line_end;
    flush_host_text(line_end);
}

// Called after a directive that left the preprocessor inactive: skips to the directive that
// makes it active again, keeping only directive lines.
void HostScanner::skip_inactive_block() {
    const Token& directive = token(pos_ - 1);
    std::uint32_t line_end = end_of(directive);
    while (line_end < text_.size() && text_[line_end] != '\n')
        ++line_end;
    flush_host_text(std::min(line_end + 1, static_cast<std::uint32_t>(text_.size())));
    while (!token(pos_).is(TokenKind::end_of_file)) {
        const Token& current = tokens_[pos_++];
        if (!current.is(TokenKind::directive))
            continue;
        preprocessor_.handle_directive(current);
        keep_directive_line(current);
        if (preprocessor_.is_active())
            return;
    }
    // The block runs to the end of the file (the preprocessor reports the missing #endif).
    cursor_ = static_cast<std::uint32_t>(text_.size());
}

std::size_t HostScanner::find_matching_brace(std::size_t open) const {
    int depth = 0;
    for (std::size_t i = open; i < tokens_.size(); ++i) {
        if (tokens_[i].is(TokenKind::l_brace))
            ++depth;
        else if (tokens_[i].is(TokenKind::r_brace) && --depth == 0)
            return i;
    }
    return tokens_.size() - 1; // the end_of_file token
}

// Macro-expands tokens [first, last] and appends an end_of_file where they end. `quiet` says
// that expanding them reported an error, so that the parser does not pile more on.
std::vector<Token> HostScanner::expand(std::size_t first, std::size_t last, bool& quiet) {
    const unsigned errors_before = diags_.error_count();
    std::vector<Token> expanded =
        preprocessor_.expand(std::span<const Token>(tokens_.data() + first, last - first + 1));
    quiet = diags_.error_count() != errors_before;
    Token eof;
    eof.kind = TokenKind::end_of_file;
    eof.loc = tokens_[last].is(TokenKind::end_of_file) ? tokens_[last].loc
                                                       : location(end_of(tokens_[last]));
    expanded.push_back(eof);
    return expanded;
}

std::size_t HostScanner::return_type_length(std::size_t index) const {
    return token(index).is(TokenKind::kw_void) ? 1 : spelling_at(index).length;
}

// kernel_or_reduce := [attribute] kernel_head identifier '(' ... ('{' | ';')
// kernel_head := ('kernel' | 'reduce' ['kernel']) ('void' | type) | ('void' | type) 'kernel'
// attribute := 'Attribute' '[' ... ']'   (Brook+'s GroupSize, which the kernel parser reads)
bool HostScanner::try_kernel() {
    const std::size_t first = pos_;
    std::size_t head = first;
    if (token(first).is_identifier("Attribute") && token(first + 1).is(TokenKind::l_square)) {
        int depth = 0;
        for (head = first + 1; !token(head).is(TokenKind::end_of_file); ++head) {
            depth += token(head).is(TokenKind::l_square) ? 1 : 0;
            depth -= token(head).is(TokenKind::r_square) ? 1 : 0;
            if (depth == 0)
                break;
        }
        ++head;
    }
    std::size_t name = head;
    if (token(head).is(TokenKind::kw_kernel) || token(head).is(TokenKind::kw_reduce)) {
        ++name;
        if (token(head).is(TokenKind::kw_reduce) && token(name).is(TokenKind::kw_kernel))
            ++name;
        const std::size_t type_length = return_type_length(name);
        if (type_length == 0)
            return false;
        name += type_length;
    } else {
        // Brook+'s order, `void kernel f(...)`.
        const std::size_t type_length = return_type_length(head);
        if (type_length == 0 || !token(head + type_length).is(TokenKind::kw_kernel))
            return false;
        name += type_length + 1;
    }
    if (!token(name).is(TokenKind::identifier) || !token(name + 1).is(TokenKind::l_paren))
        return false;
    take_kernel(first, head);
    return true;
}

void HostScanner::take_kernel(std::size_t first, std::size_t head) {
    int parens = 0;
    std::size_t open = head;
    for (; !token(open).is(TokenKind::end_of_file); ++open) {
        const TokenKind kind = token(open).kind;
        if (kind == TokenKind::l_paren)
            ++parens;
        else if (kind == TokenKind::r_paren)
            --parens;
        else if ((kind == TokenKind::l_brace || kind == TokenKind::semi) && parens <= 0)
            break;
    }
    const bool prototype = token(open).is(TokenKind::semi);
    if (!prototype && !emitting()) {
        // A kernel defined in a header belongs to the file that defines it, not to this one.
        pos_ = token(open).is(TokenKind::l_brace) ? find_matching_brace(open) + 1 : open;
        return;
    }
    const std::size_t last = token(open).is(TokenKind::l_brace) ? find_matching_brace(open) : open;
    bool quiet = false;
    std::vector<Token> expanded = expand(first, last, quiet);
    KernelParser parser(context_, std::move(expanded), quiet);
    KernelDecl* kernel = parser.parse_kernel();
    const std::uint32_t begin = tokens_[first].loc.offset;
    const std::uint32_t end = tokens_[last].is(TokenKind::end_of_file)
                                  ? static_cast<std::uint32_t>(text_.size())
                                  : end_of(tokens_[last]);
    if (kernel) {
        add_kernel(kernel, prototype, begin, end);
    } else {
        flush_host_text(begin);
        cursor_ = end; // nothing sensible to copy to C++
    }
    pos_ = last + 1;
}

namespace {

/// Whether `macro`'s replacement, or that of a macro it names, holds `kernel` or `reduce`.
bool may_expand_to_kernel(const Preprocessor& preprocessor, const Macro& macro,
                          std::set<std::string_view>& visited) {
    if (!visited.insert(macro.name).second)
        return false;
    for (const Token& token : macro.body) {
        if (token.is(TokenKind::kw_kernel) || token.is(TokenKind::kw_reduce))
            return true;
        if (const Macro* named = is_identifier_or_keyword(token.kind)
                                     ? preprocessor.find_macro(token.text)
                                     : nullptr;
            named != nullptr && may_expand_to_kernel(preprocessor, *named, visited))
            return true;
    }
    return false;
}

/// The end (one past) of the kernel definition or prototype starting at `first` in `tokens`,
/// or 0 when the tokens from `first` are not one.
std::size_t kernel_end(const std::vector<Token>& tokens, std::size_t first) {
    const bool void_kernel = tokens[first].is(TokenKind::kw_void) && first + 1 < tokens.size() &&
                             tokens[first + 1].is(TokenKind::kw_kernel);
    if (!tokens[first].is(TokenKind::kw_kernel) && !tokens[first].is(TokenKind::kw_reduce) &&
        !void_kernel)
        return 0;
    int parens = 0;
    int braces = 0;
    for (std::size_t i = first; i < tokens.size(); ++i) {
        switch (tokens[i].kind) {
        case TokenKind::l_paren:
            ++parens;
            break;
        case TokenKind::r_paren:
            --parens;
            break;
        case TokenKind::l_brace:
            ++braces;
            break;
        case TokenKind::r_brace:
            if (--braces == 0 && parens == 0)
                return i + 1;
            break;
        case TokenKind::semi:
            if (braces == 0 && parens == 0)
                return i + 1;
            break;
        default:
            break;
        }
    }
    return 0;
}

} // namespace

bool HostScanner::try_macro_kernel() {
    const std::size_t first = pos_;
    const Macro* macro = preprocessor_.find_macro(tokens_[first].text);
    std::set<std::string_view> visited;
    if (macro == nullptr || !may_expand_to_kernel(preprocessor_, *macro, visited))
        return false;
    std::size_t last = first;
    if (macro->is_function_like) {
        if (!token(first + 1).is(TokenKind::l_paren))
            return false;
        int parens = 0;
        for (last = first + 1; !token(last).is(TokenKind::end_of_file); ++last) {
            if (token(last).is(TokenKind::l_paren))
                ++parens;
            else if (token(last).is(TokenKind::r_paren) && --parens == 0)
                break;
            else if (token(last).is(TokenKind::directive))
                return false;
        }
        if (token(last).is(TokenKind::end_of_file))
            return false;
    }
    if (token(last + 1).is(TokenKind::semi))
        ++last; // `KERNEL(scale);`
    bool quiet = false;
    std::vector<Token> expanded = expand(first, last, quiet);
    // A macro that spells only the start of a kernel (`#define KERNEL kernel`, then `KERNEL
    // void f(...) {...}`): the kernel goes on in the text after it, and is expanded whole.
    if (!macro->is_function_like && kernel_end(expanded, 0) == 0 &&
        (expanded[0].is(TokenKind::kw_kernel) || expanded[0].is(TokenKind::kw_reduce))) {
        take_kernel(first, last + 1);
        return true;
    }
    // Only an expansion that is nothing but kernels (and empty declarations) is taken: anything
    // else in it is host code, which stays the C++ compiler's.
    std::vector<std::pair<std::size_t, std::size_t>> kernels;
    for (std::size_t i = 0; !expanded[i].is(TokenKind::end_of_file);) {
        if (expanded[i].is(TokenKind::semi)) {
            ++i;
            continue;
        }
        const std::size_t end = kernel_end(expanded, i);
        if (end == 0)
            return false;
        kernels.emplace_back(i, end);
        i = end;
    }
    if (kernels.empty())
        return false;
    const std::uint32_t begin = tokens_[first].loc.offset;
    const std::uint32_t end = end_of(tokens_[last]);
    flush_host_text(begin);
    for (const auto& [kernel_first, kernel_last] : kernels) {
        std::vector<Token> kernel_tokens(
            expanded.begin() + static_cast<std::ptrdiff_t>(kernel_first),
            expanded.begin() + static_cast<std::ptrdiff_t>(kernel_last));
        kernel_tokens.push_back(expanded.back()); // end_of_file
        const bool prototype = kernel_tokens[kernel_tokens.size() - 2].is(TokenKind::semi);
        KernelParser parser(context_, std::move(kernel_tokens), quiet);
        KernelDecl* kernel = parser.parse_kernel();
        if (kernel)
            add_kernel(kernel, prototype, begin, end);
    }
    cursor_ = std::max(cursor_, end); // a kernel that did not parse has no C++ either
    pos_ = last + 1;
    return true;
}

// struct_typedef := 'typedef' 'struct' [identifier] '{' ... '}' identifier ';'
//                 | 'struct' identifier '{' ... '}' ';'
bool HostScanner::try_struct_typedef() {
    const std::size_t first = pos_;
    const bool is_typedef = tokens_[first].is(TokenKind::kw_typedef);
    const std::size_t struct_keyword = is_typedef ? first + 1 : first;
    std::size_t open = struct_keyword + 1;
    if (!token(struct_keyword).is(TokenKind::kw_struct))
        return false;
    if (token(open).is(TokenKind::identifier))
        ++open;
    else if (!is_typedef)
        return false; // `struct { ... } x;` declares no type
    if (!token(open).is(TokenKind::l_brace))
        return false;
    const std::size_t close = find_matching_brace(open);
    std::size_t last = close + 1;
    if (is_typedef && !token(last++).is(TokenKind::identifier))
        return false;
    if (!token(last).is(TokenKind::semi))
        return false;
    bool quiet = false;
    std::vector<Token> expanded = expand(first, last, quiet);
    KernelParser parser(context_, std::move(expanded), quiet);
    if (const StructDecl* decl = parser.parse_struct_typedef()) {
        report_redefinition(*decl, quiet);
        add_item(decl, tokens_[first].loc.offset, end_of(tokens_[last]));
        unit_->structs.push_back(decl);
    }
    // Otherwise a host-only struct: its text stays host text.
    pos_ = last + 1;
    return true;
}

// C++ rejects a second definition of a struct too, but with one of them in a kernel's GLSL or
// CUDA the kernel would silently use the first: the error must come from brcc.
void HostScanner::report_redefinition(const StructDecl& decl, bool quiet) {
    std::string_view name = decl.name;
    const StructDecl* earlier = unit_->find_struct(name);
    if (earlier == nullptr && !decl.tag.empty())
        earlier = unit_->find_struct(name = decl.tag);
    if (earlier == nullptr || quiet)
        return;
    diags_.report(DiagId::struct_redefined, decl.range) << std::string(name);
    diags_.report(DiagId::struct_defined_here, earlier->range) << std::string(name);
}

// typedef := 'typedef' type identifier ';'   (type_spelling.hpp; the line stays host text)
// A typedef of a stream (`typedef float S<10>;`) is an error: streams are declared with their
// element type.
bool HostScanner::try_typedef() {
    const std::size_t first = pos_;
    const TypeSpelling spelling = spelling_at(first + 1);
    const std::size_t name = first + 1 + spelling.length;
    if (spelling.length == 0 || !is_name(token(name)))
        return false;
    if (token(name + 1).is(TokenKind::less)) {
        std::string element;
        for (std::size_t i = first + 1; i < name; ++i)
            element += (i == first + 1 ? "" : " ") + tokens_[i].text;
        diags_.report(DiagId::typedef_of_stream, token(name).range())
            << token(name).text << element;
        pos_ = name + 1;
        return true;
    }
    if (!spelling.type || !token(name + 1).is(TokenKind::semi))
        return false; // a host type: C++ checks it
    unit_->typedefs.push_back({token(name).text, *spelling.type});
    pos_ = name + 2;
    return true;
}

// void_main := 'void' 'main' '('   (at file scope; C++ wants `int main`)
bool HostScanner::try_void_main() {
    if (!token(pos_ + 1).is_identifier("main") || !token(pos_ + 2).is(TokenKind::l_paren))
        return false;
    const Token& void_token = tokens_[pos_];
    add_item(HostVoidMain{void_token.range()}, void_token.loc.offset, end_of(void_token));
    ++pos_;
    return true;
}

// stream_declaration := type stream_declarator {',' stream_declarator} ';'
// stream_declarator := identifier '<' [extent {',' extent}] '>'
// In a parameter list (inside parentheses) one `type identifier '<' '>'` is one declaration.
TypeSpelling HostScanner::spelling_at(std::size_t index) const {
    const std::size_t first = std::min(index, tokens_.size() - 1);
    return match_type_spelling(std::span<const Token>(tokens_).subspan(first), *unit_);
}

std::optional<Type> HostScanner::host_element_type(const TypeSpelling& spelling) {
    if (spelling.type)
        return spelling.type;
    if (spelling.name && context_.host_structs.contains(spelling.name->text))
        report_host_struct_use(context_, *spelling.name);
    return std::nullopt;
}

// stream_declarator := name '<' [extent {',' extent}] '>'
// Extents are host expressions up to the `>` outside brackets, split at commas.
bool HostScanner::scan_stream_declarator(std::size_t& i, StreamDeclarator& declarator) {
    const Token& name = token(i);
    declarator.name = name.text;
    declarator.name_range = name.range();
    i += 2; // the name and `<`
    int depth = 0;
    std::size_t extent_begin = i;
    while (true) {
        const Token& current = token(i);
        const TokenKind kind = current.kind;
        if (kind == TokenKind::end_of_file || kind == TokenKind::semi ||
            kind == TokenKind::l_brace || kind == TokenKind::r_brace)
            return false;
        if (kind == TokenKind::l_paren || kind == TokenKind::l_square)
            ++depth;
        else if ((kind == TokenKind::r_paren || kind == TokenKind::r_square) && depth > 0)
            --depth;
        else if (kind == TokenKind::r_paren || kind == TokenKind::r_square)
            return false;
        if (depth == 0 && (kind == TokenKind::comma || kind == TokenKind::greater)) {
            if (extent_begin < i)
                declarator.extents.push_back(
                    {tokens_[extent_begin].loc, location(end_of(tokens_[i - 1]))});
            else if (kind == TokenKind::comma || !declarator.extents.empty())
                diags_.report(DiagId::expected_extent, current.range()) << current.text;
            extent_begin = i + 1;
            if (kind == TokenKind::greater)
                break;
        }
        ++i;
    }
    declarator.range = {name.loc, location(end_of(token(i)))};
    ++i; // the `>`
    return true;
}

bool HostScanner::try_stream_declaration() {
    const std::size_t first = pos_;
    const Token& type_token = tokens_[first];
    const TypeSpelling spelling = spelling_at(first);
    const std::size_t name = first + spelling.length;
    if (spelling.length == 0 || !is_name(token(name)) ||
        (!token(name + 1).is(TokenKind::less) &&
         (in_parentheses() || !declares_stream_after(name))))
        return false;
    if (first > 0) {
        const TokenKind before = tokens_[first - 1].kind;
        if (before == TokenKind::period || before == TokenKind::arrow ||
            before == TokenKind::coloncolon)
            return false;
    }
    const std::optional<Type> type = host_element_type(spelling);
    if (!type)
        return false;
    HostStreamDecl decl;
    decl.element_type = *type;
    decl.type_range = {type_token.loc, location(end_of(tokens_[name - 1]))};
    if (is_too_wide_double(*type))
        diags_.report(DiagId::double_vector_too_wide, decl.type_range) << type_token.text;
    decl.type_spelled_in_cpp = spelling.is_cpp;
    decl.is_parameter = in_parentheses();
    std::size_t i = name;
    while (true) {
        StreamDeclarator declarator;
        const bool stream = is_name(token(i)) && token(i + 1).is(TokenKind::less);
        if (!(stream ? scan_stream_declarator(i, declarator)
                     : scan_plain_declarator(i, declarator)))
            return false;
        decl.declarators.push_back(std::move(declarator));
        if (decl.is_parameter)
            break;
        if (token(i).is(TokenKind::comma)) {
            ++i;
            continue;
        }
        if (!token(i).is(TokenKind::semi))
            return false; // not a declaration brcc knows (an initialiser, say): host text
        break;
    }
    decl.range = {type_token.loc, location(end_of(token(i - 1)))};
    const std::uint32_t begin = type_token.loc.offset;
    const std::uint32_t end = decl.range.end.offset;
    add_item(std::move(decl), begin, end);
    pos_ = i;
    return true;
}

// The first ',' or ';' at the top level of the declarator starting at token `i` (brackets of
// every kind nested), or nullopt where the file ends or a bracket closes first.
std::optional<std::size_t> HostScanner::declarator_end(std::size_t i) const {
    int depth = 0;
    for (;; ++i) {
        const TokenKind kind = token(i).kind;
        if (kind == TokenKind::end_of_file)
            return std::nullopt;
        if (depth == 0 && (kind == TokenKind::comma || kind == TokenKind::semi))
            return i;
        if (kind == TokenKind::l_paren || kind == TokenKind::l_square || kind == TokenKind::l_brace)
            ++depth;
        else if ((kind == TokenKind::r_paren || kind == TokenKind::r_square ||
                  kind == TokenKind::r_brace) &&
                 --depth < 0)
            return std::nullopt;
    }
}

// A declaration whose first declarator is not a stream may declare one later, as C lets a
// declaration mix declarators (`float total, a<8>;`): `, name <` at its top level is one.
bool HostScanner::declares_stream_after(std::size_t i) const {
    for (std::optional<std::size_t> end = declarator_end(i);
         end && token(*end).is(TokenKind::comma); end = declarator_end(*end + 1)) {
        if (is_name(token(*end + 1)) && token(*end + 2).is(TokenKind::less))
            return true;
    }
    return false;
}

// plain_declarator := the tokens up to the next top-level ',' or ';' (a name, pointers, array
// extents, an initialiser), kept as text.
bool HostScanner::scan_plain_declarator(std::size_t& i, StreamDeclarator& declarator) {
    const std::optional<std::size_t> end = declarator_end(i);
    if (!end || *end == i)
        return false;
    declarator.plain = true;
    declarator.range = {tokens_[i].loc, location(end_of(tokens_[*end - 1]))};
    i = *end;
    return true;
}

// stream_pointer_parameter := type '(' '*' {'*'} name ')' '<' [extents] '>'
//                             (in a parameter list)
// BrookGPU's programs write the extents of the streams they pass (`float (*s)<4, 3>`); as a
// `<>` parameter, the pointer takes a stream of any shape, so they are read and dropped.
bool HostScanner::try_stream_pointer_parameter() {
    const std::size_t first = pos_;
    if (!in_parentheses())
        return false;
    const TypeSpelling spelling = spelling_at(first);
    const std::size_t paren = first + spelling.length;
    if (spelling.length == 0 || !token(paren).is(TokenKind::l_paren) ||
        !token(paren + 1).is(TokenKind::star))
        return false;
    std::size_t i = paren + 1;
    StreamDeclarator declarator;
    for (; token(i).is(TokenKind::star); ++i)
        ++declarator.pointer_depth;
    const Token& name = token(i);
    if (!is_name(name) || !token(i + 1).is(TokenKind::r_paren) || !token(i + 2).is(TokenKind::less))
        return false;
    // The extents: integer expressions, which hold no `>` outside parentheses.
    std::size_t close = i + 3;
    for (int depth = 0; !(depth == 0 && token(close).is(TokenKind::greater)); ++close) {
        const TokenKind kind = token(close).kind;
        if (kind == TokenKind::end_of_file || kind == TokenKind::semi ||
            kind == TokenKind::l_brace || (depth == 0 && kind == TokenKind::r_paren))
            return false;
        depth += kind == TokenKind::l_paren ? 1 : kind == TokenKind::r_paren ? -1 : 0;
    }
    const std::optional<Type> type = host_element_type(spelling);
    if (!type)
        return false;
    const Token& type_token = tokens_[first];
    declarator.name = name.text;
    declarator.name_range = name.range();
    declarator.range = {name.loc, location(end_of(token(close)))};
    HostStreamDecl decl;
    decl.element_type = *type;
    decl.type_range = {type_token.loc, location(end_of(token(paren - 1)))};
    decl.is_parameter = true;
    decl.declarators.push_back(std::move(declarator));
    decl.range = {type_token.loc, location(end_of(token(close)))};
    const std::uint32_t end = decl.range.end.offset;
    add_item(std::move(decl), type_token.loc.offset, end);
    pos_ = close + 1;
    return true;
}

// iterator_declaration := 'iter' type stream_declarator '=' 'iter' '(' expression ','
//                         expression ')' ';'
// Host code may use `iter` as a name (`int iter = 0;`): only `iter type name <` is taken as an
// iterator declaration, and an error if the rest does not follow.
bool HostScanner::try_iterator_declaration() {
    const std::size_t first = pos_;
    const Token& type_token = token(first + 1);
    const TypeSpelling spelling = spelling_at(first + 1);
    const std::size_t name = first + 1 + spelling.length;
    if (spelling.length == 0 || !is_name(token(name)) || !token(name + 1).is(TokenKind::less))
        return false;
    HostIteratorDecl decl;
    if (const std::optional<Type> type = host_element_type(spelling)) {
        decl.element_type = *type;
    } else if (!spelling.name || !context_.host_structs.contains(spelling.name->text)) {
        diags_.report(DiagId::unknown_type_name, type_token.range()) << type_token.text;
    }
    std::size_t i = name;
    bool ok = scan_stream_declarator(i, decl.declarator) && token(i).is(TokenKind::equal) &&
              token(i + 1).is(TokenKind::kw_iter) && token(i + 2).is(TokenKind::l_paren);
    // The two bounds: host expressions split at the comma outside brackets.
    std::vector<SourceRange> bounds;
    bool empty_bound = false;
    if (ok) {
        i += 3;
        std::size_t bound_begin = i;
        int depth = 0;
        for (;; ++i) {
            const TokenKind kind = token(i).kind;
            if (kind == TokenKind::end_of_file || kind == TokenKind::semi ||
                kind == TokenKind::l_brace || kind == TokenKind::r_brace)
                break;
            if (kind == TokenKind::l_paren || kind == TokenKind::l_square) {
                ++depth;
            } else if ((kind == TokenKind::r_paren || kind == TokenKind::r_square) && depth > 0) {
                --depth;
            } else if (depth == 0 && (kind == TokenKind::comma || kind == TokenKind::r_paren)) {
                if (bound_begin < i)
                    bounds.push_back({tokens_[bound_begin].loc, location(end_of(tokens_[i - 1]))});
                else
                    empty_bound = true;
                bound_begin = i + 1;
                if (kind == TokenKind::r_paren)
                    break;
            }
        }
        ok = token(i).is(TokenKind::r_paren) && !empty_bound && bounds.size() == 2 &&
             token(i + 1).is(TokenKind::semi);
    }
    if (!ok) {
        diags_.report(DiagId::malformed_iterator, tokens_[first].range());
        // Skip the statement: its text goes to the C++ output, which fails on it anyway.
        while (!token(pos_).is(TokenKind::end_of_file) && !token(pos_).is(TokenKind::semi))
            ++pos_;
        return true;
    }
    decl.begin_value = bounds[0];
    decl.end_value = bounds[1];
    decl.range = {tokens_[first].loc, location(end_of(tokens_[i]))};
    add_item(std::move(decl), tokens_[first].loc.offset, end_of(tokens_[i]));
    pos_ = i + 1; // the `;` stays host text
    return true;
}

// reduce_operator := ('streamGatherOp' | 'streamScatterOp') '(' ... ',' name ')'
// Called at a name followed by `)` and preceded by `,`: walks back to the parenthesis that the
// `)` closes, within the statement, and checks which function is called.
bool HostScanner::try_reduce_operator() {
    if (pos_ < 3 || !token(pos_ + 1).is(TokenKind::r_paren) ||
        !tokens_[pos_ - 1].is(TokenKind::comma))
        return false;
    int depth = 0;
    for (std::size_t i = pos_ - 1; i > 0; --i) {
        const TokenKind kind = tokens_[i].kind;
        if (kind == TokenKind::r_paren || kind == TokenKind::r_square ||
            kind == TokenKind::r_brace) {
            ++depth;
        } else if (kind == TokenKind::l_paren || kind == TokenKind::l_square ||
                   kind == TokenKind::l_brace) {
            if (depth-- > 0)
                continue;
            const Token& callee = tokens_[i - 1];
            if (kind != TokenKind::l_paren || (!callee.is_identifier("streamGatherOp") &&
                                               !callee.is_identifier("streamScatterOp")))
                return false;
            const Token& name = tokens_[pos_];
            add_item(HostReduceOperator{name.text, name.range(), nullptr}, name.loc.offset,
                     end_of(name));
            ++pos_;
            return true;
        } else if (kind == TokenKind::semi && depth == 0) {
            return false;
        }
    }
    return false;
}

// kernel_domain := name '.' ('domainOffset' | 'domainSize') '('
// Whether `name` is a kernel is for sema to say; the `(` is left to the scan, which tracks it.
bool HostScanner::try_kernel_domain() {
    const Token& member = token(pos_ + 2);
    if (!token(pos_ + 1).is(TokenKind::period) ||
        !(member.is_identifier("domainOffset") || member.is_identifier("domainSize")) ||
        !token(pos_ + 3).is(TokenKind::l_paren))
        return false;
    const Token& name = tokens_[pos_];
    const Token& paren = token(pos_ + 3);
    add_item(HostKernelDomain{name.text,
                              member.is_identifier("domainSize"),
                              {name.loc, location(end_of(paren))},
                              nullptr},
             name.loc.offset, end_of(paren));
    pos_ += 3;
    return true;
}

// error_query := '.' ('error' | 'errorLog') '('
// Brook+'s error model applies to a file that asks for errors; which object is asked is for the
// C++ compiler to say, so any such call counts.
void HostScanner::note_error_query() {
    const Token& member = token(pos_ + 1);
    if ((member.is_identifier("error") || member.is_identifier("errorLog")) &&
        token(pos_ + 2).is(TokenKind::l_paren))
        unit_->queries_stream_errors = true;
}

// kernel_value := name     (a kernel with a stub, not declared by host code) standing where a
//                           value does: after '?', ':', '=', '(', ',', '{', '&', 'return' or
//                           a comparison ('==' '!=' '&&' '||'), before ')', ',', ';', ':',
//                           '}' or a comparison
// A kernel's stubs are overloads (the call-site template, BrookGPU's signature), so its bare
// name has no type: C++ rejects `c ? k : l` and `{k, l}` that C took. The rewrite names the one
// stub of BrookGPU's signature instead.
bool HostScanner::try_kernel_value() {
    if (pos_ == 0)
        return false;
    // `op == twice && ...`: a kernel compared with a pointer, in a condition.
    const auto comparison = [](TokenKind kind) {
        return kind == TokenKind::equalequal || kind == TokenKind::exclaimequal ||
               kind == TokenKind::ampamp || kind == TokenKind::pipepipe;
    };
    const Token& name = tokens_[pos_];
    const TokenKind before = tokens_[pos_ - 1].kind;
    const TokenKind after = token(pos_ + 1).kind;
    const bool value_before = before == TokenKind::question || before == TokenKind::colon ||
                              before == TokenKind::equal || before == TokenKind::l_paren ||
                              before == TokenKind::comma || before == TokenKind::l_brace ||
                              before == TokenKind::amp || before == TokenKind::kw_return ||
                              comparison(before);
    const bool value_after = after == TokenKind::r_paren || after == TokenKind::comma ||
                             after == TokenKind::semi || after == TokenKind::colon ||
                             after == TokenKind::r_brace || comparison(after);
    if (!value_before || !value_after || !state_.stubbed_kernels.contains(name.text) ||
        declared_names_.contains(name.text))
        return false;
    add_item(HostRewrite{name.range(), name.text + "__value"}, name.loc.offset, end_of(name));
    ++pos_;
    return true;
}

// declared_name := (type_word | name | '*') name ('=' | ';' | ',' | '[' | ')')
// Host code is not parsed: a name where a declarator's would be is taken as declared, which
// errs towards leaving a kernel's name as written.
void HostScanner::note_declared_name() {
    if (pos_ == 0)
        return;
    const Token& before = tokens_[pos_ - 1];
    const TokenKind after = token(pos_ + 1).kind;
    const bool declarator_end = after == TokenKind::equal || after == TokenKind::semi ||
                                after == TokenKind::comma || after == TokenKind::l_square ||
                                after == TokenKind::r_paren;
    const bool after_type =
        (is_identifier_or_keyword(before.kind) && !before.is(TokenKind::kw_return)) ||
        before.is(TokenKind::star);
    if (declarator_end && after_type)
        declared_names_.insert(tokens_[pos_].text);
}

// A leading-zero literal with an 8 or 9 (lexer.hpp): its octal prefix's value, in decimal.
bool HostScanner::try_octal_literal() {
    const Token& literal = tokens_[pos_];
    if (misread_octal_prefix(literal.text) == 0)
        return false;
    add_item(HostRewrite{literal.range(), misread_octal_in_decimal(literal.text)},
             literal.loc.offset, end_of(literal));
    ++pos_;
    return true;
}

// host_variable := decl_specifiers name ('=' | ';' | ',' | '[')     at file scope
// Host code is not parsed, so this reads a declarator by its neighbours: the name follows a
// type word, `*`, `&`, `>` or a `,` and is followed by what ends a variable's declarator (a
// function's name is followed by `(`). A typedef or using declaration declares no variable.
void HostScanner::note_host_variable() {
    const TokenKind next = token(pos_ + 1).kind;
    if (pos_ == 0 || (next != TokenKind::equal && next != TokenKind::semi &&
                      next != TokenKind::comma && next != TokenKind::l_square))
        return;
    const Token& before = tokens_[pos_ - 1];
    if (!is_identifier_or_keyword(before.kind) && !before.is(TokenKind::star) &&
        !before.is(TokenKind::amp) && !before.is(TokenKind::greater) &&
        !before.is(TokenKind::comma))
        return;
    std::size_t start = pos_;
    while (start > 0) {
        const TokenKind kind = tokens_[start - 1].kind;
        if (kind == TokenKind::semi || kind == TokenKind::l_brace || kind == TokenKind::r_brace ||
            kind == TokenKind::directive)
            break;
        --start;
    }
    const Token& first = tokens_[start];
    if (start == pos_ || first.is(TokenKind::kw_typedef) || first.is_identifier("using"))
        return;
    unit_->host_variables.push_back({tokens_[pos_].text, tokens_[pos_].range()});
}

/// The C and C++ scalar type names a declared host function's head may use.
bool c_scalar_name(std::string_view name) {
    static constexpr std::string_view names[] = {"int",  "float",  "double", "char",  "short",
                                                 "long", "signed", "bool",   "size_t"};
    return std::ranges::find(names, name) != std::end(names);
}

bool HostScanner::declarable_type_tokens(std::size_t first, std::size_t end,
                                         bool ends_in_name) const {
    std::size_t i = first;
    while (i < end) {
        const Token& t = tokens_[i];
        if (ends_in_name && i + 1 == end && t.is(TokenKind::identifier))
            return true;
        if (const TypeSpelling spelling = spelling_at(i); spelling.type && spelling.length > 0) {
            i += spelling.length;
        } else if (t.is(TokenKind::kw_const) || t.is(TokenKind::kw_void) ||
                   t.is(TokenKind::kw_unsigned) || t.is(TokenKind::star) || t.is(TokenKind::amp) ||
                   (t.kind == TokenKind::identifier && c_scalar_name(t.text))) {
            ++i;
        } else if (t.is_identifier("brook") && i + 1 < end &&
                   tokens_[i + 1].is(TokenKind::coloncolon)) {
            i += 2;
        } else if (t.is_identifier("Stream") && i + 1 < end && tokens_[i + 1].is(TokenKind::less)) {
            const TypeSpelling element = spelling_at(i + 2);
            if (!element.type || i + 2 + element.length >= end ||
                !tokens_[i + 2 + element.length].is(TokenKind::greater))
                return false;
            i += 3 + element.length;
        } else {
            return false;
        }
    }
    return !ends_in_name || first < end;
}

void HostScanner::note_host_function() {
    // `head ( params ) {` at file scope: pos_ is the brace.
    if (pos_ < 3 || !tokens_[pos_ - 1].is(TokenKind::r_paren))
        return;
    std::size_t open = pos_ - 1;
    for (int depth = 0; open > 0; --open) {
        depth += tokens_[open].is(TokenKind::r_paren)   ? 1
                 : tokens_[open].is(TokenKind::l_paren) ? -1
                                                        : 0;
        if (depth == 0)
            break;
    }
    if (open == 0 || !tokens_[open - 1].is(TokenKind::identifier) ||
        tokens_[open - 1].text == "main")
        return;
    const std::size_t name = open - 1;
    std::size_t start = name;
    while (start > 0) {
        const TokenKind kind = tokens_[start - 1].kind;
        if (kind == TokenKind::semi || kind == TokenKind::r_brace || kind == TokenKind::directive)
            break;
        --start;
    }
    if (start == name || !declarable_type_tokens(start, name, false))
        return;
    // Each parameter: types then its name; `()` and `(void)` declare none.
    const std::size_t close = pos_ - 1;
    if (!(close == open + 1 || (close == open + 2 && tokens_[open + 1].is(TokenKind::kw_void)))) {
        std::size_t first = open + 1;
        for (std::size_t i = open + 1; i <= close; ++i) {
            if (i == close || tokens_[i].is(TokenKind::comma)) {
                if (!declarable_type_tokens(first, i, true))
                    return;
                first = i + 1;
            }
        }
    }
    unit_->host_function_heads.push_back({tokens_[start].loc, location(end_of(tokens_[close]))});
}

void HostScanner::run() {
    tokens_ = lex_file(sources_, file_, diags_);
    if (emits_ && tokens_.size() == 1 && text_.find('\0') == std::string_view::npos) {
        diags_.report(DiagId::input_empty, location(0));
        return;
    }
    while (!token(pos_).is(TokenKind::end_of_file) && !diags_.too_many_errors()) {
        const Token& current = tokens_[pos_];
        if (current.is(TokenKind::directive)) {
            ++pos_;
            handle_directive(current);
            if (!preprocessor_.is_active())
                skip_inactive_block();
            continue;
        }
        const bool file_scope = open_brackets_.empty();
        // Text that is only read (a header) is only searched for its declarations.
        const bool host_code = emitting();
        if (file_scope &&
            (current.is(TokenKind::kw_kernel) || current.is(TokenKind::kw_reduce) ||
             current.is(TokenKind::kw_void) || current.is(TokenKind::identifier) ||
             current.is(TokenKind::kw_unsigned) || current.is(TokenKind::kw_struct)) &&
            try_kernel())
            continue;
        if (host_code && file_scope && current.is(TokenKind::identifier) && try_macro_kernel())
            continue;
        if (file_scope && current.is(TokenKind::kw_typedef) &&
            (try_struct_typedef() || try_typedef()))
            continue;
        if (file_scope && current.is(TokenKind::kw_struct) && try_struct_typedef())
            continue;
        if (host_code && file_scope && current.is(TokenKind::kw_void) && try_void_main())
            continue;
        if (host_code && current.is(TokenKind::kw_iter) && try_iterator_declaration())
            continue;
        if (host_code &&
            (current.is(TokenKind::identifier) || current.is(TokenKind::kw_unsigned) ||
             current.is(TokenKind::kw_struct)) &&
            try_stream_declaration())
            continue;
        if (host_code &&
            (current.is(TokenKind::identifier) || current.is(TokenKind::kw_unsigned) ||
             current.is(TokenKind::kw_struct)) &&
            try_stream_pointer_parameter())
            continue;
        if (host_code && current.is(TokenKind::identifier) && try_reduce_operator())
            continue;
        if (host_code && current.is(TokenKind::identifier) && try_kernel_domain())
            continue;
        if (host_code && current.is(TokenKind::identifier)) {
            note_declared_name();
            if (try_kernel_value())
                continue;
        }
        if (host_code && current.is(TokenKind::int_literal) && try_octal_literal())
            continue;
        if (host_code && current.is(TokenKind::period))
            note_error_query();
        if (file_scope && current.is(TokenKind::identifier))
            note_host_variable();
        if (host_code && file_scope && current.is(TokenKind::l_brace))
            note_host_function();
        if (current.is(TokenKind::l_brace) || current.is(TokenKind::l_paren))
            open_brackets_.push_back(current.kind);
        else if (current.is(TokenKind::r_brace))
            close_bracket(TokenKind::l_brace);
        else if (current.is(TokenKind::r_paren))
            close_bracket(TokenKind::l_paren);
        ++pos_;
    }
    flush_host_text(static_cast<std::uint32_t>(text_.size()));
}

} // namespace

std::unique_ptr<TranslationUnit> parse_translation_unit(SourceManager& sources, std::uint32_t file,
                                                        const PreprocessorOptions& options,
                                                        DiagnosticEngine& diags) {
    ScanState state(sources, options, diags);
    state.unit->main_file = file;
    state.headers_read.insert(std::string(sources.name(file)));
    HostScanner(sources, file, state, true).run();
    state.preprocessor.finish();
    return std::move(state.unit);
}

} // namespace brcc
