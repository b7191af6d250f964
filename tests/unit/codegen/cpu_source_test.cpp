// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The CPU code generator on Brook source through the real front end. SIMD loops: which `for`
// loops find_simd_loop accepts (counted loops whose iterations share only float sums) and
// rejects (a sum that is read, a jump, a write to something else, a bound that is not a plain
// expression), and the C++ printed for them: `#pragma omp simd` with the reduction, and an
// unclamped version of the counter's gathers behind a range check. Jammed bodies: a SIMD loop
// over the same range for every element runs four elements per iteration of the dense loop, the
// rest of the body once per element, and which kernels keep the plain loop. The thread grain.
// `fixed` values: gathers, constants and reductions hold bytes, conversions to fixed saturate.

#include "checked_source_test.hpp"
#include "codegen/backend_generator.hpp"
#include "codegen/cpu/cpu_kernel_emitter.hpp"
#include "codegen/cpu/element_cost.hpp"
#include "codegen/kernel_stub_emitter.hpp"
#include "codegen/simd_loop.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace brcc {
namespace {

/// What the registered cpu generator embeds for `kernel`.
std::string cpu_generator_code(const brcc::KernelDecl& kernel) {
    for (const auto& generator : brcc::make_backend_generators()) {
        if (generator->name() == "cpu")
            return generator->kernel_code(kernel).value().definitions;
    }
    return "";
}

class CpuSourceTest : public CheckedSourceTest {
protected:
    /// The first `for` statement directly in kernel `name`'s body.
    const For& first_loop(std::string_view name) const {
        for (const Stmt* stmt : kernel(name).body->body) {
            if (stmt->kind == NodeKind::For)
                return static_cast<const For&>(*stmt);
        }
        throw std::logic_error(std::string(name) + " has no for loop");
    }
};

TEST_F(CpuSourceTest, DotProductOverGatherRowsIsASimdReduction) {
    analyze_source(R"(
kernel void sgemv(float y<>, float a[][], float x[], int n, out float r<>) {
    float row = indexof(y).x;
    float sum = 0.0;
    for (int j = 0; j < n; ++j) {
        sum += a[row][j] * x[j];
    }
    r = sum;
}
)");
    const std::optional<SimdLoop> loop = find_simd_loop(first_loop("sgemv"));
    ASSERT_TRUE(loop.has_value());
    EXPECT_EQ(loop->counter->name, "j");
    ASSERT_EQ(loop->sums.size(), 1u);
    EXPECT_EQ(loop->sums[0]->name, "sum");
    EXPECT_FALSE(loop->inclusive);
    ASSERT_EQ(loop->counter_indices.size(), 2u);
    EXPECT_EQ(loop->counter_indices[0].second, 1); // a[row][j]: the second dimension
    EXPECT_EQ(loop->counter_indices[1].second, 0); // x[j]

    const std::string code = cpu_kernel_code(kernel("sgemv"));
    EXPECT_TRUE(contains(code, "    if (a.covers(1, 0, static_cast<long long>(n)) &&\n"
                               "            x.covers(0, 0, static_cast<long long>(n))) {\n"
                               "        #pragma omp simd reduction(+ : sum)\n"
                               "        for (int j = 0; j < n; ++j) {\n"
                               "            sum += a.at_in_range<2u>(row, j) * "
                               "x.at_in_range<1u>(j);\n"))
        << code;
    EXPECT_TRUE(contains(code, "    } else {\n"
                               "        #pragma omp simd reduction(+ : sum)\n"
                               "        for (int j = 0; j < n; ++j) {\n"
                               "            sum += a.at(row, j) * x.at(j);\n"))
        << code;
    // Gathers reach the body by value, so their pointers stay in registers in the loop.
    EXPECT_TRUE(contains(code, "const ::brook::lang::Gather<float, 2> a,")) << code;
    // The kernel loops, so a few dozen elements already get a thread each.
    EXPECT_EQ(cpu_grain(kernel("sgemv")), 32u);
    EXPECT_TRUE(contains(cpu_generator_code(kernel("sgemv")),
                         "const ::brook::cpu::KernelCode sgemv__cpu_code{.kernel = &sgemv__cpu, "
                         ".grain = 32, .loops = true};"));
}

TEST_F(CpuSourceTest, DotProductOverGatherRowsRunsFourElementsAtOnce) {
    analyze_source(R"(
kernel void sgemv(float y<>, float a[][], float x[], int n, out float r<>) {
    float row = indexof(y).x;
    float sum = 0.0;
    for (int j = 0; j < n; ++j) {
        sum += a[row][j] * x[j];
    }
    r = sum * y;
}
)");
    EXPECT_TRUE(find_simd_loop(first_loop("sgemv"))->uniform_bounds);
    const std::string code = cpu_kernel_code(kernel("sgemv"));
    // Each lane has its own stream elements; the gathers and constants are shared.
    EXPECT_TRUE(contains(code, "inline void sgemv__jammed(\n"
                               "        [[maybe_unused]] const float y__lane0,\n"
                               "        [[maybe_unused]] const float y__lane1,\n"
                               "        [[maybe_unused]] const float y__lane2,\n"
                               "        [[maybe_unused]] const float y__lane3,\n"
                               "        [[maybe_unused]] const ::brook::lang::Gather<float, 2> a,\n"
                               "        [[maybe_unused]] const ::brook::lang::Gather<float, 1> x,\n"
                               "        [[maybe_unused]] const int& n,\n"
                               "        [[maybe_unused]] float& r__lane0,\n"))
        << code;
    // The statements around the loop run once per lane, on the lane's element.
    EXPECT_TRUE(contains(code, "    float row__lane0 = ::brook::cpu::indexof(brook_position, 0, "
                               "brook_index).x;\n"
                               "    float row__lane1 = ::brook::cpu::indexof(brook_position, 0, "
                               "brook_index + 1).x;\n"))
        << code;
    EXPECT_TRUE(contains(code, "    r__lane2 = sum__lane2 * y__lane2;\n"
                               "    r__lane3 = sum__lane3 * y__lane3;\n"))
        << code;
    // One loop, in both the unclamped and the general version, whose iterations add to the
    // four sums, each in its lane's own copy of the body.
    EXPECT_TRUE(contains(code, "        #pragma omp simd reduction(+ : sum__lane0, sum__lane1, "
                               "sum__lane2, sum__lane3)\n"
                               "        for (int j = 0; j < n; ++j) {\n"
                               "            {\n"
                               "                sum__lane0 += a.at_in_range<2u>(row__lane0, j) * "
                               "x.at_in_range<1u>(j);\n"
                               "            }\n"
                               "            {\n"
                               "                sum__lane1 += a.at_in_range<2u>(row__lane1, j) * "
                               "x.at_in_range<1u>(j);\n"))
        << code;
    EXPECT_TRUE(contains(code, "                sum__lane3 += a.at(row__lane3, j) * x.at(j);\n"
                               "            }\n"
                               "        }\n"
                               "    }\n"))
        << code;
    // The dense loop takes four elements at a time, the element loop the rest; the general
    // loop (resized or strided streams) stays one element at a time, on contiguous rows too.
    EXPECT_TRUE(contains(code, "    const std::size_t jammed_end = begin + (end - begin) / 4 * "
                               "4;\n"
                               "    for (std::size_t i = begin; i < jammed_end; i += 4)\n"
                               "        sgemv__jammed(p0_y[i], p0_y[i + 1], p0_y[i + 2], "
                               "p0_y[i + 3], p1_a, p2_x, p3_n, p4_r[i], p4_r[i + 1], p4_r[i + 2], "
                               "p4_r[i + 3], frame, i);\n"
                               "    #pragma omp simd\n"
                               "    for (std::size_t i = jammed_end; i < end; ++i)\n"
                               "        sgemv__body(p0_y[i], p1_a, p2_x, p3_n, p4_r[i], "
                               "frame, i);\n"))
        << code;
    EXPECT_TRUE(contains(code, "            #pragma omp simd\n"
                               "            for (std::size_t i = row; i < row_stop; ++i)\n"
                               "                sgemv__body(p0_y_row[i - row], p1_a, p2_x, p3_n, "
                               "p4_r_row[i - row], frame, i);\n"
                               "        } else {\n"
                               "            for (std::size_t i = row; i < row_stop; ++i) {\n"
                               "                if (::brook::cpu::skips_element(frame, i)) {\n"
                               "                    continue;\n"
                               "                }\n"
                               "                sgemv__body(p0_y[i], p1_a, p2_x, p3_n, p4_r[i], "
                               "frame, i);\n"))
        << code;
}

TEST_F(CpuSourceTest, OtherLoopsOfAJammedBodyRunOncePerLane) {
    analyze_source(R"(
kernel void k(float y<>, float g[], int n, out float r<>) {
    float scale = y;
    for (int k = 0; k < 3; ++k) { scale = scale * 0.5; }
    float sum = 0.0;
    for (int j = 1; j <= n + 2; ++j) { float t = g[j] * scale; sum -= t; }
    if (sum > 0.0) {
        float inner = 0.0;
        for (int m = 0; m < 4; ++m) { inner += g[m]; }
        sum = inner;
    }
    r = sum;
}
)");
    const std::string code = cpu_kernel_code(kernel("k"));
    // A loop that is not a SIMD reduction, and a SIMD loop inside an `if`, belong to each lane.
    EXPECT_TRUE(contains(code, "    for (int k__lane2 = 0; k__lane2 < 3; "
                               "::brook::lang::wrapping_pre_increment(k__lane2)) {\n"
                               "        scale__lane2 = scale__lane2 * 0.5f;\n"))
        << code;
    EXPECT_TRUE(contains(code, "            #pragma omp simd reduction(+ : inner__lane1)\n"
                               "            for (int m__lane1 = 0; m__lane1 < 4; ++m__lane1) {\n"))
        << code;
    // The jammed loop keeps its bounds (a constant's), its own locals are each lane's.
    EXPECT_TRUE(contains(code, "        #pragma omp simd reduction(+ : sum__lane0, sum__lane1, "
                               "sum__lane2, sum__lane3)\n"
                               "        for (int j = 1; j <= ::brook::lang::wrapping_add(n, 2); "
                               "++j) {\n"
                               "            {\n"
                               "                float t__lane0 = g.at_in_range<1u>(j) * "
                               "scale__lane0;\n"
                               "                sum__lane0 -= t__lane0;\n"))
        << code;
    EXPECT_TRUE(contains(code, "k__jammed(p0_y[i], p0_y[i + 1], p0_y[i + 2], p0_y[i + 3], p1_g, "
                               "p2_n, p3_r[i], p3_r[i + 1], p3_r[i + 2], p3_r[i + 3]);\n"))
        << code;
}

TEST_F(CpuSourceTest, IndexofInADenseCallComesFromTheRowsStart) {
    analyze_source(R"(
kernel void k(float2 g[][], out float r<>) {
    float2 p = indexof(r).xy;
    r = g[p + float2(1, 0)].x;
}
)");
    const std::string code = cpu_kernel_code(kernel("k"));
    // The body takes its positions from the Frame or from a DenseRow.
    EXPECT_TRUE(contains(code, "template <class Position>\n"
                               "[[gnu::always_inline]] inline void k__body(\n"))
        << code;
    EXPECT_TRUE(contains(code, "[[maybe_unused]] const Position& brook_position,\n"
                               "        [[maybe_unused]] std::size_t brook_index) {\n"
                               "    ::brook::vec<float, 2> p = ::brook::lang::swizzle<0, 1>("
                               "::brook::cpu::indexof(brook_position, 1, brook_index));\n"))
        << code;
    // The dense loop goes a row at a time, each row's positions worked out once, its columns
    // counted in an int; it runs where the rows fit one.
    EXPECT_TRUE(contains(code, "void k__dense_narrow(const ::brook::cpu::Frame& frame, "
                               "std::size_t begin, std::size_t end) {\n"
                               "    const ::brook::cpu::Gather<::brook::vec<float, 2>, 2> p0_g("
                               "frame.args[0].stream, true);\n"
                               "    float* const p1_r = frame.data<float>(1);\n"
                               "    for (std::size_t row = begin; row < end;) {\n"
                               "        const std::size_t row_stop = "
                               "::brook::cpu::row_end(frame, row, end);\n"
                               "        const ::brook::cpu::DenseRow brook_row(frame, row);\n"
                               "        const int columns = static_cast<int>(row_stop - row);\n"
                               "        #pragma omp simd\n"
                               "        for (int column = 0; column < columns; ++column) {\n"
                               "            const std::size_t i = row + "
                               "static_cast<std::size_t>(column);\n"
                               "            k__body(p0_g, p1_r[i], brook_row, i);\n"
                               "        }\n"
                               "        row = row_stop;\n"
                               "    }\n"
                               "}\n"))
        << code;
    EXPECT_TRUE(contains(code, "    if (frame.dense && "
                               "::brook::cpu::fits_int_offsets(frame.args[0].stream) && "
                               "::brook::cpu::fits_int_columns(frame)) {\n"
                               "        k__dense_narrow(frame, begin, end);\n"
                               "        return;\n"
                               "    }\n"))
        << code;
    // Beyond that, a dense call takes the general loops: k__cpu has no dense loops of its own.
    EXPECT_FALSE(contains(code, "    if (frame.dense) {\n")) << code;
    // The general loop keeps the Frame's positions.
    EXPECT_TRUE(contains(code, "                k__body(p0_g, p1_r[i], frame, i);\n")) << code;
}

/// What the registered cpu generator embeds for each of `kernels`, given in the file's order to
/// one generator, as emit_cpp gives them.
std::vector<std::string> cpu_generator_codes(const std::vector<const KernelDecl*>& kernels) {
    std::vector<std::string> codes;
    for (const auto& generator : brcc::make_backend_generators()) {
        if (generator->name() != "cpu")
            continue;
        for (const KernelDecl* kernel : kernels)
            codes.push_back(generator->kernel_code(*kernel).value().definitions);
    }
    return codes;
}

TEST_F(CpuSourceTest, MapsAndReductionsThatCanPairGetAFusedFold) {
    analyze_source(R"(
kernel void before(float a<>, float s, out float b<>) { b = a * s; }
kernel void two_outputs(float a<>, out float b<>, out float c<>) { b = a; c = a; }
kernel void wider(float a<>, out float4 b<>) { b = float4(a, a, a, a); }
reduce void sum(float a<>, reduce float r<>) { r += a; }
reduce void digits(float a<>, reduce float r<>) { r = r * 10.0 + a; }
kernel void after(float a<>, out float b<>) { b = a + 1.0; }
kernel void placed(float a<>, out float b<>) { b = indexof(b).x + a; }
kernel void gathered(float a<>, float t[], out float b<>) { b = t[a]; }
kernel void looping(float a<>, out float b<>) {
    b = 0.0;
    for (int i = 0; i < 4; ++i) { b += a; }
}
)");
    EXPECT_TRUE(cpu_fuses(kernel("before"), kernel("sum")));
    EXPECT_FALSE(cpu_fuses(kernel("two_outputs"), kernel("sum")));
    EXPECT_FALSE(cpu_fuses(kernel("wider"), kernel("sum")));
    EXPECT_FALSE(cpu_fuses(kernel("sum"), kernel("digits")));
    // Where the element costs more than a few loads and operations, or the fold would inline a
    // gather's or indexof's addressing in each of its unrolled steps.
    EXPECT_FALSE(cpu_fuses(kernel("placed"), kernel("sum")));
    EXPECT_FALSE(cpu_fuses(kernel("gathered"), kernel("sum")));
    EXPECT_FALSE(cpu_fuses(kernel("looping"), kernel("sum")));
    const std::vector<std::string> codes =
        cpu_generator_codes({&kernel("before"), &kernel("two_outputs"), &kernel("wider"),
                             &kernel("sum"), &kernel("digits"), &kernel("after")});
    ASSERT_EQ(codes.size(), 6U);
    // Each pair's fold comes with the later kernel, listed in its table with the other's code.
    EXPECT_TRUE(contains(codes[3], "const ::brook::cpu::FusedFold sum__fused_folds[] = {\n"
                                   "    {&before__cpu_code, &before__folded_by__sum},\n"
                                   "};\n"))
        << codes[3];
    EXPECT_FALSE(contains(codes[3], "two_outputs__folded_by__sum")) << codes[3];
    EXPECT_FALSE(contains(codes[3], "wider__folded_by__sum")) << codes[3];
    // The map's element goes to a local, which the reduction's step folds; its uniform
    // arguments are fetched from the map's call once.
    EXPECT_TRUE(contains(codes[3], "void before__folded_by__sum(const ::brook::cpu::Frame& "
                                   "frame, const ::brook::cpu::Box& box, void* accumulator) {\n"
                                   "    float p1_s = frame.constant<float>(1);\n"
                                   "    const auto brook_combine = [&](const float& value, "
                                   "float& result) { sum__body(value, result); };\n"))
        << codes[3];
    EXPECT_TRUE(contains(codes[3], "::brook::cpu::fold_elements<::brook::cpu::FoldOrder::"
                                   "Commutative, true, true>(\n"))
        << codes[3];
    EXPECT_TRUE(contains(codes[3], "before__body(p0_a[i], p1_s, p2_b_value);\n")) << codes[3];
    // A reduction that does not commute folds in order.
    EXPECT_TRUE(contains(codes[4], "::brook::cpu::fold_elements<::brook::cpu::FoldOrder::"
                                   "Ordered, true, true>(\n"))
        << codes[4];
    // A map after both reductions pairs with each, nearest first.
    EXPECT_TRUE(contains(codes[5], "const ::brook::cpu::FusedFold after__fused_folds[] = {\n"
                                   "    {&digits__cpu_code, &after__folded_by__digits},\n"
                                   "    {&sum__cpu_code, &after__folded_by__sum},\n"
                                   "};\n"))
        << codes[5];
    EXPECT_TRUE(contains(codes[5], "after__body(p0_a[i], p1_b_value);\n")) << codes[5];
}

TEST_F(CpuSourceTest, AKernelGetsFusedFoldsWithTheFourNearestKernelsBeforeIt) {
    std::string source;
    std::vector<std::string> names;
    for (int i = 0; i < 10; ++i) {
        names.push_back("map" + std::to_string(i));
        source += "kernel void " + names.back() + "(float a<>, out float b<>) { b = a; }\n";
    }
    source += "reduce void sum(float a<>, reduce float r<>) { r += a; }\n";
    analyze_source(source);
    std::vector<const KernelDecl*> kernels;
    for (const std::string& name : names)
        kernels.push_back(&kernel(name));
    kernels.push_back(&kernel("sum"));
    const std::string code = cpu_generator_codes(kernels).back();
    std::string table = "const ::brook::cpu::FusedFold sum__fused_folds[] = {\n";
    for (int i = 9; i >= 6; --i) {
        table += "    {&map" + std::to_string(i) + "__cpu_code, &map" + std::to_string(i) +
                 "__folded_by__sum},\n";
    }
    EXPECT_TRUE(contains(code, table + "};\n")) << code;
    EXPECT_FALSE(contains(code, "map5__folded_by__sum")) << code;
}

TEST_F(CpuSourceTest, KernelsWhoseElementsCannotShareALoopAreNotJammed) {
    analyze_source(R"(
kernel void triangle(int row<>, float g[][], out float r<>) {
    int count = row;
    float sum = 0.0;
    for (int j = 0; j < count; ++j) { sum += g[row][j]; }
    r = sum;
}
kernel void own_length(int n<>, float g[], out float r<>) {
    float sum = 0.0;
    for (int j = 0; j < n; ++j) { sum += g[j]; }
    r = sum;
}
kernel void returns(float y<>, float g[], int n, out float r<>) {
    r = y;
    if (y < 0.0) { return; }
    float sum = 0.0;
    for (int j = 0; j < n; ++j) { sum += g[j]; }
    r = sum;
}
kernel void bytes(float g[], int n, out fixed r<>) {
    float sum = 0.0;
    for (int j = 0; j < n; ++j) { sum += g[j]; }
    r = sum;
}
kernel void three_sums(float g[], int n, out float r<>) {
    float a = 0.0;
    float b = 0.0;
    float c = 0.0;
    for (int j = 0; j < n; ++j) { a += g[j]; b -= g[j]; c += g[j] * g[j]; }
    r = a + b + c;
}
kernel void guarded(float y<>, float g[], int n, out float r<>) {
    float sum = 0.0;
    if (y > 0.0) {
        for (int j = 0; j < n; ++j) { sum += g[j]; }
    }
    r = sum;
}
)");
    // Bounds read from the element (a local, an input stream) differ between lanes.
    EXPECT_FALSE(find_simd_loop(first_loop("triangle"))->uniform_bounds);
    EXPECT_FALSE(find_simd_loop(first_loop("own_length"))->uniform_bounds);
    EXPECT_TRUE(find_simd_loop(first_loop("returns"))->uniform_bounds);
    // Three sums already add up independently; four lanes of them would not fit the registers.
    EXPECT_TRUE(find_simd_loop(first_loop("three_sums"))->uniform_bounds);
    for (const char* name :
         {"triangle", "own_length", "returns", "bytes", "three_sums", "guarded"}) {
        const std::string code = cpu_kernel_code(kernel(name));
        EXPECT_TRUE(contains(code, "omp simd reduction")) << name;
        EXPECT_FALSE(contains(code, "__jammed")) << name << "\n" << code;
        EXPECT_FALSE(contains(code, "__lane")) << name << "\n" << code;
    }
}

TEST_F(CpuSourceTest, InclusiveBoundsSubtractionsAndConditionalSums) {
    analyze_source(R"(
kernel void k(float a<>, float g[], int lo, int hi, out float r<>) {
    float up = 0.0;
    float down = 1.0;
    for (int i = lo + 1; i <= hi * 2; i += 1) {
        float v = g[i] * a;
        if (v > 0.5) {
            up += v;
        } else {
            down -= v;
        }
    }
    r = up + down;
}
)");
    const std::optional<SimdLoop> loop = find_simd_loop(first_loop("k"));
    ASSERT_TRUE(loop.has_value());
    EXPECT_TRUE(loop->inclusive);
    ASSERT_EQ(loop->sums.size(), 2u);
    const std::string code = cpu_kernel_code(kernel("k"));
    // The bounds keep Brook's wrapping int arithmetic; the step is OpenMP's plain `++i`.
    const std::string lower = "::brook::lang::wrapping_add(lo, 1)";
    const std::string upper = "::brook::lang::wrapping_mul(hi, 2)";
    EXPECT_TRUE(contains(code, "if (g.covers(0, " + lower + ", static_cast<long long>(" + upper +
                                   ") + 1)) {"))
        << code;
    EXPECT_TRUE(contains(code, "#pragma omp simd reduction(+ : up, down)\n")) << code;
    EXPECT_TRUE(contains(code, "for (int i = " + lower + "; i <= " + upper + "; ++i)")) << code;
}

TEST_F(CpuSourceTest, LoopsWithDependencesStayPlain) {
    analyze_source(R"(
kernel void reads_sum(float g[], int n, out float r<>) {
    float s = 0.0;
    for (int i = 0; i < n; ++i) { s += g[i] * s; }
    r = s;
}
kernel void breaks(float g[], int n, out float r<>) {
    float s = 0.0;
    for (int i = 0; i < n; ++i) { if (g[i] > 1.0) break; s += g[i]; }
    r = s;
}
kernel void writes_output(float g[], int n, out float r<>) {
    r = 0.0;
    for (int i = 0; i < n; ++i) { r = g[i]; }
}
kernel void keeps_last(float g[], int n, out float r<>) {
    float last = 0.0;
    for (int i = 0; i < n; ++i) { last = g[i]; }
    r = last;
}
kernel void int_sum(int g[], int n, out int r<>) {
    int s = 0;
    for (int i = 0; i < n; ++i) { s += g[i]; }
    r = s;
}
kernel void steps_by_two(float g[], int n, out float r<>) {
    float s = 0.0;
    for (int i = 0; i < n; i += 2) { s += g[i]; }
    r = s;
}
kernel void bound_changes(float g[], out float r<>) {
    float s = 0.0;
    for (int i = 0; i < s; ++i) { s += g[i]; }
    r = s;
}
kernel void nested(float g[][], int n, out float r<>) {
    float s = 0.0;
    for (int i = 0; i < n; ++i) { for (int j = 0; j < n; ++j) { s += g[i][j]; } }
    r = s;
}
)");
    for (const char* name : {"reads_sum", "breaks", "writes_output", "keeps_last", "int_sum",
                             "steps_by_two", "bound_changes"}) {
        EXPECT_FALSE(find_simd_loop(first_loop(name)).has_value()) << name;
        EXPECT_FALSE(contains(cpu_kernel_code(kernel(name)), "omp simd reduction")) << name;
    }
    EXPECT_FALSE(find_simd_loop(first_loop("nested")).has_value());
    // The inner loop of `nested` is a SIMD loop of its own.
    const auto& outer = first_loop("nested");
    const auto& inner_body = static_cast<const Compound&>(*outer.body);
    ASSERT_EQ(inner_body.body.size(), 1u);
    ASSERT_EQ(inner_body.body[0]->kind, NodeKind::For);
    EXPECT_TRUE(find_simd_loop(static_cast<const For&>(*inner_body.body[0])).has_value());
}

// With several instruction sets, the loop functions (not their helpers) are cloned for each.
TEST_F(CpuSourceTest, SeveralInstructionSetsCloneTheLoops) {
    analyze_source(R"(
kernel float twice(float v) { return v * 2.0; }
kernel void k(float a<>, out float r<>) { r = twice(a); }
reduce void sum(float a<>, reduce float r<>) { r += a; }
)");
    const CpuCodeOptions cloned{nullptr, {"default", "arch=x86-64-v3"}};
    EXPECT_EQ(cpu_prologue(cloned), "#define BROOK_CPU_TARGETS \"default\", \"arch=x86-64-v3\"\n"
                                    "#include <brook/cpu_kernel.hpp>\n");
    EXPECT_TRUE(
        contains(cpu_kernel_code(kernel("k"), cloned), "BROOK_CPU_DISPATCHED\nvoid k__cpu("));
    const std::string reduce = cpu_kernel_code(kernel("sum"), cloned);
    EXPECT_TRUE(contains(reduce, "BROOK_CPU_DISPATCHED\nvoid sum__fold(") &&
                contains(reduce, "BROOK_CPU_DISPATCHED\nvoid sum__combine("))
        << reduce;
    // One instruction set: none of it.
    EXPECT_EQ(cpu_prologue({}), "#include <brook/cpu_kernel.hpp>\n");
    EXPECT_FALSE(contains(cpu_kernel_code(kernel("k")), "BROOK_CPU_DISPATCHED"));
}

// A helper is always inlined, with one instruction set or several: GCC left one out of line in
// a kernel's loop (a call per element), and a loop function's clones call what they do not
// inline in the lowest set's code.
TEST_F(CpuSourceTest, HelpersAreAlwaysInlined) {
    analyze_source(R"(
kernel float twice(float v) { return v * 2.0; }
kernel void k(float a<>, out float r<>) { r = twice(a); }
)");
    const CpuCodeOptions cloned{nullptr, {"default", "arch=x86-64-v3"}};
    for (const std::string& definition : {cpu_callable_definition(kernel("twice")),
                                          cpu_callable_definition(kernel("twice"), cloned),
                                          cpu_callable_prototype(kernel("twice"))}) {
        EXPECT_TRUE(definition.starts_with("[[gnu::always_inline]] inline float twice__call("))
            << definition;
    }
}

// ParamInfo's read and written flags: an output is read when an element may keep (or see) its
// value from before the call, which a backend holding outputs in registers must then load.
TEST_F(CpuSourceTest, ParamInfoSaysWhichOldValuesTheBodyMayUse) {
    analyze_source(R"(
kernel void k(float a<>, float c, out float whole<>, out float maybe<>, out float twice<>,
              out float part<>, out float2 lane<>, out float untouched<>) {
    whole = a;
    if (a > c)
        maybe = a;
    twice = a;
    twice = twice * 2.0;
    part += a;
    lane.x = a;
}
)");
    const std::string info = kernel_info(kernel("k"), {});
    const auto flags = [&](const std::string& name) {
        const std::size_t at = info.find("{\"" + name + "\"");
        return at == std::string::npos ? std::string() : info.substr(at, info.find('}', at) - at);
    };
    EXPECT_TRUE(contains(flags("a"), "0, true, false")) << info;
    EXPECT_TRUE(contains(flags("c"), "0, true, false")) << info;
    EXPECT_TRUE(contains(flags("whole"), "0, false, true")) << info;
    EXPECT_TRUE(contains(flags("maybe"), "0, true, true")) << info;
    EXPECT_TRUE(contains(flags("twice"), "0, false, true")) << info;
    EXPECT_TRUE(contains(flags("part"), "0, true, true")) << info;
    EXPECT_TRUE(contains(flags("lane"), "0, true, true")) << info;
    EXPECT_TRUE(contains(flags("untouched"), "0, true, false")) << info;
}

TEST_F(CpuSourceTest, StraightLineKernelsWithManyOperationsGetASmallerGrain) {
    analyze_source(R"(
kernel float4 mad(float4 a, float4 b) { return a * b + a; }
kernel void light(float a, float4 x<>, float4 y<>, out float4 r<>) { r = a * x + y; }
kernel void heavy(float4 x<>, out float4 r<>) {
    float4 v = x;
    v = mad(v, x); v = mad(v, x); v = mad(v, x); v = mad(v, x); v = mad(v, x);
    v = mad(v, x); v = mad(v, x); v = mad(v, x); v = mad(v, x); v = mad(v, x);
    r = v;
}
kernel void waves(float x<>, out float r<>) { r = sin(x) * cos(x) + exp(x); }
kernel void pick(float x[], float i<>, out float r<>) { r = x[i] > 0.0 ? x[i] : -x[i]; }
)");
    // Two float4 operations (8 component operations) an element: the runtime's default.
    EXPECT_EQ(element_operations(kernel("light")), 8u);
    EXPECT_EQ(cpu_grain(kernel("light")), 0u);
    // Ten calls of a helper of two float4 operations: 80, so a fifth of the default grain.
    EXPECT_EQ(element_operations(kernel("heavy")), 80u);
    EXPECT_EQ(cpu_grain(kernel("heavy")), 4096u * 16 / 80);
    EXPECT_TRUE(contains(cpu_generator_code(kernel("heavy")),
                         "const ::brook::cpu::KernelCode heavy__cpu_code{.kernel = &heavy__cpu, "
                         ".grain = 819};"));
    // Transcendentals weigh 16 a component: 2 x 16 + 16 + 2 operators.
    EXPECT_EQ(element_operations(kernel("waves")), 50u);
    // Gather reads weigh 4: three reads, a comparison, a negation and a choice.
    EXPECT_EQ(element_operations(kernel("pick")), 15u);
}

TEST_F(CpuSourceTest, StraightLineKernelsKeepTheDefaultGrainAndADenseSimdLoop) {
    analyze_source(R"(
kernel void saxpy(float a, float4 x<>, float4 y<>, out float4 r<>) { r = a * x + y; }
)");
    EXPECT_EQ(cpu_grain(kernel("saxpy")), 0u);
    EXPECT_TRUE(contains(cpu_generator_code(kernel("saxpy")),
                         "const ::brook::cpu::KernelCode saxpy__cpu_code{.kernel = &saxpy__cpu};"));
    EXPECT_TRUE(contains(cpu_kernel_code(kernel("saxpy")),
                         "        #pragma omp simd\n"
                         "        for (std::size_t i = begin; i < end; ++i)\n"
                         "            saxpy__body(p0_a, p1_x[i], p2_y[i], p3_r[i]);\n"));
}

TEST_F(CpuSourceTest, KernelsThatWriteTheirOutputsWholeWithoutGathersOrLoopsMayStreamThem) {
    analyze_source(R"(
typedef struct { float weight; float3 place; } Particle;
kernel void saxpy(float a, float x<>, float y<>, out float r<>) { r = a * x + y; }
kernel void split(float4 x<>, Particle q<>, out float s<>, out Particle p<>, out fixed f<>) {
    s = x.x;
    p = q;
    f = x.w;
}
kernel void fields(float4 x<>, out Particle p<>) {
    p.weight = x.x;
    p.place = x.yzw;
}
kernel void kept(float a<>, out float r<>) { if (a > 0.0) r = a; }
kernel void doubled(float a<>, out float r<>) { r = a; r = r * 2.0; }
kernel void grown(float a<>, out float r<>) { r = r + a; }
kernel void dropped(float a<>, out float r<>) { if (a < 0.0) discard; r = a; }
kernel void placed(float a<>, out float r<>) { r = indexof(r).x + a; }
kernel void gathered(float a<>, float t[], out float r<>) { r = t[a]; }
kernel void heavy(float4 a<>, out float4 r<>) {
    float4 t = a * a + a;
    t = t * t + a * 0.5;
    r = t * t * t + a * t;
}
kernel void scattered(float a<>, out float r[]) { r[0] = a; }
kernel void looping(float a<>, int n, out float r<>) {
    r = 0.0;
    for (int i = 0; i < n; ++i) { r += a; }
}
)");
    // Each output's block, as many elements as make whole cache lines of every output, the body
    // into the blocks, then each stored with streaming stores.
    const std::string saxpy = cpu_kernel_code(kernel("saxpy"));
    EXPECT_TRUE(contains(
        saxpy, "        if (frame.streaming_stores) {\n"
               "            constexpr std::size_t block = ::brook::cpu::streaming_block<float>();\n"
               "            alignas(::brook::cpu::streaming_line_bytes) float p3_r_block[block];\n"
               "            for (std::size_t first = begin; first < end;) {\n"
               "                const std::size_t last = ::brook::cpu::streamed_block_end(first, "
               "end, block);\n"
               "                #pragma omp simd\n"
               "                for (std::size_t i = first; i < last; ++i)\n"
               "                    saxpy__body(p0_a, p1_x[i], p2_y[i], p3_r_block[i - first]);\n"
               "                ::brook::cpu::store_streaming(p3_r + first, p3_r_block, last - "
               "first);\n"
               "                first = last;\n"
               "            }\n"
               "            ::brook::cpu::finish_streaming_stores();\n"
               "            return;\n"
               "        }\n"))
        << saxpy;
    // A fixed output is stored from its float after the body, into its block.
    const std::string split = cpu_kernel_code(kernel("split"));
    EXPECT_TRUE(contains(split, "::brook::cpu::streaming_block<float, Particle, ::brook::fixed>()"))
        << split;
    EXPECT_TRUE(contains(split, "p4_f_block[i - first] = ::brook::lang::convert<::brook::fixed>("
                                "p4_f_value);\n"))
        << split;
    EXPECT_TRUE(contains(split, "::brook::cpu::store_streaming(p3_p + first, p3_p_block, last - "
                                "first);\n"))
        << split;
    // An output read after the body assigned it whole reads its block.
    EXPECT_TRUE(contains(cpu_kernel_code(kernel("doubled")), "streaming_stores"));
    // A straight-line element of many operations (a smaller grain) too.
    EXPECT_NE(cpu_grain(kernel("heavy")), 0u);
    EXPECT_TRUE(contains(cpu_kernel_code(kernel("heavy")), "streaming_stores"));
    // With indexof, the blocks of each row, indexof from the row's start.
    const std::string placed = cpu_kernel_code(kernel("placed"));
    EXPECT_TRUE(contains(placed, "            const ::brook::cpu::DenseRow brook_row(frame, row);\n"
                                 "            for (std::size_t first = row; first < row_stop;) {\n"
                                 "                const std::size_t last = ::brook::cpu::"
                                 "streamed_block_end(first, row_stop, block);\n"
                                 "                const int columns = static_cast<int>(last - "
                                 "first);\n"))
        << placed;
    EXPECT_TRUE(contains(placed, "placed__body(p0_a[i], p1_r_block[i - first], brook_row, i);\n"))
        << placed;
    // Outputs whose old values an element may keep or read (a struct written a field at a time
    // counts as read), scatter outputs, and kernels that gather or loop.
    for (const char* name :
         {"fields", "kept", "grown", "dropped", "gathered", "scattered", "looping"}) {
        EXPECT_FALSE(contains(cpu_kernel_code(kernel(name)), "streaming_stores")) << name;
    }
}

TEST_F(CpuSourceTest, VectorsChosenByAScalarConditionAreSelectedWhenBothSidesAreFree) {
    // C++'s `?:` on two vector objects keeps the loop scalar; select_whole() computes both
    // sides, so it is used only where that changes nothing and costs little.
    analyze_source(R"(
kernel float4 shifted(float4 v) { return v + 1.0; }
kernel float4 looped(float4 v) {
    float4 sum = v;
    for (int i = 0; i < 4; ++i) { sum += v; }
    return sum;
}
kernel void pick(float4 a<>, float4 b<>, float t[], float s, out float4 r<>) {
    float4 kept = a;
    r = a.x > s ? normalize(a) * t[a.y] : shifted(b);
    r += a.y > s ? looped(a) : b;
    r += a.z > s ? (kept = b) : a;
    r += a.w > s ? float4(s, s, s, s) : float4(0.0, 0.0, 0.0, 0.0);
}
)");
    const std::string code = cpu_kernel_code(kernel("pick"));
    EXPECT_TRUE(contains(code, "r = ::brook::cpu::select_whole<::brook::vec<float, 4>>(a.x > s, "));
    EXPECT_TRUE(contains(code, " += a.y > s ? looped__call(a) : b"));
    EXPECT_TRUE(contains(code, " += a.z > s ? kept = b : a"));
    EXPECT_TRUE(contains(code, " += ::brook::cpu::select_whole<::brook::vec<float, 4>>(a.w > s, "));
}

TEST_F(CpuSourceTest, ChoicesThatBecomeGatherIndicesStayComponentWise) {
    // A choice whose value reaches a gather's index, inside it or through locals (assigned
    // whole or in part), keeps the component-wise select, which the compiler may make a
    // branch, as does one that shares its condition; the others blend.
    analyze_source(R"(
kernel void pick(float2 p<>, float4 t[][], float s, out float4 r<>) {
    float2 direct_index = p;
    float2 through = s > 0.0 ? p + float2(1.0, 0.0) : p;
    float2 second = through * 2.0;
    float2 part = p;
    part.xy = s > 1.0 ? p.yx : p;
    float2 data = s > 2.0 ? p : p.yx;
    bool near = s > 4.0;
    float2 shared_index = near ? p : p.yx;
    float2 shared_data = near ? p.yx : p;
    bool far = s > 5.0;
    float2 far_data = far ? p : p.yx;
    float2 more_far_data = far ? p.yx : p;
    r = t[second] + t[part] + t[s > 3.0 ? p : direct_index] + t[shared_index] +
        float4(data, data) + float4(shared_data, far_data + more_far_data);
}
)");
    const std::string code = cpu_kernel_code(kernel("pick"));
    EXPECT_TRUE(contains(code, "::brook::lang::select(s > 0.0f, "));
    EXPECT_TRUE(contains(code, "::brook::lang::select(s > 1.0f, "));
    EXPECT_TRUE(contains(code, "::brook::lang::select(s > 3.0f, "));
    EXPECT_TRUE(contains(code, "::brook::cpu::select_whole<::brook::vec<float, 2>>(s > 2.0f, "));
    EXPECT_FALSE(contains(code, "select_whole<::brook::vec<float, 2>>(s > 0.0f"));
    // A choice decided by an address's condition rides the same branch; others blend.
    EXPECT_TRUE(contains(code, "shared_data = ::brook::lang::select(near, "));
    EXPECT_TRUE(
        contains(code, "far_data = ::brook::cpu::select_whole<::brook::vec<float, 2>>(far, "));
    EXPECT_TRUE(
        contains(code, "more_far_data = ::brook::cpu::select_whole<::brook::vec<float, 2>>(far, "));
}

TEST_F(CpuSourceTest, ConstantsAreFetchedIntoObjectsThatAreNotConst) {
    // GCC splits only a non-const local vector or struct into scalars; one kept whole is copied
    // into the output as an aggregate, which its vectoriser refuses (the whole loop stays scalar).
    // A gather stays const: its fields, split, held registers that the loop needed.
    analyze_source(R"(
struct Ray { float3 o; float3 d; };
kernel void rays(float3 eye, float3 d<>, float t[], out Ray r<>) {
    r.o = eye;
    r.d = d * t[(int)d.x];
}
)");
    const std::string code = cpu_kernel_code(kernel("rays"));
    EXPECT_TRUE(contains(
        code, "\n    ::brook::vec<float, 3> p0_eye = frame.constant<::brook::vec<float, 3>>(0);\n"))
        << code;
    EXPECT_TRUE(
        contains(code, "\n    const ::brook::cpu::Gather<float, 1> p2_t(frame.args[2].stream);\n"))
        << code;
}

TEST_F(CpuSourceTest, DenseLoopsReadingGathersWithFloatIndicesComeNarrow) {
    // AVX2 has no vector conversion of floats to the 64-bit offsets of arrays beyond 2^31
    // elements, so the dense loops convert through 32-bit integers, and run for smaller arrays
    // (larger ones take the general loops); a float index in a called kernel counts for the
    // gather passed to it.
    analyze_source(R"(
kernel float cell(float t[], float i) { return t[i]; }
kernel void k(float a<>, float t[], float u[], float v[][], out float r<>) {
    r = cell(t, a) + u[(int)a] + v[int2(1, 2)] + v[1.5][a];
}
kernel void ints(int a<>, float u[], out float r<>) { r = u[a]; }
)");
    const std::string code = cpu_kernel_code(kernel("k"));
    const std::string parameters =
        "(const ::brook::cpu::Frame& frame, std::size_t begin, std::size_t end) {\n";
    EXPECT_TRUE(contains(code, "void k__dense_narrow" + parameters +
                                   "    const ::brook::cpu::Gather<float, 1> p1_t("
                                   "frame.args[1].stream, true);\n"
                                   "    const ::brook::cpu::Gather<float, 1> p2_u("
                                   "frame.args[2].stream);\n"
                                   "    const ::brook::cpu::Gather<float, 2> p3_v("
                                   "frame.args[3].stream, true);\n"
                                   "    const float* const p0_a = frame.data<const float>(0);\n"))
        << code;
    EXPECT_TRUE(contains(code, "void k__cpu" + parameters +
                                   "    if (frame.dense && "
                                   "::brook::cpu::fits_int_offsets(frame.args[1].stream) && "
                                   "::brook::cpu::fits_int_offsets(frame.args[3].stream)) {\n"
                                   "        k__dense_narrow(frame, begin, end);\n"
                                   "        return;\n"
                                   "    }\n"
                                   "    k__general(frame, begin, end);\n"
                                   "}\n"))
        << code;
    // The general loops, in a function of their own, take gathers that convert float indices
    // through 64-bit integers.
    EXPECT_TRUE(contains(code, "[[gnu::noinline]] void k__general" + parameters +
                                   "    const ::brook::cpu::Gather<float, 1> p1_t("
                                   "frame.args[1].stream);\n"))
        << code;
    EXPECT_FALSE(contains(code, "    if (frame.dense) {\n")) << code;
    const std::string ints = cpu_kernel_code(kernel("ints"));
    EXPECT_FALSE(contains(ints, "narrow")) << ints;
    EXPECT_TRUE(contains(ints,
                         "void ints__cpu(const ::brook::cpu::Frame& frame, std::size_t "
                         "begin, std::size_t end) {\n"
                         "    const ::brook::cpu::Gather<float, 1> p1_u(frame.args[1].stream);\n"))
        << ints;
}

TEST_F(CpuSourceTest, FixedGathersConstantsAndReductionsHoldBytes) {
    analyze_source(R"(
kernel void shade(float i<>, fixed4 t[], fixed k, out float4 r<>) {
    fixed4 local = t[i] * 2.0;
    r = local + k;
}
reduce void fixed_sum(fixed a<>, reduce fixed r<>) { r = r + a; }
)");
    const std::string shade = cpu_kernel_code(kernel("shade"));
    // A gather element is read as floats; a conversion to fixed saturates and rounds; reading a
    // fixed value as a float is no conversion at all.
    EXPECT_TRUE(contains(shade,
                         "::brook::vec<float, 4> local = ::brook::lang::to_fixed<::brook::fixed, "
                         "::brook::vec<float, 4>>("
                         "::brook::lang::convert<::brook::vec<float, 4>>(t.at(i)) * 2.0f);"))
        << shade;
    EXPECT_TRUE(contains(shade, "r = local + k;")) << shade;
    EXPECT_TRUE(
        contains(shade, "const ::brook::lang::Gather<::brook::vec<::brook::fixed, 4>, 1> t"))
        << shade;
    // The constant arrives as a byte and is read as a float.
    EXPECT_TRUE(contains(shade, "float p2_k = ::brook::lang::convert<float>(frame.constant<"
                                "::brook::fixed>(2));"))
        << shade;
    const std::string stubs = kernel_stub(kernel("shade")) + kernel_stub(kernel("fixed_sum"));
    EXPECT_TRUE(contains(stubs, "const ::brook::fixed& k")) << stubs;
    EXPECT_TRUE(contains(stubs, "::brook::fixed& r")) << stubs;

    // The accumulator is a byte between steps: each step reads it as a float and stores back.
    const std::string sum = cpu_kernel_code(kernel("fixed_sum"));
    EXPECT_TRUE(contains(sum, "[&](const ::brook::fixed& value, ::brook::fixed& result) { "
                              "float brook_result = ::brook::lang::convert<float>(result); "
                              "fixed_sum__body(::brook::lang::convert<float>(value), "
                              "brook_result); "
                              "result = ::brook::lang::convert<::brook::fixed>(brook_result); });"))
        << sum;
}

} // namespace
} // namespace brcc
