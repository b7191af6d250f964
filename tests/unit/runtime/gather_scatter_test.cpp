// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// streamScatterOp and streamGatherOp (COMPAT §3.4) with reduce functions as operators:
// accumulate, fetch, increment, an operator that shows the arguments' roles, 2-D streams with
// floatN and intN indices, the index rule, empty streams, and the errors for mismatched types and
// shapes and for a scatter index outside src.
#include <brook/brook.hpp>
#include <brook/kernel_abi.hpp>

#include "death_test.hpp"
#include "hand_kernels.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

class GatherScatterDeathTest : public RuntimeDeathTest {};

using brook::make_stream;
using hand::contents;

brook::stream filled(std::vector<float> values) {
    brook::stream s = make_stream<float>(static_cast<long long>(values.size()));
    streamRead(s, values.data());
    return s;
}

TEST(ScatterOp, AccumulatesWithTheIndexRule) {
    brook::stream dst = filled({0, 0, 0, 10});
    // (int)(v + 0.5): 0.4 -> 0, 2.5 -> 3, 5.49 -> 5, -0.5 -> 0.
    brook::stream index = filled({0.4f, 2.5f, 5.49f, -0.5f});
    brook::stream src = filled({1, 2, 3, 4, 5, 6});
    streamScatterOp(dst, index, src, hand::sum_kernel<float>);
    EXPECT_EQ(contents<float>(dst), (std::vector<float>{1, 4, 6, 11}));
    EXPECT_EQ(contents<float>(src), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(ScatterOp, ClampedIndexClampsToTheExtents) {
    brook::stream dst = filled({0, 0, 0});
    // 9 clamps to the last element, -2 to the first.
    brook::stream index = filled({9, -2, 1});
    brook::stream src = filled({1, 2, 3, 4, 5, 6});
    streamScatterOp(dst, brook::clamped(index), src, hand::sum_kernel<float>);
    EXPECT_EQ(contents<float>(dst), (std::vector<float>{6, 1, 2}));
}

TEST(ScatterOp, IntegerIndices) {
    brook::stream src = make_stream<float>(2, 3);
    const float values[6] = {0, 1, 2, 10, 11, 12};
    streamRead(src, values);
    brook::stream index = make_stream<int2>(3);
    const int2 positions[3] = {int2(2, 1), int2(0, 0), int2(1, 1)}; // .x the column
    streamRead(index, positions);
    brook::stream dst = filled({100, 200, 300});
    streamScatterOp(dst, index, src, hand::sum_kernel<float>);
    EXPECT_EQ(contents<float>(dst), (std::vector<float>{112, 200, 311}));

    brook::stream flat = make_stream<int>(2);
    const int picks[2] = {5, 3};
    streamRead(flat, picks);
    brook::stream pair = filled({0, 0});
    streamGatherOp(pair, flat, filled({0, 1, 2, 3, 4, 5}), hand::keep_kernel<float>);
    EXPECT_EQ(contents<float>(pair), (std::vector<float>{5, 3}));
}

TEST(ScatterOp, TheReduceArgumentIsTheDestination) {
    brook::stream dst = filled({9, 0});
    brook::stream index = filled({1, 3});
    brook::stream src = filled({1, 2, 3, 4});
    streamScatterOp(dst, index, src, hand::digits_kernel<float>);
    // digits: r = r * 10 + a, with r = dst[p] and a = src[index[p]].
    EXPECT_EQ(contents<float>(dst), (std::vector<float>{92, 4}));
}

TEST(ScatterOp, TwoDimensionalFloat4) {
    brook::stream src = make_stream<float4>(2, 3);
    const float4 values[6] = {float4(0), float4(1), float4(2), float4(3), float4(4), float4(5)};
    streamRead(src, values);
    // One float2 per element of dst: .x the column (last dimension) of src, .y its row.
    brook::stream index = make_stream<float2>(2, 2);
    const float2 positions[4] = {float2(2, 1), float2(0, 0), float2(2, 1), float2(1, 0)};
    streamRead(index, positions);
    brook::stream dst = make_stream<float4>(2, 2);
    const float4 old[4] = {float4(0), float4(10), float4(20), float4(30)};
    streamRead(dst, old);
    streamScatterOp(dst, index, src, hand::sum_kernel<float4>);
    const std::vector<float4> out = contents<float4>(dst);
    EXPECT_EQ(out[0].x, 5);
    EXPECT_EQ(out[1].y, 10);
    EXPECT_EQ(out[2].z, 25);
    EXPECT_EQ(out[3].w, 31);
}

TEST(GatherOp, FetchLeavesTheSourceUnchanged) {
    brook::stream dst = filled({-1, -1, -1});
    brook::stream index = filled({2, 0, 2});
    brook::stream src = filled({10, 20, 30});
    streamGatherOp(dst, index, src, hand::keep_kernel<float>);
    EXPECT_EQ(contents<float>(dst), (std::vector<float>{30, 10, 30}));
    EXPECT_EQ(contents<float>(src), (std::vector<float>{10, 20, 30}));
}

TEST(GatherOp, IncrementHandsOutTickets) {
    brook::stream counters = filled({0, 100});
    brook::stream index = filled({0, 0, 1, 0});
    brook::stream tickets = filled({0, 0, 0, 0});
    streamGatherOp(tickets, index, counters, hand::increment_kernel<float>);
    EXPECT_EQ(contents<float>(tickets), (std::vector<float>{0, 1, 100, 2}));
    EXPECT_EQ(contents<float>(counters), (std::vector<float>{3, 101}));
}

TEST(GatherOp, BothArgumentsAreTheOldSource) {
    brook::stream src = filled({10, 20});
    brook::stream index = filled({1, 1, 0});
    brook::stream dst = filled({1, 2, 3});
    streamGatherOp(dst, index, src, hand::sum_kernel<float>);
    // r = r + a with r = a = src[j]: each visit fetches src[j], then doubles it.
    EXPECT_EQ(contents<float>(dst), (std::vector<float>{20, 40, 10}));
    EXPECT_EQ(contents<float>(src), (std::vector<float>{20, 80}));
}

TEST(GatherOp, TwoDimensionalSourceOfFloat4) {
    brook::stream src = make_stream<float4>(2, 2);
    const float4 values[4] = {float4(1), float4(2), float4(3), float4(4)};
    streamRead(src, values);
    brook::stream index = make_stream<float2>(2);
    const float2 positions[2] = {float2(0, 1), float2(0, 1)}; // row 1, column 0
    streamRead(index, positions);
    brook::stream dst = make_stream<float4>(2);
    streamGatherOp(dst, index, src, hand::sum_kernel<float4>);
    const std::vector<float4> fetched = contents<float4>(dst);
    EXPECT_EQ(fetched[0].y, 3);
    EXPECT_EQ(fetched[1].y, 6);
    EXPECT_EQ(contents<float4>(src)[2].z, 12);
}

TEST(GatherOp, DomainViews) {
    brook::stream src = filled({1, 2, 3, 4, 5});
    brook::stream index = filled({0, 1});
    brook::stream dst = filled({0, 0, 0, 0});
    // Indices are relative to the view of src; only the view of dst is written.
    streamGatherOp(dst.domain(1, 3), index, src.domain(2, 5), hand::keep_kernel<float>);
    EXPECT_EQ(contents<float>(dst), (std::vector<float>{0, 3, 4, 0}));
}

TEST(GatherOp, EmptyDestinationDoesNothing) {
    brook::stream src = make_stream<float>(0);
    brook::stream index = make_stream<float>(0);
    brook::stream dst = make_stream<float>(0);
    streamGatherOp(dst, index, src, hand::increment_kernel<float>);
    streamScatterOp(dst, index, src, hand::increment_kernel<float>);
    EXPECT_EQ(dst.size(), 0u);
}

TEST_F(GatherScatterDeathTest, ElementTypesMustMatchTheOperator) {
    brook::stream dst = make_stream<float4>(4);
    brook::stream index = make_stream<float>(4);
    brook::stream src = make_stream<float4>(4);
    EXPECT_EXIT(streamScatterOp(dst, index, src, hand::sum_kernel<float>),
                testing::ExitedWithCode(1),
                "brook: error: streamScatterOp: dst is float4<4>, but the operator 'sum' works "
                "on float elements");
}

TEST_F(GatherScatterDeathTest, IndexNeedsAComponentPerDimension) {
    brook::stream dst = make_stream<float>(4);
    brook::stream index = make_stream<float>(4);
    brook::stream src = make_stream<float>(2, 2);
    EXPECT_EXIT(streamScatterOp(dst, index, src, hand::sum_kernel<float>),
                testing::ExitedWithCode(1),
                "streamScatterOp: index is float<4>, but src is float<2, 2>, so the index needs "
                "float2 or int2 elements");
}

TEST_F(GatherScatterDeathTest, IndexNeedsTheExtentsOfDst) {
    brook::stream dst = make_stream<float>(4);
    brook::stream index = make_stream<float>(3);
    brook::stream src = make_stream<float>(4);
    EXPECT_EXIT(streamScatterOp(dst, index, src, hand::sum_kernel<float>),
                testing::ExitedWithCode(1),
                "streamScatterOp: index is float<3> but dst is float<4>; the index needs the "
                "extents of dst");
    EXPECT_EXIT(streamGatherOp(dst, index, src, hand::sum_kernel<float>),
                testing::ExitedWithCode(1),
                "streamGatherOp: index is float<3> but dst is float<4>; the index needs the "
                "extents of dst");
}

TEST_F(GatherScatterDeathTest, OperatorMustBeAPlainReduceFunction) {
    brook::stream s = make_stream<float>(4);
    brook::stream t = make_stream<float>(4);
    EXPECT_EXIT(streamScatterOp(s, s, t, hand::copy_kernel<float>), testing::ExitedWithCode(1),
                "streamScatterOp: the operator 'copy' is a kernel; the operator must be a reduce "
                "function");
}

TEST_F(GatherScatterDeathTest, DstAndSrcMustDiffer) {
    brook::stream s = make_stream<float>(4);
    brook::stream index = make_stream<float>(2);
    EXPECT_EXIT(streamGatherOp(s.domain(0, 2), index, s, hand::keep_kernel<float>),
                testing::ExitedWithCode(1), "streamGatherOp: dst and src are the same stream");
    EXPECT_EXIT(streamScatterOp(s.domain(0, 2), index, s, hand::keep_kernel<float>),
                testing::ExitedWithCode(1), "streamScatterOp: dst and src are the same stream");
}

TEST_F(GatherScatterDeathTest, ScatterIndexOutsideSrcIsAnError) {
    brook::stream dst = filled({7, 7, 7});
    brook::stream src = filled({1, 2, 3, 4});
    EXPECT_EXIT(streamScatterOp(dst, filled({0, 4, 1}), src, hand::sum_kernel<float>),
                testing::ExitedWithCode(1),
                "brook: error: streamScatterOp: index element 1 is 4, outside src float<4>, "
                "whose extent is 4 \\(positions 0 to 3\\); fix the index, or pass "
                "brook::clamped\\(index\\) to clamp positions to src");
    // Below 0 after rounding: -0.6 + 0.5 < 0.
    EXPECT_EXIT(streamScatterOp(dst, filled({0, 1, -0.6f}), src, hand::sum_kernel<float>),
                testing::ExitedWithCode(1), "index element 2 is -0.6, outside src float<4>");
    brook::stream grid = make_stream<float>(2, 2);
    brook::stream index = make_stream<int2>(3);
    const int2 positions[3] = {int2(0, 0), int2(1, 1), int2(0, 2)};
    streamRead(index, positions);
    EXPECT_EXIT(streamScatterOp(dst, index, grid, hand::sum_kernel<float>),
                testing::ExitedWithCode(1),
                "index element 2 .y is 2, outside src float<2, 2>, whose extent in that "
                "dimension is 2");
}

TEST(ScatterOp, ThrowingHandlerLeavesDstUnchanged) {
    const brook::error_handler previous = brook::set_error_handler(brook::throw_error);
    brook::stream dst = filled({7, 7, 7});
    brook::stream src = filled({1, 2, 3, 4});
    // The first position is fine; the error comes before anything is folded into dst.
    EXPECT_THROW(streamScatterOp(dst, filled({0, 1, 9}), src, hand::sum_kernel<float>),
                 brook::error);
    brook::set_error_handler(previous);
    EXPECT_EQ(contents<float>(dst), (std::vector<float>{7, 7, 7}));
}

} // namespace
