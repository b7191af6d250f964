// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// run_reduce with hand-written fold/combine functions: sums, an ordered (non-commutative) 2x2
// matrix product on one and several threads, reductions to a stream, and target errors.
#include <brook/brook.hpp>
#include <brook/kernel_abi.hpp>

#include "cpu_only_kernel.hpp"

#include "death_test.hpp"
#include "hand_kernels.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

namespace {

class RunReduceDeathTest : public RuntimeDeathTest {};

using brook::KernelArg;
using brook::KernelInfo;
using brook::make_stream;
using brook::ParamInfo;
using brook::ParamKind;
using brook::cpu::Frame;
using hand::combine;
using hand::fold;

// reduce void sum(float a<>, reduce float r<>) { r += a; }
void sum_body(float& r, const float& a) {
    r += a;
}
const ParamInfo sum_params[] = {
    {"a", ParamKind::ReduceInput, &brook::element_traits<float>::type, 0},
    {"r", ParamKind::ReduceAccumulator, &brook::element_traits<float>::type, 0},
};
const brook_test::CpuOnlyKernel sum_kernel{
    "sum", sum_params, {.fold = &fold<float, sum_body>, .combine = &combine<float, sum_body>}};

// reduce void matmul(float4 a<>, reduce float4 r<>): r = r * a for 2x2 matrices (x y / z w).
void matmul_body(float4& r, const float4& a) {
    r = float4(r.x * a.x + r.y * a.z, r.x * a.y + r.y * a.w, r.z * a.x + r.w * a.z,
               r.z * a.y + r.w * a.w);
}
const ParamInfo matmul_params[] = {
    {"a", ParamKind::ReduceInput, &brook::element_traits<float4>::type, 0},
    {"r", ParamKind::ReduceAccumulator, &brook::element_traits<float4>::type, 0},
};
const brook_test::CpuOnlyKernel matmul_kernel{
    "matmul",
    matmul_params,
    {.fold = &fold<float4, matmul_body>, .combine = &combine<float4, matmul_body>}};

template <class T> void reduce_to(const KernelInfo& kernel, const brook::stream& a, T& result) {
    const KernelArg args[] = {KernelArg::input(a), KernelArg::reduce_target(result)};
    brook::run_reduce(kernel, args);
}

void reduce_to_stream(const KernelInfo& kernel, const brook::stream& a, brook::stream& target) {
    const KernelArg args[] = {KernelArg::input(a), KernelArg::output_stream(target)};
    brook::run_reduce(kernel, args);
}

/// Elements of the dihedral group of the square: exact in float, and their products depend on
/// the order of the operands.
std::vector<float4> group_sequence(std::size_t n) {
    const float4 elements[8] = {
        float4(1, 0, 0, 1),  float4(0, -1, 1, 0), float4(-1, 0, 0, -1), float4(0, 1, -1, 0),
        float4(1, 0, 0, -1), float4(-1, 0, 0, 1), float4(0, 1, 1, 0),   float4(0, -1, -1, 0),
    };
    std::vector<float4> values(n);
    unsigned state = 12345;
    for (float4& v : values) {
        state = state * 1103515245u + 12345u;
        v = elements[(state >> 16) % 8];
    }
    return values;
}

float4 ordered_product(const std::vector<float4>& values) {
    float4 r = values[0];
    for (std::size_t i = 1; i < values.size(); ++i) {
        matmul_body(r, values[i]);
    }
    return r;
}

bool same(const float4& a, const float4& b) {
    return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w;
}

/// The matrix product of a 300 x 257 and a 30 x 31 x 83 stream, which the CPU backend splits
/// between threads at positions inside rows and planes.
bool ordered_product_matches() {
    const std::vector<float4> flat = group_sequence(300 * 257);
    brook::stream a = make_stream<float4>(300, 257);
    streamRead(a, flat.data());
    float4 result;
    reduce_to(matmul_kernel, a, result);
    const std::vector<float4> cube = group_sequence(30 * 31 * 83);
    brook::stream b = make_stream<float4>(30, 31, 83);
    streamRead(b, cube.data());
    float4 cube_result;
    reduce_to(matmul_kernel, b, cube_result);
    return same(result, ordered_product(flat)) && same(cube_result, ordered_product(cube));
}

TEST(RunReduce, SumToValue) {
    const std::size_t n = 100003;
    std::vector<float> values(n);
    for (std::size_t i = 0; i < n; ++i) {
        values[i] = static_cast<float>(i % 5);
    }
    brook::stream a = make_stream<float>(n);
    streamRead(a, values.data());
    float total = -1.0f;
    reduce_to(sum_kernel, a, total);
    EXPECT_EQ(total, 200003.0f);
}

TEST(RunReduce, SmallSumOnOneElement) {
    brook::stream a = make_stream<float>(1);
    const float value = 4.5f;
    streamRead(a, &value);
    float total = 100.0f;
    reduce_to(sum_kernel, a, total);
    EXPECT_EQ(total, 4.5f);
}

TEST(RunReduce, OfAnEmptyStreamLeavesTheTarget) {
    brook::stream none = make_stream<float>(0);
    float total = 5.0f;
    reduce_to(sum_kernel, none, total);
    EXPECT_EQ(total, 5.0f);
    brook::stream rows = make_stream<float>(2, 0);
    brook::stream target = make_stream<float>(2, 1);
    const float kept[2] = {7, 8};
    streamRead(target, kept);
    reduce_to_stream(sum_kernel, rows, target);
    float out[2];
    streamWrite(target, out);
    EXPECT_EQ(out[0], 7.0f);
    EXPECT_EQ(out[1], 8.0f);
}

TEST(RunReduce, MatrixProductKeepsOrder) {
    const std::vector<float4> values = group_sequence(6);
    brook::stream a = make_stream<float4>(2, 3);
    streamRead(a, values.data());
    float4 result;
    reduce_to(matmul_kernel, a, result);
    EXPECT_TRUE(same(result, ordered_product(values)));
    EXPECT_TRUE(ordered_product_matches());
}

TEST_F(RunReduceDeathTest, MatrixProductKeepsOrderOnSeveralThreads) {
    for (const char* threads : {"3", "7"}) {
        EXPECT_EXIT(
            {
                setenv("BRT_THREADS", threads, 1);
                std::exit(ordered_product_matches() ? 0 : 3);
            },
            testing::ExitedWithCode(0), "")
            << threads << " threads";
    }
}

TEST(RunReduce, ToStreamFoldsBlocks) {
    brook::stream a = make_stream<float>(4, 6);
    std::vector<float> values(24);
    for (std::size_t i = 0; i < 24; ++i) {
        values[i] = static_cast<float>(i);
    }
    streamRead(a, values.data());
    brook::stream target = make_stream<float>(2, 3);
    reduce_to_stream(sum_kernel, a, target);
    std::vector<float> out(6);
    streamWrite(target, out.data());
    // Block (0, 0) holds 0, 1, 6, 7.
    EXPECT_EQ(out, (std::vector<float>{14, 22, 30, 62, 70, 78}));
}

TEST(RunReduce, ToStreamKeepsOrderInEachBlock) {
    const std::vector<float4> values = group_sequence(3 * 40);
    brook::stream a = make_stream<float4>(3, 40);
    streamRead(a, values.data());
    brook::stream target = make_stream<float4>(3, 1);
    reduce_to_stream(matmul_kernel, a, target);
    float4 out[3];
    streamWrite(target, out);
    for (std::size_t row = 0; row < 3; ++row) {
        const std::vector<float4> block(values.begin() + static_cast<long>(row * 40),
                                        values.begin() + static_cast<long>(row * 40 + 40));
        EXPECT_TRUE(same(out[row], ordered_product(block))) << row;
    }
}

TEST(RunReduce, OfADomainView) {
    brook::stream a = make_stream<float>(3, 4);
    const float values[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    streamRead(a, values);
    float total = 0;
    reduce_to(sum_kernel, a.domain(int2(1, 1), int2(3, 3)), total);
    EXPECT_EQ(total, 5.0f + 6.0f + 9.0f + 10.0f);
}

TEST(RunReduce, ToItself) {
    brook::stream a = make_stream<float>(4);
    const float values[4] = {1, 2, 3, 4};
    streamRead(a, values);
    reduce_to_stream(sum_kernel, a, a);
    float out[4];
    streamWrite(a, out);
    EXPECT_EQ(out[3], 4.0f);
}

TEST_F(RunReduceDeathTest, TargetExtentsMustDivide) {
    brook::stream a = make_stream<float>(4, 6);
    brook::stream bad = make_stream<float>(3, 3);
    EXPECT_EXIT(reduce_to_stream(sum_kernel, a, bad), testing::ExitedWithCode(1),
                "brook: error: reduce 'sum': reduce target 'r' is float<3, 3> but the reduce "
                "input 'a' is float<4, 6>; a target stream needs");
    brook::stream flat = make_stream<float>(2);
    EXPECT_EXIT(reduce_to_stream(sum_kernel, a, flat), testing::ExitedWithCode(1),
                "reduce target 'r' is float<2> but the reduce input 'a' is float<4, 6>");
}

TEST_F(RunReduceDeathTest, ValueTypeMustMatch) {
    brook::stream a = make_stream<float>(4);
    float4 wrong;
    const KernelArg args[] = {KernelArg::input(a), KernelArg::reduce_target(wrong)};
    EXPECT_EXIT(brook::run_reduce(sum_kernel, args), testing::ExitedWithCode(1),
                "reduce 'sum': reduce target 'r' is a float4 variable but the reduce input 'a' "
                "is float<4>; the variable must be a float");
}

TEST_F(RunReduceDeathTest, InputTypeMustMatch) {
    brook::stream a = make_stream<float2>(4);
    float result;
    EXPECT_EXIT(reduce_to(sum_kernel, a, result), testing::ExitedWithCode(1),
                "reduce 'sum': reduce input 'a' is float2<4>, but the parameter takes float "
                "elements");
}

} // namespace
