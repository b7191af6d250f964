// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The mpi backend's plan of rows (row_blocks.hpp) without MPI: the split of a stream's rows over
// the ranks, the rows of a view each rank holds, the rows a gather reads, the partial rows of a
// reduction to a stream, the slots of variable outputs and the exchanges between ranks, on the
// awkward cases (more ranks than rows, no rows, remainders, views straddling ranks, 1-D and 2-D).
#include "backends/mpi/row_blocks.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <vector>

namespace {

using brook::detail::Region;
using namespace brook::detail::mpi;

/// A region of a stream by its fields (Region::dense lives in libbrook, which the test does not
/// link): `offset` elements in, `extents` slowest first, `strides` elements apart.
Region region(std::size_t offset, std::vector<std::size_t> extents,
              std::vector<std::size_t> strides) {
    Region r;
    r.offset = offset;
    r.rank = static_cast<int>(extents.size());
    for (std::size_t d = 0; d < extents.size(); ++d) {
        r.extents[d] = extents[d];
        r.strides[d] = strides[d];
    }
    return r;
}

/// Whether `blocks`, in order, cover [0, rows) with neither gap nor overlap (empty ones allowed).
bool tiles(const std::vector<RowBlock>& blocks, std::size_t rows) {
    std::size_t next = 0;
    for (const RowBlock& block : blocks) {
        if (block.rows() != 0 && block.first != next) {
            return false;
        }
        next = block.rows() != 0 ? block.end : next;
    }
    return next == rows;
}

TEST(RowBlocks, RemaindersGoToTheLastRanks) {
    EXPECT_EQ(blocks_of(10, 3), (std::vector<RowBlock>{{0, 3}, {3, 6}, {6, 10}}));
    EXPECT_EQ(blocks_of(11, 4), (std::vector<RowBlock>{{0, 2}, {2, 5}, {5, 8}, {8, 11}}));
    EXPECT_EQ(blocks_of(12, 4), (std::vector<RowBlock>{{0, 3}, {3, 6}, {6, 9}, {9, 12}}));
    EXPECT_EQ(block_of(7, 0, 1), (RowBlock{0, 7}));
}

TEST(RowBlocks, MoreRanksThanRowsLeavesSomeRanksNone) {
    const std::vector<RowBlock> blocks = blocks_of(2, 4);
    EXPECT_EQ(blocks[0].rows(), 0u);
    EXPECT_EQ(blocks[1], (RowBlock{0, 1}));
    EXPECT_EQ(blocks[2].rows(), 0u);
    EXPECT_EQ(blocks[3], (RowBlock{1, 2}));
    EXPECT_TRUE(tiles(blocks, 2));
}

TEST(RowBlocks, ZeroRowsGiveEveryRankNone) {
    for (const RowBlock& block : blocks_of(0, 3)) {
        EXPECT_EQ(block.rows(), 0u);
    }
}

TEST(RowBlocks, BlocksTileTheRowsAndHolderOfFindsEachRow) {
    for (int ranks = 1; ranks <= 6; ++ranks) {
        for (std::size_t rows = 1; rows <= 13; ++rows) {
            const std::vector<RowBlock> blocks = blocks_of(rows, ranks);
            ASSERT_TRUE(tiles(blocks, rows)) << rows << " rows on " << ranks << " ranks";
            for (std::size_t row = 0; row < rows; ++row) {
                const RowBlock held = blocks[holder_of(row, rows, ranks)];
                EXPECT_TRUE(row >= held.first && row < held.end)
                    << "row " << row << " of " << rows << " on " << ranks << " ranks";
            }
        }
    }
}

TEST(RowBlocks, OverlapOfBlocks) {
    EXPECT_EQ(overlap({2, 8}, {5, 12}), (RowBlock{5, 8}));
    EXPECT_EQ(overlap({2, 8}, {3, 4}), (RowBlock{3, 4}));
    EXPECT_EQ(overlap({2, 5}, {5, 9}).rows(), 0u); // touching
    EXPECT_EQ(overlap({2, 5}, {7, 9}).rows(), 0u);
    EXPECT_EQ(overlap({}, {0, 9}).rows(), 0u);
}

TEST(RowBlocks, WithinOwnRows) {
    // 10 rows on 3 ranks: {0, 3}, {3, 6}, {6, 10}.
    EXPECT_TRUE(within_own_rows(std::vector<RowBlock>{{0, 3}, {4, 6}, {6, 10}}, 10));
    EXPECT_FALSE(within_own_rows(std::vector<RowBlock>{{0, 4}, {3, 6}, {6, 10}}, 10));
    EXPECT_FALSE(within_own_rows(std::vector<RowBlock>{{0, 3}, {2, 6}, {6, 10}}, 10));
    // A rank that wants nothing needs nobody's rows, even one that holds none.
    EXPECT_TRUE(within_own_rows(std::vector<RowBlock>{{}, {0, 1}, {}, {1, 2}}, 2));
    // Any rows on one rank.
    EXPECT_TRUE(within_own_rows(std::vector<RowBlock>{{0, 10}}, 10));
}

TEST(RowBlocksOfViews, RowLengthForWholeStreamsAndViews) {
    // A whole 4 x 6 stream: rows of 6.
    EXPECT_EQ(row_length_for(region(0, {4, 6}, {6, 1}), 24, true), 6u);
    // A whole 1-D stream: rows of one element.
    EXPECT_EQ(row_length_for(region(0, {10}, {1}), 10, true), 1u);
    // A whole stream of empty rows: rows of no elements.
    EXPECT_EQ(row_length_for(region(0, {3, 0}, {0, 1}), 0, true), 0u);
    // A 2 x 3 view of an 8 x 4 stream: its row stride.
    EXPECT_EQ(row_length_for(region(5, {2, 3}, {4, 1}), 32, false), 4u);
    // A stride that does not divide the stream, and 1-D views: rows of one element.
    EXPECT_EQ(row_length_for(region(0, {2, 3}, {5, 1}), 32, false), 1u);
    EXPECT_EQ(row_length_for(region(3, {4}, {2}), 12, false), 1u);
}

TEST(RowBlocksOfViews, WholeStreamRowsAreTheBlocks) {
    EXPECT_EQ(view_rows_by_rank(region(0, {10, 4}, {4, 1}), 4, 10, 3), blocks_of(10, 3));
    EXPECT_EQ(view_rows_by_rank(region(0, {2, 3}, {3, 1}), 3, 2, 4), blocks_of(2, 4));
}

TEST(RowBlocksOfViews, ViewStraddlingTwoRanks) {
    // Rows 1 to 5, columns 1 and 2, of an 8 x 4 stream on 2 ranks (stream rows {0, 4}, {4, 8}):
    // view rows 0 to 2 lie on rank 0, 3 and 4 on rank 1.
    const Region view = region(5, {5, 2}, {4, 1});
    EXPECT_EQ(view_rows_by_rank(view, 4, 8, 2), (std::vector<RowBlock>{{0, 3}, {3, 5}}));
    EXPECT_EQ(first_stream_row(view, 32, 4), 1u);
}

TEST(RowBlocksOfViews, ViewOnTheRowsOfOneRank) {
    // Rows 6 and 7 of an 8 x 4 stream on 3 ranks (stream rows {0, 2}, {2, 5}, {5, 8}).
    const Region view = region(24, {2, 4}, {4, 1});
    EXPECT_EQ(view_rows_by_rank(view, 4, 8, 3), (std::vector<RowBlock>{{0, 0}, {0, 0}, {0, 2}}));
}

TEST(RowBlocksOfViews, OneDimensionalViews) {
    // Elements 3 to 7 of a 10-element stream on 2 ranks (elements {0, 5}, {5, 10}).
    EXPECT_EQ(view_rows_by_rank(region(3, {5}, {1}), 1, 10, 2),
              (std::vector<RowBlock>{{0, 2}, {2, 5}}));
    // Every other element from 1 (1, 3, 5, 7) on 3 ranks ({0, 3}, {3, 6}, {6, 10}).
    EXPECT_EQ(view_rows_by_rank(region(1, {4}, {2}), 1, 10, 3),
              (std::vector<RowBlock>{{0, 1}, {1, 3}, {3, 4}}));
}

TEST(RowBlocksOfViews, MoreRanksThanRowsOfTheView) {
    // Row 1 of a 3 x 2 stream on 4 ranks (stream rows {0, 0}, {0, 1}, {1, 2}, {2, 3}): rank 2
    // alone holds it.
    const std::vector<RowBlock> rows = view_rows_by_rank(region(2, {1, 2}, {2, 1}), 2, 3, 4);
    EXPECT_EQ(rows, (std::vector<RowBlock>{{0, 0}, {0, 0}, {0, 1}, {1, 1}}));
    EXPECT_TRUE(tiles(rows, 1));
}

TEST(RowBlocksOfViews, ViewRowsTileTheViewOnAnyNumberOfRanks) {
    // Rows 2 to 8, columns 1 to 3, of a 12 x 5 stream.
    const Region view = region(11, {7, 3}, {5, 1});
    for (int ranks = 1; ranks <= 9; ++ranks) {
        EXPECT_TRUE(tiles(view_rows_by_rank(view, 5, 12, ranks), 7)) << ranks << " ranks";
    }
}

TEST(RowBlocksOfViews, FirstStreamRow) {
    // A whole 2-D stream, and a domain from its row 2.
    EXPECT_EQ(first_stream_row(region(0, {4, 6}, {6, 1}), 24, 6), 0u);
    EXPECT_EQ(first_stream_row(region(13, {2, 4}, {6, 1}), 24, 6), 2u);
    // Rows of the view that cross from one stream row into the next.
    EXPECT_FALSE(first_stream_row(region(4, {2, 4}, {6, 1}), 24, 6));
    // 1-D: element 3 on; a strided 1-D view has no rows of its own.
    EXPECT_EQ(first_stream_row(region(3, {5}, {1}), 10, 1), 3u);
    EXPECT_FALSE(first_stream_row(region(3, {3}, {2}), 10, 1));
    // No elements, no rows, or rows that do not divide the stream.
    EXPECT_FALSE(first_stream_row(region(0, {0, 6}, {6, 1}), 24, 6));
    EXPECT_FALSE(first_stream_row(region(0, {4, 6}, {6, 1}), 24, 0));
    EXPECT_FALSE(first_stream_row(region(0, {4, 6}, {6, 1}), 25, 6));
}

TEST(RowBlocksOfViews, ShiftedKeepsEmptyBlocksEmpty) {
    EXPECT_EQ(shifted(std::vector<RowBlock>{{0, 3}, {}, {3, 5}}, 2),
              (std::vector<RowBlock>{{2, 5}, {}, {5, 7}}));
}

TEST(RowBlocksOfGathers, ReachIsClampedToTheGather) {
    // A 3-row stencil over 10 rows on 3 ranks.
    EXPECT_EQ(rows_in_reach(blocks_of(10, 3), -1, 1, 10),
              (std::vector<RowBlock>{{0, 4}, {2, 7}, {5, 10}}));
    // A rank that runs no rows reads none.
    EXPECT_EQ(rows_in_reach(blocks_of(2, 4), -1, 1, 2),
              (std::vector<RowBlock>{{}, {0, 2}, {}, {0, 2}}));
    // Reaching past the last row reads the last row only.
    EXPECT_EQ(rows_in_reach(std::vector<RowBlock>{{0, 2}}, 5, 7, 4),
              (std::vector<RowBlock>{{3, 4}}));
    // A gather of another height than the domain (SGEMV's vector as a 1-row gather).
    EXPECT_EQ(rows_in_reach(blocks_of(6, 2), 0, 0, 1), (std::vector<RowBlock>{{0, 1}, {0, 1}}));
}

TEST(RowBlocksOfReductions, TargetRowsOfInputRows) {
    // Target rows fold 4 input rows each.
    EXPECT_EQ(target_rows_of({3, 9}, 4), (RowBlock{0, 3})); // partly 0 and 2
    EXPECT_EQ(target_rows_of({4, 8}, 4), (RowBlock{1, 2}));
    EXPECT_EQ(target_rows_of({5, 6}, 4), (RowBlock{1, 2}));
    EXPECT_EQ(target_rows_of({}, 4).rows(), 0u);
    EXPECT_EQ(target_rows_of({2, 5}, 1), (RowBlock{2, 5}));
}

TEST(RowBlocksOfReductions, FoldRuns) {
    // A part of target row 0, target rows 1 and 2 whole, a part of target row 3.
    EXPECT_EQ(fold_runs({3, 13}, 4), (std::vector<RowBlock>{{3, 4}, {4, 12}, {12, 13}}));
    // Whole target rows only: one run.
    EXPECT_EQ(fold_runs({0, 8}, 4), (std::vector<RowBlock>{{0, 8}}));
    // Inside one target row.
    EXPECT_EQ(fold_runs({5, 7}, 4), (std::vector<RowBlock>{{5, 7}}));
    // A part of row 1, then the start of row 2.
    EXPECT_EQ(fold_runs({6, 10}, 4), (std::vector<RowBlock>{{6, 8}, {8, 10}}));
    EXPECT_TRUE(fold_runs({}, 4).empty());
}

TEST(RowBlocksOfReductions, RunsTileEachRanksRowsAndStayInTheirTargetRows) {
    for (int ranks = 1; ranks <= 5; ++ranks) {
        for (std::size_t per_target = 1; per_target <= 4; ++per_target) {
            const std::size_t rows = 3 * per_target;
            for (const RowBlock& held : blocks_of(rows, ranks)) {
                const std::vector<RowBlock> runs = fold_runs(held, per_target);
                std::size_t next = held.first;
                for (const RowBlock& run : runs) {
                    EXPECT_EQ(run.first, next);
                    // A run either stays in one target row or covers whole ones.
                    const RowBlock targets = target_rows_of(run, per_target);
                    EXPECT_TRUE(targets.rows() == 1 ||
                                (run.first % per_target == 0 && run.end % per_target == 0));
                    next = run.end;
                }
                EXPECT_EQ(next, held.end);
            }
        }
    }
}

TEST(RowBlocksOfVariableOutputs, CountsBecomeFirstSlots) {
    std::vector<std::size_t> counts{3, 0, 2, 1};
    EXPECT_EQ(counts_to_slots(counts), 6u);
    EXPECT_EQ(counts, (std::vector<std::size_t>{0, 3, 3, 5}));
    std::vector<std::size_t> none;
    EXPECT_EQ(counts_to_slots(none), 0u);
}

TEST(RowBlocksOfVariableOutputs, SlotsOfEachRank) {
    EXPECT_EQ(slots_by_rank(std::vector<std::size_t>{2, 0, 3}),
              (std::vector<RowBlock>{{0, 2}, {2, 2}, {2, 5}}));
    EXPECT_TRUE(tiles(slots_by_rank(std::vector<std::size_t>{0, 0, 4, 1}), 5));
}

TEST(RowBlocksExchange, RowsWantedFromTheRanksHoldingThem) {
    // 9 rows of 2 elements on 3 ranks; rank 0 wants rows 2 to 4, rank 1 none, rank 2 rows 5 on.
    const std::vector<RowBlock> have = blocks_of(9, 3);
    const std::vector<RowBlock> want{{2, 5}, {}, {5, 9}};
    const RowExchange first = plan_row_exchange(have, want, 0, 2);
    EXPECT_EQ(first.send_counts, (std::vector<std::size_t>{2, 0, 0}));
    EXPECT_EQ(first.send_offsets, (std::vector<std::size_t>{4, 0, 0}));
    EXPECT_EQ(first.receive_counts, (std::vector<std::size_t>{2, 4, 0}));
    EXPECT_EQ(first.receive_offsets, (std::vector<std::size_t>{0, 2, 0}));
    EXPECT_EQ(first.received, 6u);
    const RowExchange second = plan_row_exchange(have, want, 1, 2);
    EXPECT_EQ(second.send_counts, (std::vector<std::size_t>{4, 0, 2}));
    EXPECT_EQ(second.send_offsets, (std::vector<std::size_t>{0, 0, 4}));
    EXPECT_EQ(second.received, 0u);
}

TEST(RowBlocksExchange, PartialRowsOfSeveralRanksArriveInRankOrder) {
    // Ranks 0 and 1 both hold a partial of target row 1; rank 1 holds target rows 1 and 2.
    const std::vector<RowBlock> have{{0, 2}, {1, 3}};
    const std::vector<RowBlock> want = blocks_of(3, 2);
    const RowExchange plan = plan_row_exchange(have, want, 1, 3);
    EXPECT_EQ(plan.receive_counts, (std::vector<std::size_t>{3, 6}));
    EXPECT_EQ(plan.receive_offsets, (std::vector<std::size_t>{0, 3}));
    EXPECT_EQ(plan.received, 9u);
}

TEST(RowBlocksExchange, WhatEachRankSendsIsWhatItsPeerReceives) {
    for (int ranks = 1; ranks <= 5; ++ranks) {
        const std::vector<RowBlock> have = blocks_of(7, ranks);
        // Every rank wants the rows of its block and one beyond it on each side.
        const std::vector<RowBlock> want = rows_in_reach(have, -1, 1, 7);
        std::vector<RowExchange> plans;
        for (int me = 0; me < ranks; ++me) {
            plans.push_back(plan_row_exchange(have, want, static_cast<std::size_t>(me), 3));
        }
        for (std::size_t me = 0; me < plans.size(); ++me) {
            for (std::size_t q = 0; q < plans.size(); ++q) {
                EXPECT_EQ(plans[me].send_counts[q], plans[q].receive_counts[me]);
            }
            EXPECT_EQ(plans[me].received, want[me].rows() * 3);
        }
    }
}

} // namespace
