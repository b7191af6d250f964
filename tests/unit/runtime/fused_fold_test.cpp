// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The cpu backend's choice of fold where a held map call's output is the next reduction's input
// (runtime/backends/cpu/deferred_map.hpp): the fused fold brcc printed for the two kernels
// (brook::cpu::FusedFold), found in the code of either, which computes the map's elements as it
// folds them; else the map run a piece at a time and each piece folded. Both must give what
// running the calls one after the other gives, and the map's output must still be there when
// the program reads it.

#include <brook/brook.hpp>
#include <brook/kernel_abi.hpp>

#include "cpu_only_kernel.hpp"
#include "hand_kernels.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

namespace {

using brook::KernelArg;
using brook::make_stream;
using brook::ParamInfo;
using brook::ParamKind;
using brook::cpu::Box;
using brook::cpu::Frame;

// kernel void square(float a<>, out float b<>) { b = a * a; }
void square_cpu(const Frame& frame, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        const float a = hand::input_at<float>(frame, 0, i);
        hand::output_at<float>(frame, 1, i) = a * a;
    }
}
const ParamInfo square_params[] = {
    {"a", ParamKind::InputStream, &brook::element_traits<float>::type, 0},
    {"b", ParamKind::OutputStream, &brook::element_traits<float>::type, 0},
};
const brook_test::CpuOnlyKernel square_kernel{"square", square_params, {.kernel = &square_cpu}};

/// The fused folds' calls, so that a test can tell which way a reduction ran.
std::atomic<int> fused_calls{0};

/// What brcc prints for square folded by a sum: the squares of the map's input inside `box`
/// (the map's input has its output's shape here), summed in row-major order.
void square_folded_by_sum(const Frame& map, const Box& box, void* accumulator) {
    ++fused_calls;
    float total = 0.0f;
    brook::cpu::for_each_in_box(map.args[0].stream, box, sizeof(float), [&](const std::byte* e) {
        float a = 0.0f;
        std::memcpy(&a, e, sizeof a);
        total += a * a;
    });
    *static_cast<float*>(accumulator) = total;
}
const brook::cpu::FusedFold square_sum_fold[] = {{&square_kernel.code(), &square_folded_by_sum}};

void add(float& r, const float& a) {
    r += a;
}
const ParamInfo sum_params[] = {
    {"a", ParamKind::ReduceInput, &brook::element_traits<float>::type, 0},
    {"r", ParamKind::ReduceAccumulator, &brook::element_traits<float>::type, 0},
};
// The same sum three times: paired with square in its own code, not paired, and paired in the
// code of a square kernel that follows it in the file.
const brook_test::CpuOnlyKernel paired_sum{"sum",
                                           sum_params,
                                           {.fold = &hand::fold<float, add>,
                                            .combine = &hand::combine<float, add>,
                                            .fused_folds = square_sum_fold}};
const brook_test::CpuOnlyKernel unpaired_sum{
    "sum", sum_params, {.fold = &hand::fold<float, add>, .combine = &hand::combine<float, add>}};
const brook::cpu::FusedFold later_square_fold[] = {{&unpaired_sum.code(), &square_folded_by_sum}};
const brook_test::CpuOnlyKernel later_square{
    "square", square_params, {.kernel = &square_cpu, .fused_folds = later_square_fold}};

void square(const brook_test::CpuOnlyKernel& kernel, const brook::stream& a, brook::stream& b) {
    const KernelArg args[] = {KernelArg::input(a), KernelArg::output_stream(b)};
    brook::run_kernel(kernel, args);
}
float sum_value(const brook_test::CpuOnlyKernel& kernel, const brook::stream& a) {
    float result = -1.0f;
    const KernelArg args[] = {KernelArg::input(a), KernelArg::reduce_target(result)};
    brook::run_reduce(kernel, args);
    return result;
}
void sum_to(const brook_test::CpuOnlyKernel& kernel, const brook::stream& a, brook::stream& t) {
    const KernelArg args[] = {KernelArg::input(a), KernelArg::output_stream(t)};
    brook::run_reduce(kernel, args);
}

