// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Kernel headers, parameters, types and struct typedefs, plus the token and error helpers that
// the statement and expression parsers share.

#include "parse/kernel_parser.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace brcc {

namespace {

constexpr int max_gather_rank = 4;

} // namespace

KernelParser::KernelParser(ParseContext& context, std::vector<Token> tokens, bool quiet)
    : context_(context), unit_(context.unit), diags_(context.diags), tokens_(std::move(tokens)),
      quiet_(quiet) {
    BRCC_ASSERT(!tokens_.empty() && tokens_.back().is(TokenKind::end_of_file),
                "kernel tokens must end with end_of_file");
    previous_end_ = tokens_.front().loc;
}

// ---------------------------------------------------------------------------------------------
// Tokens

const Token& KernelParser::peek(std::size_t ahead) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
}

const Token& KernelParser::advance() {
    const Token& token = tokens_[pos_];
    if (!token.is(TokenKind::end_of_file)) {
        ++pos_;
        previous_end_ = token.range().end;
    }
    return token;
}

bool KernelParser::at(TokenKind kind) const {
    return peek().is(kind);
}

bool KernelParser::at_name(std::size_t ahead) const {
    const TokenKind kind = peek(ahead).kind;
    return kind == TokenKind::identifier || is_contextual_keyword(kind);
}

bool KernelParser::accept(TokenKind kind) {
    if (!at(kind))
        return false;
    advance();
    return true;
}

bool KernelParser::expect(TokenKind kind) {
    if (accept(kind))
        return true;
    error_expected(kind);
    return false;
}

SourceRange KernelParser::range_from(SourceLocation begin) const {
    // Tokens from a macro expansion all sit at the macro's use, so an end before the beginning
    // is possible (`#define SUB(a, b) b - a`); the range then covers the first token only.
    SourceLocation end = previous_end_;
    if (end.file != begin.file || end.offset < begin.offset)
        end = begin;
    return {begin, end};
}

// ---------------------------------------------------------------------------------------------
// Diagnostics and recovery

bool KernelParser::begin_error(const Token& at) {
    const bool report = !quiet_ && !panic_ && !at.is(TokenKind::unknown);
    panic_ = true;
    return report;
}

void KernelParser::error_expected(TokenKind kind) {
    const Token& current = peek();
    if (!begin_error(current))
        return;
    if (current.is(TokenKind::end_of_file))
        diags_.report(DiagId::expected_token_at_end, current.range()) << token_kind_name(kind);
    else
        diags_.report(DiagId::expected_token, current.range())
            << token_kind_name(kind) << current.text;
}

void KernelParser::error_at_current(DiagId id, std::string_view what) {
    const Token& current = peek();
    if (!begin_error(current))
        return;
    const std::string_view spelling =
        current.is(TokenKind::end_of_file) ? "end of input" : std::string_view(current.text);
    if (id == DiagId::expected_identifier)
        diags_.report(id, current.range()) << what << spelling;
    else
        diags_.report(id, current.range()) << spelling;
}

// Skips to the end of the current statement: past a `;` outside brackets or past a block that
// opened while skipping, or up to a `}` that closes an enclosing block (even inside unclosed
// parentheses, which are the likelier mistake).
void KernelParser::skip_statement() {
    int braces = 0;
    int brackets = 0;
    while (!at(TokenKind::end_of_file)) {
        const TokenKind kind = peek().kind;
        if (kind == TokenKind::l_brace) {
            ++braces;
        } else if (kind == TokenKind::r_brace) {
            if (braces == 0)
                break;
            if (--braces == 0) {
                advance();
                break;
            }
        } else if (kind == TokenKind::l_paren || kind == TokenKind::l_square) {
            ++brackets;
        } else if (kind == TokenKind::r_paren || kind == TokenKind::r_square) {
            brackets = std::max(brackets - 1, 0);
        } else if (kind == TokenKind::semi && braces == 0 && brackets == 0) {
            advance();
            break;
        }
        advance();
    }
    // At the end of the input the statement was cut short: whatever else is missing (closing
    // braces) is the same mistake, so panic mode stays on.
    if (!at(TokenKind::end_of_file))
        panic_ = false;
}

bool KernelParser::enter_nesting() {
    if (++nesting_ <= context_.limits.bracket_depth)
        return true;
    if (begin_error(peek()))
        diags_.report(DiagId::nesting_too_deep, peek().range()) << context_.limits.bracket_depth;
    return false;
}

