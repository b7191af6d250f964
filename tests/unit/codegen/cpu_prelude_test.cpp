// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The semantics of what generated CPU code calls: the kernel language's Cg built-in definitions,
// swizzles and write masks, conditions, conversions (to fixed too), the gather index rule and the
// unclamped reads of SIMD loops, and the CPU loops' reduction fold order (long rows folded as
// several chains joined in order).

#include "brook/cpu_kernel.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

namespace {

using brook::float2;
using brook::float3;
using brook::float4;
using brook::int2;
namespace cpu = brook::cpu;
namespace lang = brook::lang;

TEST(CpuPrelude, SwizzleReadsComponentsWithRepeats) {
    const float4 v(1.0f, 2.0f, 3.0f, 4.0f);
    const float3 zyx = lang::swizzle<2, 1, 0>(v);
    EXPECT_EQ(zyx.x, 3.0f);
    EXPECT_EQ(zyx.z, 1.0f);
    const float4 xxxx = lang::swizzle<0, 0, 0, 0>(v);
    EXPECT_EQ(xxxx.w, 1.0f);
    EXPECT_EQ(lang::swizzle<3>(v), 4.0f);
    const float2 scalar_broadcast = lang::swizzle<0, 0>(5.0f);
    EXPECT_EQ(scalar_broadcast.y, 5.0f);
}

TEST(CpuPrelude, WriteMaskAssignsOnlyItsComponents) {
    float4 v(1.0f, 2.0f, 3.0f, 4.0f);
    const float2 written = lang::assign_mask<3, 0>(v, float2(7.0f, 8.0f));
    EXPECT_EQ(v.w, 7.0f);
    EXPECT_EQ(v.x, 8.0f);
    EXPECT_EQ(v.y, 2.0f);
    EXPECT_EQ(v.z, 3.0f);
    EXPECT_EQ(written.x, 7.0f);
}

TEST(CpuPrelude, VectorConditionIsTrueWhenAnyComponentIs) {
    EXPECT_FALSE(lang::truth(float3(0.0f, 0.0f, 0.0f)));
    EXPECT_TRUE(lang::truth(float3(0.0f, -1.0f, 0.0f)));
    EXPECT_TRUE(lang::truth(2));
    EXPECT_FALSE(lang::truth(0.0f));
    const float2 chosen =
        lang::select(brook::bool2(true, false), float2(1.0f, 2.0f), float2(3.0f, 4.0f));
    EXPECT_EQ(chosen.x, 1.0f);
    EXPECT_EQ(chosen.y, 4.0f);
}

TEST(CpuPrelude, ScalarConditionChoosesAWholeValueBitForBit) {
    // A scalar condition takes one operand whole: every bit of it, NaN payloads and negative
    // zeros included, for 32- and 64-bit components.
    const float nan_payload = std::bit_cast<float>(0x7FC01234u);
    const float4 a(nan_payload, -0.0f, 1.5f, -std::numeric_limits<float>::infinity());
    const float4 b(2.0f, 3.0f, 4.0f, 5.0f);
    for (const float condition : {1.0f, -0.5f, std::numeric_limits<float>::quiet_NaN()}) {
        const float4 taken = lang::select(condition, a, b);
        EXPECT_EQ(std::bit_cast<unsigned>(taken.x), 0x7FC01234u);
        EXPECT_EQ(std::bit_cast<unsigned>(taken.y), 0x80000000u);
        EXPECT_EQ(taken.z, 1.5f);
        EXPECT_EQ(taken.w, -std::numeric_limits<float>::infinity());
    }
    const float4 other = lang::select(0.0f, a, b);
    EXPECT_EQ(other.x, 2.0f);
    EXPECT_EQ(other.w, 5.0f);
    EXPECT_EQ(lang::select(false, brook::int3(1, -2, 3), brook::int3(-4, 5, -6)).y, 5);
    EXPECT_EQ(lang::select(-0.0f, brook::double2(1.0, 2.0), brook::double2(-3.0, -4.0)).y, -4.0);
    EXPECT_EQ(lang::select(7, brook::double2(1.0, 2.0), brook::double2(-3.0, -4.0)).x, 1.0);
    // Operands of other types still follow the component rule: a scalar broadcasts.
    EXPECT_EQ(lang::select(true, 9.0f, b).w, 9.0f);
}

TEST(CpuPrelude, WholeSelectTakesEveryBitOfOneOperand) {
    // brcc's blend for choices of data (cpu::select_whole): the same bits as lang::select.
    const float nan_payload = std::bit_cast<float>(0x7FC01234u);
    const float4 a(nan_payload, -0.0f, 1.5f, -std::numeric_limits<float>::infinity());
    const float4 b(2.0f, 3.0f, 4.0f, -0.0f);
    for (const float condition :
         {1.0f, -0.5f, 0.0f, -0.0f, std::numeric_limits<float>::quiet_NaN()}) {
        const float4 blended = cpu::select_whole<float4>(condition, a, b);
        const float4 selected = lang::select(condition, a, b);
        EXPECT_EQ(std::memcmp(&blended, &selected, sizeof blended), 0) << condition;
    }
    EXPECT_EQ(std::bit_cast<unsigned>(cpu::select_whole<float4>(true, a, b).y), 0x80000000u);
    EXPECT_EQ(std::bit_cast<unsigned>(cpu::select_whole<float4>(0, a, b).w), 0x80000000u);
    EXPECT_EQ(cpu::select_whole<brook::int3>(2, brook::int3(1, -2, 3), brook::int3(-4, 5, -6)).y,
              -2);
    EXPECT_EQ(
        cpu::select_whole<brook::double2>(0.0, brook::double2(1.0, 2.0), brook::double2(-3.0, -4.0))
            .y,
        -4.0);
    const brook::bool2 flags =
        cpu::select_whole<brook::bool2>(1, brook::bool2(true, false), brook::bool2(false, true));
    EXPECT_TRUE(flags.x);
    EXPECT_FALSE(flags.y);
}

TEST(CpuPrelude, ConvertBroadcastsConvertsAndTruncates) {
    const float4 broadcast = lang::convert<float4>(2.5f);
    EXPECT_EQ(broadcast.w, 2.5f);
    const float3 truncated = lang::convert<float3>(float4(1.0f, 2.0f, 3.0f, 4.0f));
    EXPECT_EQ(truncated.z, 3.0f);
    EXPECT_EQ(lang::convert<float>(float2(9.0f, 1.0f)), 9.0f);
    const int2 ints = lang::convert<int2>(float2(1.75f, -1.75f));
    EXPECT_EQ(ints.x, 1);
    EXPECT_EQ(ints.y, -1);
}

TEST(CpuPrelude, BuiltinsFollowCg) {
    EXPECT_FLOAT_EQ(lang::frac(-1.25f), 0.75f);
    EXPECT_EQ(lang::round(2.5f), 3.0f);
    EXPECT_EQ(lang::round(-2.5f), -3.0f);
    EXPECT_EQ(lang::step(1.0f, 1.0f), 1.0f);
    EXPECT_EQ(lang::step(1.0f, 0.5f), 0.0f);
    EXPECT_FLOAT_EQ(lang::lerp(2.0f, 4.0f, 0.25f), 2.5f);
    EXPECT_EQ(lang::saturate(1.5f), 1.0f);
    EXPECT_EQ(lang::saturate(-0.5f), 0.0f);
    EXPECT_FLOAT_EQ(lang::smoothstep(0.0f, 1.0f, 0.5f), 0.5f);
    EXPECT_EQ(lang::sign(-3.0f), -1.0f);
    EXPECT_EQ(lang::sign(0.0f), 0.0f);
    EXPECT_FLOAT_EQ(lang::rsqrt(4.0f), 0.5f);
    EXPECT_FLOAT_EQ(lang::fmod(-5.5f, 2.0f), -1.5f);
    EXPECT_FLOAT_EQ(lang::degrees(3.14159265f), 180.0f);
    EXPECT_FLOAT_EQ(lang::ldexp(1.5f, 3.0f), 12.0f);
    EXPECT_EQ(lang::clamp(5, 0, 3), 3);
    EXPECT_EQ(lang::abs(-4), 4);
}

TEST(CpuPrelude, VectorBuiltinsWorkComponentWiseAndBroadcastScalars) {
    const float4 v(-1.5f, 0.5f, 2.0f, -0.0f);
    const float4 floors = lang::floor(v);
    EXPECT_EQ(floors.x, -2.0f);
    EXPECT_EQ(floors.z, 2.0f);
    const float4 maxed = lang::max(v, 0.0f);
    EXPECT_EQ(maxed.x, 0.0f);
    EXPECT_EQ(maxed.z, 2.0f);
    const float4 mixed = lang::lerp(float4(0.0f), float4(2.0f), 0.5f);
    EXPECT_EQ(mixed.y, 1.0f);
    const float inf = std::numeric_limits<float>::infinity();
    const brook::bool3 finite = lang::isfinite(float3(1.0f, inf, std::nanf("")));
    EXPECT_TRUE(finite.x);
    EXPECT_FALSE(finite.y);
    EXPECT_FALSE(finite.z);
    EXPECT_TRUE(lang::any(lang::isnan(float3(1.0f, inf, std::nanf("")))));
    EXPECT_FALSE(lang::all(lang::isinf(float2(inf, 0.0f))));
}

TEST(CpuPrelude, GeometricBuiltins) {
    const float3 a(1.0f, 0.0f, 0.0f);
    const float3 b(0.0f, 1.0f, 0.0f);
    EXPECT_EQ(lang::dot(a, b), 0.0f);
    EXPECT_EQ(lang::cross(a, b).z, 1.0f);
    EXPECT_FLOAT_EQ(lang::length(float2(3.0f, 4.0f)), 5.0f);
    EXPECT_FLOAT_EQ(lang::distance(float2(1.0f, 1.0f), float2(4.0f, 5.0f)), 5.0f);
    EXPECT_FLOAT_EQ(lang::normalize(float2(0.0f, 2.0f)).y, 1.0f);
    const float2 reflected = lang::reflect(float2(1.0f, -1.0f), float2(0.0f, 1.0f));
    EXPECT_FLOAT_EQ(reflected.x, 1.0f);
    EXPECT_FLOAT_EQ(reflected.y, 1.0f);
}

TEST(CpuPrelude, VectorLogicalOperatorsAreComponentWise) {
    const brook::bool2 both = lang::logical_and(float2(1.0f, 0.0f), float2(1.0f, 1.0f));
    EXPECT_TRUE(both.x);
    EXPECT_FALSE(both.y);
    const brook::bool2 either = lang::logical_or(float2(0.0f, 0.0f), float2(1.0f, 0.0f));
    EXPECT_TRUE(either.x);
    EXPECT_FALSE(either.y);
    EXPECT_TRUE(lang::logical_not(float2(0.0f, 1.0f)).x);
}

/// A dense `rows` x `columns` view of `data`.
template <class T>
brook::cpu::StreamView view_of(std::vector<T>& data, std::size_t rows, std::size_t columns) {
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

TEST(CpuPrelude, GatherIndexRuleAtTheEnds) {
    std::vector<float> data = {0, 1, 2, 3};
    const cpu::Gather<float, 2> gather(view_of(data, 1, 4));
    EXPECT_EQ(gather.at(0, 2.7f), 2.0f);   // floor(2.95)
    EXPECT_EQ(gather.at(0, 2.75f), 3.0f);  // floor(3.0)
    EXPECT_EQ(gather.at(0, 1e30f), 3.0f);  // clamped
    EXPECT_EQ(gather.at(0, 0.74f), 0.0f);  // floor(0.99)
    EXPECT_EQ(gather.at(0, -0.25f), 0.0f); // floor(0.0)
    EXPECT_EQ(gather.at(0, -1e30f), 0.0f);
    EXPECT_EQ(gather.at(0, -std::numeric_limits<float>::infinity()), 0.0f);
    EXPECT_EQ(gather.at(0, std::numeric_limits<float>::infinity()), 3.0f);
}

TEST(CpuPrelude, GatherOverAPointerWithExtentsAndStrides) {
    const std::vector<float> data = {0, 1, 2, 3, 4, 5, 6, 7};
    const std::size_t extents[2] = {2, 2};
    const std::size_t strides[2] = {4, 2}; // every other element of each of two rows
    const lang::Gather<float, 2> gather(data.data(), 2, extents, strides);
    EXPECT_EQ(gather.at(1, 1), 6.0f);
    EXPECT_EQ(gather.at_vector(float2(1.0f, 0.0f)), 2.0f);
    EXPECT_FALSE(gather.covers(1, 0, 2));
}

// COMPAT.md §1.9: the bound stream's rank decides what an index means.
TEST(CpuPrelude, GatherIndexMeaningFollowsTheStreamRank) {
    std::vector<float> data(6);
    for (std::size_t i = 0; i < data.size(); ++i)
        data[i] = static_cast<float>(i);
    // A 2-D stream read with four components uses .x and .y; one component is an element
    // offset clamped to the count, in a view of rank 2 or of rank 1.
    const cpu::Gather<float, 4> wide(view_of(data, 2, 3));
    EXPECT_EQ(wide.at_vector(float4(2.0f, 1.0f, 7.0f, 9.0f)), 5.0f);
    EXPECT_EQ(wide.at(4.0f), 4.0f);
    EXPECT_EQ(wide.at(99.0f), 5.0f);
    const cpu::Gather<float, 1> offsets(view_of(data, 2, 3));
    EXPECT_EQ(offsets.at(4.0f), 4.0f);
    EXPECT_EQ(offsets.at(-3.0f), 0.0f);
    // A 1-D stream read with two subscripts: g[0][i] is g[i], and the row index is clamped away.
    cpu::StreamView line = view_of(data, 1, 6);
    line.rank = 1;
    line.extents = {6, 1, 1, 1};
    line.strides = {1, 0, 0, 0};
    const cpu::Gather<float, 2> rows(line);
    EXPECT_EQ(rows.at(0, 3.0f), 3.0f);
    EXPECT_EQ(rows.at(5, 3.0f), 3.0f);
    EXPECT_EQ(rows.at(2.0f), 2.0f);
}

TEST(CpuPrelude, GatherIndexIsExactBeyond2To31) {
    const std::size_t extent = 4'000'000'000;
    EXPECT_EQ(lang::gather_index(3e9f, extent), 3'000'000'000u);
    EXPECT_EQ(lang::gather_index(3'000'000'001LL, extent), 3'000'000'001u);
    EXPECT_EQ(lang::gather_index(5'000'000'000LL, extent), extent - 1);
}

// The loops compiled for arrays below 2^31 elements convert float indices through 32-bit
// integers: the same elements as the 64-bit conversion, up to the largest float below 2^31.
TEST(CpuPrelude, GatherNarrowFloatIndicesReadTheSameElements) {
    std::vector<float> data(6);
    for (std::size_t i = 0; i < data.size(); ++i)
        data[i] = static_cast<float>(i);
    const cpu::StreamView grid = view_of(data, 2, 3);
    ASSERT_TRUE(cpu::fits_int_offsets(grid));
    const cpu::Gather<float, 2> wide(grid);
    const cpu::Gather<float, 2> narrow(grid, true);
    const cpu::Gather<float, 1> narrow_offsets(grid, true);
    const lang::Gather<float, 2> narrow_called(narrow_offsets); // as a helper of rank 2 gets it
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (const float index :
         {-1e30f, -0.3f, 0.0f, 0.74f, 0.75f, 1.9f, 2.7f, 4.5f, 99.0f, 3e9f, nan}) {
        EXPECT_EQ(narrow.at(1.0f, index), wide.at(1.0f, index)) << index;
        EXPECT_EQ(narrow.at(index, 2.0f), wide.at(index, 2.0f)) << index;
        EXPECT_EQ(narrow.at(index), wide.at(index)) << index;
        EXPECT_EQ(narrow_offsets.at(index), wide.at(index)) << index;
        EXPECT_EQ(narrow_called.at(index), wide.at(index)) << index;
    }
    const std::size_t largest = std::size_t{1} << 31;
    const float below = std::nextafter(2147483648.0f, 0.0f);
    EXPECT_EQ(lang::gather_index(below, largest, true), lang::gather_index(below, largest));
    EXPECT_EQ(lang::gather_index(3e9f, largest, true), largest - 1);
    EXPECT_EQ(lang::gather_index(12.6f, largest, true), 12u);
}

TEST(CpuPrelude, OnlyArraysBelow2To31ElementsFitIntOffsets) {
    cpu::StreamView view{};
    view.rank = 2;
    view.extents = {46'341, 46'340, 1, 1}; // 2,147,441,940 elements
    EXPECT_TRUE(cpu::fits_int_offsets(view));
    view.extents = {46'341, 46'341, 1, 1}; // 2,147,488,281
    EXPECT_FALSE(cpu::fits_int_offsets(view));
}

// int element offsets are clamped in int (so that the loops vectorise with 32-bit gathers): the
// same elements as the index rule picks, in a 1-D stream and in a 2-D one read with offsets.
TEST(CpuPrelude, GatherIntOffsetsFollowTheIndexRule) {
    std::vector<float> data(6);
    for (std::size_t i = 0; i < data.size(); ++i)
        data[i] = static_cast<float>(i);
    cpu::StreamView line = view_of(data, 1, 6);
    line.rank = 1;
    line.extents = {6, 1, 1, 1};
    line.strides = {1, 0, 0, 0};
    const cpu::Gather<float, 1> list(line);
    const cpu::Gather<float, 2> offsets(view_of(data, 2, 3));
    for (const int index : {-2147483647 - 1, -1, 0, 3, 5, 6, 99, 2147483647}) {
        const auto expected = static_cast<float>(lang::gather_index(index, data.size()));
        EXPECT_EQ(list.at(index), expected) << index;
        EXPECT_EQ(offsets.at(index), expected) << index;
        EXPECT_EQ(list.at(static_cast<short>(index)),
                  static_cast<float>(lang::gather_index(static_cast<short>(index), data.size())))
            << index;
    }
    EXPECT_EQ(list.at(static_cast<signed char>(-7)), 0.0f);
    EXPECT_EQ(list.at(4u), 4.0f);
    EXPECT_EQ(list.at(4'000'000'000u), 5.0f);
}

// A vector element read through an int offset is built from its components (so that GCC gathers
// them in a vectorised loop): every component of the element the index rule picks, clamped at
// both ends, for each width and for int vectors; through a vector index too.
TEST(CpuPrelude, GatherIntOffsetsReadEveryComponentOfAVector) {
    std::vector<float4> quads(6);
    std::vector<float3> triples(6);
    std::vector<float2> pairs(6);
    std::vector<brook::int4> ints(6);
    for (int i = 0; i < 6; ++i) {
        const auto f = static_cast<float>(i);
        quads[static_cast<std::size_t>(i)] = float4(f, f + 0.25f, -f, f * 8.0f);
        triples[static_cast<std::size_t>(i)] = float3(f + 0.5f, -f - 1.0f, f * 3.0f);
        pairs[static_cast<std::size_t>(i)] = float2(f * -2.0f, f + 7.0f);
        ints[static_cast<std::size_t>(i)] = brook::int4(i, -i, i * 100, 1 << (i + 20));
    }
    const cpu::Gather<float4, 2> quad(view_of(quads, 2, 3));
    const cpu::Gather<float3, 1> triple(view_of(triples, 1, 6));
    const cpu::Gather<float2, 2> pair(view_of(pairs, 3, 2));
    const cpu::Gather<brook::int4, 2> four_ints(view_of(ints, 2, 3));
    const auto same = [](const auto& a, const auto& b) {
        return std::memcmp(&a, &b, sizeof a) == 0;
    };
    for (const int index : {-2147483647 - 1, -1, 0, 2, 5, 6, 2147483647}) {
        const std::size_t picked = lang::gather_index(index, 6);
        EXPECT_TRUE(same(quad.at(index), quads[picked])) << index;
        EXPECT_TRUE(same(triple.at(index), triples[picked])) << index;
        EXPECT_TRUE(same(triple.at_vector(index), triples[picked])) << index;
        EXPECT_TRUE(same(pair.at(index), pairs[picked])) << index;
        EXPECT_TRUE(same(four_ints.at(index), ints[picked])) << index;
    }
    // Two indices still read the element in place.
    EXPECT_EQ(&quad.at(1, 2), &quads[5]);
}

TEST(CpuPrelude, GatherInRangeReadsAsAtWhereTheLoopCoversTheExtent) {
    std::vector<float> data(12);
    for (std::size_t i = 0; i < data.size(); ++i)
        data[i] = static_cast<float>(i);
    const cpu::Gather<float, 2> gather(view_of(data, 3, 4));
    EXPECT_TRUE(gather.covers(1, 0, 4));
    EXPECT_TRUE(gather.covers(0, 1, 3));
    EXPECT_FALSE(gather.covers(1, 0, 5));
    EXPECT_FALSE(gather.covers(1, -1, 3));
    for (int j = 0; j < 4; ++j)
        EXPECT_EQ(gather.at_in_range<2u>(1.3f, j), gather.at(1.3f, j)) << j;
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(gather.at_in_range<1u>(i, 2.8f), gather.at(i, 2.8f)) << i;
    // A view whose rows are not consecutive elements cannot be read unclamped along them.
    cpu::StreamView strided = view_of(data, 3, 2);
    strided.strides = {4, 2, 0, 0};
    const cpu::Gather<float, 2> every_other(strided);
    EXPECT_FALSE(every_other.covers(1, 0, 2));
    EXPECT_TRUE(every_other.covers(0, 0, 3));
}

TEST(CpuPrelude, ConversionToFixedSaturatesAndRounds) {
    using brook::fixed;
    EXPECT_EQ((lang::to_fixed<fixed, float>(1.7f)), 1.0f);
    EXPECT_EQ((lang::to_fixed<fixed, float>(-0.2f)), 0.0f);
    EXPECT_EQ((lang::to_fixed<fixed, float>(0.6f)), 153.0f / 255.0f);
    EXPECT_EQ((lang::to_fixed<fixed, float>(1)), 1.0f);
    const float4 v = lang::to_fixed<fixed, float4>(0.1f);
    EXPECT_EQ(v.x, 26.0f / 255.0f); // 25.5 rounds up
    EXPECT_EQ(v.w, 26.0f / 255.0f);
    const float2 w = lang::to_fixed<fixed, float2>(float2(2.0f, 0.2f));
    EXPECT_EQ(w.x, 1.0f);
    EXPECT_EQ(w.y, 51.0f / 255.0f);
    // shortfixed rounds to a step of 1/65535.
    EXPECT_EQ((lang::to_fixed<brook::shortfixed, float>(0.5f)), 32768.0f / 65535.0f);
}

TEST(CpuPrelude, PackAndUnpackFourBytes) {
    const float packed = lang::pack_4ubyte(float4(0.0f, 2.0f, 0.6f, 0.2f));
    unsigned bits = 0;
    std::memcpy(&bits, &packed, sizeof bits);
    EXPECT_EQ(bits, 0x3399FF00u); // .x in the low byte, 2.0 saturated
    const float4 back = lang::unpack_4ubyte(packed);
    EXPECT_EQ(back.y, 1.0f);
    EXPECT_EQ(back.z, 153.0f / 255.0f);
}

// GCC 12 at -O3 inlines fold_box into this test, sees the 6-float vector, and warns that
// fold_run's branch for long runs (256 elements or more) would read past it: a false positive,
// as the runs here are 3 elements long.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
TEST(CpuPrelude, FoldKeepsRowMajorOrder) {
    std::vector<float> data = {1, 2, 3, 4, 5, 6};
    const brook::cpu::StreamView view = view_of(data, 2, 3);
    brook::cpu::Box box;
    box.lo = {0, 1, 0, 0};
    box.hi = {2, 3, 1, 1};
    // A non-commutative operator shows the order: acc = acc * 10 + value.
    float accumulator = 0.0f;
    cpu::fold_box<cpu::FoldOrder::Ordered>(
        view, box, accumulator, [](const float& value, float& acc) { acc = acc * 10.0f + value; });
    EXPECT_EQ(accumulator, 2356.0f);
}
#pragma GCC diagnostic pop

/// 2x2 matrices (x y / z w) of unsigned ints: an associative, non-commutative product, exact
/// modulo 2^32.
using Matrix = brook::vec<unsigned, 4>;
Matrix product(const Matrix& a, const Matrix& b) {
    return Matrix(a.x * b.x + a.y * b.z, a.x * b.y + a.y * b.w, a.z * b.x + a.w * b.z,
                  a.z * b.y + a.w * b.w);
}

TEST(CpuPrelude, FoldOfLongRowsJoinsItsChainsInOrder) {
    // Rows long enough to be folded as several chains, with a remainder after the last one.
    constexpr std::size_t rows = 3;
    constexpr std::size_t columns = 1037;
    std::vector<Matrix> data(rows * columns);
    for (std::size_t i = 0; i < data.size(); ++i) {
        const auto k = static_cast<unsigned>(i);
        data[i] = Matrix(1u + k % 5u, k % 3u, k % 7u, 1u + k % 2u);
    }
    const cpu::StreamView view = view_of(data, rows, columns);
    // Rows 1 and 2 from column 5: a partial row, then a whole one.
    cpu::Box box;
    box.lo = {1, 5, 0, 0};
    box.hi = {3, columns, 1, 1};
    Matrix expected = data[columns + 5];
    for (std::size_t r = 1; r < rows; ++r) {
        for (std::size_t c = (r == 1 ? 6 : 0); c < columns; ++c)
            expected = product(expected, data[r * columns + c]);
    }
    Matrix accumulator;
    cpu::fold_box<cpu::FoldOrder::Ordered>(
        view, box, accumulator,
        [](const Matrix& value, Matrix& acc) { acc = product(acc, value); });
    EXPECT_EQ(accumulator.x, expected.x);
    EXPECT_EQ(accumulator.y, expected.y);
    EXPECT_EQ(accumulator.z, expected.z);
    EXPECT_EQ(accumulator.w, expected.w);
}

/// The components of an int or an int vector, for comparing them with one expectation.
template <class Element> std::vector<int> components_of(const Element& value) {
    std::vector<int> components;
    [&]<int... Index>(std::integer_sequence<int, Index...>) {
        (components.push_back(lang::detail::get<Index>(value)), ...);
    }
    (std::make_integer_sequence<int, lang::detail::width_v<Element>>{});
    return components;
}

/// Folds the elements of `rows` rows of each of several lengths around the interleaved blocks'
/// size with the commutative fold, from a third of the way along each row (the first element of
/// the box starts the accumulator, and the elements after the last whole block are the
/// remainder), and checks the sum against a loop's. `make(k)` gives element k.
template <class Element, class Make> void expect_commutative_sum_exact(Make make) {
    for (const std::size_t columns : {1u, 7u, 127u, 128u, 129u, 190u, 191u, 193u, 1037u}) {
        constexpr std::size_t rows = 3;
        std::vector<Element> data(rows * columns);
        for (std::size_t i = 0; i < data.size(); ++i) {
            data[i] = make(static_cast<int>(i));
        }
        const cpu::StreamView view = view_of(data, rows, columns);
        cpu::Box box;
        box.lo = {0, columns / 3, 0, 0};
        box.hi = {rows, columns, 1, 1};
        Element expected = make(0) - make(0);
        for (std::size_t r = 0; r < rows; ++r) {
            for (std::size_t c = columns / 3; c < columns; ++c)
                expected = expected + data[r * columns + c];
        }
        Element accumulator;
        cpu::fold_box<cpu::FoldOrder::Commutative>(
            view, box, accumulator, [](const Element& value, Element& acc) { acc = acc + value; });
        EXPECT_EQ(components_of(accumulator), components_of(expected)) << columns << " columns";
    }
}

TEST(CpuPrelude, CommutativeFoldTakesEveryElementOnce) {
    // Integer sums are exact in any order, so every element must be added exactly once. Element
    // sizes of a power of two and of another size take different loops (fold_run_commutative).
    expect_commutative_sum_exact<brook::int3>(
        [](int k) { return brook::int3(k, k * k % 1009, 1 << (k % 20)); });
    expect_commutative_sum_exact<brook::int4>(
        [](int k) { return brook::int4(k, k * k % 1009, 1 << (k % 20), -k); });
    expect_commutative_sum_exact<int>([](int k) { return k * k % 1009; });
}

TEST(CpuPrelude, ResizedViewMapsOutputElementsRowByRow) {
    // A 2x3 input read over a 4x6 output: each input element covers a 2x2 block.
    std::vector<float> data = {0, 1, 2, 10, 11, 12};
    brook::cpu::Frame::Arg args[1];
    args[0].stream = view_of(data, 2, 3);
    brook::cpu::Frame frame;
    frame.args = args;
    frame.output_rank = 2;
    frame.output_extents = {4, 6, 1, 1};
    cpu::ResizedView<const float> input(frame, 0);
    // From the middle of a row, across rows, then back to an earlier row.
    const std::vector<std::size_t> order = {9, 10, 11, 12, 13, 23, 2, 0};
    const std::vector<float> expected = {1, 2, 2, 10, 10, 12, 1, 0};
    for (std::size_t k = 0; k < order.size(); ++k)
        EXPECT_EQ(input[order[k]], expected[k]) << "output element " << order[k];
}

// Every element of a 3-D output, in order (row after row, across the dimensions before the
// rows) and then again after a jump, reads what the resizing rule maps it to, with a repeated, a
// strided and an unresized dimension before the rows.
TEST(CpuPrelude, ResizedViewStepsFromRowToRowAsTheRuleMapsThem) {
    // Input 1 x 6 x 3, output 3 x 3 x 6: dimension 0 repeats (1 -> 3), dimension 1 strides
    // (6 -> 3, rows 0, 2, 4), dimension 2 repeats each element twice (3 -> 6).
    constexpr std::size_t in[3] = {1, 6, 3};
    constexpr std::size_t out[3] = {3, 3, 6};
    std::vector<float> data(in[0] * in[1] * in[2]);
    for (std::size_t i = 0; i < data.size(); ++i)
        data[i] = static_cast<float>(i);
    brook::cpu::Frame::Arg args[1];
    args[0].stream.data = reinterpret_cast<std::byte*>(data.data());
    args[0].stream.rank = 3;
    args[0].stream.extents = {in[0], in[1], in[2], 1};
    args[0].stream.strides = {in[1] * in[2], in[2], 1, 0};
    brook::cpu::Frame frame;
    frame.args = args;
    frame.output_rank = 3;
    frame.output_extents = {out[0], out[1], out[2], 1};
    cpu::ResizedView<const float> input(frame, 0);
    const auto expected = [&](std::size_t index) {
        const std::size_t c2 = index % out[2];
        const std::size_t c1 = index / out[2] % out[1];
        const std::size_t c0 = index / (out[1] * out[2]);
        return data[(c0 * in[0] / out[0]) * in[1] * in[2] + (c1 * in[1] / out[1]) * in[2] +
                    c2 * in[2] / out[2]];
    };
    const std::size_t count = out[0] * out[1] * out[2];
    for (std::size_t index = 0; index < count; ++index)
        EXPECT_EQ(input[index], expected(index)) << "output element " << index;
    for (std::size_t index = 20; index < count; ++index)
        EXPECT_EQ(input[index], expected(index)) << "output element " << index << ", again";
}

TEST(CpuPrelude, ResizedViewFollowsTheStridesOfADomain) {
    // Columns 1..2 of rows 1..2 of a 3x4 stream, as a 2x2 output.
    std::vector<float> data(12);
    for (std::size_t i = 0; i < data.size(); ++i)
        data[i] = static_cast<float>(i);
    brook::cpu::Frame::Arg args[1];
    args[0].stream = view_of(data, 2, 2);
    args[0].stream.data = reinterpret_cast<std::byte*>(data.data() + 5);
    args[0].stream.strides = {4, 1, 0, 0};
    brook::cpu::Frame frame;
    frame.args = args;
    frame.output_rank = 2;
    frame.output_extents = {2, 2, 1, 1};
    cpu::ResizedView<float> output(frame, 0);
    EXPECT_EQ(output[0], 5.0f);
    EXPECT_EQ(output[1], 6.0f);
    EXPECT_EQ(output[2], 9.0f);
    output[3] = -1.0f;
    EXPECT_EQ(data[10], -1.0f);
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
    EXPECT_EQ(lang::wrapping_add(max, 1), min);
    EXPECT_EQ(lang::wrapping_sub(min, 1), max);
    EXPECT_EQ(lang::wrapping_mul(65536, 65536), 0);
    EXPECT_EQ(lang::wrapping_mul(max, 3), 2147483645); // 3 * (2^31 - 1) - 2^32
    EXPECT_EQ(lang::wrapping_neg(min), min);
    int i = max;
    EXPECT_EQ(lang::wrapping_post_increment(i), max);
    EXPECT_EQ(i, min);
    EXPECT_EQ(lang::wrapping_pre_decrement(i), max);
    const int2 v = lang::wrapping_add(int2(max, -5), 2);
    EXPECT_EQ(v.x, min + 1);
    EXPECT_EQ(v.y, -3);
    int2 w(min, 7);
    lang::wrapping_mul_assign(w, int2(-1, 2));
    EXPECT_EQ(w.x, min);
    EXPECT_EQ(w.y, 14);
}

// BROOKPLUS.md §4.7: a scatter output's index follows the gather rule, but a write outside the
// stream is dropped rather than clamped; one index into a strided 2-D view is a row-major offset.
TEST(CpuPrelude, ScatterStoresInsideAndDropsOutside) {
    std::vector<float> data(8, -1.0f);
    const std::size_t extents[2] = {2, 2};
    const std::size_t strides[2] = {4, 2}; // every other element of each of two rows
    const lang::Scatter<float, 2> scatter(data.data(), 2, extents, strides);
    scatter.at(1, 1) = 10.0f;                       // row 1, column 1: element 6
    scatter.at_vector(float2(0.8f, 0.0f)) = 20.0f;  // column floor(1.05) = 1, row 0: element 2
    scatter.at(2, 0) = 30.0f;                       // row 2 of 2: dropped
    scatter.at_vector(float2(-0.5f, 0.0f)) = 40.0f; // column floor(-0.25) = -1: dropped
    scatter.at(2.0f) = 50.0f;                       // offset 2: row 1, column 0: element 4
    scatter.at(4) = 60.0f;                          // offset past the 4 elements: dropped
    const std::vector<float> expected = {-1, -1, 20, -1, 50, -1, 10, -1};
    EXPECT_EQ(data, expected);
    // NaN is index 0, as for a gather.
    scatter.at(std::numeric_limits<float>::quiet_NaN(), 0.0f) = 70.0f;
    EXPECT_EQ(data[0], 70.0f);
}

// BROOKPLUS.md §4.8: a group's shared array clamps its index, reading and writing.
TEST(CpuPrelude, GroupSharedClampsItsIndex) {
    lang::GroupShared<int, 3> shared{};
    shared.at(-2) = 5;
    shared.at(7.9f) = 9;
    EXPECT_EQ(shared.elements[0], 5);
    EXPECT_EQ(shared.elements[2], 9);
    EXPECT_EQ(shared.at(1), 0);
}

/// A group kernel's body as brcc prints it for the CPU: the thread writes its slot, waits for
/// the group and reads its neighbour's.
cpu::GroupTask exchange(std::vector<int>& slots, std::vector<int>& seen, int thread) {
    slots[static_cast<std::size_t>(thread)] = 10 * thread;
    co_await cpu::sync_group();
    seen[static_cast<std::size_t>(thread)] =
        slots[static_cast<std::size_t>((thread + 1) % static_cast<int>(slots.size()))];
    if (thread == 0)
        co_return; // a thread may end before the others reach the next barrier
    co_await cpu::sync_group();
    seen[static_cast<std::size_t>(thread)] += 1;
}

TEST(CpuPrelude, RunGroupMeetsEveryThreadAtEachBarrier) {
    std::vector<int> slots(4, -1);
    std::vector<int> seen(4, -1);
    cpu::run_group(4, [&](int thread) { return exchange(slots, seen, thread); });
    const std::vector<int> expected = {10, 21, 31, 1};
    EXPECT_EQ(seen, expected);
}

} // namespace
