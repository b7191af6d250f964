// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Syntax errors: where they are reported, that one mistake gives one error, that parsing goes
// on to find the next mistake, and that no input crashes or hangs the front end.

#include "frontend_harness.hpp"

#include <gtest/gtest.h>

#include <random>

namespace brcc::test {
namespace {

std::vector<std::string> error_lines(const std::string& diagnostics) {
    std::vector<std::string> result;
    std::size_t begin = 0;
    while (begin < diagnostics.size()) {
        const std::size_t end = diagnostics.find('\n', begin);
        const std::string line = diagnostics.substr(begin, end - begin);
        if (line.find(": error: ") != std::string::npos ||
            line.find(": note: ") != std::string::npos)
            result.push_back(line);
        begin = end == std::string::npos ? diagnostics.size() : end + 1;
    }
    return result;
}

TEST(Recovery, OneErrorPerBadStatementAndGoOn) {
    Frontend fe(R"(kernel void k(float a<>, out float r<>) {
    float x = a +;
    r = a * ;
    if (a > 0 { r = 1; }
    r = a
    r = 2;
    float y = 3;
}
kernel void next(float a<>, out float r<>) { r = ) a; }
)");
    EXPECT_EQ(error_lines(fe.diagnostics()),
              (std::vector<std::string>{
                  "test.br:2:18: error: expected an expression before ';'",
                  "test.br:3:13: error: expected an expression before ';'",
                  "test.br:4:15: error: expected ')' before '{'",
                  "test.br:6:5: error: expected ';' before 'r'",
                  "test.br:9:50: error: expected an expression before ')'",
              }));
    ASSERT_EQ(fe.unit().kernels.size(), 2u);
    // The statements that were fine are kept.
    EXPECT_EQ(fe.unit().kernels[0]->body->body.size(), 1u);
}

TEST(Recovery, UnknownTypesAreNotSyntaxErrors) {
    Frontend fe(R"(kernel void k(Foo a<>, out float r<>) {
    Bar x = 1;
    const Baz y = 2, z;
    r = x + y;
}
)");
    EXPECT_EQ(error_lines(fe.diagnostics()),
              (std::vector<std::string>{"test.br:1:15: error: unknown type name 'Foo'",
                                        "test.br:2:5: error: unknown type name 'Bar'",
                                        "test.br:3:11: error: unknown type name 'Baz'"}));
    const KernelDecl* kernel = fe.unit().kernels.at(0);
    ASSERT_EQ(kernel->params.size(), 2u);
    EXPECT_TRUE(kernel->params[0]->type.is_error());
    EXPECT_EQ(kernel->params[0]->param_kind, ParamKind::InputStream);
    EXPECT_EQ(kernel->body->body.size(), 3u);
}

TEST(Recovery, BadParameterListStillParsesTheBody) {
    Frontend fe("kernel void k(float a<>, out float r<) {\n    r = a +;\n}\n");
    EXPECT_EQ(error_lines(fe.diagnostics()),
              (std::vector<std::string>{"test.br:1:38: error: expected '>' before ')'",
                                        "test.br:2:12: error: expected an expression before ';'"}));
}

TEST(Recovery, TruncatedKernel) {
    Frontend fe("kernel void k(float a<>, out float r<>) {\n    if (a > 0) {\n        r = a;\n");
    EXPECT_EQ(error_lines(fe.diagnostics()),
              (std::vector<std::string>{"test.br:4:1: error: expected '}' at end of input"}));
    Frontend statement("kernel void k(float a<>, out float b<>) {\n  b = a");
    EXPECT_EQ(error_lines(statement.diagnostics()),
              (std::vector<std::string>{"test.br:2:8: error: expected ';' at end of input"}));
    Frontend header("kernel void k(float a<>, out float");
    EXPECT_EQ(header.errors(), 1u) << header.diagnostics();
    Frontend comment("kernel void k(float a<>, out float r<>) {\n  r = a; /* unfinished\n");
    EXPECT_EQ(comment.errors(), 2u) << comment.diagnostics();
    EXPECT_NE(comment.diagnostics().find("2:10: error: unterminated /* comment"),
              std::string::npos);
}

