// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Stream shapes as issue 3 uses them: implicit resizing of inputs, reductions to streams (the
// paper's §3.3 matrix-vector product among them), `.domain()` views of 1 to 4 dimensions in
// every role, and iterator streams read as inputs, gathers and reduce inputs.
#include <brook/brook.hpp>
#include <brook/kernel_abi.hpp>

#include "cpu_only_kernel.hpp"

#include "death_test.hpp"
#include "hand_kernels.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

class ShapesDeathTest : public RuntimeDeathTest {};

using brook::KernelArg;
using brook::KernelInfo;
using brook::make_stream;
using brook::ParamInfo;
using brook::ParamKind;
using brook::cpu::Frame;
using hand::contents;
using hand::iota;

// kernel void mul(float a<>, float b<>, out float c<>) { c = a * b; }
void mul_cpu(const Frame& frame, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        hand::output_at<float>(frame, 2, i) =
            hand::input_at<float>(frame, 0, i) * hand::input_at<float>(frame, 1, i);
    }
}
const ParamInfo mul_params[] = {
    {"a", ParamKind::InputStream, &brook::element_traits<float>::type, 0},
    {"b", ParamKind::InputStream, &brook::element_traits<float>::type, 0},
    {"c", ParamKind::OutputStream, &brook::element_traits<float>::type, 0},
};
const brook_test::CpuOnlyKernel mul_kernel{"mul", mul_params, {.kernel = &mul_cpu}};

void mul(const brook::stream& a, const brook::stream& b, brook::stream& c) {
    const KernelArg args[] = {KernelArg::input(a), KernelArg::input(b),
                              KernelArg::output_stream(c)};
    brook::run_kernel(mul_kernel, args);
}

/// Copies a stream of `in` extents holding 0, 1, 2, ... into one of `out` extents; gives it.
std::vector<float> resized(const std::vector<long long>& in, const std::vector<long long>& out) {
    const brook::stream a(brook::element_traits<float>::type(), in);
    streamRead(a, iota(a.size()).data());
    brook::stream b(brook::element_traits<float>::type(), out);
    hand::copy<float>(a, b);
    return contents<float>(b);
}

TEST(Resize, OneDimensional) {
    EXPECT_EQ(resized({5}, {10}), (std::vector<float>{0, 0, 1, 1, 2, 2, 3, 3, 4, 4}));
    EXPECT_EQ(resized({10}, {5}), (std::vector<float>{0, 2, 4, 6, 8}));
    std::vector<float> tripled;
    for (float v = 0; v < 7; ++v) {
        tripled.insert(tripled.end(), {v, v, v});
    }
    EXPECT_EQ(resized({7}, {21}), tripled);
    EXPECT_EQ(resized({21}, {7}), (std::vector<float>{0, 3, 6, 9, 12, 15, 18}));
}

TEST(Resize, TwoDimensional) {
    // 2x15 -> 4x5: each row twice, every third column.
    std::vector<float> expected;
    for (int row = 0; row < 4; ++row) {
        for (int column = 0; column < 5; ++column) {
            expected.push_back(static_cast<float>(row / 2 * 15 + column * 3));
        }
    }
    EXPECT_EQ(resized({2, 15}, {4, 5}), expected);
    // 10x3 -> 2x21: every fifth row, each column seven times.
    expected.clear();
    for (int row = 0; row < 2; ++row) {
        for (int column = 0; column < 21; ++column) {
            expected.push_back(static_cast<float>(row * 5 * 3 + column / 7));
        }
    }
    EXPECT_EQ(resized({10, 3}, {2, 21}), expected);
}

TEST_F(ShapesDeathTest, ResizeByANonMultipleNamesKernelArgumentAndShapes) {
    EXPECT_EXIT(resized({2, 15}, {4, 4}), testing::ExitedWithCode(1),
                "brook: error: kernel 'copy': input stream 'a' is float<2, 15>, which cannot be "
                "resized to the output shape float<4, 4>");
    EXPECT_EXIT(resized({7}, {10}), testing::ExitedWithCode(1),
                "kernel 'copy': input stream 'a' is float<7>, which cannot be resized to the "
                "output shape float<10>");
}

