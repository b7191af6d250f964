// The CPU prelude's semantics: Cg's built-in definitions, swizzles and write masks, conditions,
// conversions, the gather index rule and the reduction fold order.

#include "brook/cpu_kernel.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace {

using brook::float2;
using brook::float3;
using brook::float4;
using brook::int2;
namespace cpu = brook::cpu;

TEST(CpuPrelude, SwizzleReadsComponentsWithRepeats) {
    const float4 v(1.0f, 2.0f, 3.0f, 4.0f);
    const float3 zyx = cpu::swizzle<2, 1, 0>(v);
    EXPECT_EQ(zyx.x, 3.0f);
    EXPECT_EQ(zyx.z, 1.0f);
    const float4 xxxx = cpu::swizzle<0, 0, 0, 0>(v);
    EXPECT_EQ(xxxx.w, 1.0f);
    EXPECT_EQ(cpu::swizzle<3>(v), 4.0f);
    const float2 scalar_broadcast = cpu::swizzle<0, 0>(5.0f);
    EXPECT_EQ(scalar_broadcast.y, 5.0f);
}

TEST(CpuPrelude, WriteMaskAssignsOnlyItsComponents) {
    float4 v(1.0f, 2.0f, 3.0f, 4.0f);
    const float2 written = cpu::assign_mask<3, 0>(v, float2(7.0f, 8.0f));
    EXPECT_EQ(v.w, 7.0f);
    EXPECT_EQ(v.x, 8.0f);
    EXPECT_EQ(v.y, 2.0f);
    EXPECT_EQ(v.z, 3.0f);
    EXPECT_EQ(written.x, 7.0f);
}

TEST(CpuPrelude, VectorConditionIsTrueWhenAnyComponentIs) {
    EXPECT_FALSE(cpu::truth(float3(0.0f, 0.0f, 0.0f)));
    EXPECT_TRUE(cpu::truth(float3(0.0f, -1.0f, 0.0f)));
    EXPECT_TRUE(cpu::truth(2));
    EXPECT_FALSE(cpu::truth(0.0f));
    const float2 chosen =
        cpu::select(brook::bool2(true, false), float2(1.0f, 2.0f), float2(3.0f, 4.0f));
    EXPECT_EQ(chosen.x, 1.0f);
    EXPECT_EQ(chosen.y, 4.0f);
}

TEST(CpuPrelude, ConvertBroadcastsConvertsAndTruncates) {
    const float4 broadcast = cpu::convert<float4>(2.5f);
    EXPECT_EQ(broadcast.w, 2.5f);
    const float3 truncated = cpu::convert<float3>(float4(1.0f, 2.0f, 3.0f, 4.0f));
    EXPECT_EQ(truncated.z, 3.0f);
    EXPECT_EQ(cpu::convert<float>(float2(9.0f, 1.0f)), 9.0f);
    const int2 ints = cpu::convert<int2>(float2(1.75f, -1.75f));
    EXPECT_EQ(ints.x, 1);
    EXPECT_EQ(ints.y, -1);
}

TEST(CpuPrelude, BuiltinsFollowCg) {
    EXPECT_FLOAT_EQ(cpu::frac(-1.25f), 0.75f);
    EXPECT_EQ(cpu::round(2.5f), 3.0f);
    EXPECT_EQ(cpu::round(-2.5f), -3.0f);
    EXPECT_EQ(cpu::step(1.0f, 1.0f), 1.0f);
    EXPECT_EQ(cpu::step(1.0f, 0.5f), 0.0f);
    EXPECT_FLOAT_EQ(cpu::lerp(2.0f, 4.0f, 0.25f), 2.5f);
    EXPECT_EQ(cpu::saturate(1.5f), 1.0f);
    EXPECT_EQ(cpu::saturate(-0.5f), 0.0f);
    EXPECT_FLOAT_EQ(cpu::smoothstep(0.0f, 1.0f, 0.5f), 0.5f);
    EXPECT_EQ(cpu::sign(-3.0f), -1.0f);
    EXPECT_EQ(cpu::sign(0.0f), 0.0f);
    EXPECT_FLOAT_EQ(cpu::rsqrt(4.0f), 0.5f);
    EXPECT_FLOAT_EQ(cpu::fmod(-5.5f, 2.0f), -1.5f);
    EXPECT_FLOAT_EQ(cpu::degrees(3.14159265f), 180.0f);
    EXPECT_FLOAT_EQ(cpu::ldexp(1.5f, 3.0f), 12.0f);
    EXPECT_EQ(cpu::clamp(5, 0, 3), 3);
    EXPECT_EQ(cpu::abs(-4), 4);
}

TEST(CpuPrelude, VectorBuiltinsWorkComponentWiseAndBroadcastScalars) {
    const float4 v(-1.5f, 0.5f, 2.0f, -0.0f);
    const float4 floors = cpu::floor(v);
    EXPECT_EQ(floors.x, -2.0f);
    EXPECT_EQ(floors.z, 2.0f);
    const float4 maxed = cpu::max(v, 0.0f);
    EXPECT_EQ(maxed.x, 0.0f);
    EXPECT_EQ(maxed.z, 2.0f);
    const float4 mixed = cpu::lerp(float4(0.0f), float4(2.0f), 0.5f);
    EXPECT_EQ(mixed.y, 1.0f);
    const float inf = std::numeric_limits<float>::infinity();
    const brook::bool3 finite = cpu::isfinite(float3(1.0f, inf, std::nanf("")));
    EXPECT_TRUE(finite.x);
    EXPECT_FALSE(finite.y);
    EXPECT_FALSE(finite.z);
    EXPECT_TRUE(cpu::any(cpu::isnan(float3(1.0f, inf, std::nanf("")))));
    EXPECT_FALSE(cpu::all(cpu::isinf(float2(inf, 0.0f))));
}

