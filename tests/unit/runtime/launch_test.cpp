// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// run_kernel with kernels written by hand the way brcc generates them: a loop function over an
// element range that takes the dense path or maps every element through resized_element. Also
// how the CPU backend splits a call into per-thread ranges (cpu::KernelCode::grain).
#include <brook/brook.hpp>
#include <brook/kernel_abi.hpp>

#include "cpu_only_kernel.hpp"

#include "death_test.hpp"
#include "hand_kernels.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

namespace {

class RunKernelDeathTest : public RuntimeDeathTest {};

using brook::KernelArg;
using brook::KernelInfo;
using brook::make_stream;
using brook::ParamInfo;
using brook::ParamKind;
using brook::cpu::Frame;
using hand::input_at;
using hand::output_at;

// kernel void saxpy(float alpha, float4 x<>, float4 y<>, out float4 result<>)
void saxpy_cpu(const Frame& frame, std::size_t begin, std::size_t end) {
    const float alpha = frame.constant<float>(0);
    for (std::size_t i = begin; i < end; ++i) {
        output_at<float4>(frame, 3, i) =
            alpha * input_at<float4>(frame, 1, i) + input_at<float4>(frame, 2, i);
    }
}

const ParamInfo saxpy_params[] = {
    {"alpha", ParamKind::Constant, &brook::element_traits<float>::type, 0},
    {"x", ParamKind::InputStream, &brook::element_traits<float4>::type, 0},
    {"y", ParamKind::InputStream, &brook::element_traits<float4>::type, 0},
    {"result", ParamKind::OutputStream, &brook::element_traits<float4>::type, 0},
};
const brook_test::CpuOnlyKernel saxpy_kernel{"saxpy", saxpy_params, {.kernel = &saxpy_cpu}};

void saxpy(float alpha, const brook::stream& x, const brook::stream& y, brook::stream& result) {
    const KernelArg args[] = {KernelArg::constant_value(alpha), KernelArg::input(x),
                              KernelArg::input(y), KernelArg::output_stream(result)};
    brook::run_kernel(saxpy_kernel, args);
}

// kernel void copy(float a<>, out float b<>)
void copy_cpu(const Frame& frame, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        output_at<float>(frame, 1, i) = input_at<float>(frame, 0, i);
    }
}
const ParamInfo copy_params[] = {
    {"a", ParamKind::InputStream, &brook::element_traits<float>::type, 0},
    {"b", ParamKind::OutputStream, &brook::element_traits<float>::type, 0},
};
const brook_test::CpuOnlyKernel copy_kernel{"copy", copy_params, {.kernel = &copy_cpu}};

void copy(const brook::stream& a, brook::stream& b) {
    const KernelArg args[] = {KernelArg::input(a), KernelArg::output_stream(b)};
    brook::run_kernel(copy_kernel, args);
}

// kernel void shift(float g[], out float o<>): o = g[i + 1], clamped.
void shift_cpu(const Frame& frame, std::size_t begin, std::size_t end) {
    const brook::cpu::StreamView& g = frame.args[0].stream;
    for (std::size_t i = begin; i < end; ++i) {
        const std::size_t j = i + 1 < g.extents[0] ? i + 1 : g.extents[0] - 1;
        output_at<float>(frame, 1, i) =
            *reinterpret_cast<const float*>(brook::cpu::element_at(g, {j}, sizeof(float)));
    }
}
const ParamInfo shift_params[] = {
    {"g", ParamKind::Gather, &brook::element_traits<float>::type, 1u << 1},
    {"o", ParamKind::OutputStream, &brook::element_traits<float>::type, 0},
};
const brook_test::CpuOnlyKernel shift_kernel{"shift", shift_params, {.kernel = &shift_cpu}};

// kernel void plane(float g[][], out float o<>) { o = g[indexof(o).xy]; }: never runs here.
const ParamInfo plane_params[] = {
    {"g", ParamKind::Gather, &brook::element_traits<float>::type, 1u << 2},
    {"o", ParamKind::OutputStream, &brook::element_traits<float>::type, 0},
};
const brook_test::CpuOnlyKernel plane_kernel{"plane", plane_params, {.kernel = &shift_cpu}};

