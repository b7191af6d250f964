// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "preprocess/pp_expression.hpp"

// A precedence-climbing evaluator over the tokens of a condition. Arithmetic is done on
// unsigned 64-bit values and read back as signed, so that overflow wraps instead of being
// undefined; division by zero is an error. Nesting is bounded so that `((((...` cannot exhaust
// the stack.

#include <cstdlib>

namespace brcc {

namespace {

constexpr int max_depth = 256;

class Evaluator {
public:
    Evaluator(std::span<const Token> tokens, std::string_view directive,
              SourceRange directive_range, DiagnosticEngine& diags)
        : tokens_(tokens), directive_(directive), directive_range_(directive_range), diags_(diags) {
    }

    std::optional<long long> run() {
        if (at_end()) {
            diags_.report(DiagId::pp_missing_expression, directive_range_) << directive_;
            return std::nullopt;
        }
        const long long value = conditional();
        if (!failed_ && !at_end())
            fail(DiagId::pp_invalid_expression_token, tokens_[pos_]);
        if (failed_)
            return std::nullopt;
        return value;
    }

private:
    bool at_end() const {
        return pos_ >= tokens_.size() || tokens_[pos_].is(TokenKind::end_of_file);
    }
    bool accept(TokenKind kind) {
        if (at_end() || !tokens_[pos_].is(kind))
            return false;
        ++pos_;
        return true;
    }
    SourceRange here() const {
        if (pos_ < tokens_.size())
            return tokens_[pos_].range();
        return {directive_range_.end, directive_range_.end};
    }
    void fail(DiagId id, const Token& token) {
        if (failed_)
            return;
        failed_ = true;
        auto report = diags_.report(id, token.range());
        if (id == DiagId::pp_invalid_expression_token)
            report << token.text;
        else
            report << directive_;
    }
    void fail_here(DiagId id) {
        if (failed_)
            return;
        failed_ = true;
        diags_.report(id, here()) << directive_;
    }

    // conditional := logical_or ['?' conditional ':' conditional]
    long long conditional() {
        const long long condition = binary(0);
        if (!accept(TokenKind::question))
            return condition;
        if (++depth_ > max_depth) {
            fail_here(DiagId::pp_expression_too_deep);
            pos_ = tokens_.size();
            return 0;
        }
        const long long then_value = conditional();
        long long else_value = 0;
        if (accept(TokenKind::colon))
            else_value = conditional();
        else
            fail_here(DiagId::pp_missing_colon);
        --depth_;
        return condition ? then_value : else_value;
    }

    static int precedence(TokenKind kind) {
        switch (kind) {
        case TokenKind::pipepipe:
            return 1;
        case TokenKind::ampamp:
            return 2;
        case TokenKind::pipe:
            return 3;
        case TokenKind::caret:
            return 4;
        case TokenKind::amp:
            return 5;
        case TokenKind::equalequal:
        case TokenKind::exclaimequal:
            return 6;
        case TokenKind::less:
        case TokenKind::greater:
        case TokenKind::lessequal:
        case TokenKind::greaterequal:
            return 7;
        case TokenKind::lessless:
        case TokenKind::greatergreater:
            return 8;
        case TokenKind::plus:
        case TokenKind::minus:
            return 9;
        case TokenKind::star:
        case TokenKind::slash:
        case TokenKind::percent:
            return 10;
        default:
            return 0;
        }
    }

    // binary := unary {binary_operator unary}, by precedence climbing
    long long binary(int min_precedence) {
        long long lhs = unary();
        while (!at_end()) {
            const Token& op = tokens_[pos_];
            const int prec = precedence(op.kind);
            if (prec == 0 || prec <= min_precedence)
                break;
            ++pos_;
            const long long rhs = binary(prec);
            lhs = apply(op, lhs, rhs);
        }
        return lhs;
    }

