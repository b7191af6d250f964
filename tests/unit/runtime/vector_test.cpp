// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// brook::vec: layout, constructors, indexing and the Cg operators.
#include <brook/brook.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <type_traits>

namespace {

using brook::vec;

template <class T, int N> bool all_of(const vec<T, N>& v) {
    for (int i = 0; i < N; ++i) {
        if (!v[i]) {
            return false;
        }
    }
    return true;
}

template <class T, int N> bool same(const vec<T, N>& a, const vec<T, N>& b) {
    return all_of(a == b);
}

static_assert(sizeof(float2) == 2 * sizeof(float) && alignof(float2) == alignof(float));
static_assert(sizeof(float3) == 3 * sizeof(float));
static_assert(sizeof(int4) == 4 * sizeof(int));
static_assert(std::is_trivially_copyable_v<float3>);
static_assert(!std::is_convertible_v<float, float4>, "broadcast is explicit");
static_assert(!std::is_convertible_v<int4, float4>, "element conversion is explicit");
static_assert(float4(float3(1, 2, 3), 4.0f).w == 4.0f);
static_assert((float4(1, 2, 3, 4) * 2.0f + 1.0f).z == 7.0f);
static_assert((int2(7, -7) % 3).y == -1);
static_assert((float3(1, 2, 3) < 2.0f).x);

TEST(Vector, DefaultIsZero) {
    const float4 v;
    EXPECT_TRUE(same(v, float4(0, 0, 0, 0)));
    const int3 i;
    EXPECT_EQ(i.x + i.y + i.z, 0);
}

TEST(Vector, Constructors) {
    const float3 a(1, 2, 3);
    EXPECT_EQ(a.y, 2.0f);
    const float4 broadcast(2.5f);
    EXPECT_TRUE(same(broadcast, float4(2.5f, 2.5f, 2.5f, 2.5f)));
    const int4 converted(float4(1.7f, -1.7f, 2.0f, 0.2f));
    EXPECT_TRUE(same(converted, int4(1, -1, 2, 0)));
    const float2 braced = {2, 0};
    EXPECT_TRUE(same(braced, float2(2.0f, 0.0f)));
}

TEST(Vector, CompositeConstructors) {
    EXPECT_TRUE(same(float4(float3(1, 2, 3), 4.0f), float4(1, 2, 3, 4)));
    EXPECT_TRUE(same(float4(1.0f, float3(2, 3, 4)), float4(1, 2, 3, 4)));
    EXPECT_TRUE(same(float4(float2(1, 2), float2(3, 4)), float4(1, 2, 3, 4)));
    EXPECT_TRUE(same(float4(1.0f, float2(2, 3), 4.0f), float4(1, 2, 3, 4)));
    EXPECT_TRUE(same(float3(float2(1, 2), 3), float3(1, 2, 3)));
    EXPECT_TRUE(same(float4(int2(1, 2), 3.5, 4), float4(1, 2, 3.5f, 4)));
}

TEST(Vector, IndexingClampsOutOfRange) {
    float4 v(1, 2, 3, 4);
    EXPECT_EQ(v[0], 1.0f);
    EXPECT_EQ(v[3], 4.0f);
    EXPECT_EQ(v[-5], 1.0f);
    EXPECT_EQ(v[9], 4.0f);
    v[2] = 7.0f;
    EXPECT_EQ(v.z, 7.0f);
    const float2 c(5, 6);
    EXPECT_EQ(c[1], 6.0f);
}

TEST(Vector, ArithmeticBroadcastsScalars) {
    const float4 a(1, 2, 3, 4);
    const float4 b(4, 3, 2, 1);
    EXPECT_TRUE(same(a + b, float4(5.0f)));
    EXPECT_TRUE(same(a - b, float4(-3, -1, 1, 3)));
    EXPECT_TRUE(same(a * b, float4(4, 6, 6, 4)));
    EXPECT_TRUE(same(a / float4(2.0f), float4(0.5f, 1, 1.5f, 2)));
    EXPECT_TRUE(same(2.0f * a, float4(2, 4, 6, 8)));
    EXPECT_TRUE(same(a * 2, float4(2, 4, 6, 8)));
    EXPECT_TRUE(same(1.0f - a, float4(0, -1, -2, -3)));
    EXPECT_TRUE(same(12.0f / a, float4(12, 6, 4, 3)));
    EXPECT_TRUE(same(-a, float4(-1, -2, -3, -4)));
    EXPECT_TRUE(same(+a, a));
}

TEST(Vector, Remainder) {
    EXPECT_TRUE(same(int3(7, -7, 9) % int3(3, 3, 4), int3(1, -1, 1)));
    const float2 r = float2(5.5f, -5.5f) % 2.0f;
    EXPECT_FLOAT_EQ(r.x, std::fmod(5.5f, 2.0f));
    EXPECT_FLOAT_EQ(r.y, std::fmod(-5.5f, 2.0f));
}

TEST(Vector, BitwiseOnIntegers) {
    const int4 a(12, 10, 1, -1);
    EXPECT_TRUE(same(a & 6, int4(4, 2, 0, 6)));
    EXPECT_TRUE(same(a | int4(1), int4(13, 11, 1, -1)));
    EXPECT_TRUE(same(a ^ 1, int4(13, 11, 0, -2)));
    EXPECT_TRUE(same(~int2(0, -1), int2(-1, 0)));
    EXPECT_TRUE(same(int2(1, 2) << 3, int2(8, 16)));
    EXPECT_TRUE(same(int2(64, -64) >> int2(2, 3), int2(16, -8)));
}

TEST(Vector, CompoundAssignment) {
    float3 v(1, 2, 3);
    v += float3(1.0f);
    v *= 2.0f;
    v -= 1;
    v /= float3(1, 3, 7);
    EXPECT_TRUE(same(v, float3(3, 5.0f / 3.0f, 1)));
    int2 i(7, 9);
    i %= 4;
    i <<= 1;
    i |= 1;
    i ^= int2(0, 2);
    i >>= 1;
    i &= 3;
    EXPECT_TRUE(same(i, int2(3, 0)));
}

TEST(Vector, ComparisonsArePerComponent) {
    const float3 a(1, 2, 3);
    const float3 b(3, 2, 1);
    EXPECT_TRUE(same(a < b, bool3(true, false, false)));
    EXPECT_TRUE(same(a > b, bool3(false, false, true)));
    EXPECT_TRUE(same(a <= b, bool3(true, true, false)));
    EXPECT_TRUE(same(a >= b, bool3(false, true, true)));
    EXPECT_TRUE(same(a == b, bool3(false, true, false)));
    EXPECT_TRUE(same(a != b, bool3(true, false, true)));
    EXPECT_TRUE(same(a == 2.0f, bool3(false, true, false)));
    EXPECT_TRUE(same(2.0f < a, bool3(false, false, true)));
    EXPECT_TRUE(same(!(a < b), bool3(false, true, true)));
}

TEST(Vector, ConstexprEvaluation) {
    constexpr float4 v = float4(float2(1, 2), 3.0f, 4.0f) * 2.0f - float4(1.0f);
    static_assert(v.x == 1.0f && v.w == 7.0f);
    constexpr int3 m = (int3(5, 6, 7) & 3) << 1;
    static_assert(m.x == 2 && m.z == 6);
    EXPECT_EQ(v.y, 3.0f);
}

TEST(Vector, GlobalNamesForHostCode) {
    // C-style host code as in the paper uses the types unqualified.
    float4 X[3];
    X[1] = float4(1, 2, 3, 4);
    int2 k(1, 2);
    bool4 flags;
    EXPECT_EQ(X[1].w, 4.0f);
    EXPECT_EQ(X[0].x, 0.0f);
    EXPECT_EQ(k.y, 2);
    EXPECT_FALSE(flags.x);
}

} // namespace