// kernel void ranges(float a<>, out float b<>): records the element ranges it is called with,
// and the threads that ran them.
std::mutex ranges_mutex;
std::vector<std::pair<std::size_t, std::size_t>> recorded_ranges;
std::set<std::thread::id> recorded_threads;
void ranges_cpu(const Frame&, std::size_t begin, std::size_t end) {
    const std::lock_guard<std::mutex> lock(ranges_mutex);
    recorded_ranges.emplace_back(begin, end);
    recorded_threads.insert(std::this_thread::get_id());
}
const brook_test::CpuOnlyKernel ranges_kernel{"ranges", copy_params, {.kernel = &ranges_cpu}};
// The same kernel as brcc describes one that loops: a few elements are worth a thread.
const brook_test::CpuOnlyKernel looping_ranges_kernel{
    "ranges", copy_params, {.kernel = &ranges_cpu, .grain = 4, .loops = true}};
// And as brcc describes a straight-line kernel with many operations per element.
const brook_test::CpuOnlyKernel heavy_ranges_kernel{
    "ranges", copy_params, {.kernel = &ranges_cpu, .grain = 4}};

/// The sorted ranges `kernel` is called with on `n` elements.
std::vector<std::pair<std::size_t, std::size_t>> ranges_of(const KernelInfo& kernel,
                                                           std::size_t n) {
    brook::stream a = make_stream<float>(static_cast<long long>(n));
    brook::stream b = make_stream<float>(static_cast<long long>(n));
    const KernelArg args[] = {KernelArg::input(a), KernelArg::output_stream(b)};
    recorded_ranges.clear();
    recorded_threads.clear();
    brook::run_kernel(kernel, args);
    brook::finish(); // the cpu backend may hold a map's call until the next operation
    std::sort(recorded_ranges.begin(), recorded_ranges.end());
    return recorded_ranges;
}

std::vector<float> contents(const brook::stream& s) {
    std::vector<float> values(s.size());
    streamWrite(s, values.data());
    return values;
}

TEST(RunKernel, SaxpyDense) {
    const std::size_t n = 1 << 16;
    brook::stream x = make_stream<float4>(256, 256);
    brook::stream y = make_stream<float4>(256, 256);
    brook::stream result = make_stream<float4>(256, 256);
    std::vector<float4> xs(n);
    std::vector<float4> ys(n);
    for (std::size_t i = 0; i < n; ++i) {
        xs[i] = float4(static_cast<float>(i % 97), 1, 2, 3);
        ys[i] = float4(1.0f);
    }
    streamRead(x, xs.data());
    streamRead(y, ys.data());
    saxpy(2.0f, x, y, result);
    std::vector<float4> out(n);
    streamWrite(result, out.data());
    for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(out[i].x, 2.0f * static_cast<float>(i % 97) + 1.0f) << i;
        ASSERT_EQ(out[i].w, 7.0f) << i;
    }
}

TEST(RunKernel, SameStreamAsInputAndOutput) {
    brook::stream x = make_stream<float4>(4);
    const float4 values[4] = {float4(1.0f), float4(2.0f), float4(3.0f), float4(4.0f)};
    streamRead(x, values);
    saxpy(3.0f, x, x, x);
    float4 out[4];
    streamWrite(x, out);
    EXPECT_EQ(out[3].y, 16.0f);
}

TEST(RunKernel, SmallerInputRepeats) {
    brook::stream a = make_stream<float>(3);
    brook::stream b = make_stream<float>(9);
    const float values[3] = {1, 2, 3};
    streamRead(a, values);
    copy(a, b);
    EXPECT_EQ(contents(b), (std::vector<float>{1, 1, 1, 2, 2, 2, 3, 3, 3}));
}

