// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Sema of issue 3's stream constructs: variable outputs (`vout` and `push`), indexof's rules,
// iterator declarations and the reduce functions that streamGatherOp / streamScatterOp name.

#include "sema_source_harness.hpp"

namespace brcc::test {
namespace {

TEST_F(SemaSourceTest, VariableOutputIsReadWrittenAndPushed) {
    expect_clean(R"(
kernel void split(float a<>, float limit, vout float2 v<>) {
    v = float2(a, 0);
    if (a > limit) {
        v.y = v.x * 2;
        push(v);
    }
    push(v);
}
)");
    const std::string all = dump();
    EXPECT_NE(all.find("    Param v : float2 variable output\n"), std::string::npos) << all;
    EXPECT_NE(all.find("          Push\n            NameRef v : float2 -> param\n"),
              std::string::npos)
        << all;
}

TEST_F(SemaSourceTest, PushNeedsAVoutArgument) {
    expect_marked_errors(R"(
kernel void k(float a<>, float c, float g[], vout float v<>) {
    float local = a;
    push(a);     // error: push needs a vout argument of this kernel, but 'a' is a input stream
    push(c);     // error: but 'c' is a constant argument
    push(g);     // error: but 'g' is a gather argument
    push(local); // error: but 'local' is a local variable
    push(w);     // error: use of undeclared identifier 'w'
    push(v);
}
kernel void o(float a<>, out float b<>) {
    push(b);     // error: but 'b' is a out stream
}
)");
}

TEST_F(SemaSourceTest, VariableOutputRules) {
    expect_marked_errors(R"(
kernel void no_stream(float a<>,
                      vout float v) { } // error: declare it 'vout float v<>'
kernel void two(float a<>, vout float v<>, vout [2] float w<>) { }
kernel void mixed(float a<>, vout float v<>,
                  out float o<>) { } // error: 'o' cannot be used beside vout argument 'v'
kernel void no_input(float c, // error: kernel 'no_input' with vout argument 'v' needs an input
                     vout float v<>) { }
kernel float helper(vout float v<>) { return 1; } // error: argument 'v' of helper kernel
reduce void sum(float a<>, reduce float r<>,
                vout float v<>) { r += a; } // error: 'sum' cannot have out argument 'v'
)");
}

TEST_F(SemaSourceTest, IndexofRules) {
    expect_marked_errors(R"(
kernel float4 scaled(float4 position, float s) { return position * s; }
kernel void ok(float a<>, out float4 b<>) {
    b = scaled(indexof(a), 2) + indexof b;
}
kernel void of_vout(float a<>, vout float v<>) {
    v = indexof(v).x; // error: indexof cannot be applied to vout argument 'v'
    push(v);
}
reduce void sum(float a<>, reduce float r<>) {
    r += a + indexof(a).x; // error: indexof cannot be used in reduce function 'sum'
}
)");
    ASSERT_NE(kernel("ok"), nullptr);
    EXPECT_TRUE(kernel("ok")->uses_indexof);
    EXPECT_FALSE(kernel("scaled")->uses_indexof);
}

TEST_F(SemaSourceTest, Iterators) {
    expect_marked_errors(R"(
typedef struct { float a; } S;
int main() {
    iter float a<10> = iter(0.0f, 1.0f);
    iter float4 b<10> = iter(float4(0, 0, 0, 0), float4(1, 1, 1, 1));
    iter float2 c<4, 8> = iter(float2(0, 0), float2(8, 4));
    iter int d<10> = iter(0, 10);                 // error: iterator 'd' has element type 'int'
    iter S e<10> = iter(0, 10);                   // error: iterator 'e' has element type 'S'
    iter float f<4, 8> = iter(0.0f, 1.0f);        // error: 'f' of type 'float' has 2 dimensions
    iter float3 g<2, 4, 8> = iter(0.0f, 1.0f);    // error: 'g' of type 'float3' has 3 dimensions
    return 0;
}
)");
}

TEST_F(SemaSourceTest, ReduceOperatorsOfGatherAndScatterOps) {
    expect_marked_errors(R"(
reduce void add(float a<>, reduce float r<>) { r += a; }
kernel void copy(float a<>, out float b<>) { b = a; }
int main() {
    float d<10>, i<10>, s<10>;
    streamGatherOp(d, i, s, add);
    streamScatterOp(d, i, s, add);
    streamScatterOp(d, i, s, missing); // error: 'missing' is not a reduce function of
    streamGatherOp(d, i, s, copy);     // error: kernel 'copy' is not a reduce
    return 0;
}
)");
    int resolved = 0;
    for (const TopLevelItem& item : unit_->items)
        if (const auto* op = std::get_if<HostReduceOperator>(&item); op && op->reduce)
            resolved += op->reduce == kernel("add") ? 1 : 100;
    EXPECT_EQ(resolved, 2);
}

} // namespace
} // namespace brcc::test
