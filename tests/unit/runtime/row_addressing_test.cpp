// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The row-at-a-time addressing that brcc's CPU loops use (brook/cpu_kernel.hpp): where a row of
// the output ends, the rows a general loop's range crosses and their coordinates (OutputRows),
// which streams are contiguous along a row (ResizedView::unit_row, unit_run) and the positions
// a dense call's row loop gives indexof (DenseRow), which must be exactly those of the general
// indexof, including mid-row starts and columns beyond 2^24, in rows that fit an int.
#include <brook/cpu_kernel.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <vector>

namespace {

using brook::float4;
using brook::cpu::DenseRow;
using brook::cpu::Frame;
using brook::cpu::OutputRows;
using brook::cpu::ResizedView;
using brook::cpu::StreamView;

/// A Frame for an output of `extents` (slowest first) whose parameter 0 is `view`.
struct TestFrame {
    TestFrame(std::vector<std::size_t> extents, StreamView view) {
        arg.stream = view;
        frame.args = &arg;
        frame.output_rank = static_cast<int>(extents.size());
        for (std::size_t d = 0; d < extents.size(); ++d) {
            frame.output_extents[d] = extents[d];
        }
    }
    Frame::Arg arg;
    Frame frame;
};

StreamView view_of(float* data, std::vector<std::size_t> extents,
                   std::vector<std::size_t> strides) {
    StreamView view;
    view.data = reinterpret_cast<std::byte*>(data);
    view.rank = static_cast<int>(extents.size());
    for (std::size_t d = 0; d < extents.size(); ++d) {
        view.extents[d] = extents[d];
        view.strides[d] = strides[d];
    }
    return view;
}

TEST(RowAddressing, RowEndIsTheNextRowBoundaryOrTheRangeEnd) {
    TestFrame test({3, 5}, {});
    EXPECT_EQ(brook::cpu::row_end(test.frame, 0, 15), 5u);
    EXPECT_EQ(brook::cpu::row_end(test.frame, 7, 15), 10u);
    EXPECT_EQ(brook::cpu::row_end(test.frame, 7, 8), 8u);
    EXPECT_EQ(brook::cpu::row_end(test.frame, 14, 15), 15u);
}

/// Each row OutputRows gives for [begin, end): first, stop and the four coordinates.
std::vector<std::array<std::size_t, 6>> rows_of(const Frame& frame, std::size_t begin,
                                                std::size_t end) {
    std::vector<std::array<std::size_t, 6>> rows;
    for (OutputRows walk(frame, begin, end); walk.more(); walk.next()) {
        const auto& p = walk.position();
        rows.push_back({walk.first(), walk.stop(), p[0], p[1], p[2], p[3]});
    }
    return rows;
}

TEST(RowAddressing, OutputRowsEndAtEachRowBoundaryOrTheRangeEnd) {
    TestFrame test({3, 5}, {});
    using Rows = std::vector<std::array<std::size_t, 6>>;
    EXPECT_EQ(rows_of(test.frame, 0, 15),
              (Rows{{0, 5, 0, 0, 0, 0}, {5, 10, 0, 0, 1, 0}, {10, 15, 0, 0, 2, 0}}));
    EXPECT_EQ(rows_of(test.frame, 7, 15), (Rows{{7, 10, 0, 0, 1, 2}, {10, 15, 0, 0, 2, 0}}));
    EXPECT_EQ(rows_of(test.frame, 7, 8), (Rows{{7, 8, 0, 0, 1, 2}}));
    EXPECT_EQ(rows_of(test.frame, 14, 15), (Rows{{14, 15, 0, 0, 2, 4}}));
    EXPECT_TRUE(rows_of(test.frame, 15, 15).empty());
    // An empty call may have an extent of 0: nothing is divided by it.
    EXPECT_TRUE(rows_of(TestFrame({0, 5}, {}).frame, 0, 0).empty());
    EXPECT_TRUE(rows_of(TestFrame({4, 0}, {}).frame, 0, 0).empty());
}

TEST(RowAddressing, OutputRowsCountTheCoordinatesAsDivisionWouldFindThem) {
    // Every rank, ranges starting and ending mid-row, carries through every dimension.
    const std::vector<std::vector<std::size_t>> shapes = {{7}, {3, 5}, {2, 3, 4}, {2, 3, 2, 3}};
    for (const auto& shape : shapes) {
        TestFrame test(shape, {});
        std::size_t count = 1;
        for (const std::size_t extent : shape) {
            count *= extent;
        }
        for (const std::size_t begin : {std::size_t{0}, std::size_t{1}, count / 2, count - 1}) {
            std::size_t expected_first = begin;
            for (const auto& row : rows_of(test.frame, begin, count)) {
                ASSERT_EQ(row[0], expected_first);
                // The coordinates of row[0], right-aligned in four.
                std::array<std::size_t, 4> position{};
                std::size_t rest = row[0];
                for (std::size_t d = shape.size(); d-- > 0;) {
                    position[d + 4 - shape.size()] = rest % shape[d];
                    rest /= shape[d];
                }
                for (std::size_t c = 0; c < 4; ++c) {
                    EXPECT_EQ(row[2 + c], position[c]) << "element " << row[0];
                }
                EXPECT_EQ(row[1], std::min(count, row[0] - position[3] + shape.back()));
                expected_first = row[1];
            }
            EXPECT_EQ(expected_first, count);
        }
    }
}

TEST(RowAddressing, UnitRunPlacesTheRowFromItsCoordinates) {
    // A 3x4 domain starting at (1, 2) of a 5x10 stream, and a row repeated down 6 rows.
    std::array<float, 50> storage{};
    TestFrame domain({3, 4}, view_of(storage.data() + 12, {3, 4}, {10, 1}));
    ResizedView<float> view(domain.frame, 0);
    OutputRows rows(domain.frame, 6, 12);
    EXPECT_EQ(view.unit_run(rows.position(), rows.first()), storage.data() + 24);
    rows.next();
    EXPECT_EQ(view.unit_run(rows.position(), rows.first()), storage.data() + 32);
    EXPECT_EQ(&view[9], storage.data() + 33); // the element loop agrees, in the same row
    std::array<float, 4> row{};
    TestFrame repeated({6, 4}, view_of(row.data(), {1, 4}, {4, 1}));
    ResizedView<float> repeated_view(repeated.frame, 0);
    const OutputRows repeated_rows(repeated.frame, 21, 24);
    EXPECT_EQ(repeated_view.unit_run(repeated_rows.position(), 21), row.data() + 1);
}

TEST(RowAddressing, ADomainIsContiguousAlongEachRow) {
    // A 3x4 domain starting at (1, 2) of a 5x10 stream: rows 10 elements apart.
    std::array<float, 50> storage{};
    TestFrame test({3, 4}, view_of(storage.data() + 12, {3, 4}, {10, 1}));
    ResizedView<float> view(test.frame, 0);
    EXPECT_EQ(view.unit_row(0), storage.data() + 12);
    EXPECT_EQ(view.unit_row(6), storage.data() + 24);  // row 1, column 2
    EXPECT_EQ(view.unit_row(11), storage.data() + 35); // row 2, column 3
    // The element loop agrees with the row pointer.
    EXPECT_EQ(&view[6], storage.data() + 24);
}

TEST(RowAddressing, AnInputRepeatedDownTheRowsIsContiguousAlongThem) {
    std::array<float, 4> row{};
    TestFrame test({6, 4}, view_of(row.data(), {1, 4}, {4, 1}));
    ResizedView<float> view(test.frame, 0);
    EXPECT_EQ(view.unit_row(0), row.data());
    EXPECT_EQ(view.unit_row(21), row.data() + 1); // row 5, column 1
}

TEST(RowAddressing, StretchedOrStridedRowsAreNotContiguous) {
    std::array<float, 16> storage{};
    TestFrame stretched({2, 8}, view_of(storage.data(), {2, 4}, {4, 1}));
    EXPECT_EQ(ResizedView<float>(stretched.frame, 0).unit_row(0), nullptr);
    TestFrame column({2, 8}, view_of(storage.data(), {2, 1}, {1, 1}));
    EXPECT_EQ(ResizedView<float>(column.frame, 0).unit_row(3), nullptr);
    TestFrame strided({2, 4}, view_of(storage.data(), {2, 4}, {8, 2}));
    EXPECT_EQ(ResizedView<float>(strided.frame, 0).unit_row(0), nullptr);
}

TEST(RowAddressing, DenseRowPositionsAreThoseOfIndexof) {
    std::array<float, 1> unused{};
    TestFrame test({3, 5, 7}, view_of(unused.data(), {3, 5, 7}, {35, 7, 1}));
    // Every row start, and starts in the middle of a row (a thread's range).
    for (const std::size_t first : {0u, 3u, 7u, 40u, 100u}) {
        const DenseRow row(test.frame, first);
        const std::size_t stop = brook::cpu::row_end(test.frame, first, 105);
        for (std::size_t i = first; i < stop; ++i) {
            const float4 expected = brook::cpu::indexof(test.frame, 0, i);
            const float4 got = brook::cpu::indexof(row, 0, i);
            for (int c = 0; c < 4; ++c) {
                EXPECT_EQ(got[c], expected[c]) << "element " << i << " component " << c;
            }
        }
    }
}

TEST(RowAddressing, DenseRowColumnsRoundAsIndexofDoesBeyondTwoToThe24) {
    // A 1-D output of 2^25 elements is one row; a thread may start anywhere in it.
    const std::size_t length = std::size_t{1} << 25;
    TestFrame test({length}, view_of(nullptr, {length}, {1}));
    const std::size_t first = (std::size_t{1} << 24) + 1;
    const DenseRow row(test.frame, first);
    for (std::size_t i = first; i < first + 64; ++i) {
        EXPECT_EQ(brook::cpu::indexof(row, 0, i).x, brook::cpu::indexof(test.frame, 0, i).x)
            << "element " << i;
    }
}

TEST(RowAddressing, DenseRowColumnsAreExactUpToTheLargestRowThatFitsAnInt) {
    // DenseRow counts columns in an int, which a dense call's row loop uses only where
    // fits_int_columns holds; its float must still be the correctly rounded column.
    const auto longest = static_cast<std::size_t>(std::numeric_limits<int>::max());
    TestFrame test({3, longest}, view_of(nullptr, {3, longest}, {longest, 1}));
    ASSERT_TRUE(brook::cpu::fits_int_columns(test.frame));
    for (const std::size_t first : {longest + (std::size_t{1} << 30) + 7, 3 * longest - 80}) {
        const DenseRow row(test.frame, first);
        const std::size_t stop = brook::cpu::row_end(test.frame, first, first + 80);
        for (std::size_t i = first; i < stop; ++i) {
            EXPECT_EQ(brook::cpu::indexof(row, 0, i).x, brook::cpu::indexof(test.frame, 0, i).x)
                << "element " << i;
        }
    }
}

TEST(RowAddressing, RowsOf2To31ElementsOrMoreDoNotFitAnInt) {
    const std::size_t length = std::size_t{1} << 31;
    EXPECT_FALSE(brook::cpu::fits_int_columns(TestFrame({length}, {}).frame));
    EXPECT_FALSE(brook::cpu::fits_int_columns(TestFrame({2, length}, {}).frame));
    // The slower dimensions do not count: only a row's columns are counted in an int.
    EXPECT_TRUE(brook::cpu::fits_int_columns(TestFrame({length, 4}, {}).frame));
    EXPECT_TRUE(brook::cpu::fits_int_columns(TestFrame({length - 1}, {}).frame));
}

} // namespace
