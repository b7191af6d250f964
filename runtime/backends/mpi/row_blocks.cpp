// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Row arithmetic only: a Region is read through its fields, never its member functions, so that
// the tests link this file alone (the member functions live in the core, beside the rest of
// libbrook).
#include "row_blocks.hpp"

#include <algorithm>

namespace brook::detail::mpi {

namespace {

/// Region::count() != 0, from the extents.
bool has_elements(const Region& region) {
    for (int d = 0; d < region.rank; ++d) {
        if (region.extents[static_cast<std::size_t>(d)] == 0) {
            return false;
        }
    }
    return true;
}

} // namespace

RowBlock block_of(std::size_t rows, int rank, int ranks) {
    const auto r = static_cast<std::size_t>(rank);
    const auto n = static_cast<std::size_t>(ranks);
    return {rows * r / n, rows * (r + 1) / n};
}

std::vector<RowBlock> blocks_of(std::size_t rows, int ranks) {
    std::vector<RowBlock> blocks;
    for (int r = 0; r < ranks; ++r) {
        blocks.push_back(block_of(rows, r, ranks));
    }
    return blocks;
}

RowBlock overlap(const RowBlock& a, const RowBlock& b) {
    const RowBlock both{std::max(a.first, b.first), std::min(a.end, b.end)};
    return both.first < both.end ? both : RowBlock{};
}

std::size_t holder_of(std::size_t row, std::size_t rows, int ranks) {
    // The last rank whose first row, rows * q / ranks rounded down, is at most `row`.
    const auto n = static_cast<std::size_t>(ranks);
    return ((row + 1) * n + rows - 1) / rows - 1;
}

bool within_own_rows(std::span<const RowBlock> wanted, std::size_t rows) {
    const auto ranks = static_cast<int>(wanted.size());
    for (int r = 0; r < ranks; ++r) {
        const RowBlock& want = wanted[static_cast<std::size_t>(r)];
        const RowBlock held = block_of(rows, r, ranks);
        if (want.rows() != 0 && (want.first < held.first || want.end > held.end)) {
            return false;
        }
    }
    return true;
}

std::size_t row_length_for(const Region& region, std::size_t count, bool whole) {
    if (whole && region.extents[0] != 0) {
        return count / region.extents[0];
    }
    if (region.rank > 1 && region.strides[0] != 0 && count % region.strides[0] == 0) {
        return region.strides[0];
    }
    return 1;
}

std::vector<RowBlock> view_rows_by_rank(const Region& region, std::size_t length,
                                        std::size_t stream_rows, int ranks) {
    // Region row r starts at storage element offset + r * stride, in storage row
    // (offset + r * stride) / length: the rows a rank holds are those from the first that
    // starts at or after its block's first element to the first that starts at or after its end.
    const std::size_t stride = std::max<std::size_t>(region.strides[0], 1);
    const std::size_t rows = region.extents[0];
    const auto first_at_or_after = [&](std::size_t element) -> std::size_t {
        if (element <= region.offset) {
            return 0;
        }
        return std::min(rows, (element - region.offset + stride - 1) / stride);
    };
    std::vector<RowBlock> held;
    for (const RowBlock& block : blocks_of(stream_rows, ranks)) {
        held.push_back(
            {first_at_or_after(block.first * length), first_at_or_after(block.end * length)});
    }
    return held;
}

std::optional<std::size_t> first_stream_row(const Region& region, std::size_t count,
                                            std::size_t length) {
    if (!has_elements(region) || length == 0 || count % length != 0 ||
        (region.rank == 1 && region.strides[0] != 1)) {
        return std::nullopt;
    }
    std::size_t span = 1; // from the first element of a region row to its last, and one
    for (int d = 1; d < region.rank; ++d) {
        const auto dim = static_cast<std::size_t>(d);
        span += (region.extents[dim] - 1) * region.strides[dim];
    }
    if (region.offset % length + span > length) {
        return std::nullopt;
    }
    return region.offset / length;
}

std::vector<RowBlock> shifted(std::span<const RowBlock> blocks, std::size_t rows) {
    std::vector<RowBlock> moved;
    for (const RowBlock& block : blocks) {
        moved.push_back(block.rows() == 0 ? RowBlock{}
                                          : RowBlock{rows + block.first, rows + block.end});
    }
    return moved;
}

std::vector<RowBlock> rows_in_reach(std::span<const RowBlock> domain_rows, long long reach_low,
                                    long long reach_high, std::size_t rows) {
    const auto last_row = static_cast<long long>(rows) - 1;
    const auto clamped = [&](long long row) { return std::clamp(row, 0LL, last_row); };
    std::vector<RowBlock> wanted;
    for (const RowBlock& block : domain_rows) {
        if (block.rows() == 0) {
            wanted.push_back({});
            continue;
        }
        const long long first = clamped(static_cast<long long>(block.first) + reach_low);
        const long long last = clamped(static_cast<long long>(block.end) - 1 + reach_high);
        wanted.push_back({static_cast<std::size_t>(first), static_cast<std::size_t>(last) + 1});
    }
    return wanted;
}

RowBlock target_rows_of(const RowBlock& rows, std::size_t per_target) {
    return rows.rows() == 0
               ? RowBlock{}
               : RowBlock{rows.first / per_target, (rows.end + per_target - 1) / per_target};
}

std::vector<RowBlock> fold_runs(const RowBlock& held, std::size_t per_target) {
    std::vector<RowBlock> runs;
    std::size_t row = held.first;
    while (row < held.end) {
        const std::size_t j = row / per_target;
        std::size_t end = std::min(held.end, (j + 1) * per_target);
        if (row == j * per_target && end == (j + 1) * per_target) {
            end = std::max(end, held.end / per_target * per_target);
        }
        runs.push_back({row, end});
        row = end;
    }
    return runs;
}

std::size_t counts_to_slots(std::span<std::size_t> counts) {
    std::size_t total = 0;
    for (std::size_t& count : counts) {
        const std::size_t pushed = count;
        count = total;
        total += pushed;
    }
    return total;
}

std::vector<RowBlock> slots_by_rank(std::span<const std::size_t> counts) {
    std::vector<RowBlock> slots;
    std::size_t first = 0;
    for (const std::size_t count : counts) {
        slots.push_back({first, first + count});
        first += count;
    }
    return slots;
}

RowExchange plan_row_exchange(std::span<const RowBlock> have, std::span<const RowBlock> want,
                              std::size_t me, std::size_t row_length) {
    const std::size_t ranks = have.size();
    RowExchange plan;
    plan.send_counts.resize(ranks);
    plan.send_offsets.resize(ranks);
    plan.receive_counts.resize(ranks);
    plan.receive_offsets.resize(ranks);
    std::size_t received_rows = 0;
    for (std::size_t q = 0; q < ranks; ++q) {
        const RowBlock sent = overlap(have[me], want[q]);
        plan.send_counts[q] = sent.rows() * row_length;
        plan.send_offsets[q] = sent.rows() == 0 ? 0 : (sent.first - have[me].first) * row_length;
        const RowBlock got = overlap(have[q], want[me]);
        plan.receive_counts[q] = got.rows() * row_length;
        plan.receive_offsets[q] = got.rows() == 0 ? 0 : received_rows * row_length;
        received_rows += got.rows();
    }
    plan.received = received_rows * row_length;
    return plan;
}

} // namespace brook::detail::mpi
