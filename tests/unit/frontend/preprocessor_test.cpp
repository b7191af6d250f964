// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The preprocessor: macro expansion in kernels, conditionals over host code and kernels, -D
// options, and malformed directives.

#include "frontend_harness.hpp"

#include <gtest/gtest.h>

namespace brcc::test {
namespace {

/// The dump of `body` as the only statement list of a kernel, after `prelude` (directives).
std::string body_dump(const std::string& prelude, const std::string& body,
                      std::string* diagnostics = nullptr, PreprocessorOptions options = {}) {
    Frontend fe(prelude + "kernel void k(float a<>, float b<>, out float r<>) {\n" + body + "\n}\n",
                std::move(options));
    if (diagnostics)
        *diagnostics = fe.diagnostics();
    else
        EXPECT_EQ(fe.diagnostics(), "");
    const std::string dump = fe.kernel_dump("k");
    const std::size_t compound = dump.find("    Compound\n");
    return compound == std::string::npos ? dump : dump.substr(compound + 13);
}

TEST(Preprocessor, ObjectLikeMacros) {
    EXPECT_EQ(body_dump("#define SCALE 2.5f\n#define TWICE SCALE * SCALE\n", "r = TWICE;"),
              R"(      ExprStmt
        Assign =
          NameRef r
          Binary *
            FloatLiteral 2.5
            FloatLiteral 2.5
)");
}

TEST(Preprocessor, FunctionLikeMacrosWithNestedExpansion) {
    EXPECT_EQ(body_dump("#define SQ(x) ((x) * (x))\n#define ADD(p, q) (p + q)\n",
                        "r = ADD(SQ(a), SQ(ADD(a, b)));"),
              R"(      ExprStmt
        Assign =
          NameRef r
          Binary +
            Binary *
              NameRef a
              NameRef a
            Binary *
              Binary +
                NameRef a
                NameRef b
              Binary +
                NameRef a
                NameRef b
)");
}

TEST(Preprocessor, NoReexpansionInsideOwnExpansion) {
    // `c` expands to `c + b`; the inner `c` is not expanded again; `f` without `(` stays a name.
    EXPECT_EQ(body_dump("#define c c + b\n#define f(x) x\n", "r = c; r = f;"),
              R"(      ExprStmt
        Assign =
          NameRef r
          Binary +
            NameRef c
            NameRef b
      ExprStmt
        Assign =
          NameRef r
          NameRef f
)");
}

TEST(Preprocessor, MutuallyRecursiveMacrosStop) {
    EXPECT_EQ(body_dump("#define X Y\n#define Y X\n", "r = X;"), R"(      ExprStmt
        Assign =
          NameRef r
          NameRef X
)");
}

TEST(Preprocessor, StringizeAndPaste) {
    EXPECT_EQ(body_dump("#define CAT(x, y) x ## y\n#define MEMBER(v, c) v.c\n",
                        "r = CAT(a, b) + MEMBER(a, x) + CAT(1, 5);"),
              R"(      ExprStmt
        Assign =
          NameRef r
          Binary +
            Binary +
              NameRef ab
              Member .x
                NameRef a
            IntLiteral 15
)");
}

TEST(Preprocessor, VariadicMacros) {
    EXPECT_EQ(body_dump("#define CALL(f, ...) f(__VA_ARGS__)\n", "r = CALL(max, a, b);"),
              R"(      ExprStmt
        Assign =
          NameRef r
          Call max
            NameRef a
            NameRef b
)");
}

TEST(Preprocessor, ExpandedTokensPointAtTheUse) {
    std::string diagnostics;
    body_dump("#define BAD (a +)\n", "r = 1;\n  r = BAD;", &diagnostics);
    EXPECT_EQ(diagnostics.substr(0, 54), "test.br:4:7: error: expected an expression before ')'\n");
}

TEST(Preprocessor, ConditionalsInsideKernels) {
    EXPECT_EQ(body_dump("#define N 3\n",
                        "#if N > 2 && defined(N) && !defined UNDEFINED\n  r = 1;\n#else\n  r = 2;\n"
                        "#endif\n#ifdef UNDEFINED\n  r = 3;\n#elif (N * 2) % 4 == 2\n  r = 4;\n"
                        "#endif"),
              R"(      ExprStmt
        Assign =
          NameRef r
          IntLiteral 1
      ExprStmt
        Assign =
          NameRef r
          IntLiteral 4
)");
}

TEST(Preprocessor, DefinesInFileOrder) {
    EXPECT_EQ(
        body_dump("#define V 1\n#undef V\n#define V 2\n", "r = V;\n#undef V\n#define V 5\n r = V;"),
        R"(      ExprStmt
        Assign =
          NameRef r
          IntLiteral 2
      ExprStmt
        Assign =
          NameRef r
          IntLiteral 5
)");
}

TEST(Preprocessor, CommandLineDefines) {
    PreprocessorOptions options;
    options.defines = {{"GAIN", "4"}, {"SQ(x)", "x*x"}};
    EXPECT_EQ(body_dump("", "r = SQ(GAIN);", nullptr, options), R"(      ExprStmt
        Assign =
          NameRef r
          Binary *
            IntLiteral 4
            IntLiteral 4
)");
}

TEST(Preprocessor, InactiveKernelsAndTypedefsAreDropped) {
    Frontend fe(R"(#define USE_B 0
#if USE_B
kernel void a(float x<>, out float y<>) { y = x; }
typedef struct { float p; } P;
#else
kernel void b(float x<>, out float y<>) { y = x; }
#endif
int after;
#ifdef NOT_DEFINED
  this is not C at all {
#endif
)");
    EXPECT_EQ(fe.diagnostics(), "");
    ASSERT_EQ(fe.unit().kernels.size(), 1u);
    EXPECT_EQ(fe.unit().kernels[0]->name, "b");
    EXPECT_TRUE(fe.unit().structs.empty());
    EXPECT_EQ(fe.host_text(), "#define USE_B 0\n#if USE_B\n#else\n\n#endif\nint after;\n"
                              "#ifdef NOT_DEFINED\n#endif\n");
}

TEST(Preprocessor, IncludeAndOtherDirectivesPassThrough) {
    const std::string source =
        "#include <stdio.h>\n#pragma once\n#error don't \"stop\n# 12 \"x.c\"\n#\n";
    Frontend fe(source);
    EXPECT_EQ(fe.diagnostics(), "");
    EXPECT_EQ(fe.host_text(), source);
}

TEST(Preprocessor, MalformedConditionals) {
    Frontend missing_endif("#if 1\nint a;\n#ifdef X\n#endif\n");
    EXPECT_EQ(missing_endif.diagnostics().substr(0, 52),
              "test.br:1:1: error: unterminated #if: no matching #e");
    Frontend two_elses("#if 0\n#else\n#else\n#endif\n");
    EXPECT_EQ(two_elses.diagnostics().substr(0, 38), "test.br:3:1: error: #else after #else\n");
    Frontend stray_endif("int a;\n#endif\n#elif 1\n");
    EXPECT_EQ(stray_endif.errors(), 2u);
    EXPECT_NE(stray_endif.diagnostics().find("2:1: error: #endif without #if"), std::string::npos);
}

TEST(Preprocessor, MalformedDefinesAndExpressions) {
    Frontend fe("#define\n#define 3 x\n#define F(a, a) a\n#define G(a b) a\n#define H(x) #y\n"
                "#define J ## x\n#if 1 +\n#endif\n#if 1 / 0\n#endif\n#if (1\n#endif\n"
                "#if defined\n#endif\n#if\n#endif\n#if 1.5\n#endif\n");
    const std::string d = fe.diagnostics();
    EXPECT_NE(d.find("1:1: error: macro name missing in #define"), std::string::npos) << d;
    EXPECT_NE(d.find("2:9: error: macro names must be identifiers"), std::string::npos) << d;
    EXPECT_NE(d.find("3:14: error: duplicate macro parameter 'a'"), std::string::npos) << d;
    EXPECT_NE(d.find("4:13: error: expected a parameter name"), std::string::npos) << d;
    EXPECT_NE(d.find("5:14: error: '#' is not followed by a macro parameter"), std::string::npos)
        << d;
    EXPECT_NE(d.find("6:11: error: '##' cannot appear at either end"), std::string::npos) << d;
    EXPECT_NE(d.find("7:8: error: expected a value in the #if expression"), std::string::npos) << d;
    EXPECT_NE(d.find("9:7: error: division by zero in #if"), std::string::npos) << d;
    EXPECT_NE(d.find("11:7: error: missing ')' in the #if expression"), std::string::npos) << d;
    EXPECT_NE(d.find("13:5: error: operator 'defined' requires an identifier"), std::string::npos)
        << d;
    EXPECT_NE(d.find("15:1: error: #if with no expression"), std::string::npos) << d;
    EXPECT_NE(d.find("17:5: error: token '1.5' is not valid"), std::string::npos) << d;
    EXPECT_EQ(fe.errors(), 12u) << d;
}

TEST(Preprocessor, MacroCallErrors) {
    std::string diagnostics;
    body_dump("#define F(x, y) x\n", "r = F(a);", &diagnostics);
    EXPECT_EQ(diagnostics.substr(0, 73),
              "test.br:3:5: error: macro 'F' takes 2 argument(s), but 1 given\nr = F(a);\n")
        << diagnostics;
    // One mistake, one error: the parser stays quiet about the broken expansion.
    EXPECT_EQ(diagnostics.find("error:", 20), std::string::npos) << diagnostics;
    body_dump("#define F(x) x\n", "r = F(a;", &diagnostics);
    EXPECT_NE(diagnostics.find("error: unterminated argument list invoking macro 'F'"),
              std::string::npos)
        << diagnostics;
}

TEST(Preprocessor, ExponentialMacrosAreStopped) {
    std::string diagnostics;
    body_dump("#define A0 a\n#define A1 A0 + A0\n#define A2 A1 + A1\n#define A3 A2 + A2\n"
              "#define A4 A3 + A3\n#define A5 A4 + A4\n#define A6 A5 + A5\n#define A7 A6 + A6\n"
              "#define A8 A7 + A7\n#define A9 A8 + A8\n#define B0 A9 + A9\n#define B1 B0 + B0\n"
              "#define B2 B1 + B1\n#define B3 B2 + B2\n#define B4 B3 + B3\n#define B5 B4 + B4\n"
              "#define B6 B5 + B5\n#define B7 B6 + B6\n#define B8 B7 + B7\n#define B9 B8 + B8\n",
              "r = B9;", &diagnostics);
    EXPECT_NE(diagnostics.find("error: macro expansion is too large"), std::string::npos);
}

TEST(Preprocessor, ConditionArithmetic) {
    Frontend fe("#if (7 / 2 == 3) && (7 % 4 == 3) && (1 << 4) == 16 && (-1 >> 1) == -1 && "
                "(3 ^ 5) == 6 && (6 & 3) == 2 && (4 | 1) == 5 && ~0 == -1 && 0x10 == 16 && "
                "010 == 8 && 'A' == 65 && (1 ? 2 : 3) == 2 && 2 > 1 && 1 >= 1 && 1 <= 2 && "
                "1 != 2 && !0 && -(-3) == +3 && UNDEFINED_NAME == 0 && true\n"
                "kernel void ok(float a<>, out float b<>) { b = a; }\n#endif\n");
    EXPECT_EQ(fe.diagnostics(), "");
    EXPECT_EQ(fe.unit().kernels.size(), 1u);
}

} // namespace
} // namespace brcc::test
