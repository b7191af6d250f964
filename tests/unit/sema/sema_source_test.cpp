// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Sema on Brook source text through the real front end: whole programs that must check
// cleanly, and mistakes whose diagnostics must land on the line marked `// error: text`, with
// no other diagnostic (the format of tests/diagnostics).

#include "sema_source_harness.hpp"

namespace brcc::test {
namespace {

TEST_F(SemaSourceTest, Saxpy) {
    expect_clean(R"(
kernel void saxpy(float alpha, float4 x<>, float4 y<>, out float4 result<>) {
    result = alpha * x + y;
}

int main() {
    float4 x<100>, y<100>, result<100>;
    saxpy(2.0f, x, y, result);
    return 0;
}
)");
}

TEST_F(SemaSourceTest, PaperKernelsAndHelpers) {
    expect_clean(R"(
typedef struct { float3 o; float3 d; } Ray;

kernel float3 along(Ray r, float t) { return r.o + r.d * t; }

kernel float sq(float x) {
    if (x < 0) return -x * x;
    else return x * x;
}

kernel void trace(Ray rays<>, float depth[][], float4 tint, out float4 colour<>, out Ray next<>) {
    float3 hit = along(rays, depth[indexof(rays).y][indexof(rays).x]);
    float shade = saturate(dot(normalize(hit), float3(0, 1, 0)));
    colour = lerp(tint, float4(hit, 1), shade) * sq(shade);
    colour.a = 1;
    next.o = hit;
    next.d = reflect(rays.d, float3(0, 1, 0));
}

reduce void sum(float a<>, reduce float total<>) { total += a; }

reduce void matmul(float4 m<>, reduce float4 acc<>) {
    acc = float4(acc.x * m.x + acc.y * m.z, acc.x * m.y + acc.y * m.w,
                 acc.z * m.x + acc.w * m.z, acc.z * m.y + acc.w * m.w);
}
)");
    const KernelDecl* trace = kernel("trace");
    ASSERT_NE(trace, nullptr);
    ASSERT_EQ(trace->callees.size(), 2u);
    EXPECT_EQ(trace->callees[0]->name, "along");
    EXPECT_EQ(trace->callees[1]->name, "sq");
    EXPECT_TRUE(trace->uses_indexof);
}

TEST_F(SemaSourceTest, ControlFlow) {
    expect_clean(R"(
kernel void k(float4 a<>, out float4 b<>) {
    int i;
    float4 acc = 0;
    for (i = 0; i < 4; i++) {
        if (i == 2) continue;
        acc[i] = a[i] * 2;
    }
    while (any(acc > 10)) acc *= 0.5;
    do { acc.x -= 1; } while (acc.x > 0 && acc.y > 0);
    b = acc.x > 0 ? acc : a;
}
)");
}

TEST_F(SemaSourceTest, OperatorMistakes) {
    expect_marked_errors(R"(
kernel void k(float4 a<>, float s, out float4 b<>) {
    float3 c = a.xyz;
    int i = 1;
    int4 n = 0;
    n += c;              // error: '+=' computes a 'float3' that does not fit the 'int4' target
    b = a & 1;           // error: operator '&' needs integer operands, got 'float4'
    i = i << s;          // error: operator '<<' needs integer operands, got 'float'
    n = c;               // error: cannot convert 'float3' to 'int4' implicitly
    s = a.x;             // error: cannot assign to constant argument 's'
    (a.x + 1) = 2;       // error: expression is not assignable
}
)");
}

TEST_F(SemaSourceTest, NameMistakes) {
    expect_marked_errors(R"(
kernel void k(float a<>, out float b<>) {
    float t = 1;
    float t = 2;         // error: redefinition of 't'
    { float t = 3; }
    float a = 1;         // error: redefinition of 'a'
    b = missing * 2;     // error: use of undeclared identifier 'missing'
    b = frob(a);         // error: use of undeclared function 'frob'
    const float c = 1;
    c = 2;               // error: cannot assign to const variable 'c'
    continue;            // error: 'continue' is not inside a loop
}
)");
}

TEST_F(SemaSourceTest, MemberAndSubscriptMistakes) {
    expect_marked_errors(R"(
typedef struct { float2 p; float m; } Particle;
kernel void k(Particle s<>, float g[][], float h[], float a<>, out float4 b<>) {
    b.x = s.q;              // error: struct 'Particle' has no field named 'q'
    b.x = s.p.z;            // error: invalid swizzle '.z' on a 'float2'
    b.xy = s.p.xg;          // error: swizzle '.xg' mixes the .xyzw and .rgba sets
    b.yy = s.p;             // error: write mask '.yy' names a component twice
    b.x = g[1][2][3][4][5]; // error: too many subscripts for gather 'g': a stream has at most 4
    b.x = g[1.5] + h[s.p] + g[1][2][3];
    b.x = h[1][s.p];        // error: gather index has type 'float2': use an int or a float scalar
    b.x = g;                // error: gather argument 'g' must be indexed
    b.x = a[0];             // error: input stream 'a' cannot be indexed
    b.x = s.m.x + a.x;
    b.x = b[1.5];           // error: vector subscript has type 'float': use an int
    b.x = s.m[0];           // error: subscripted value of type 'float' is neither a gather
    h[0] = 1;               // error: cannot assign to gather argument 'h'
    b.x = indexof(h).x;     // error: indexof needs a stream argument of this kernel, but 'h'
}
)");
}

TEST_F(SemaSourceTest, CallMistakes) {
    expect_marked_errors(R"(
kernel float twice(float x) { return 2 * x; }
kernel void other(float a<>, vout float b<>) { b = a; push(b); }
reduce void total(float a<>, reduce float r<>) { r += a; }
kernel void k(float4 a<>, out float4 b<>) {
    b.x = twice(a.x, 1);          // error: kernel 'twice' expects 1 argument, got 2
    other(a.x, b.x);              // error: cannot call kernel 'other' from a kernel: it has vout
    total(a.x, b.x);              // error: cannot call reduce function 'total' from a kernel
    b.x = dot(a);                 // error: built-in 'dot' expects 2 arguments, got 1
    b.xyz = cross(a, a);  // error: argument 1 of 'cross' has type 'float4': expected a float3
    b = max(a, a.xy);     // error: arguments of 'max' have different widths ('float4' and
    b = float4(a.xy, 1);          // error: 'float4' constructor needs 4 components, got 3
    b = (float4)a.xy;             // error: cannot cast 'float2' to 'float4'
    b = clamp(a, 0, 1) + twice(2);
}
)");
}

TEST_F(SemaSourceTest, KernelShapeMistakes) {
    expect_marked_errors(R"(
kernel float4 helper(vout float4 v<>) { return v; } // error: 'v' of helper kernel 'helper' cannot
kernel void no_output(float a<>) { }           // error: kernel 'no_output' has no output stream
kernel void not_stream(float a<>, out float b) // error: declare it 'out float b<>'
{ b = a; }
kernel void returns(float a<>, out float b<>) {
    b = a;
    return a;                                  // error: kernel 'returns' cannot return a value
}
reduce void mismatch(float a<>,
                     reduce float2 r<>) { }    // error: 'r' has type 'float2' but input stream
reduce void two(float a<>, float b<>,          // error: exactly one reduce argument and one input
                reduce float r<>) { }
kernel void flags(bool a<>, out float b<>) { } // error: argument 'a' has element type 'bool'
kernel float early(float x) {                  // error: 'early' can reach its end without
    if (x > 0)
        return x;
}
kernel float endless(float x) {
    float y = x;
    while (true) {
        if (y > 0)
            return y;
        y += 1;
    }
}
)");
}

TEST_F(SemaSourceTest, ReduceFunctionsMarkedByTheirArgument) {
    expect_clean(R"(
kernel void biggest(float a<>, reduce float m<>) { if (a > m) m = a; }
reduce kernel void product(float a<>, reduce float p<>) { p *= a; }
)");
    EXPECT_EQ(kernel("biggest")->params[0]->param_kind, ParamKind::ReduceInput);
    EXPECT_EQ(kernel("product")->params[0]->param_kind, ParamKind::ReduceInput);
}

TEST_F(SemaSourceTest, ReduceMistakesOfAKernelMarkedByItsArgument) {
    expect_marked_errors(R"(
kernel void two(float a<>, reduce float r<>, reduce float s<>) { } // error: exactly one reduce
kernel void none(float a, reduce float r<>) { } // error: exactly one reduce argument and one input
kernel void outs(float a<>, reduce float r<>, out float o<>) { } // error: cannot have out argument
kernel float helper(float a<>, reduce float r<>) { return a; } // error: must return void
reduce kernel float marked(float a<>, reduce float r<>) { return a; } // error: must return void
)");
    // Each error of a kernel written without `reduce` says what made it a reduce function.
    const std::string output = out_.str();
    EXPECT_NE(output.find("test.br:2:28: note: 'two' is a reduce function because its argument "
                          "'r' is declared 'reduce'"),
              std::string::npos)
        << output;
    for (const char* name : {"'none'", "'outs'", "'helper'"})
        EXPECT_NE(output.find(std::string("note: ") + name + " is a reduce function"),
                  std::string::npos)
            << name;
    EXPECT_EQ(output.find("note: 'marked'"), std::string::npos) << output;
}

TEST_F(SemaSourceTest, RecursionReportedOncePerCycle) {
    expect_marked_errors(R"(
kernel float ping(float x) { return x > 1 ? pong(x - 1) : x; }
kernel float pong(float x) { return ping(x * 0.5); } // error: recursive call to 'ping': GPUs
kernel float self(float x) { return self(x); }       // error: recursive call to 'self'
kernel void k(float a<>, out float b<>) { b = ping(a) + self(a); }
)");
}

TEST_F(SemaSourceTest, BraceInitialisers) {
    expect_marked_errors(R"(
typedef struct { float2 p; float m; } Particle;
kernel void k(float a<>, out float b<>) {
    Particle q = {{1, 2}, 3};
    float2 v = {a, 1};
    float4 w = {v, v};
    float3 bad = {1, 2};    // error: initializer for 'float3' needs 3 components, got 2
    Particle r = {1, 2, 3}; // error: initializer for 'Particle' needs 2 values, got 3
    float2 n = {{1, 2}};    // error: a brace list can only initialize a variable
    float f = {1};          // error: cannot initialize a 'float' with a brace list
    b = q.m + v.x + w.w;
}
)");
}

} // namespace
} // namespace brcc::test
