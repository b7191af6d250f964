// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The CUDA code generator on Brook source through the real front end: which loops warp_loops
// spreads over a warp (a sum over a gathered row, SGEMV's form) and which it leaves to a thread
// per element (a walk down a column, a short literal loop, a kernel whose elements are not each
// its own thread's), and the program printed for them: the warp-per-element entry points, the
// lanes' shares of the loop, the warp's sum, and the stores of lane 0 only.

#include "checked_source_test.hpp"
#include "codegen/cuda/cuda_kernel_emitter.hpp"
#include "codegen/cuda/warp_loop.hpp"

#include <gtest/gtest.h>

namespace brcc {
namespace {

class CudaSourceTest : public CheckedSourceTest {};

TEST_F(CudaSourceTest, SumOverAGatheredRowRunsAWarpPerElement) {
    analyze_source(R"(
kernel void sgemv(float y<>, float a[][], float x[], int n, out float r<>) {
    float row = indexof(y).x;
    float sum = 1.0;
    for (int j = 0; j < n; ++j) {
        sum -= a[row][j] * x[j];
    }
    r = sum;
}
)");
    EXPECT_EQ(warp_loops(kernel("sgemv")).size(), 1u);
    const std::string source = cuda_kernel_source(kernel("sgemv"));
    EXPECT_NE(source.find("void sgemv__cuda_warps("), std::string::npos);
    EXPECT_NE(source.find("void sgemv__cuda_warps_resized("), std::string::npos);
    EXPECT_EQ(source.find("void sgemv__cuda("), std::string::npos);
    EXPECT_EQ(source.find("void sgemv__cuda_resized("), std::string::npos);
    // Each lane from its own iteration on, a warp apart, its share of the sum from zero; the
    // warp's total joins the value the sum had before the loop.
    EXPECT_NE(source.find("const float brook_before_sum = sum;\n        sum = 0.0f;"),
              std::string::npos);
    EXPECT_NE(source.find("static_cast<long long>(0) + ::brook::cuda::device::warp_lane()"),
              std::string::npos);
    EXPECT_NE(source.find("brook_lane_j += ::brook::cuda::device::warp_lanes"), std::string::npos);
    EXPECT_NE(source.find("sum = brook_before_sum + ::brook::cuda::device::warp_sum(sum);"),
              std::string::npos);
    // A warp per element, and only its first lane stores.
    EXPECT_NE(source.find("first_element() / ::brook::cuda::device::warp_lanes"),
              std::string::npos);
    EXPECT_NE(source.find("if (::brook::cuda::device::warp_lane() == 0) {\n"
                          "            p4_r_data[i] = p4_r;"),
              std::string::npos);
}

TEST_F(CudaSourceTest, LoopsAWarpWouldReadStridedOrIdleStayAThreadPerElement) {
    analyze_source(R"(
kernel void column(float y<>, float a[][], int n, out float r<>) {
    float c = indexof(y).x;
    float sum = 0.0;
    for (int i = 0; i < n; ++i) {
        sum += a[i][c];
    }
    r = sum;
}
kernel void both(float y<>, float a[][], int n, out float r<>) {
    float sum = 0.0;
    for (int i = 0; i < n; ++i) {
        sum += a[i][i];
    }
    r = sum;
}
kernel void vector_only(float y<>, float w[], int n, out float r<>) {
    float sum = 0.0;
    for (int i = 0; i < n; ++i) {
        sum += w[i] * y;
    }
    r = sum;
}
kernel void short_row(float y<>, float a[][], out float r<>) {
    float row = indexof(y).x;
    float sum = 0.0;
    for (int j = 0; j < 4; ++j) {
        sum += a[row][j];
    }
    r = sum;
}
kernel void read_sum(float y<>, float a[][], int n, out float r<>) {
    float row = indexof(y).x;
    float sum = 0.0;
    for (int j = 0; j < n; ++j) {
        sum += a[row][j] * sum;
    }
    r = sum;
}
)");
    for (const char* name : {"column", "both", "vector_only", "short_row", "read_sum"}) {
        EXPECT_TRUE(warp_loops(kernel(name)).empty()) << name;
        const std::string source = cuda_kernel_source(kernel(name));
        EXPECT_NE(source.find("__cuda("), std::string::npos) << name;
        EXPECT_EQ(source.find("warp"), std::string::npos) << name;
    }
}

TEST_F(CudaSourceTest, ALongLiteralRowAndLoopsInsideBranchesAreSpread) {
    analyze_source(R"(
kernel void long_row(float y<>, float a[][], out float r<>) {
    float row = indexof(y).x;
    float sum = 0.0;
    if (y > 0.0) {
        for (int j = 0; j <= 31; ++j) {
            sum += a[row][j];
        }
    }
    r = sum;
}
)");
    EXPECT_EQ(warp_loops(kernel("long_row")).size(), 1u);
}

} // namespace
} // namespace brcc
