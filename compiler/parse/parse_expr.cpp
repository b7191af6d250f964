// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Expressions of kernel bodies, with C's precedence and associativity. Binary operators are
// parsed by precedence climbing over one table; the rest is one function per grammar rule. A
// chain of subscripts `a[i][j]` becomes one Subscript node (gathers index all dimensions at
// once), and a type name followed by `(` is a constructor (`float4(x, y, z, 1)`).

#include "parse/kernel_parser.hpp"

#include "preprocess/pp_expression.hpp"
#include "preprocess/preprocessor.hpp"

#include <cerrno>
#include <cstdlib>

namespace brcc {

namespace {

struct BinaryInfo {
    int precedence; ///< 0: not a binary operator
    BinaryOp op;
};

BinaryInfo binary_info(TokenKind kind) {
    switch (kind) {
    case TokenKind::pipepipe:
        return {1, BinaryOp::LogicalOr};
    case TokenKind::ampamp:
        return {2, BinaryOp::LogicalAnd};
    case TokenKind::pipe:
        return {3, BinaryOp::BitOr};
    case TokenKind::caret:
        return {4, BinaryOp::BitXor};
    case TokenKind::amp:
        return {5, BinaryOp::BitAnd};
    case TokenKind::equalequal:
        return {6, BinaryOp::Equal};
    case TokenKind::exclaimequal:
        return {6, BinaryOp::NotEqual};
    case TokenKind::less:
        return {7, BinaryOp::Less};
    case TokenKind::greater:
        return {7, BinaryOp::Greater};
    case TokenKind::lessequal:
        return {7, BinaryOp::LessEqual};
    case TokenKind::greaterequal:
        return {7, BinaryOp::GreaterEqual};
    case TokenKind::lessless:
        return {8, BinaryOp::Shl};
    case TokenKind::greatergreater:
        return {8, BinaryOp::Shr};
    case TokenKind::plus:
        return {9, BinaryOp::Add};
    case TokenKind::minus:
        return {9, BinaryOp::Sub};
    case TokenKind::star:
        return {10, BinaryOp::Mul};
    case TokenKind::slash:
        return {10, BinaryOp::Div};
    case TokenKind::percent:
        return {10, BinaryOp::Rem};
    default:
        return {0, BinaryOp::Add};
    }
}

std::optional<AssignOp> assign_op(TokenKind kind) {
    switch (kind) {
    case TokenKind::equal:
        return AssignOp::Assign;
    case TokenKind::plusequal:
        return AssignOp::Add;
    case TokenKind::minusequal:
        return AssignOp::Sub;
    case TokenKind::starequal:
        return AssignOp::Mul;
    case TokenKind::slashequal:
        return AssignOp::Div;
    case TokenKind::percentequal:
        return AssignOp::Rem;
    case TokenKind::lesslessequal:
        return AssignOp::Shl;
    case TokenKind::greatergreaterequal:
        return AssignOp::Shr;
    case TokenKind::ampequal:
        return AssignOp::BitAnd;
    case TokenKind::pipeequal:
        return AssignOp::BitOr;
    case TokenKind::caretequal:
        return AssignOp::BitXor;
    default:
        return std::nullopt;
    }
}

std::optional<UnaryOp> prefix_op(TokenKind kind) {
    switch (kind) {
    case TokenKind::plus:
        return UnaryOp::Plus;
    case TokenKind::minus:
        return UnaryOp::Minus;
    case TokenKind::exclaim:
        return UnaryOp::Not;
    case TokenKind::tilde:
        return UnaryOp::BitNot;
    case TokenKind::plusplus:
        return UnaryOp::PreInc;
    case TokenKind::minusminus:
        return UnaryOp::PreDec;
    default:
        return std::nullopt;
    }
}

} // namespace

// expression := assignment_expression {',' assignment_expression}
Expr* KernelParser::parse_expression() {
    const SourceLocation begin = peek().loc;
    Chain chain(*this);
    Expr* lhs = parse_assignment();
    while (lhs && accept(TokenKind::comma)) {
        if (!chain.extend())
            return nullptr;
        Expr* rhs = parse_assignment();
        if (!rhs)
            return nullptr;
        auto* comma = unit_.context.make<Binary>(range_from(begin));
        comma->op = BinaryOp::Comma;
        comma->lhs = lhs;
        comma->rhs = rhs;
        lhs = comma;
    }
    return lhs;
}

// assignment_expression := conditional_expression [assign_op assignment_expression]
// assign_op := '=' | '+=' | '-=' | '*=' | '/=' | '%=' | '<<=' | '>>=' | '&=' | '|=' | '^='
Expr* KernelParser::parse_assignment() {
    const Nesting nesting(*this);
    if (!nesting.ok())
        return nullptr;
    const SourceLocation begin = peek().loc;
    Expr* target = parse_conditional();
    if (!target)
        return nullptr;
    const std::optional<AssignOp> op = assign_op(peek().kind);
    if (!op)
        return target;
    advance();
    Expr* value = parse_assignment();
    if (!value)
        return nullptr;
    auto* assign = unit_.context.make<Assign>(range_from(begin));
    assign->op = *op;
    assign->target = target;
    assign->value = value;
    return assign;
}

// conditional_expression := binary_expression ['?' expression ':' conditional_expression]
Expr* KernelParser::parse_conditional() {
    const SourceLocation begin = peek().loc;
    Expr* condition = parse_binary(0);
    if (!condition || !accept(TokenKind::question))
        return condition;
    const Nesting nesting(*this);
    if (!nesting.ok())
        return nullptr;
    Expr* then_value = parse_expression();
    if (!then_value || !expect(TokenKind::colon))
        return nullptr;
    Expr* else_value = parse_conditional();
    if (!else_value)
        return nullptr;
    auto* conditional = unit_.context.make<Conditional>(range_from(begin));
    conditional->condition = condition;
    conditional->then_value = then_value;
    conditional->else_value = else_value;
    return conditional;
}

// binary_expression := unary_expression {binary_op unary_expression}, where binary_op is, from
// the loosest: || && | ^ & (== !=) (< > <= >=) (<< >>) (+ -) (* / %), all left-associative.
Expr* KernelParser::parse_binary(int min_precedence) {
    const SourceLocation begin = peek().loc;
    Chain chain(*this);
    Expr* lhs = parse_unary();
    while (lhs) {
        const BinaryInfo info = binary_info(peek().kind);
        if (info.precedence <= min_precedence)
            break;
        if (!chain.extend())
            return nullptr;
        advance();
        Expr* rhs = parse_binary(info.precedence);
        if (!rhs)
            return nullptr;
        auto* binary = unit_.context.make<Binary>(range_from(begin));
        binary->op = info.op;
        binary->lhs = lhs;
        binary->rhs = rhs;
        lhs = binary;
    }
    return lhs;
}

// unary_expression := prefix_op unary_expression | '(' type ')' unary_expression
//                   | postfix_expression
// prefix_op := '+' | '-' | '!' | '~' | '++' | '--'
Expr* KernelParser::parse_unary() {
    const Nesting nesting(*this);
    if (!nesting.ok())
        return nullptr;
    const SourceLocation begin = peek().loc;
    if (const std::optional<UnaryOp> op = prefix_op(peek().kind)) {
        advance();
        Expr* operand = parse_unary();
        if (!operand)
            return nullptr;
        auto* unary = unit_.context.make<Unary>(range_from(begin));
        unary->op = *op;
        unary->operand = operand;
        return unary;
    }
    if (const std::size_t type_length = at(TokenKind::l_paren) ? type_spelling_length(1) : 0;
        type_length > 0 && peek(1 + type_length).is(TokenKind::r_paren)) {
        advance();
        const std::optional<Type> target = parse_type();
        advance();
        Expr* operand = parse_unary();
        if (!operand)
            return nullptr;
        auto* cast = unit_.context.make<Cast>(range_from(begin));
        cast->target = target.value_or(Type::error());
        cast->operand = operand;
        return cast;
    }
    Expr* primary = parse_primary();
    return primary ? parse_postfix(primary) : nullptr;
}

// postfix_expression := primary_expression {'[' expression ']' {'[' expression ']'}
//                       | '.' identifier | '++' | '--'}
Expr* KernelParser::parse_postfix(Expr* base) {
    const SourceLocation begin = base->range.begin;
    Chain chain(*this);
    while (true) {
        if ((at(TokenKind::l_square) || at(TokenKind::period) || at(TokenKind::plusplus) ||
             at(TokenKind::minusminus)) &&
            !chain.extend())
            return nullptr;
        if (at(TokenKind::l_square)) {
            std::vector<Expr*> indices;
            while (accept(TokenKind::l_square)) {
                Expr* index = parse_expression();
                if (!index || !expect(TokenKind::r_square))
                    return nullptr;
                indices.push_back(index);
            }
            auto* subscript = unit_.context.make<Subscript>(range_from(begin));
            subscript->base = base;
            subscript->indices = std::move(indices);
            base = subscript;
        } else if (accept(TokenKind::period)) {
            if (!is_identifier_or_keyword(peek().kind)) {
                error_at_current(DiagId::expected_identifier, "a member name");
                return nullptr;
            }
            const Token& name = advance();
            auto* member = unit_.context.make<Member>(range_from(begin));
            member->base = base;
            member->member = name.text;
            member->member_range = name.range();
            base = member;
        } else if (at(TokenKind::plusplus) || at(TokenKind::minusminus)) {
            const bool increment = advance().is(TokenKind::plusplus);
            auto* unary = unit_.context.make<Unary>(range_from(begin));
            unary->op = increment ? UnaryOp::PostInc : UnaryOp::PostDec;
            unary->operand = base;
            base = unary;
        } else {
            return base;
        }
    }
}

// primary_expression := integer | floating | 'true' | 'false' | name
//                     | name '(' arguments ')' | type '(' arguments ')'
//                     | 'indexof' ('(' name ')' | name) | '(' expression ')'
// A name may be spelled like a Brook keyword (`in`, `out`, ...), which means nothing inside an
// expression; `indexof` is the operator only when a stream follows it.
Expr* KernelParser::parse_primary() {
    const Token& token = peek();
    const SourceLocation begin = token.loc;
    const bool indexof_operator =
        token.is(TokenKind::kw_indexof) && (peek(1).is(TokenKind::l_paren) || at_name(1));
    if (!indexof_operator && is_contextual_keyword(token.kind)) {
        advance();
        return parse_name(token);
    }
    switch (token.kind) {
    case TokenKind::int_literal:
    case TokenKind::char_literal:
        return parse_int_literal();
    case TokenKind::float_literal:
        return parse_float_literal();
    case TokenKind::string_literal:
        if (begin_error(token))
            diags_.report(DiagId::string_in_kernel, token.range());
        return nullptr;
    case TokenKind::l_paren: {
        advance();
        Expr* inner = parse_expression();
        if (!inner || !expect(TokenKind::r_paren))
            return nullptr;
        // Keep the parentheses in the range, so that diagnostics underline what was written.
        inner->range = range_from(begin);
        return inner;
    }
    case TokenKind::kw_indexof: {
        advance();
        const bool parenthesised = accept(TokenKind::l_paren);
        if (!at_name()) {
            error_at_current(DiagId::expected_stream_name);
            return nullptr;
        }
        const Token& name = advance();
        if (parenthesised && !expect(TokenKind::r_paren))
            return nullptr;
        auto* stream = unit_.context.make<NameRef>(name.range());
        stream->name = name.text;
        auto* indexof = unit_.context.make<Indexof>(range_from(begin));
        indexof->stream = stream;
        return indexof;
    }
    case TokenKind::identifier:
        break;
    default:
        error_at_current(DiagId::expected_expression);
        return nullptr;
    }
    advance();
    if (token.text == "true" || token.text == "false") {
        auto* literal = unit_.context.make<BoolLiteral>(token.range());
        literal->value = token.text == "true";
        return literal;
    }
    return parse_name(token);
}

// The rest of a primary expression that starts with the name `token` (already read): a call, a
// constructor or a plain name.
Expr* KernelParser::parse_name(const Token& token) {
    const SourceLocation begin = token.loc;
    if (at(TokenKind::l_paren)) {
        advance();
        std::vector<Expr*> args;
        if (!parse_arguments(args))
            return nullptr;
        if (is_type_name(token)) {
            auto* construct = unit_.context.make<Construct>(range_from(begin));
            construct->constructed = resolve_type(token).value_or(Type::error());
            construct->args = std::move(args);
            return construct;
        }
        auto* call = unit_.context.make<Call>(range_from(begin));
        call->callee = token.text;
        call->callee_range = token.range();
        call->args = std::move(args);
        return call;
    }
    if (is_type_name(token)) {
        // A type where a value belongs, e.g. `x = float;`.
        pos_ -= 1;
        error_at_current(DiagId::expected_expression);
        return nullptr;
    }
    auto* name = unit_.context.make<NameRef>(token.range());
    name->name = token.text;
    return name;
}

// arguments := [assignment_expression {',' assignment_expression}] ')'   (after the `(`)
bool KernelParser::parse_arguments(std::vector<Expr*>& args) {
    if (accept(TokenKind::r_paren))
        return true;
    do {
        Expr* arg = parse_assignment();
        if (!arg)
            return false;
        args.push_back(arg);
    } while (accept(TokenKind::comma));
    return expect(TokenKind::r_paren);
}

Expr* KernelParser::parse_int_literal() {
    const Token& token = advance();
    auto* literal = unit_.context.make<IntLiteral>(token.range());
    if (token.is(TokenKind::char_literal)) {
        literal->value = pp_literal_value(token);
        return literal;
    }
    literal->is_unsigned = token.text.find_first_of("uU") != std::string::npos;
    errno = 0;
    literal->value = std::strtoull(token.text.c_str(), nullptr, 0);
    if (errno == ERANGE && !quiet_)
        diags_.report(DiagId::integer_too_large, token.range());
    return literal;
}

Expr* KernelParser::parse_float_literal() {
    const Token& token = advance();
    auto* literal = unit_.context.make<FloatLiteral>(token.range());
    // strtod stops at the f/F/l/L suffix. A hex float's digits may end in f, but its exponent
    // (`p`) comes after them.
    literal->value = std::strtod(token.text.c_str(), nullptr);
    const std::string_view text = token.text;
    const bool hex = text.size() > 1 && (text[1] == 'x' || text[1] == 'X');
    literal->is_float_suffixed = (text.ends_with('f') || text.ends_with('F')) &&
                                 (!hex || text.find_first_of("pP") != std::string_view::npos);
    return literal;
}

} // namespace brcc
