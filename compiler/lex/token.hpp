// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Tokens of Brook source. One lexer serves host code and kernel code: host code is later copied
// through as text (by byte range), kernel code is parsed from these tokens after macro expansion.

#include "support/source_manager.hpp"

#include <string>
#include <string_view>

namespace brcc {

#define BRCC_KEYWORDS(X)                                                                         \
    X(kernel) X(reduce) X(out) X(iter) X(vout) X(typedef) X(struct) X(if) X(else) X(for)        \
    X(while) X(do) X(break) X(continue) X(return) X(const) X(void) X(indexof) X(unsigned)       \
    X(static) X(inline) X(uniform) X(in) X(inout)

#define BRCC_PUNCTUATORS(X)                                                                      \
    X(l_paren, "(") X(r_paren, ")") X(l_brace, "{") X(r_brace, "}") X(l_square, "[")            \
    X(r_square, "]") X(semi, ";") X(comma, ",") X(period, ".") X(question, "?") X(colon, ":")    \
    X(coloncolon, "::") X(arrow, "->") X(ellipsis, "...")                                        \
    X(plus, "+") X(minus, "-") X(star, "*") X(slash, "/") X(percent, "%") X(amp, "&")          \
    X(pipe, "|") X(caret, "^") X(tilde, "~") X(exclaim, "!") X(less, "<") X(greater, ">")       \
    X(equal, "=") X(plusplus, "++") X(minusminus, "--") X(ampamp, "&&") X(pipepipe, "||")      \
    X(lessless, "<<") X(greatergreater, ">>") X(lessequal, "<=") X(greaterequal, ">=")          \
    X(equalequal, "==") X(exclaimequal, "!=") X(plusequal, "+=") X(minusequal, "-=")            \
    X(starequal, "*=") X(slashequal, "/=") X(percentequal, "%=") X(ampequal, "&=")              \
    X(pipeequal, "|=") X(caretequal, "^=") X(lesslessequal, "<<=")                              \
    X(greatergreaterequal, ">>=") X(hash, "#") X(hashhash, "##")

enum class TokenKind {
    end_of_file,
    identifier,
    int_literal,    ///< 12, 0x1f, 12u, 'a' is char_literal
    float_literal,  ///< 1.0, 1.f, 1e3, .5
    char_literal,
    string_literal,
    /// A whole preprocessor directive line (with continuations), e.g. `#define N 4`. The lexer
    /// produces it only when the `#` is the first token of a line.
    directive,
    unknown,        ///< A byte that starts no token; the lexer reports it.
#define BRCC_KW(name) kw_##name,
    BRCC_KEYWORDS(BRCC_KW)
#undef BRCC_KW
#define BRCC_PUNCT(name, spelling) name,
    BRCC_PUNCTUATORS(BRCC_PUNCT)
#undef BRCC_PUNCT
};

/// Spelling of a punctuator or keyword, or a description such as "identifier".
std::string_view token_kind_name(TokenKind kind);

/// Brook's own keywords, which C and C++ programs use as ordinary names (`in`, `iter`, ...):
/// the parser takes them as names wherever a keyword could not stand, such as a declarator.
inline bool is_contextual_keyword(TokenKind kind) {
    switch (kind) {
    case TokenKind::kw_kernel:
    case TokenKind::kw_reduce:
    case TokenKind::kw_out:
    case TokenKind::kw_iter:
    case TokenKind::kw_vout:
    case TokenKind::kw_indexof:
    case TokenKind::kw_uniform:
    case TokenKind::kw_in:
    case TokenKind::kw_inout:
        return true;
    default:
        return false;
    }
}

struct Token {
    TokenKind kind = TokenKind::end_of_file;
    SourceLocation loc;    ///< Where the token starts (for expanded macros: the use site).
    std::uint32_t length = 0; ///< Length in bytes of its spelling in the source.
    std::string text;      ///< Spelling (after macro expansion, the replacement's spelling).
    bool at_line_start = false;  ///< First token on its line.
    bool space_before = false;   ///< Whitespace or a comment precedes it.

    bool is(TokenKind k) const { return kind == k; }
    bool is_identifier(std::string_view name) const {
        return kind == TokenKind::identifier && text == name;
    }
    SourceRange range() const { return {loc, {loc.file, loc.offset + length}}; }
};

} // namespace brcc
