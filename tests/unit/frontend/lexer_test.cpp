// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The lexer: token kinds and spellings, directives as single tokens, malformed input.

#include "frontend_harness.hpp"

#include <gtest/gtest.h>

namespace brcc::test {
namespace {

std::vector<TokenKind> kinds(const std::vector<Token>& tokens) {
    std::vector<TokenKind> result;
    for (const Token& token : tokens)
        result.push_back(token.kind);
    return result;
}

std::vector<std::string> spellings(const std::vector<Token>& tokens) {
    std::vector<std::string> result;
    for (const Token& token : tokens)
        if (!token.is(TokenKind::end_of_file))
            result.push_back(token.text);
    return result;
}

TEST(Lexer, KeywordsIdentifiersAndPunctuators) {
    std::string diagnostics;
    const auto tokens =
        lex_string("kernel void f(out float4 r<>) { r.x += a[i] >>= 2; }", diagnostics);
    EXPECT_EQ(diagnostics, "");
    using K = TokenKind;
    EXPECT_EQ(kinds(tokens),
              (std::vector<K>{K::kw_kernel,   K::kw_void,    K::identifier, K::l_paren,
                              K::kw_out,      K::identifier, K::identifier, K::less,
                              K::greater,     K::r_paren,    K::l_brace,    K::identifier,
                              K::period,      K::identifier, K::plusequal,  K::identifier,
                              K::l_square,    K::identifier, K::r_square,   K::greatergreaterequal,
                              K::int_literal, K::semi,       K::r_brace,    K::end_of_file}));
}

TEST(Lexer, EveryPunctuator) {
    std::string diagnostics;
    const auto tokens = lex_string(
        "( ) { } [ ] ; , . ? : :: -> ... + - * / % & | ^ ~ ! < > = ++ -- && || << >> <= >= == "
        "!= += -= *= /= %= &= |= ^= <<= >>= ## x # y",
        diagnostics);
    EXPECT_EQ(diagnostics, "");
    for (const Token& token : tokens)
        if (!token.is(TokenKind::end_of_file) && !token.is(TokenKind::identifier)) {
            EXPECT_EQ(token_kind_name(token.kind), token.text);
        }
    EXPECT_EQ(tokens.size(), 52u);
}

TEST(Lexer, Numbers) {
    std::string diagnostics;
    const auto tokens =
        lex_string("0 12 0x1F 017 12u 12UL 1.0 1.f .5 1e-3f 2E+4 3.25L 1.5e3", diagnostics);
    EXPECT_EQ(diagnostics, "");
    using K = TokenKind;
    EXPECT_EQ(kinds(tokens),
              (std::vector<K>{K::int_literal, K::int_literal, K::int_literal, K::int_literal,
                              K::int_literal, K::int_literal, K::float_literal, K::float_literal,
                              K::float_literal, K::float_literal, K::float_literal,
                              K::float_literal, K::float_literal, K::end_of_file}));
    EXPECT_EQ(spellings(tokens)[9], "1e-3f");
}

TEST(Lexer, BadNumbers) {
    std::string diagnostics;
    lex_string("x = 12abc; y = 0x; z = 1e+; w = 09;", diagnostics);
    EXPECT_NE(diagnostics.find("1:7: error: invalid suffix 'abc' on integer constant"),
              std::string::npos)
        << diagnostics;
    EXPECT_NE(diagnostics.find("hexadecimal constant has no digits"), std::string::npos);
    EXPECT_NE(diagnostics.find("exponent has no digits"), std::string::npos);
    EXPECT_NE(diagnostics.find("warning: '09' is not a valid octal constant; read as BrookGPU "
                               "read it, as the octal 0 = 0"),
              std::string::npos)
        << diagnostics;
}

TEST(Lexer, LeadingZeroLiteralsWithEightOrNine) {
    EXPECT_EQ(misread_octal_prefix("0718"), 3u);
    EXPECT_EQ(misread_octal_prefix("09"), 1u);
    EXPECT_EQ(misread_octal_prefix("0718u"), 3u);
    EXPECT_EQ(misread_octal_prefix("071"), 0u);
    EXPECT_EQ(misread_octal_prefix("718"), 0u);
    EXPECT_EQ(misread_octal_prefix("0x89"), 0u);
    EXPECT_EQ(misread_octal_prefix("0"), 0u);
}

TEST(Lexer, CharactersStringsAndComments) {
    std::string diagnostics;
    const auto tokens =
        lex_string("'a' '\\n' \"str \\\" \" L\"w\" R\"x(raw \" )\" )x\" // line\n/* block\n */ z",
                   diagnostics);
    EXPECT_EQ(diagnostics, "");
    using K = TokenKind;
    EXPECT_EQ(kinds(tokens), (std::vector<K>{K::char_literal, K::char_literal, K::string_literal,
                                             K::string_literal, K::string_literal, K::identifier,
                                             K::end_of_file}));
    EXPECT_TRUE(tokens[5].at_line_start);
    EXPECT_TRUE(tokens[5].space_before);
}

TEST(Lexer, DirectivesAreSingleTokens) {
    std::string diagnostics;
    const auto tokens = lex_string("#define F(x) \\\n    ((x) * 2) /* a\n comment */\n"
                                   "  #  include <a.h>\nint a # b;\n#error don't\n",
                                   diagnostics);
    EXPECT_EQ(diagnostics, "");
    ASSERT_GE(tokens.size(), 3u);
    EXPECT_EQ(tokens[0].kind, TokenKind::directive);
    EXPECT_EQ(tokens[0].text, "#define F(x) \\\n    ((x) * 2) /* a\n comment */");
    EXPECT_EQ(tokens[1].kind, TokenKind::directive);
    EXPECT_EQ(tokens[1].text, "#  include <a.h>");
    // A `#` that does not start a line is a punctuator.
    EXPECT_EQ(tokens[4].kind, TokenKind::hash);
    EXPECT_EQ(tokens[7].kind, TokenKind::directive);
}

TEST(Lexer, LocationsAndFlags) {
    std::string diagnostics;
    const auto tokens = lex_string("a  b\n c", diagnostics);
    EXPECT_EQ(tokens[0].loc.offset, 0u);
    EXPECT_TRUE(tokens[0].at_line_start);
    EXPECT_EQ(tokens[1].loc.offset, 3u);
    EXPECT_TRUE(tokens[1].space_before);
    EXPECT_FALSE(tokens[1].at_line_start);
    EXPECT_TRUE(tokens[2].at_line_start);
    EXPECT_EQ(tokens[2].length, 1u);
    EXPECT_EQ(tokens[3].loc.offset, 7u); // end_of_file at the end
}

TEST(Lexer, UnterminatedCommentAndLiterals) {
    std::string diagnostics;
    lex_string("int a;\n/* no end", diagnostics);
    EXPECT_EQ(diagnostics.substr(0, 43), "test.br:2:1: error: unterminated /* comment");
    lex_string("char* s = \"abc\nint b;", diagnostics);
    EXPECT_EQ(diagnostics.substr(0, 55),
              "test.br:1:11: error: missing terminating '\"' character\n");
    lex_string("c = 'a", diagnostics);
    EXPECT_NE(diagnostics.find("1:5: error: missing terminating ' character"), std::string::npos);
}

TEST(Lexer, StrayBytesAreOneErrorPerRun) {
    std::string diagnostics;
    const auto tokens = lex_string("a @@@ b ` \x01", diagnostics);
    EXPECT_NE(diagnostics.find("1:3: error: stray '@' in program"), std::string::npos);
    EXPECT_NE(diagnostics.find("stray '`' in program"), std::string::npos);
    EXPECT_NE(diagnostics.find("stray '\\x01' in program"), std::string::npos);
    std::size_t errors = 0;
    for (std::size_t at = diagnostics.find("error:"); at != std::string::npos;
         at = diagnostics.find("error:", at + 1))
        ++errors;
    EXPECT_EQ(errors, 3u);
    EXPECT_EQ(tokens[1].kind, TokenKind::unknown);
    EXPECT_EQ(tokens[1].text, "@@@");
}

TEST(Lexer, NulByteMeansNotText) {
    std::string diagnostics;
    const auto tokens = lex_string(std::string("abc\0\x7f\x45LF\0\0", 10), diagnostics);
    EXPECT_EQ(tokens.size(), 1u);
    EXPECT_EQ(diagnostics.substr(0, 69),
              "test.br:1:4: error: input is not a text file (it contains a NUL byte)");
    EXPECT_EQ(diagnostics.find("error:", 30), std::string::npos);
}

TEST(Lexer, SingleTokenForPasting) {
    EXPECT_EQ(lex_single_token("ab")->kind, TokenKind::identifier);
    EXPECT_EQ(lex_single_token("+=")->kind, TokenKind::plusequal);
    EXPECT_EQ(lex_single_token("1.5f")->kind, TokenKind::float_literal);
    EXPECT_FALSE(lex_single_token("+-"));
    EXPECT_FALSE(lex_single_token(""));
    EXPECT_FALSE(lex_single_token("@"));
}

} // namespace
} // namespace brcc::test