TEST(RunKernel, LargerInputStrides) {
    brook::stream a = make_stream<float>(9);
    brook::stream b = make_stream<float>(3);
    const float values[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    streamRead(a, values);
    copy(a, b);
    EXPECT_EQ(contents(b), (std::vector<float>{1, 4, 7}));
}

TEST(RunKernel, ResizesEachDimension) {
    brook::stream a = make_stream<float>(2, 4);
    brook::stream b = make_stream<float>(4, 2);
    const float values[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    streamRead(a, values);
    copy(a, b);
    // Rows repeat (2 -> 4), columns stride (4 -> 2).
    EXPECT_EQ(contents(b), (std::vector<float>{1, 3, 1, 3, 5, 7, 5, 7}));
}

TEST(RunKernel, GatherOfTheOutputReadsOldValues) {
    brook::stream s = make_stream<float>(5);
    const float values[5] = {1, 2, 3, 4, 5};
    streamRead(s, values);
    const KernelArg args[] = {KernelArg::input(s), KernelArg::output_stream(s)};
    brook::run_kernel(shift_kernel, args);
    EXPECT_EQ(contents(s), (std::vector<float>{2, 3, 4, 5, 5}));
}

TEST(RunKernel, LargeGatherOfTheOutputReadsOldValues) {
    const std::size_t n = 100000;
    brook::stream s = make_stream<float>(n);
    std::vector<float> values(n);
    for (std::size_t i = 0; i < n; ++i) {
        values[i] = static_cast<float>(i);
    }
    streamRead(s, values.data());
    const KernelArg args[] = {KernelArg::input(s), KernelArg::output_stream(s)};
    brook::run_kernel(shift_kernel, args);
    const std::vector<float> out = contents(s);
    for (std::size_t i = 0; i + 1 < n; ++i) {
        ASSERT_EQ(out[i], static_cast<float>(i + 1)) << i;
    }
}

TEST(RunKernel, DomainViewsAsInputAndOutput) {
    brook::stream a = make_stream<float>(4, 4);
    std::vector<float> values(16);
    for (std::size_t i = 0; i < 16; ++i) {
        values[i] = static_cast<float>(i);
    }
    streamRead(a, values.data());
    brook::stream b = make_stream<float>(4, 4);
    // Copy the top-left 2x2 block of a into the bottom-right block of b.
    brook::stream target = b.domain(int2(2, 2), int2(4, 4));
    copy(a.domain(int2(0, 0), int2(2, 2)), target);
    const std::vector<float> out = contents(b);
    EXPECT_EQ(out[10], 0.0f);
    EXPECT_EQ(out[11], 1.0f);
    EXPECT_EQ(out[14], 4.0f);
    EXPECT_EQ(out[15], 5.0f);
    EXPECT_EQ(out[0], 0.0f);
}

TEST(RunKernel, OverlappingViewOfTheOutputReadsOldValues) {
    brook::stream s = make_stream<float>(6);
    const float values[6] = {1, 2, 3, 4, 5, 6};
    streamRead(s, values);
    brook::stream head = s.domain(0, 5);
    copy(s.domain(1, 6), head);
    EXPECT_EQ(contents(s), (std::vector<float>{2, 3, 4, 5, 6, 6}));
}

/// With 2 threads: small calls run on one thread unless the kernel's grain is small; a kernel
/// that loops runs in chunks of at least its grain, taken in turn by at most 2 threads, and a
/// straight-line kernel with a small grain in one equal range per thread.
bool splits_by_grain() {
    using Ranges = std::vector<std::pair<std::size_t, std::size_t>>;
    const Ranges whole{{0, 8}};
    const Ranges halves{{0, 4}, {4, 8}};
    const Ranges below_a_grain{{0, 7}};
    Ranges grains;
    for (std::size_t begin = 0; begin < 40; begin += 4) {
        grains.emplace_back(begin, begin + 4);
    }
    const Ranges equal_halves{{0, 20}, {20, 40}};
    return ranges_of(ranges_kernel, 8) == whole && ranges_of(looping_ranges_kernel, 8) == halves &&
           ranges_of(looping_ranges_kernel, 7) == below_a_grain &&
           ranges_of(looping_ranges_kernel, 40) == grains &&
           ranges_of(heavy_ranges_kernel, 7) == below_a_grain &&
           ranges_of(heavy_ranges_kernel, 40) == equal_halves &&
           recorded_threads.size() <= 2; // the cap holds
}

TEST_F(RunKernelDeathTest, SmallCallsRunOnOneThreadUnlessTheGrainIsSmall) {
    EXPECT_EXIT(
        {
            setenv("BRT_THREADS", "2", 1);
            std::exit(splits_by_grain() ? 0 : 3);
        },
        testing::ExitedWithCode(0), "");
}

TEST_F(RunKernelDeathTest, WrongElementType) {
    brook::stream x = make_stream<float>(4);
    brook::stream y = make_stream<float4>(4);
    brook::stream r = make_stream<float4>(4);
    EXPECT_EXIT(saxpy(1.0f, x, y, r), testing::ExitedWithCode(1),
                "brook: error: kernel 'saxpy': input stream 'x' is float<4>, but the parameter "
                "takes float4 elements");
}

TEST_F(RunKernelDeathTest, OutputsMustShareAShape) {
    // kernel void two(float a<>, out float b<>, out float c<>)
    static const ParamInfo params[] = {
        {"a", ParamKind::InputStream, &brook::element_traits<float>::type, 0},
        {"b", ParamKind::OutputStream, &brook::element_traits<float>::type, 0},
        {"c", ParamKind::OutputStream, &brook::element_traits<float>::type, 0},
    };
    static const brook_test::CpuOnlyKernel two{"two", params, {.kernel = &copy_cpu}};
    brook::stream a = make_stream<float>(4);
    brook::stream b = make_stream<float>(4);
    brook::stream c = make_stream<float>(2, 2);
    const KernelArg args[] = {KernelArg::input(a), KernelArg::output_stream(b),
                              KernelArg::output_stream(c)};
    EXPECT_EXIT(brook::run_kernel(two, args), testing::ExitedWithCode(1),
                "kernel 'two': output stream 'c' is float<2, 2> but output stream 'b' is "
                "float<4>; all outputs");
}

TEST_F(RunKernelDeathTest, InputThatCannotBeResized) {
    brook::stream a = make_stream<float>(4);
    brook::stream b = make_stream<float>(6);
    EXPECT_EXIT(copy(a, b), testing::ExitedWithCode(1),
                "kernel 'copy': input stream 'a' is float<4>, which cannot be resized to the "
                "output shape float<6>");
    brook::stream flat = make_stream<float>(4);
    brook::stream square = make_stream<float>(3, 2);
    EXPECT_EXIT(copy(flat, square), testing::ExitedWithCode(1),
                "input stream 'a' is float<4>, which cannot be resized to the output shape "
                "float<3, 2>");
}

TEST(RunKernel, RanksAlignFromTheFirstDimension) {
    brook::stream flat = make_stream<float>(6);
    const float values[6] = {0, 1, 2, 3, 4, 5};
    streamRead(flat, values);
    // <6> into <2, 3>: the first dimension strides (6 -> 2), the output's second repeats.
    brook::stream square = make_stream<float>(2, 3);
    copy(flat, square);
    EXPECT_EQ(contents(square), (std::vector<float>{0, 0, 0, 3, 3, 3}));
    // <2, 3> into <4>: rows repeat (2 -> 4), the input's columns are read at index 0.
    brook::stream line = make_stream<float>(4);
    copy(square, line);
    EXPECT_EQ(contents(line), (std::vector<float>{0, 0, 3, 3}));
}

// COMPAT.md §1.9: an index of 1 < K < D components names no element of a rank-D stream.
TEST_F(RunKernelDeathTest, GatherIndexNarrowerThanTheStream) {
    brook::stream g = make_stream<float>(2, 2, 2);
    brook::stream o = make_stream<float>(4);
    const KernelArg args[] = {KernelArg::input(g), KernelArg::output_stream(o)};
    EXPECT_EXIT(brook::run_kernel(plane_kernel, args), testing::ExitedWithCode(1),
                "kernel 'plane': gather array 'g' is float<2, 2, 2> with 3 dimensions, but the "
                "kernel indexes it with 2 components");
}

TEST_F(RunKernelDeathTest, EmptyHandle) {
    brook::stream a;
    brook::stream b = make_stream<float>(4);
    EXPECT_EXIT(copy(a, b), testing::ExitedWithCode(1),
                "kernel 'copy': input stream 'a' is an empty stream handle");
}

TEST_F(RunKernelDeathTest, ArgumentCount) {
    brook::stream b = make_stream<float>(4);
    const KernelArg args[] = {KernelArg::output_stream(b)};
    EXPECT_EXIT(brook::run_kernel(copy_kernel, args), testing::ExitedWithCode(1),
                "kernel 'copy' takes 2 arguments but was given 1");
}

} // namespace
