// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Which reduce functions brcc treats as commutative (sema/reduce_commutes.hpp): the CPU backend
// folds those in an order that vectorises, so a false "yes" would re-order a non-commutative
// operator. Each case is a whole reduce function through the real front end.

#include "sema/reduce_commutes.hpp"
#include "sema_source_harness.hpp"

namespace brcc::test {
namespace {

TEST_F(SemaSourceTest, CommutingReduceBodiesAreRecognised) {
    ASSERT_TRUE(analyze_source(R"(
reduce void sum(float a<>, reduce float r<>) { r += a; }
reduce void sum_swapped(float4 a<>, reduce float4 r<>) { r = a + r; }
reduce void product(float2 a<>, reduce float2 r<>) { r *= a; }
reduce void largest(float3 a<>, reduce float3 r<>) { r = max(r, a); }
reduce void smallest(int a<>, reduce int r<>) { r = min(a, r); }
reduce void bits(int2 a<>, reduce int2 r<>) { r = r ^ a; }
reduce void any_set(int a<>, reduce int r<>) { r |= a; }
)")) << out_.str();
    for (const char* name :
         {"sum", "sum_swapped", "product", "largest", "smallest", "bits", "any_set"})
        EXPECT_TRUE(reduce_commutes(*kernel(name))) << name;
}

TEST_F(SemaSourceTest, OtherReduceBodiesKeepTheirOrder) {
    ASSERT_TRUE(analyze_source(R"(
reduce void difference(float a<>, reduce float r<>) { r -= a; }
reduce void digits(float a<>, reduce float r<>) { r = r * 10.0 + a; }
reduce void matrix(float4 a<>, reduce float4 r<>) {
    r = float4(r.x * a.x + r.y * a.z, r.x * a.y + r.y * a.w, r.z * a.x + r.w * a.z,
               r.z * a.y + r.w * a.w);
}
reduce void twice(float a<>, reduce float r<>) { r += a; r += a; }
reduce void self(float a<>, reduce float r<>) { r = r + r; }
reduce void left(float a<>, reduce float r<>) { r = max(r, r); }
reduce void float_bits(float a<>, reduce float r<>) { r = r / a; }
reduce void scaled(float a<>, float k, reduce float r<>) { r = max(r, a * k); }
)")) << out_.str();
    for (const char* name :
         {"difference", "digits", "matrix", "twice", "self", "left", "float_bits", "scaled"})
        EXPECT_FALSE(reduce_commutes(*kernel(name))) << name;
}

} // namespace
} // namespace brcc::test
