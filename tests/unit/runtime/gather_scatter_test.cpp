// streamScatterOp and streamGatherOp with reduce functions as operators: accumulate, fetch,
// increment, an order-revealing operator, 2-D streams with floatN indices, the index rule, and
// the errors for mismatched types and shapes.
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
    brook::stream dst = filled({0, 0, 0, 0});
    // 0.8 + 0.25 floors to 1; 5 clamps to the last element, -2 to the first.
    brook::stream index = filled({0, 2, 2, 0.8f, 5, -2});
    brook::stream src = filled({1, 2, 3, 4, 5, 6});
    streamScatterOp(dst, index, src, hand::sum_kernel<float>);
    EXPECT_EQ(contents<float>(dst), (std::vector<float>{7, 4, 5, 5}));
    EXPECT_EQ(contents<float>(src), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(ScatterOp, RepeatedIndicesSeeEarlierUpdatesInOrder) {
    brook::stream dst = filled({9, 0});
    brook::stream index = filled({0, 0, 1, 0});
    brook::stream src = filled({1, 2, 3, 4});
    streamScatterOp(dst, index, src, hand::digits_kernel<float>);
    // dst[0] = ((9 * 10 + 1) * 10 + 2) * 10 + 4; dst[1] = 0 * 10 + 3.
    EXPECT_EQ(contents<float>(dst), (std::vector<float>{9124, 3}));
}

TEST(ScatterOp, TwoDimensionalFloat4) {
    brook::stream dst = make_stream<float4>(2, 3);
    // float2 indices: .x the column (last dimension), .y the row.
    brook::stream index = make_stream<float2>(2, 2);
    const float2 positions[4] = {float2(2, 1), float2(0, 0), float2(2, 1), float2(1, 0)};
    streamRead(index, positions);
    brook::stream src = make_stream<float4>(2, 2);
    const float4 values[4] = {float4(1, 2, 3, 4), float4(10), float4(100), float4(-1)};
    streamRead(src, values);
    streamScatterOp(dst, index, src, hand::sum_kernel<float4>);
    const std::vector<float4> out = contents<float4>(dst);
    EXPECT_EQ(out[5].x, 101); // row 1, column 2 got two values
    EXPECT_EQ(out[5].w, 104);
    EXPECT_EQ(out[0].y, 10);
    EXPECT_EQ(out[1].z, -1);
    EXPECT_EQ(out[3].x, 0);
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

TEST(GatherOp, AccumulateAddsTheDestinationsOldValues) {
    brook::stream src = filled({10, 20});
    brook::stream index = filled({1, 1, 0});
    brook::stream dst = filled({1, 2, 3});
    streamGatherOp(dst, index, src, hand::sum_kernel<float>);
    // i = 0 fetches 20 and adds 1; i = 1 fetches 21 and adds 2; i = 2 fetches 10 and adds 3.
    EXPECT_EQ(contents<float>(dst), (std::vector<float>{20, 21, 10}));
    EXPECT_EQ(contents<float>(src), (std::vector<float>{13, 23}));
}

TEST(GatherOp, TwoDimensionalSourceOfFloat4) {
    brook::stream src = make_stream<float4>(2, 2);
    const float4 values[4] = {float4(1), float4(2), float4(3), float4(4)};
    streamRead(src, values);
    brook::stream index = make_stream<float2>(2);
    const float2 positions[2] = {float2(0, 1), float2(0, 1)}; // row 1, column 0
    streamRead(index, positions);
    brook::stream dst = make_stream<float4>(2);
    const float4 old[2] = {float4(5), float4(6)};
    streamRead(dst, old);
    streamGatherOp(dst, index, src, hand::sum_kernel<float4>);
    const std::vector<float4> fetched = contents<float4>(dst);
    EXPECT_EQ(fetched[0].y, 3);
    EXPECT_EQ(fetched[1].y, 8);
    EXPECT_EQ(contents<float4>(src)[2].z, 14);
}

TEST(GatherOp, DomainViews) {
    brook::stream src = filled({1, 2, 3, 4, 5});
    brook::stream index = filled({0, 1});
    brook::stream dst = filled({0, 0, 0, 0});
    // Indices are relative to the view of src; only the view of dst is written.
    streamGatherOp(dst.domain(1, 3), index, src.domain(2, 5), hand::keep_kernel<float>);
    EXPECT_EQ(contents<float>(dst), (std::vector<float>{0, 3, 4, 0}));
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
    brook::stream dst = make_stream<float>(2, 2);
    brook::stream index = make_stream<float>(4);
    brook::stream src = make_stream<float>(4);
    EXPECT_EXIT(streamScatterOp(dst, index, src, hand::sum_kernel<float>),
                testing::ExitedWithCode(1),
                "streamScatterOp: index is float<4>, but dst is float<2, 2>, so the index needs "
                "float2 elements");
}

TEST_F(GatherScatterDeathTest, IndexNeedsTheWalkedShape) {
    brook::stream dst = make_stream<float>(4);
    brook::stream index = make_stream<float>(3);
    brook::stream src = make_stream<float>(4);
    EXPECT_EXIT(streamScatterOp(dst, index, src, hand::sum_kernel<float>),
                testing::ExitedWithCode(1),
                "streamScatterOp: index is float<3> but src is float<4>; the index needs the "
                "extents of src");
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

TEST_F(GatherScatterDeathTest, GatherWritesBothSoTheyMustDiffer) {
    brook::stream s = make_stream<float>(4);
    brook::stream index = make_stream<float>(2);
    EXPECT_EXIT(streamGatherOp(s.domain(0, 2), index, s, hand::keep_kernel<float>),
                testing::ExitedWithCode(1), "streamGatherOp: dst and src are the same stream");
}

} // namespace