    long long apply(const Token& op, long long lhs, long long rhs) {
        const auto a = static_cast<unsigned long long>(lhs);
        const auto b = static_cast<unsigned long long>(rhs);
        switch (op.kind) {
        case TokenKind::pipepipe:
            return lhs || rhs;
        case TokenKind::ampamp:
            return lhs && rhs;
        case TokenKind::pipe:
            return static_cast<long long>(a | b);
        case TokenKind::caret:
            return static_cast<long long>(a ^ b);
        case TokenKind::amp:
            return static_cast<long long>(a & b);
        case TokenKind::equalequal:
            return lhs == rhs;
        case TokenKind::exclaimequal:
            return lhs != rhs;
        case TokenKind::less:
            return lhs < rhs;
        case TokenKind::greater:
            return lhs > rhs;
        case TokenKind::lessequal:
            return lhs <= rhs;
        case TokenKind::greaterequal:
            return lhs >= rhs;
        case TokenKind::lessless:
            return rhs < 0 || rhs >= 64 ? 0 : static_cast<long long>(a << rhs);
        case TokenKind::greatergreater:
            return rhs < 0 || rhs >= 64 ? (lhs < 0 ? -1 : 0) : lhs >> rhs;
        case TokenKind::plus:
            return static_cast<long long>(a + b);
        case TokenKind::minus:
            return static_cast<long long>(a - b);
        case TokenKind::star:
            return static_cast<long long>(a * b);
        case TokenKind::slash:
        case TokenKind::percent:
            if (rhs == 0) {
                fail(DiagId::pp_division_by_zero, op);
                return 0;
            }
            if (rhs == -1) // avoids the overflow of LLONG_MIN / -1
                return op.is(TokenKind::slash) ? static_cast<long long>(0 - a) : 0;
            return op.is(TokenKind::slash) ? lhs / rhs : lhs % rhs;
        default:
            return 0;
        }
    }

    // unary := ('+' | '-' | '!' | '~') unary | primary
    long long unary() {
        if (++depth_ > max_depth) {
            fail_here(DiagId::pp_expression_too_deep);
            pos_ = tokens_.size();
            return 0;
        }
        long long value = 0;
        if (accept(TokenKind::plus))
            value = unary();
        else if (accept(TokenKind::minus))
            value = static_cast<long long>(0 - static_cast<unsigned long long>(unary()));
        else if (accept(TokenKind::exclaim))
            value = !unary();
        else if (accept(TokenKind::tilde))
            value = ~unary();
        else
            value = primary();
        --depth_;
        return value;
    }

    // primary := integer | character | '(' conditional ')'
    long long primary() {
        if (at_end()) {
            fail_here(DiagId::pp_expected_value);
            return 0;
        }
        const Token& token = tokens_[pos_];
        if (token.is(TokenKind::int_literal) || token.is(TokenKind::char_literal)) {
            ++pos_;
            return static_cast<long long>(pp_literal_value(token));
        }
        if (accept(TokenKind::l_paren)) {
            const long long value = conditional();
            if (!accept(TokenKind::r_paren))
                fail_here(DiagId::pp_missing_paren);
            return value;
        }
        if (token.is(TokenKind::float_literal) || token.is(TokenKind::string_literal) ||
            token.is(TokenKind::unknown))
            fail(DiagId::pp_invalid_expression_token, token);
        else
            fail_here(DiagId::pp_expected_value);
        pos_ = tokens_.size();
        return 0;
    }

    std::span<const Token> tokens_;
    std::string_view directive_;
    SourceRange directive_range_;
    DiagnosticEngine& diags_;
    std::size_t pos_ = 0;
    int depth_ = 0;
    bool failed_ = false;
};

unsigned long long char_value(std::string_view text) {
    // Skip an encoding prefix (L, u, U, u8) and the opening quote.
    const std::size_t quote = text.find('\'');
    if (quote == std::string_view::npos || quote + 1 >= text.size())
        return 0;
    const char c = text[quote + 1];
    if (c != '\\')
        return static_cast<unsigned char>(c);
    if (quote + 2 >= text.size())
        return 0;
    switch (text[quote + 2]) {
    case 'n':
        return '\n';
    case 't':
        return '\t';
    case 'r':
        return '\r';
    case '0':
        return 0;
    case 'a':
        return '\a';
    case 'b':
        return '\b';
    case 'f':
        return '\f';
    case 'v':
        return '\v';
    default:
        return static_cast<unsigned char>(text[quote + 2]);
    }
}

} // namespace

unsigned long long pp_literal_value(const Token& token) {
    if (token.is(TokenKind::char_literal))
        return char_value(token.text);
    // strtoull stops at the suffix; base 0 reads 0x.. as hex and 0.. as octal.
    return std::strtoull(token.text.c_str(), nullptr, 0);
}

std::optional<long long> evaluate_pp_expression(std::span<const Token> tokens,
                                                std::string_view directive_name,
                                                SourceRange directive_range,
                                                DiagnosticEngine& diags) {
    return Evaluator(tokens, directive_name, directive_range, diags).run();
}

} // namespace brcc
