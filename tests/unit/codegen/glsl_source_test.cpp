// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The gl backend's GLSL on Brook source through the real front end: constant float arithmetic
// is printed as its value, computed in float as C computes it, because a driver's GLSL compiler
// may fold it otherwise (NVIDIA's made 0.0 / 0.0 zero where C gives NaN); expressions with a
// value known only at run time stay expressions.

#include "codegen/gl/glsl_kernel_emitter.hpp"
#include "parse/parser.hpp"
#include "sema/sema.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace brcc {
namespace {

class GlslSourceTest : public ::testing::Test {
protected:
    /// The GLSL of kernel `name` in `source`, which must be free of errors.
    std::string glsl_of(std::string source, std::string_view name) {
        const std::uint32_t file = sources_.add_buffer("test.br", std::move(source));
        unit_ = parse_translation_unit(sources_, file, {}, diags_);
        EXPECT_TRUE(unit_ != nullptr && !diags_.has_errors()) << out_.str();
        if (unit_ == nullptr || !analyze(*unit_, diags_))
            return "";
        const KernelDecl* kernel = unit_->find_kernel(name);
        EXPECT_NE(kernel, nullptr) << name;
        return kernel == nullptr ? "" : glsl_kernel_source(*kernel);
    }

    SourceManager sources_;
    std::ostringstream out_;
    DiagnosticEngine diags_{sources_, out_, false};
    std::unique_ptr<TranslationUnit> unit_;
};

bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

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
    const std::string negative = glsl_kernel_source(*unit_->find_kernel("negative"));
    EXPECT_TRUE(contains(negative, "vec2(-(-2.0), a - (-2.0))")) << negative;
}

TEST_F(GlslSourceTest, ArithmeticWithValuesKnownAtRunTimeStaysAnExpression) {
    const std::string glsl = glsl_of(R"(
kernel void k(float a<>, float zero, out float2 r<>) {
    r = float2(a / 0.0, 1.0 / zero);
}
)",
                                     "k");
    EXPECT_TRUE(contains(glsl, "a / 0.0")) << glsl;
    EXPECT_TRUE(contains(glsl, "1.0 / zero")) << glsl;
}

} // namespace
} // namespace brcc
