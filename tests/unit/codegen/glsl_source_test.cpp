// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The gl backend's GLSL on Brook source through the real front end: constant float arithmetic
// is printed as its value, computed in float as C computes it, because a driver's GLSL compiler
// may fold it otherwise (NVIDIA's made 0.0 / 0.0 zero where C gives NaN); expressions with a
// value known only at run time stay expressions.

#include "checked_source_test.hpp"
#include "codegen/gl/glsl_kernel_emitter.hpp"

#include <gtest/gtest.h>

namespace brcc {
namespace {

class GlslSourceTest : public CheckedSourceTest {
protected:
    /// The GLSL of kernel `name` in `source`, which must be free of errors.
    std::string glsl_of(std::string source, std::string_view name) {
        analyze_source(std::move(source));
        return HasFatalFailure() ? "" : glsl_kernel_source(kernel(name));
    }
};

TEST_F(GlslSourceTest, ConstantDivisionByZeroIsIeeeNotTheDriversFolding) {
    const std::string glsl = glsl_of(R"(
kernel void k(float a<>, out float4 r<>) {
    r = float4(a * (0.0 / 0.0), 1.0 / 0.0, -1.0 / 0, a);
}
)",
                                     "k");
    EXPECT_TRUE(contains(glsl, "a * uintBitsToFloat(0x7fc00000u)")) << glsl;
    EXPECT_TRUE(contains(glsl, "uintBitsToFloat(0x7f800000u), uintBitsToFloat(0xff800000u)"))
        << glsl;
    EXPECT_FALSE(contains(glsl, "0.0 / 0.0")) << glsl;
}

TEST_F(GlslSourceTest, ConstantArithmeticIsRoundedToFloatStepByStep) {
    // 1/3 in float, then 3 times that in float: 1.00000001 is not a float, so C's float
    // arithmetic gives exactly 1; 1e30 * 1e30 overflows float, though not double.
    const std::string glsl = glsl_of(R"(
kernel void k(float a<>, out float4 r<>) {
    r = float4(1.0 / 3.0, 3.0 * (1.0 / 3.0), -(2.0 + 0.5), 1e30 * 1e30 - a);
}
kernel void negative(float a<>, out float2 r<>) {
    r = float2(-(1.0 - 3.0), a - (1.0 - 3.0));
}
)",
                                     "k");
    EXPECT_TRUE(contains(glsl, "vec4(0.333333343, 1.0, -2.5, uintBitsToFloat(0x7f800000u) - a)"))
        << glsl;
    // A negative value is one operand: `- -2.0` must not print as the decrement `--2.0`.
    const std::string negative = glsl_kernel_source(kernel("negative"));
    EXPECT_TRUE(contains(negative, "vec2(-(-2.0), a - (-2.0))")) << negative;
}

TEST_F(GlslSourceTest, ArithmeticWithValuesKnownAtRunTimeStaysAnExpression) {
    const std::string glsl = glsl_of(R"(
kernel void k(float a<>, float zero, out float2 r<>) {
    r = float2(a - 1.0 / 4.0, 1.0 - zero * 2.0);
}
)",
                                     "k");
    EXPECT_TRUE(contains(glsl, "vec2(a - 0.25, 1.0 - zero * 2.0)")) << glsl;
}

// Mesa's compiler folds a division by a zero it knows (a literal, or a local it has seen set to
// 0.0) into 0 or garbage, so every float division whose divisor is not a non-zero constant
// divides by brt_opaque(divisor), which the compiler cannot see through; drivers still turn a
// division by a non-zero constant into a multiplication.
TEST_F(GlslSourceTest, FloatDivisorsTheCompilerCouldKnowToBeZeroAreOpaque) {
    const std::string glsl = glsl_of(R"(
kernel void k(float a<>, float zero, out float4 r<>) {
    float z = 0.0;
    float2 v = float2(a, a);
    float b = a;
    v /= z;
    b /= 2;
    r = float4(b / 0.0, 1.0 / zero, a / -4.0, (a + 1.0) / (a - z)) + float4(v / float2(2.0, 1.0), v);
}
)",
                                     "k");
    EXPECT_TRUE(contains(glsl, "v = (v / brt_opaque(z));")) << glsl;
    EXPECT_TRUE(contains(glsl, "b /= 2.0;")) << glsl;
    EXPECT_TRUE(contains(glsl, "vec4(b / brt_opaque(0.0), 1.0 / brt_opaque(zero), a / -4.0, "
                               "(a + 1.0) / brt_opaque(a - z))"))
        << glsl;
    EXPECT_TRUE(contains(glsl, "v / brt_opaque(vec2(2.0, 1.0))")) << glsl;
}

} // namespace
} // namespace brcc