TEST(ReduceToStream, PaperMatrixVectorProduct) {
    // float A<50,50>; float x<1,50>; float T<50,50>; float y<50,1>; mul(A, x, T); sum(T, y);
    std::vector<float> a_values(50 * 50);
    std::vector<float> x_values(50);
    for (std::size_t i = 0; i < 50; ++i) {
        x_values[i] = static_cast<float>(i % 7) - 3;
        for (std::size_t j = 0; j < 50; ++j) {
            a_values[i * 50 + j] = static_cast<float>((i * 3 + j * 5) % 11) - 5;
        }
    }
    brook::stream A = make_stream<float>(50, 50);
    brook::stream x = make_stream<float>(1, 50);
    brook::stream T = make_stream<float>(50, 50);
    brook::stream y = make_stream<float>(50, 1);
    streamRead(A, a_values.data());
    streamRead(x, x_values.data());
    mul(A, x, T);
    hand::sum<float>(T, y);
    const std::vector<float> result = contents<float>(y);
    for (std::size_t i = 0; i < 50; ++i) {
        float reference = 0;
        for (std::size_t j = 0; j < 50; ++j) {
            reference += a_values[i * 50 + j] * x_values[j];
        }
        ASSERT_EQ(result[i], reference) << i;
    }
}

/// The sums of the blocks of an `rows` x `columns` stream of 0, 1, 2, ... reduced to a
/// `target_rows` x `target_columns` stream, computed by the runtime and by loops here.
void check_block_sums(std::size_t rows, std::size_t columns, std::size_t target_rows,
                      std::size_t target_columns) {
    const auto r = static_cast<long long>(rows);
    const auto c = static_cast<long long>(columns);
    brook::stream input = make_stream<float>(r, c);
    streamRead(input, iota(rows * columns).data());
    brook::stream target = make_stream<float>(static_cast<long long>(target_rows),
                                              static_cast<long long>(target_columns));
    hand::sum<float>(input, target);
    const std::vector<float> result = contents<float>(target);
    const std::size_t block_rows = rows / target_rows;
    const std::size_t block_columns = columns / target_columns;
    for (std::size_t ty = 0; ty < target_rows; ++ty) {
        for (std::size_t tx = 0; tx < target_columns; ++tx) {
            float reference = 0;
            for (std::size_t i = ty * block_rows; i < (ty + 1) * block_rows; ++i) {
                for (std::size_t j = tx * block_columns; j < (tx + 1) * block_columns; ++j) {
                    reference += static_cast<float>(i * columns + j);
                }
            }
            ASSERT_EQ(result[ty * target_columns + tx], reference)
                << rows << "x" << columns << " -> " << target_rows << "x" << target_columns;
        }
    }
}

TEST(ReduceToStream, NonPowerOfTwoShapes) {
    check_block_sums(9, 9, 9, 1);
    check_block_sums(9, 9, 3, 3);
    check_block_sums(9, 9, 1, 9);
    check_block_sums(11, 10, 11, 1);
    check_block_sums(11, 10, 1, 5);
    check_block_sums(7, 3, 7, 1);
    check_block_sums(7, 3, 1, 1);
}

TEST_F(ShapesDeathTest, BadReductionTargets) {
    brook::stream input = make_stream<float>(7, 3);
    brook::stream two_rows = make_stream<float>(2, 1);
    EXPECT_EXIT(hand::sum<float>(input, two_rows), testing::ExitedWithCode(1),
                "brook: error: reduce 'sum': reduce target 'r' is float<2, 1> but the reduce "
                "input 'a' is float<7, 3>; a target stream needs the input's number of "
                "dimensions and extents that divide the input's");
    brook::stream flat = make_stream<float>(7);
    EXPECT_EXIT(hand::sum<float>(input, flat), testing::ExitedWithCode(1),
                "reduce target 'r' is float<7> but the reduce input 'a' is float<7, 3>");
}