TEST(Recovery, SpecificMistakes) {
    Frontend fe(R"(kernel void k(float a<>, float g[][][][][], out float r<>) {
    float t[4];
    r = "text";
    void v;
    r = float;
    r = indexof(1);
}
)");
    EXPECT_EQ(error_lines(fe.diagnostics()),
              (std::vector<std::string>{
                  "test.br:1:32: error: gather parameter 'g' has 5 dimensions; at most 4 are "
                  "supported",
                  "test.br:2:12: error: arrays cannot be declared in kernels; pass a gather "
                  "parameter (name[]) instead",
                  "test.br:3:9: error: string literals cannot be used in kernels",
                  "test.br:4:10: error: variable 'v' cannot have type void",
                  "test.br:5:9: error: expected an expression before 'float'",
                  "test.br:6:17: error: expected a stream name after 'indexof'",
              }));
}

TEST(Recovery, StrayBytesInKernelAreReportedOnce) {
    Frontend fe("kernel void k(float a<>, out float r<>) {\n    r = a @ 2;\n}\n");
    EXPECT_EQ(error_lines(fe.diagnostics()),
              (std::vector<std::string>{"test.br:2:11: error: stray '@' in program"}));
}

TEST(Recovery, DeepNestingIsAnErrorNotACrash) {
    const std::string deep_parens(5000, '(');
    Frontend parens("kernel void k(out float r<>) { r = " + deep_parens + "1; }\n");
    EXPECT_EQ(parens.errors(), 1u) << error_lines(parens.diagnostics()).back().substr(0, 300);
    EXPECT_NE(parens.diagnostics().find("error: code is nested too deeply"), std::string::npos);
    Frontend blocks("kernel void k(out float r<>) { " + std::string(5000, '{') +
                    std::string(5000, '}') + " }\n");
    EXPECT_EQ(blocks.errors(), 1u);
    Frontend unary("kernel void k(out float r<>) { r = " + std::string(5000, '-') + "1; }\n");
    EXPECT_EQ(unary.errors(), 1u);
    Frontend condition("#if " + deep_parens + "1\n#endif\n");
    EXPECT_NE(condition.diagnostics().find("error: the #if expression is nested too deeply"),
              std::string::npos);
}

TEST(Recovery, BinaryGarbageIsOneError) {
    std::string garbage;
    std::mt19937 random(7);
    for (int i = 0; i < 4000; ++i)
        garbage += static_cast<char>(random() % 256);
    garbage[100] = '\0';
    Frontend fe(garbage);
    EXPECT_EQ(fe.errors(), 1u);
}

TEST(Recovery, MutatedProgramsNeverCrash) {
    const std::string program = R"(#define N 4
typedef struct { float3 o; float3 d; } Ray;
kernel float3 at(Ray r, float t) { return r.o + r.d * t; }
kernel void k(Ray r<>, float g[][], out float3 p<>, float s) {
    float x = g[indexof(p).y][indexof(p).x] * N;
    for (int i = 0; i < N; i++) { if (x > s) break; x += 1.0f; }
    p = x > 0 ? at(r, x) : float3(0, 0, 0);
}
reduce void sum(float a<>, reduce float b<>) { b += a; }
void main(void) { float a<10, 10>; Ray rays<100>; }
)";
    const char pieces[] = "{}()[]<>;,.=+-*/#\"'\\\n x0";
    std::mt19937 random(42);
    for (int round = 0; round < 400; ++round) {
        std::string mutant = program;
        const int edits = 1 + static_cast<int>(random() % 4);
        for (int e = 0; e < edits && !mutant.empty(); ++e) {
            const std::size_t at = random() % mutant.size();
            switch (random() % 3) {
            case 0:
                mutant.erase(at, 1 + random() % 8);
                break;
            case 1:
                mutant.insert(at, 1, pieces[random() % (sizeof(pieces) - 1)]);
                break;
            default:
                mutant.resize(at);
                break;
            }
        }
        if (mutant.empty())
            continue;
        Frontend fe(mutant);
        (void)fe.dump();
    }
}

} // namespace
} // namespace brcc::test