bool KernelParser::extend_chain() {
    ++chain_depth_;
    if (chain_depth_ + nesting_ <= context_.limits.expression_depth)
        return true;
    if (begin_error(peek()))
        diags_.report(DiagId::expression_too_deep, peek().range())
            << context_.limits.expression_depth;
    return false;
}

// ---------------------------------------------------------------------------------------------
// Types

bool KernelParser::is_type_name(const Token& token) const {
    if (!token.is(TokenKind::identifier))
        return false;
    return match_type_spelling({&token, 1}, unit_).type ||
           context_.host_structs.contains(token.text);
}

TypeSpelling KernelParser::spelling_at(std::size_t ahead) const {
    const std::size_t first = std::min(pos_ + ahead, tokens_.size() - 1);
    return match_type_spelling(std::span<const Token>(tokens_).subspan(first), unit_);
}

std::size_t KernelParser::type_spelling_length(std::size_t ahead) const {
    const TypeSpelling spelling = spelling_at(ahead);
    // Several words (`unsigned char`, `struct Pair`) can only be a type, a known one or not.
    if (spelling.type || spelling.length > 1)
        return spelling.length;
    return is_type_name(peek(ahead)) ? spelling.length : 0;
}

// A type name: a built-in type, a struct or a typedef. A host-only struct is reported here
// (once).
std::optional<Type> KernelParser::resolve_type(const Token& token) {
    if (!token.is(TokenKind::identifier))
        return std::nullopt;
    if (std::optional<Type> type = match_type_spelling({&token, 1}, unit_).type) {
        if (!is_too_wide_double(*type))
            return type;
        if (!quiet_)
            diags_.report(DiagId::double_vector_too_wide, token.range()) << token.text;
        return Type::error();
    }
    if (!context_.host_structs.contains(token.text))
        return std::nullopt;
    if (!quiet_)
        report_host_struct_use(context_, token);
    return Type::error();
}

void report_host_struct_use(ParseContext& context, const Token& use) {
    const auto host = context.host_structs.find(use.text);
    if (host == context.host_structs.end() || host->second.reported)
        return;
    host->second.reported = true;
    switch (host->second.why) {
    case HostStruct::Why::field_type:
        context.diags.report(DiagId::struct_not_brook_type, use.range())
            << use.text << host->second.field_name << host->second.field_type;
        break;
    case HostStruct::Why::field_name:
        context.diags.report(DiagId::struct_field_not_ascii, use.range())
            << use.text << host->second.field_name;
        break;
    case HostStruct::Why::too_many_leaves:
        context.diags.report(DiagId::struct_too_many_fields, use.range())
            << use.text << std::to_string(max_struct_leaves);
        break;
    }
    context.diags.report(DiagId::struct_field_here, host->second.field_range)
        << host->second.field_name;
}

// type := identifier | ('unsigned' | 'signed') ['char' | 'int'] | 'struct' identifier
//         (type_spelling.hpp: built-in types, structs, typedefs)
// An unknown name is reported but parsed as a type (the error type), since the syntax is fine.
std::optional<Type> KernelParser::parse_type() {
    const TypeSpelling spelling = spelling_at(0);
    if (spelling.length == 0) {
        error_at_current(DiagId::expected_type);
        return std::nullopt;
    }
    const SourceLocation begin = peek().loc;
    std::string text;
    for (std::size_t i = 0; i < spelling.length; ++i)
        text += (i == 0 ? "" : " ") + advance().text;
    if (spelling.type && is_too_wide_double(*spelling.type)) {
        if (!quiet_)
            diags_.report(DiagId::double_vector_too_wide, range_from(begin)) << text;
        return Type::error();
    }
    if (spelling.type)
        return spelling.type;
    if (spelling.name && context_.host_structs.contains(spelling.name->text)) {
        if (!quiet_)
            report_host_struct_use(context_, *spelling.name);
        return Type::error();
    }
    if (!quiet_)
        diags_.report(DiagId::unknown_type_name, range_from(begin)) << text;
    return Type::error();
}

// ---------------------------------------------------------------------------------------------
// Kernels