TEST(Domain, InputsAndOutputsOfThreeAndFourDimensions) {
    brook::stream a = make_stream<float>(3, 4, 5);
    streamRead(a, iota(60).data());
    brook::stream b = make_stream<float>(2, 2, 2);
    // .x bounds the last dimension: columns 3..5, rows 1..3, planes 1..3.
    hand::copy<float>(a.domain(int3(3, 1, 1), int3(5, 3, 3)), b);
    EXPECT_EQ(contents<float>(b), (std::vector<float>{28, 29, 33, 34, 48, 49, 53, 54}));

    brook::stream c = make_stream<float>(2, 2, 2, 3);
    brook::stream ones = make_stream<float>(1, 1, 2, 2);
    streamRead(ones, std::vector<float>{1, 2, 3, 4}.data());
    brook::stream corner = c.domain(int4(1, 0, 1, 1), int4(3, 2, 2, 2));
    hand::copy<float>(ones, corner);
    std::vector<float> expected(24, 0);
    expected[1 * 12 + 1 * 6 + 0 * 3 + 1] = 1;
    expected[1 * 12 + 1 * 6 + 0 * 3 + 2] = 2;
    expected[1 * 12 + 1 * 6 + 1 * 3 + 1] = 3;
    expected[1 * 12 + 1 * 6 + 1 * 3 + 2] = 4;
    EXPECT_EQ(contents<float>(c), expected);
}

TEST(Domain, ResizedInputView) {
    brook::stream a = make_stream<float>(10);
    streamRead(a, iota(10).data());
    brook::stream b = make_stream<float>(6);
    // The view 4..7 (three elements) repeats to six.
    hand::copy<float>(a.domain(4, 7), b);
    EXPECT_EQ(contents<float>(b), (std::vector<float>{4, 4, 5, 5, 6, 6}));
}

TEST(Domain, GatherIndicesAreRelativeToTheView) {
    brook::stream g = make_stream<float>(4, 5);
    streamRead(g, iota(20).data());
    brook::stream positions = make_stream<float2>(3);
    // (x, y) in the view of rows 1..3 and columns 2..5; the last one clamps to the view.
    const float2 p[3] = {float2(0, 0), float2(2, 1), float2(9, 9)};
    streamRead(positions, p);
    brook::stream out = make_stream<float>(3);
    hand::fetch<float>(positions, g.domain(int2(2, 1), int2(5, 3)), out);
    EXPECT_EQ(contents<float>(out), (std::vector<float>{7, 14, 14}));
}

TEST(Domain, ReductionInputs) {
    brook::stream a = make_stream<float>(4, 6);
    streamRead(a, iota(24).data());
    brook::stream view = a.domain(int2(2, 1), int2(6, 3)); // rows 1..3, columns 2..6
    EXPECT_EQ(hand::sum_value<float>(view), 8.0f + 9 + 10 + 11 + 14 + 15 + 16 + 17);
    brook::stream rows = make_stream<float>(2, 1);
    hand::sum<float>(view, rows);
    EXPECT_EQ(contents<float>(rows), (std::vector<float>{38, 62}));
}