/// A rows x columns stream of small whole numbers (every sum of their squares exact in float).
brook::stream numbers(std::size_t rows, std::size_t columns) {
    std::vector<float> values(rows * columns);
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = static_cast<float>(i % 7) - 3.0f;
    }
    brook::stream s = make_stream<float>(rows, columns);
    streamRead(s, values.data());
    return s;
}

/// Each row's sum of squares of numbers(rows, columns).
std::vector<float> row_sums_of_squares(std::size_t rows, std::size_t columns) {
    std::vector<float> sums(rows, 0.0f);
    for (std::size_t i = 0; i < rows * columns; ++i) {
        const float a = static_cast<float>(i % 7) - 3.0f;
        sums[i / columns] += a * a;
    }
    return sums;
}

float total(const std::vector<float>& values) {
    float sum = 0.0f;
    for (const float v : values) {
        sum += v;
    }
    return sum;
}

class FusedFold : public ::testing::Test {
protected:
    void SetUp() override {
        // The calls wait for no reduction where fusion is off, so there is nothing to choose.
        for (const char* off : {"BRT_CPU_FUSE", "BRT_CHECK", "BRT_SYNC", "BRT_PROFILE"}) {
            const char* value = std::getenv(off);
            const bool fusion_off =
                std::string_view(off) == "BRT_CPU_FUSE"
                    ? value != nullptr && std::string_view(value) == "0"
                    : value != nullptr && *value != '\0' && std::string_view(value) != "0";
            if (fusion_off) {
                GTEST_SKIP() << off << " is set: map calls are not held for reductions";
            }
        }
        if (std::string_view(brook::backend_name()) != "cpu") {
            GTEST_SKIP() << "the fused folds are the cpu backend's";
        }
        fused_calls = 0;
    }
};

TEST_F(FusedFold, RunsWhereTheMapFeedsTheReductionToAValue) {
    const brook::stream a = numbers(300, 257);
    brook::stream b = make_stream<float>(300, 257);
    square(square_kernel, a, b);
    EXPECT_EQ(sum_value(paired_sum, b), total(row_sums_of_squares(300, 257)));
    EXPECT_GT(fused_calls.load(), 0);
    // The map's output was never stored by the fold; reading it runs the held call.
    const std::vector<float> squares = hand::contents<float>(b);
    for (std::size_t i = 0; i < squares.size(); ++i) {
        const float a_i = static_cast<float>(i % 7) - 3.0f;
        ASSERT_EQ(squares[i], a_i * a_i) << "element " << i;
    }
}

/// a = numbers(rows, columns) squared into b by `map`, then b's rows summed by `reduction`: the
/// sums.
std::vector<float> squared_row_sums(const brook_test::CpuOnlyKernel& map,
                                    const brook_test::CpuOnlyKernel& reduction, std::size_t rows,
                                    std::size_t columns) {
    const brook::stream a = numbers(rows, columns);
    brook::stream b = make_stream<float>(rows, columns);
    brook::stream sums = make_stream<float>(rows, 1);
    square(map, a, b);
    sum_to(reduction, b, sums);
    return hand::contents<float>(sums);
}

TEST_F(FusedFold, RunsWhereTheMapFeedsTheReductionToAStream) {
    EXPECT_EQ(squared_row_sums(square_kernel, paired_sum, 64, 1000), row_sums_of_squares(64, 1000));
    EXPECT_EQ(fused_calls.load(), 64) << "one fused fold per target element";
}

TEST_F(FusedFold, IsFoundInTheCodeOfTheKernelLaterInTheFile) {
    EXPECT_EQ(squared_row_sums(later_square, unpaired_sum, 32, 500), row_sums_of_squares(32, 500));
    EXPECT_EQ(fused_calls.load(), 32);
}

TEST_F(FusedFold, AnUnpairedReductionFoldsTheMapInPieces) {
    const brook::stream a = numbers(300, 257);
    brook::stream b = make_stream<float>(300, 257);
    square(square_kernel, a, b);
    EXPECT_EQ(sum_value(unpaired_sum, b), total(row_sums_of_squares(300, 257)));
    EXPECT_EQ(squared_row_sums(square_kernel, unpaired_sum, 300, 257),
              row_sums_of_squares(300, 257));
    EXPECT_EQ(fused_calls.load(), 0);
}

} // namespace
