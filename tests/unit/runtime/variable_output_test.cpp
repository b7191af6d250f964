// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Variable outputs (`vout T o<>` with push(o)): the count pass, the prefix sum and the write
// pass give each element's values concatenated in element order; the vout stream becomes 1-D of
// the total (possibly empty). Kernels are written by hand the way brcc generates them, with
// brook::cpu::VariableOutput.
#include <brook/brook.hpp>
#include <brook/kernel_abi.hpp>

#include "cpu_only_kernel.hpp"

#include "death_test.hpp"
#include "hand_kernels.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace {

class VariableOutputDeathTest : public RuntimeDeathTest {};

using brook::KernelArg;
using brook::KernelInfo;
using brook::make_stream;
using brook::ParamInfo;
using brook::ParamKind;
using brook::cpu::Frame;
using brook::cpu::VariableOutput;
using hand::contents;
using hand::input_at;
using hand::output_at;

// kernel void repeat(float a<>, vout float o<>) {
//     for (float k = 0; k < a; k += 1) { o = a * 10 + k; push(o); } }
void repeat_cpu(const Frame& frame, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        VariableOutput<float> o_out(frame, 1, i, 0);
        const float a = input_at<float>(frame, 0, i);
        for (float k = 0; k < a; k += 1) {
            const float o = a * 10 + k;
            o_out.push(o);
        }
    }
}
const ParamInfo repeat_params[] = {
    {"a", ParamKind::InputStream, &brook::element_traits<float>::type, 0},
    {"o", ParamKind::VariableOutput, &brook::element_traits<float>::type, 0},
};
const brook_test::CpuOnlyKernel repeat_kernel{"repeat", repeat_params, {.kernel = &repeat_cpu}};

void repeat(const brook::stream& a, brook::stream& o) {
    const KernelArg args[] = {KernelArg::input(a), KernelArg::output_stream(o)};
    brook::run_kernel(repeat_kernel, args);
}

// kernel void split(float a<>, out float twice<>, vout float odd<>, vout float2 even<>):
// twice = a * 2; odd numbers go to odd, even ones (with their index) to even.
void split_cpu(const Frame& frame, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        VariableOutput<float> odd_out(frame, 2, i, 0);
        VariableOutput<float2> even_out(frame, 3, i, 0);
        const float a = input_at<float>(frame, 0, i);
        output_at<float>(frame, 1, i) = a * 2;
        if (static_cast<int>(a) % 2 != 0) {
            odd_out.push(a);
        } else {
            even_out.push(float2(a, static_cast<float>(i)));
        }
    }
}
const ParamInfo split_params[] = {
    {"a", ParamKind::InputStream, &brook::element_traits<float>::type, 0},
    {"twice", ParamKind::OutputStream, &brook::element_traits<float>::type, 0},
    {"odd", ParamKind::VariableOutput, &brook::element_traits<float>::type, 0},
    {"even", ParamKind::VariableOutput, &brook::element_traits<float2>::type, 0},
};
const brook_test::CpuOnlyKernel split_kernel{"split", split_params, {.kernel = &split_cpu}};

void split(const brook::stream& a, brook::stream& twice, brook::stream& odd, brook::stream& even) {
    const KernelArg args[] = {KernelArg::input(a), KernelArg::output_stream(twice),
                              KernelArg::output_stream(odd), KernelArg::output_stream(even)};
    brook::run_kernel(split_kernel, args);
}

brook::stream filled(std::vector<float> values) {
    brook::stream s = make_stream<float>(static_cast<long long>(values.size()));
    streamRead(s, values.data());
    return s;
}

TEST(VariableOutput, ValuesAreConcatenatedInElementOrder) {
    brook::stream a = filled({2, 0, 3, 1});
    brook::stream o = make_stream<float>(1);
    const brook::stream alias = o;
    repeat(a, o);
    EXPECT_EQ(o.rank(), 1);
    EXPECT_EQ(o.size(), 6u);
    EXPECT_EQ(contents<float>(o), (std::vector<float>{20, 21, 30, 31, 32, 10}));
    // Every handle of the stream sees its new shape.
    EXPECT_EQ(alias.size(), 6u);
    EXPECT_EQ(streamSize(o).x, 6.0f);
}

TEST(VariableOutput, TwoDimensionalDomainInRowMajorOrder) {
    brook::stream a = make_stream<float>(2, 3);
    const float values[6] = {1, 0, 2, 0, 1, 1};
    streamRead(a, values);
    brook::stream o = make_stream<float>(5);
    repeat(a, o);
    EXPECT_EQ(o.extents(), (std::vector<std::size_t>{5}));
    EXPECT_EQ(contents<float>(o), (std::vector<float>{10, 20, 21, 10, 10}));
}