TEST(Domain, ReadAndWriteOfOneToFourDimensions) {
    brook::stream one = make_stream<float>(6);
    streamRead(one.domain(2, 4), std::vector<float>{7, 8}.data());
    EXPECT_EQ(contents<float>(one), (std::vector<float>{0, 0, 7, 8, 0, 0}));

    brook::stream two = make_stream<float>(3, 3);
    streamRead(two, iota(9).data());
    float block[4];
    streamWrite(two.domain(int2(1, 1), int2(3, 3)), block);
    EXPECT_EQ(std::vector<float>(block, block + 4), (std::vector<float>{4, 5, 7, 8}));

    brook::stream three = make_stream<float>(2, 3, 4);
    streamRead(three.domain(int3(3, 2, 1), int3(4, 3, 2)), std::vector<float>{5}.data());
    EXPECT_EQ(contents<float>(three)[1 * 12 + 2 * 4 + 3], 5.0f);
    EXPECT_EQ(hand::sum_value<float>(three), 5.0f);

    brook::stream four = make_stream<float>(2, 2, 2, 2);
    streamRead(four, iota(16).data());
    float corner[2];
    streamWrite(four.domain(int4(0, 1, 1, 1), int4(2, 2, 2, 2)), corner);
    EXPECT_EQ(corner[0], 14.0f);
    EXPECT_EQ(corner[1], 15.0f);
}

TEST_F(ShapesDeathTest, DomainBoundsOutsideTheStream) {
    brook::stream three = make_stream<float>(2, 3, 4);
    EXPECT_EXIT(three.domain(int3(0, 0, 0), int3(5, 3, 2)), testing::ExitedWithCode(1),
                "domain \\[0, 0, 0\\] to \\[5, 3, 2\\) of stream float<2, 3, 4> is reversed or "
                "outside the stream");
    brook::stream four = make_stream<float>(2, 2, 2, 2);
    EXPECT_EXIT(four.domain(int4(0, 0, 0, -1), int4(1, 1, 1, 1)), testing::ExitedWithCode(1),
                "domain \\[0, 0, 0, -1\\] to \\[1, 1, 1, 1\\) of stream float<2, 2, 2, 2>");
    EXPECT_EXIT(four.domain(int2(0, 0), int2(1, 1)), testing::ExitedWithCode(1),
                "the bounds have 2 components but the stream has 4 dimensions");
}

TEST(Iterator, DecreasingRange) {
    const brook::stream s = brook::make_iterator<float>(5.0f, 0.0f, 5);
    EXPECT_EQ(contents<float>(s), (std::vector<float>{5, 4, 3, 2, 1}));
    const brook::stream v =
        brook::make_iterator<float4>(float4(0, 8, 1, -1), float4(4, 0, 1, 1), 4);
    const std::vector<float4> values = contents<float4>(v);
    EXPECT_EQ(values[1].x, 1.0f);
    EXPECT_EQ(values[1].y, 6.0f);
    EXPECT_EQ(values[3].z, 1.0f);
    EXPECT_EQ(values[2].w, 0.0f);
}

TEST(Iterator, ReadAsResizedInputGatherAndReduceInput) {
    // iter float s<4> = iter(0, 4) read by an 8-element kernel: each value twice.
    const brook::stream s = brook::make_iterator<float>(0.0f, 4.0f, 4);
    brook::stream doubled = make_stream<float>(8);
    hand::copy<float>(s, doubled);
    EXPECT_EQ(contents<float>(doubled), (std::vector<float>{0, 0, 1, 1, 2, 2, 3, 3}));
    EXPECT_EQ(hand::sum_value<float>(s), 6.0f);

    // iter float2 grid<2, 3> = iter(float2(0, 0), float2(3, 2)): the positions of a 2x3 stream,
    // used as the index stream of a gather.
    const brook::stream grid = brook::make_iterator<float2>(float2(0, 0), float2(3, 2), 2, 3);
    brook::stream g = make_stream<float>(2, 3);
    streamRead(g, std::vector<float>{10, 11, 12, 13, 14, 15}.data());
    brook::stream out = make_stream<float>(2, 3);
    hand::fetch<float>(grid, g, out);
    EXPECT_EQ(contents<float>(out), (std::vector<float>{10, 11, 12, 13, 14, 15}));
    brook::stream columns = make_stream<float2>(1, 3);
    hand::sum<float2>(grid, columns);
    const std::vector<float2> column_sums = contents<float2>(columns);
    EXPECT_EQ(column_sums[2].x, 4.0f);
    EXPECT_EQ(column_sums[2].y, 1.0f);
}

} // namespace