// kernel_decl := kernel_head identifier '(' parameter_list ')' (compound_statement | ';')
//                (`;`: a prototype)
// kernel_head := ('kernel' | 'reduce' ['kernel']) return_type | return_type 'kernel'
// return_type := 'void' | type
// Brook+ also writes `reduce kernel void f` and `void kernel f`. A kernel with a `reduce`
// argument is a reduce function too (Brook+), marked or not.
namespace {
bool is_ascii(std::string_view name) {
    return std::ranges::all_of(name, [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}
} // namespace

void KernelParser::check_names_are_ascii() {
    if (quiet_)
        return;
    std::vector<std::string_view> reported;
    for (const Token& token : tokens_) {
        if (!token.is(TokenKind::identifier) || is_ascii(token.text) ||
            std::ranges::find(reported, token.text) != reported.end())
            continue;
        reported.push_back(token.text);
        context_.diags.report(DiagId::name_not_ascii, token.range()) << token.text;
    }
}

bool KernelParser::parse_return_type(KernelDecl& kernel) {
    if (accept(TokenKind::kw_void)) {
        kernel.return_type = Type::void_type();
        return true;
    }
    const std::optional<Type> type = parse_type();
    if (type)
        kernel.return_type = *type;
    return type.has_value();
}

// attribute := 'Attribute' '[' 'GroupSize' '(' integer {',' integer} ')' ']'   (Brook+, §4.8)
bool KernelParser::parse_attribute(KernelDecl& kernel) {
    const Token& first = advance(); // Attribute
    std::size_t count = 0;
    bool ok = accept(TokenKind::l_square) && peek().is_identifier("GroupSize");
    if (ok) {
        advance();
        ok = accept(TokenKind::l_paren);
    }
    while (ok) {
        const Expr* size = parse_conditional();
        ok = size != nullptr && size->kind == NodeKind::IntLiteral &&
             static_cast<const IntLiteral*>(size)->value != 0 && count < 4;
        if (!ok)
            break;
        kernel.group_size[count++] = static_cast<const IntLiteral*>(size)->value;
        if (!accept(TokenKind::comma)) {
            ok = accept(TokenKind::r_paren) && accept(TokenKind::r_square);
            break;
        }
    }
    if (!ok) {
        if (begin_error(first))
            diags_.report(DiagId::bad_attribute, range_from(first.loc));
        return false;
    }
    for (std::size_t c = count; c < 4; ++c)
        kernel.group_size[c] = 1;
    kernel.group_size_range = range_from(first.loc);
    return true;
}

KernelDecl* KernelParser::parse_kernel() {
    check_names_are_ascii();
    auto* kernel = unit_.context.make<KernelDecl>();
    if (peek().is_identifier("Attribute") && !parse_attribute(*kernel))
        return nullptr;
    const Token& first = peek();
    bool header_ok = true;
    if (accept(TokenKind::kw_reduce)) {
        kernel->has_reduce_keyword = true;
        accept(TokenKind::kw_kernel);
        header_ok = parse_return_type(*kernel);
    } else if (accept(TokenKind::kw_kernel)) {
        header_ok = parse_return_type(*kernel);
    } else {
        // The host scanner saw the `kernel` after the return type.
        header_ok = parse_return_type(*kernel) && expect(TokenKind::kw_kernel);
    }
    kernel->is_reduce = kernel->has_reduce_keyword;
    if (header_ok && !at(TokenKind::identifier)) {
        error_at_current(DiagId::expected_identifier, "a kernel name");
        return nullptr;
    }
    if (header_ok) {
        const Token& name = advance();
        kernel->name = name.text;
        kernel->name_range = name.range();
        header_ok = expect(TokenKind::l_paren) && parse_parameter_list(*kernel);
    }
    for (const ParamDecl* param : kernel->params)
        kernel->is_reduce = kernel->is_reduce || param->param_kind == ParamKind::ReduceAccumulator;
    if (kernel->name.empty())
        return nullptr;
    if (header_ok && at(TokenKind::semi)) {
        // A prototype: the host scanner keeps it apart from the definitions, bodiless.
        advance();
        kernel->range = range_from(first.loc);
        return kernel;
    }
    if (!header_ok) {
        // Skip the rest of the header; the body is still worth checking.
        while (!at(TokenKind::end_of_file) && !at(TokenKind::l_brace))
            advance();
    }
    if (at(TokenKind::l_brace)) {
        panic_ = false;
        kernel->body = parse_compound();
    } else {
        error_expected(TokenKind::l_brace); // quiet when the header already failed
    }
    if (!kernel->body)
        kernel->body = unit_.context.make<Compound>(range_from(peek().loc));
    kernel->range = range_from(first.loc);
    return kernel;
}

// parameter_list := [parameter {',' parameter}] | 'void'   (the `(` is already read)
bool KernelParser::parse_parameter_list(KernelDecl& kernel) {
    if (accept(TokenKind::r_paren))
        return true;
    if (at(TokenKind::kw_void) && peek(1).is(TokenKind::r_paren)) {
        advance();
        advance();
        return true;
    }
    while (true) {
        ParamDecl* param = parse_parameter(static_cast<int>(kernel.params.size()));
        if (!param)
            return false;
        kernel.params.push_back(param);
        if (!accept(TokenKind::comma))
            return expect(TokenKind::r_paren);
    }
}

// parameter := {'const' | 'out' | 'vout' [push_limit] | 'reduce' | 'iter' | 'in' | 'uniform'}
//              type name ['<' [stream_sizes] '>' | gather_dimension {gather_dimension}]
// The modifiers stand before the type, so a name after it may be spelled like one (`float in<>`).
ParamDecl* KernelParser::parse_parameter(int index) {
    const SourceLocation begin = peek().loc;
    ParamKind kind = ParamKind::Constant;
    bool is_iter = false;
    std::size_t push_limit = 0;
    while (true) {
        if (accept(TokenKind::kw_out)) {
            kind = ParamKind::OutputStream;
        } else if (accept(TokenKind::kw_vout)) {
            kind = ParamKind::VariableOutput;
            if (at(TokenKind::l_square) && !parse_push_limit(push_limit))
                return nullptr;
        } else if (accept(TokenKind::kw_reduce)) {
            kind = ParamKind::ReduceAccumulator;
        } else if (accept(TokenKind::kw_iter)) {
            is_iter = true;
        } else if (!accept(TokenKind::kw_const) && !accept(TokenKind::kw_in) &&
                   !accept(TokenKind::kw_uniform)) {
            break;
        }
    }
    const std::optional<Type> type = parse_type();
    if (!type)
        return nullptr;
    if (!at_name()) {
        error_at_current(DiagId::expected_identifier, "a parameter name");
        return nullptr;
    }
    const Token& name = advance();
    auto* param = unit_.context.make<ParamDecl>();
    param->name = name.text;
    param->name_range = name.range();
    param->type = *type;
    param->index = index;
    param->is_iter = is_iter;
    param->push_limit = push_limit;
    if (accept(TokenKind::less)) {
        // `float r<)` misses its `>` rather than a size.
        const bool sized = !at(TokenKind::greater) && !at(TokenKind::r_paren);
        if (sized && !parse_stream_sizes(*param))
            return nullptr;
        if (!expect(TokenKind::greater))
            return nullptr;
        param->is_stream_syntax = true;
        if (kind == ParamKind::Constant)
            kind = ParamKind::InputStream;
    } else if (at(TokenKind::l_square)) {
        while (at(TokenKind::l_square)) {
            if (!parse_gather_dimension(*param))
                return nullptr;
            ++param->gather_rank;
        }
        // Brook+'s scatter output (BROOKPLUS.md §4.7): `out float o[]` is the whole stream,
        // written at any position.
        if (kind == ParamKind::Constant)
            kind = ParamKind::Gather;
        else if (kind == ParamKind::OutputStream)
            kind = ParamKind::ScatterOutput;
        if (param->gather_rank > max_gather_rank && !quiet_)
            diags_.report(DiagId::gather_too_many_dimensions, range_from(name.loc))
                << param->name << param->gather_rank;
    }
    param->param_kind = kind;
    param->range = range_from(begin);
    return param;
}

namespace {

/// Integer literals joined by C's arithmetic, bit and shift operators: what a stream
/// parameter's size may be (its value is not needed, since the sizes are ignored).
bool is_integer_constant(const Expr& expr) {
    if (expr.kind == NodeKind::IntLiteral)
        return true;
    if (expr.kind == NodeKind::Unary) {
        const auto& unary = static_cast<const Unary&>(expr);
        return (unary.op == UnaryOp::Plus || unary.op == UnaryOp::Minus ||
                unary.op == UnaryOp::BitNot) &&
               is_integer_constant(*unary.operand);
    }
    if (expr.kind == NodeKind::Binary) {
        const auto& binary = static_cast<const Binary&>(expr);
        return is_integer_constant(*binary.lhs) && is_integer_constant(*binary.rhs);
    }
    return false;
}

} // namespace

// stream_sizes := size {',' size}   (between the `<` and `>` of a stream parameter)
// size := unary_expression {('<<' | '>>' | '+' | '-' | '*' | '/' | '%') unary_expression}
//         (of integer literals: the binary operators that bind tighter than `>`, which ends it)
// Brook+ programs size their stream parameters (`float a<2, 3>`); as gathers' sizes, they are
// read and ignored: any stream of the element type binds. Up to 4, as streams have.
bool KernelParser::parse_stream_sizes(ParamDecl& param) {
    constexpr int relational_precedence = 7; // `>` ends a size, as in a C++ template argument
    int count = 0;
    do {
        if (at(TokenKind::comma) || at(TokenKind::greater)) {
            error_at_current(DiagId::expected_extent);
            return false;
        }
        const Token& first = peek();
        const Expr* size = parse_binary(relational_precedence);
        if (size == nullptr)
            return false;
        if (!is_integer_constant(*size)) {
            if (begin_error(first))
                diags_.report(DiagId::stream_size_not_constant, size->range) << param.name;
            return false;
        }
        ++count;
    } while (accept(TokenKind::comma));
    if (count > max_gather_rank && !quiet_)
        diags_.report(DiagId::stream_too_many_sizes, range_from(param.name_range.begin))
            << param.name << count;
    return true;
}

// gather_dimension := '[' [conditional_expression] ']'
// BrookGPU programs size their gathers (`float table[8]`, `float m[N][N]`) as C arrays; any
// stream of the element type may be bound, so the size only serves sema's warning about a
// constant index outside it.
bool KernelParser::parse_gather_dimension(ParamDecl& param) {
    advance(); // [
    if (accept(TokenKind::r_square)) {
        param.gather_extents.push_back(0);
        return true;
    }
    const Expr* size = parse_conditional();
    if (size == nullptr)
        return false;
    param.gather_extents.push_back(
        size->kind == NodeKind::IntLiteral ? static_cast<const IntLiteral*>(size)->value : 0);
    return expect(TokenKind::r_square);
}

// push_limit := '[' [integer] ']'
// `vout [N]` keeps each element's first N pushes; `vout []` (0 here) is unbounded.
bool KernelParser::parse_push_limit(std::size_t& limit) {
    advance(); // [
    if (accept(TokenKind::r_square))
        return true;
    const Token& token = peek();
    const Expr* value = parse_conditional();
    if (value == nullptr)
        return false;
    // Every backend counts pushes in an `int` (GLSL and CUDA have no wider one to spare).
    constexpr unsigned long long max_limit = 2147483647;
    if (value->kind != NodeKind::IntLiteral || static_cast<const IntLiteral*>(value)->value == 0 ||
        static_cast<const IntLiteral*>(value)->value > max_limit) {
        if (begin_error(token))
            diags_.report(DiagId::push_limit_not_positive, value->range);
        return false;
    }
    limit = static_cast<std::size_t>(static_cast<const IntLiteral*>(value)->value);
    return expect(TokenKind::r_square);
}

// ---------------------------------------------------------------------------------------------
// Struct typedefs

// struct_typedef := 'typedef' 'struct' [identifier] '{' {field_line} '}' identifier ';'
//                 | 'struct' identifier '{' {field_line} '}' ';'   (C++: the tag is the name)
// field_line := type name {',' name} ';'   (a name may be spelled like a Brook keyword)
// Never reports: a typedef that is not a Brook struct is host code, which the C++ compiler
// checks; only using it as a Brook type is an error (resolve_type).
const StructDecl* KernelParser::parse_struct_typedef() {
    const SourceLocation begin = peek().loc;
    const bool is_typedef = accept(TokenKind::kw_typedef);
    advance(); // struct
    auto* decl = unit_.context.make<StructDecl>();
    if (at(TokenKind::identifier))
        decl->tag = advance().text;
    if (!accept(TokenKind::l_brace))
        return nullptr;
    std::optional<HostStruct> host;
    while (!at(TokenKind::r_brace) && !at(TokenKind::end_of_file)) {
        const std::size_t line_begin = pos_;
        const TypeSpelling spelling = spelling_at(0);
        // A double3 field makes a host struct, as any field of no Brook type does.
        bool plain = spelling.type.has_value() && !is_too_wide_double(*spelling.type);
        // Of a line of Brook-typed names, the one declared as an array (`float w, v[4];`: v).
        std::optional<std::size_t> array_name;
        if (plain) {
            for (std::size_t i = 0; i < spelling.length; ++i)
                advance();
            const Type type = *spelling.type;
            do {
                if (!at_name()) {
                    plain = false;
                    break;
                }
                const Token& name = advance();
                if (at(TokenKind::l_square)) {
                    array_name = pos_ - 1;
                    plain = false;
                    break;
                }
                decl->fields.push_back(FieldDecl{name.text, type, name.range()});
                if (!is_ascii(name.text) && !host)
                    host = HostStruct{name.text, "", name.range(), HostStruct::Why::field_name};
            } while (accept(TokenKind::comma));
            plain = plain && accept(TokenKind::semi);
        }
        if (plain)
            continue;
        // Not a Brook field: find its name and type spelling for a later error, skip to `;`.
        pos_ = line_begin;
        int depth = 0;
        std::size_t name_index = line_begin;
        bool name_found = false;
        while (!at(TokenKind::end_of_file)) {
            const TokenKind kind = peek().kind;
            if (kind == TokenKind::l_brace || kind == TokenKind::l_paren ||
                kind == TokenKind::l_square)
                ++depth;
            else if ((kind == TokenKind::r_brace || kind == TokenKind::r_paren ||
                      kind == TokenKind::r_square) &&
                     depth > 0)
                --depth;
            else if (kind == TokenKind::r_brace)
                break;
            if (depth == 0 && kind == TokenKind::semi)
                break;
            const bool ends_declarator = kind == TokenKind::comma || kind == TokenKind::l_square ||
                                         kind == TokenKind::equal || kind == TokenKind::colon;
            if (depth <= (kind == TokenKind::l_square ? 1 : 0) && ends_declarator)
                name_found = true;
            if (!name_found && at_name())
                name_index = pos_;
            advance();
        }
        accept(TokenKind::semi);
        if (!host) {
            // Its type is the spelling before the names, not the names before it.
            const std::size_t type_end = array_name ? line_begin + spelling.length : name_index;
            name_index = array_name.value_or(name_index);
            HostStruct reason;
            reason.field_name = tokens_[name_index].text;
            for (std::size_t i = line_begin; i < type_end; ++i)
                reason.field_type += (i > line_begin ? " " : "") + tokens_[i].text;
            if (reason.field_type.empty())
                reason.field_type = tokens_[line_begin].text;
            // An array's brackets are part of its type: `float v[4];` is a 'float[4]'.
            std::size_t next = name_index + 1;
            while (next < pos_ && tokens_[next].is(TokenKind::l_square)) {
                int open = 0;
                do {
                    open += tokens_[next].is(TokenKind::l_square) ? 1 : 0;
                    open -= tokens_[next].is(TokenKind::r_square) ? 1 : 0;
                    reason.field_type += tokens_[next++].text;
                } while (next < pos_ && open > 0);
            }
            reason.field_range = tokens_[name_index].range();
            host = reason;
        }
    }
    if (!accept(TokenKind::r_brace))
        return nullptr;
    if (is_typedef) {
        if (!at(TokenKind::identifier))
            return nullptr;
        decl->name = advance().text;
    } else {
        decl->name = decl->tag;
    }
    if (!accept(TokenKind::semi))
        return nullptr;
    decl->range = range_from(begin);
    std::size_t leaves = 0;
    for (const FieldDecl& field : decl->fields)
        leaves += field.type.is_struct() ? context_.struct_leaves[field.type.struct_decl()] : 1;
    if (leaves > max_struct_leaves && !host)
        host = HostStruct{decl->fields.back().name, "", decl->fields.back().range,
                          HostStruct::Why::too_many_leaves};
    context_.struct_leaves[decl] = std::min(leaves, max_struct_leaves + 1); // no overflow deeper
    if (host) {
        context_.host_structs[decl->name] = *host;
        return nullptr;
    }
    report_duplicate_fields(*decl);
    return decl;
}

// C and C++ reject a struct that names a field twice too, but a Brook struct's fields become
// GLSL's and CUDA's: the error must come from brcc, not from a kernel compiler at run time.
void KernelParser::report_duplicate_fields(const StructDecl& decl) {
    if (quiet_)
        return;
    std::unordered_map<std::string_view, const FieldDecl*> first_of;
    for (const FieldDecl& field : decl.fields) {
        const auto [first, added] = first_of.emplace(field.name, &field);
        if (added)
            continue;
        diags_.report(DiagId::struct_duplicate_field, field.range) << field.name << decl.name;
        diags_.report(DiagId::struct_field_here, first->second->range) << field.name;
    }
}

} // namespace brcc
