// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// gather_rows on Brook source through the real front end: which gathers brcc bounds to rows
// around the element's own (stencils in subscripts and in vectors, SGEMV's row through a local,
// casts and constants on both sides, an offset given as a constant argument) and which it leaves
// unbounded (a changed local, a gather passed on, an index that multiplies, a non-whole offset,
// a subtracted or second argument).

#include "codegen/gather_rows.hpp"
#include "parse/parser.hpp"
#include "sema/sema.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace brcc {
namespace {

class GatherRowsTest : public ::testing::Test {
protected:
    /// gather_rows of the only kernel of `source`, which must be free of errors.
    std::vector<GatherRows> rows_of(std::string source) {
        const std::uint32_t file = sources_.add_buffer("test.br", std::move(source));
        unit_ = parse_translation_unit(sources_, file, {}, diags_);
        EXPECT_TRUE(unit_ != nullptr && !diags_.has_errors()) << out_.str();
        EXPECT_TRUE(analyze(*unit_, diags_)) << out_.str();
        const KernelDecl* kernel = unit_->find_kernel("k");
        EXPECT_NE(kernel, nullptr);
        return gather_rows(*kernel);
    }

    SourceManager sources_;
    std::ostringstream out_;
    DiagnosticEngine diags_{sources_, out_, false};
    std::unique_ptr<TranslationUnit> unit_;
};

void expect_rows(const GatherRows& rows, int from, int stream, long long low, long long high) {
    EXPECT_EQ(rows.from, from);
    EXPECT_EQ(rows.stream, stream);
    EXPECT_EQ(rows.reach_low, low);
    EXPECT_EQ(rows.reach_high, high);
}

TEST_F(GatherRowsTest, OneDimensionalStencilReachesItsNeighbours) {
    const auto rows = rows_of(R"(
kernel void k(float a[], out float c<>) {
    float i = indexof(c).x;
    c = a[i - 1.0] + a[i] + a[2.0 + i];
}
)");
    expect_rows(rows[0], 0, 1, -1, 2);
    EXPECT_EQ(rows[1].from, -1);
}

TEST_F(GatherRowsTest, VectorIndexTakesItsLastComponentAsTheRow) {
    const auto rows = rows_of(R"(
kernel void k(float2 p[][], out float2 n<>) {
    int2 at = int2(indexof(n).xy);
    n = p[at] + p[at - int2(0, 1)] + p[at + int2(5, 3)];
}
)");
    expect_rows(rows[0], 1, 1, -1, 3);
}

TEST_F(GatherRowsTest, SubscriptsTakeTheFirstAsTheRow) {
    const auto rows = rows_of(R"(
kernel void k(float y<>, float a[][], float x[], int n, out float r<>) {
    float row = indexof(y).x;
    float sum = 0.0;
    for (int j = 0; j < n; ++j) {
        sum += a[row][j] * x[j];
    }
    r = sum;
}
)");
    expect_rows(rows[1], 0, 0, 0, 0);
    EXPECT_EQ(rows[2].from, -1) << "x[j] reads any element";
}

TEST_F(GatherRowsTest, RowComponentIsRecordedAsWritten) {
    // The row is indexof(c).x: the element's own row only in a 1-D domain (the runtime compares
    // it with the domain's rank; in this 2-D kernel's calls it reads any row).
    const auto rows = rows_of(R"(
kernel void k(float a[][], out float c<>) {
    float2 at = indexof(c).xy;
    c = a[at.x][at.y];
}
)");
    expect_rows(rows[0], 0, 1, 0, 0);
}

TEST_F(GatherRowsTest, ChangedLocalIsUnbounded) {
    EXPECT_EQ(rows_of(R"(
kernel void k(float a[], out float c<>) {
    float i = indexof(c).x;
    i += 3.0;
    c = a[i];
}
)")[0]
                  .from,
              -1);
}

TEST_F(GatherRowsTest, ScaledOrFractionalIndexIsUnbounded) {
    EXPECT_EQ(rows_of(R"(
kernel void k(float a[], out float c<>) {
    c = a[2.0 * indexof(c).x];
}
)")[0]
                  .from,
              -1);
    EXPECT_EQ(rows_of(R"(
kernel void k(float a[], out float c<>) {
    c = a[indexof(c).x + 0.5];
}
)")[0]
                  .from,
              -1);
}

TEST_F(GatherRowsTest, GatherPassedToAnotherKernelIsUnbounded) {
    EXPECT_EQ(rows_of(R"(
kernel float pick(float g[], float i) {
    return g[i];
}
kernel void k(float a[], out float c<>) {
    c = pick(a, indexof(c).x) + a[indexof(c).x];
}
)")[1]
                  .from,
              -1);
}

TEST_F(GatherRowsTest, ConstantArgumentShiftsTheRows) {
    // Segment's evolve: the output is a view, and `origin` is the view's place in the stream.
    const auto rows = rows_of(R"(
kernel void k(float2 p[][], float2 origin, int d, out float2 n<>) {
    int2 at = int2(indexof(n).xy + origin);
    n = p[at - int2(0, 1)] + p[at + int2(0, 1)];
}
)");
    expect_rows(rows[0], 1, 3, -1, 1);
    EXPECT_EQ(rows[0].argument, 1);
    EXPECT_EQ(rows[0].argument_component, 1);
    // On either side of the position, with whole numbers around it; an int argument too.
    const auto sum = rows_of(R"(
kernel void k(float a[], int d, out float c<>) {
    c = a[2 + d + indexof(c).x] + a[(indexof(c).x - 1) + d];
}
)");
    expect_rows(sum[0], 0, 2, -1, 2);
    EXPECT_EQ(sum[0].argument, 1);
    EXPECT_EQ(sum[0].argument_component, 0);
    EXPECT_EQ(rows_of(R"(
kernel void k(float a[], int d, out float c<>) {
    c = a[indexof(c).x];
}
)")[0]
                  .argument,
              -1);
}

TEST_F(GatherRowsTest, SubtractedOrSeveralArgumentsAreUnbounded) {
    for (const char* index : {"indexof(c).x - d", "d - indexof(c).x", "indexof(c).x + d + e",
                              "indexof(c).x + d + d", "-d + indexof(c).x", "d"}) {
        EXPECT_EQ(rows_of(std::string("kernel void k(float a[], float d, float e, out float c<>) "
                                      "{\n    c = a[") +
                          index + "] + e;\n}\n")[0]
                      .from,
                  -1)
            << index;
    }
    // Every index of one gather adds the same argument, or the gather is unbounded.
    EXPECT_EQ(rows_of(R"(
kernel void k(float a[], float d, float e, out float c<>) {
    c = a[indexof(c).x + d] + a[indexof(c).x + e];
}
)")[0]
                  .from,
              -1);
    EXPECT_EQ(rows_of(R"(
kernel void k(float a[], float d, out float c<>) {
    c = a[indexof(c).x + d] + a[indexof(c).x];
}
)")[0]
                  .from,
              -1);
}

} // namespace
} // namespace brcc