// COMPAT.md §3.2: a 2-D vout stream and 2-D inputs give rows as wide as the inputs, the last
// one padded with +infinity.
TEST(VariableOutput, TwoDimensionalStreamsGiveRows) {
    brook::stream a = make_stream<float>(2, 3);
    const float values[6] = {1, 0, 2, 0, 1, 1};
    streamRead(a, values);
    brook::stream o = make_stream<float>(5, 5);
    repeat(a, o);
    EXPECT_EQ(o.extents(), (std::vector<std::size_t>{2, 3}));
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_EQ(contents<float>(o), (std::vector<float>{10, 20, 21, 10, 10, inf}));
}

TEST(VariableOutput, ManyElementsOnSeveralThreads) {
    const std::size_t n = 200000;
    std::vector<float> values(n);
    std::vector<float> expected;
    for (std::size_t i = 0; i < n; ++i) {
        values[i] = static_cast<float>(i % 3);
        for (std::size_t k = 0; k < i % 3; ++k) {
            expected.push_back(static_cast<float>(i % 3 * 10 + k));
        }
    }
    brook::stream a = filled(values);
    brook::stream o = make_stream<float>(1);
    repeat(a, o);
    ASSERT_EQ(o.size(), expected.size());
    EXPECT_EQ(contents<float>(o), expected);
}

TEST(VariableOutput, NoValuesGiveAnEmptyStream) {
    brook::stream a = filled({0, 0, 0});
    brook::stream o = make_stream<float>(4);
    repeat(a, o);
    EXPECT_EQ(o.size(), 0u);
    EXPECT_EQ(o.describe(), "float<0>");
    const float4 size = streamSize(o);
    EXPECT_EQ(size.x, 0.0f);
    EXPECT_EQ(size.y, 0.0f);
    float untouched = 7;
    streamWrite(o, &untouched);
    EXPECT_EQ(untouched, 7.0f);
    streamWrite(o, nullptr);
    testing::internal::CaptureStdout();
    streamPrint(o);
    std::fflush(stdout);
    EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
    // An empty stream can be a variable output again.
    repeat(filled({1}), o);
    EXPECT_EQ(contents<float>(o), (std::vector<float>{10}));
}

TEST(VariableOutput, OrdinaryOutputsAndSeveralVariableOutputs) {
    brook::stream a = filled({1, 2, 3, 4, 5});
    brook::stream odd = make_stream<float>(1);
    brook::stream even = make_stream<float2>(1);
    // In place: the count pass must not change `a` before the write pass reads it.
    split(a, a, odd, even);
    EXPECT_EQ(contents<float>(a), (std::vector<float>{2, 4, 6, 8, 10}));
    EXPECT_EQ(contents<float>(odd), (std::vector<float>{1, 3, 5}));
    const std::vector<float2> evens = contents<float2>(even);
    ASSERT_EQ(evens.size(), 2u);
    EXPECT_EQ(evens[0].x, 2);
    EXPECT_EQ(evens[0].y, 1);
    EXPECT_EQ(evens[1].x, 4);
    EXPECT_EQ(evens[1].y, 3);
}

TEST(VariableOutput, ItsOwnInput) {
    brook::stream s = filled({1, 2});
    repeat(s, s);
    EXPECT_EQ(contents<float>(s), (std::vector<float>{10, 20, 21}));
}

TEST_F(VariableOutputDeathTest, EmptyStreamCannotFeedElements) {
    brook::stream o = make_stream<float>(1);
    repeat(filled({0}), o);
    brook::stream b = make_stream<float>(1);
    EXPECT_EXIT(hand::copy<float>(o, b), testing::ExitedWithCode(1),
                "kernel 'copy': input stream 'a' is the empty stream float<0>, which has nothing "
                "to read for the outputs float<1>");
}

TEST(VariableOutput, EmptyInputGivesAnEmptyResult) {
    brook::stream o = make_stream<float>(1);
    repeat(filled({0}), o);
    brook::stream again = make_stream<float>(3);
    repeat(o, again);
    EXPECT_EQ(again.describe(), "float<0>");
}

TEST_F(VariableOutputDeathTest, MustBeAWholeStream) {
    brook::stream a = filled({1, 2});
    brook::stream o = make_stream<float>(4);
    brook::stream view = o.domain(0, 2);
    EXPECT_EXIT(repeat(a, view), testing::ExitedWithCode(1),
                "kernel 'repeat': variable output 'o' is a domain of a larger stream, float<2>; "
                "a variable output must be a whole stream");
}

} // namespace
