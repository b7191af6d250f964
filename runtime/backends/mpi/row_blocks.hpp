// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The mpi backend's plan of rows: which rows of a stream each rank holds, which rows of a domain
// or a view each rank runs, which rows it needs from the others and where they travel. Only
// arithmetic on row numbers, which every rank does alike for every rank, so it needs neither MPI
// nor a World (tests/row_blocks_test.cpp checks it without either).
//
// A stream laid out by rows of L elements is split over the ranks in near-equal contiguous
// blocks of rows (block_of); the rank holding rows [first, end) holds its elements
// [first * L, end * L).

#include "core/backend.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace brook::detail::mpi {

/// The rows [first, end) of a stream that one rank holds.
struct RowBlock {
    std::size_t first = 0;
    std::size_t end = 0;
    std::size_t rows() const { return end - first; }
    bool operator==(const RowBlock& other) const = default;
};

/// Rank `rank` of `ranks` holds the rank-th of `ranks` near-equal contiguous blocks of `rows`
/// rows, the larger ones last; a rank may hold none when there are fewer rows than ranks.
RowBlock block_of(std::size_t rows, int rank, int ranks);
/// Every rank's block_of `rows` rows, in rank order.
std::vector<RowBlock> blocks_of(std::size_t rows, int ranks);

/// The rows both `a` and `b` hold (an empty block when none).
RowBlock overlap(const RowBlock& a, const RowBlock& b);

/// The rank whose block (block_of) of `rows` rows holds row `row`.
std::size_t holder_of(std::size_t row, std::size_t rows, int ranks);

/// Whether each rank's rows in `wanted` (one entry per rank, in rank order) lie in the block of
/// `rows` rows it holds, so that no rank needs another's.
bool within_own_rows(std::span<const RowBlock> wanted, std::size_t rows);

/// The length of the rows to lay a stream of `count` elements out by so that no row of
/// `region` straddles two of them: count / region rows when the region is the whole stream
/// (`whole`; 0 when its rows are empty), the row stride of a view of two or more dimensions when
/// it divides the count, else 1.
std::size_t row_length_for(const Region& region, std::size_t count, bool whole);

/// For each of `ranks` ranks in rank order, the rows of `region` that start in its block of a
/// stream of `stream_rows` rows of `length` elements (region row r starts at element
/// offset + r * strides[0]): the rows it holds whole when `length` is row_length_for the region.
std::vector<RowBlock> view_rows_by_rank(const Region& region, std::size_t length,
                                        std::size_t stream_rows, int ranks);

/// The row of its stream that row 0 of `region` lies in, when the stream (of `count` elements)
/// is laid out by rows of `length` elements, strides[0] (1 for 1-D), and each row of the region
/// lies within one of them: a whole stream, or a view (domain) of one. Nothing for any other
/// region, or one without elements.
std::optional<std::size_t> first_stream_row(const Region& region, std::size_t count,
                                            std::size_t length);

/// `blocks` moved `rows` rows further down their stream; an empty block stays empty.
std::vector<RowBlock> shifted(std::span<const RowBlock> blocks, std::size_t rows);

/// The rows of a gather of `rows` rows (at least one) that each rank reads when it runs the
/// domain rows `domain_rows[rank]` and the element of row i reads rows [i + reach_low,
/// i + reach_high], clamped to the gather's rows as gathers are; empty for a rank that runs none.
std::vector<RowBlock> rows_in_reach(std::span<const RowBlock> domain_rows, long long reach_low,
                                    long long reach_high, std::size_t rows);

/// The target rows that input `rows` fold into when target row j folds the input rows
/// [j * per_target, (j + 1) * per_target): the first and last partly when `rows` straddle their
/// borders; empty for no rows.
RowBlock target_rows_of(const RowBlock& rows, std::size_t per_target);

/// Input rows `held` cut into the runs that one inner reduction each folds into target rows (see
/// target_rows_of): up to the end of the target row a run starts in, or, from the start of a
/// target row, over every whole target row that `held` covers.
std::vector<RowBlock> fold_runs(const RowBlock& held, std::size_t per_target);

/// Turns `counts` into each one's first slot counting from 0 (an exclusive prefix sum) and
/// returns their total: the values each element of a rank's block pushes to a variable output.
std::size_t counts_to_slots(std::span<std::size_t> counts);

/// The slots [o, o + counts[q]) of each rank's values in rank order, o the counts of the ranks
/// before it (the exclusive scan over the ranks of what each rank pushed).
std::vector<RowBlock> slots_by_rank(std::span<const std::size_t> counts);

/// The counts and offsets of one MPI_Alltoallv, in elements.
struct RowExchange {
    std::vector<std::size_t> send_counts;
    std::vector<std::size_t> send_offsets;
    std::vector<std::size_t> receive_counts;
    std::vector<std::size_t> receive_offsets;
    /// The elements this rank receives in all.
    std::size_t received = 0;
};

/// Rank `me`'s part in moving rows of `row_length` elements: each rank q has the rows `have[q]`
/// (in a buffer from row have[q].first) and wants the rows `want[q]`; every rank sends each the
/// rows it has that the other wants, and receives them packed in rank order (from row
/// want[me].first, when the ranks' `have` are in order and do not overlap). An empty part has
/// offset 0.
RowExchange plan_row_exchange(std::span<const RowBlock> have, std::span<const RowBlock> want,
                              std::size_t me, std::size_t row_length);

} // namespace brook::detail::mpi