TEST(CpuPrelude, GeometricBuiltins) {
    const float3 a(1.0f, 0.0f, 0.0f);
    const float3 b(0.0f, 1.0f, 0.0f);
    EXPECT_EQ(cpu::dot(a, b), 0.0f);
    EXPECT_EQ(cpu::cross(a, b).z, 1.0f);
    EXPECT_FLOAT_EQ(cpu::length(float2(3.0f, 4.0f)), 5.0f);
    EXPECT_FLOAT_EQ(cpu::distance(float2(1.0f, 1.0f), float2(4.0f, 5.0f)), 5.0f);
    EXPECT_FLOAT_EQ(cpu::normalize(float2(0.0f, 2.0f)).y, 1.0f);
    const float2 reflected = cpu::reflect(float2(1.0f, -1.0f), float2(0.0f, 1.0f));
    EXPECT_FLOAT_EQ(reflected.x, 1.0f);
    EXPECT_FLOAT_EQ(reflected.y, 1.0f);
}

TEST(CpuPrelude, VectorLogicalOperatorsAreComponentWise) {
    const brook::bool2 both = cpu::logical_and(float2(1.0f, 0.0f), float2(1.0f, 1.0f));
    EXPECT_TRUE(both.x);
    EXPECT_FALSE(both.y);
    const brook::bool2 either = cpu::logical_or(float2(0.0f, 0.0f), float2(1.0f, 0.0f));
    EXPECT_TRUE(either.x);
    EXPECT_FALSE(either.y);
    EXPECT_TRUE(cpu::logical_not(float2(0.0f, 1.0f)).x);
}

brook::cpu::StreamView view_of(std::vector<float>& data, std::size_t rows, std::size_t columns) {
    brook::cpu::StreamView view;
    view.data = reinterpret_cast<std::byte*>(data.data());
    view.rank = 2;
    view.extents = {rows, columns, 1, 1};
    view.strides = {columns, 1, 0, 0};
    return view;
}

TEST(CpuPrelude, GatherRoundsWithAQuarterAndClamps) {
    std::vector<float> data(12);
    for (std::size_t i = 0; i < data.size(); ++i)
        data[i] = static_cast<float>(i);
    const cpu::Gather<float, 2> gather(view_of(data, 3, 4));
    EXPECT_EQ(gather.at(1, 2), 6.0f);
    EXPECT_EQ(gather.at(0.8f, 1.7f), 5.0f);   // floor(0.8 + 0.25) = 1, floor(1.7 + 0.25) = 1
    EXPECT_EQ(gather.at(0.74f, 1.76f), 2.0f); // 0 and 2
    EXPECT_EQ(gather.at(-5.0f, 99.0f), 3.0f); // clamped to row 0, column 3
    EXPECT_EQ(gather.at(std::nanf(""), 1), 1.0f);
    // A vector index names the last dimension with .x: g[float2(x, y)] is g[y][x].
    EXPECT_EQ(gather.at_vector(float2(3.0f, 2.0f)), 11.0f);
}

TEST(CpuPrelude, FoldKeepsRowMajorOrder) {
    std::vector<float> data = {1, 2, 3, 4, 5, 6};
    const brook::cpu::StreamView view = view_of(data, 2, 3);
    brook::cpu::Box box;
    box.lo = {0, 1, 0, 0};
    box.hi = {2, 3, 1, 1};
    // A non-commutative operator shows the order: acc = acc * 10 + value.
    float accumulator = 0.0f;
    cpu::fold_box(view, box, accumulator,
                  [](const float& value, float& acc) { acc = acc * 10.0f + value; });
    EXPECT_EQ(accumulator, 2356.0f);
}

TEST(CpuPrelude, IndexofPutsTheLastDimensionInX) {
    brook::cpu::Frame::Arg args[1];
    args[0].stream.rank = 2;
    args[0].stream.extents = {2, 3, 1, 1};
    brook::cpu::Frame frame;
    frame.args = args;
    frame.output_rank = 2;
    frame.output_extents = {4, 6, 1, 1};
    // Output element 13 is row 2, column 1; the half-size input is read at row 1, column 0.
    const float4 position = cpu::indexof(frame, 0, 13);
    EXPECT_EQ(position.x, 0.0f);
    EXPECT_EQ(position.y, 1.0f);
}

TEST(CpuPrelude, SignedArithmeticWrapsAround) {
    constexpr int max = std::numeric_limits<int>::max();
    constexpr int min = std::numeric_limits<int>::min();
    EXPECT_EQ(cpu::wrapping_add(max, 1), min);
    EXPECT_EQ(cpu::wrapping_sub(min, 1), max);
    EXPECT_EQ(cpu::wrapping_mul(65536, 65536), 0);
    EXPECT_EQ(cpu::wrapping_mul(max, 3), 2147483645); // 3 * (2^31 - 1) - 2^32
    EXPECT_EQ(cpu::wrapping_neg(min), min);
    int i = max;
    EXPECT_EQ(cpu::wrapping_post_increment(i), max);
    EXPECT_EQ(i, min);
    EXPECT_EQ(cpu::wrapping_pre_decrement(i), max);
    const int2 v = cpu::wrapping_add(int2(max, -5), 2);
    EXPECT_EQ(v.x, min + 1);
    EXPECT_EQ(v.y, -3);
    int2 w(min, 7);
    cpu::wrapping_mul_assign(w, int2(-1, 2));
    EXPECT_EQ(w.x, min);
    EXPECT_EQ(w.y, 14);
}

} // namespace
