// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Exclusive prefix sums of element counts for variable outputs (vout): warp, block and grid
// levels, written once over the execution adaptors of ordered_reduce.hpp.
//
// Counts are unsigned long long (Size); sums wrap modulo 2^64 like std::exclusive_scan on them.
#pragma once

#if defined(__CUDACC_RTC__)
#include "brook/cuda/ordered_reduce.hpp"
#else
#include "ordered_reduce.hpp"
#endif

namespace brook::cuda::device {

/// Replaces x in every lane by the sum of x over the lower lanes of its warp (0 in lane 0) and
/// returns the warp's total in every lane. Kogge-Stone: after step d each lane holds the sum of
/// its 2d trailing lanes.
template <class Exec>
BROOK_DEVICE PerThread<Exec, Size> warp_exclusive_scan(Exec& ex, PerThread<Exec, Size>& x) {
    PerThread<Exec, Size> inclusive = x;
    for (unsigned delta = 1; delta < warp_size; delta *= 2) {
        const PerThread<Exec, Size> lower = ex.shfl_up(inclusive, delta);
        ex.each([&](ThreadId t) {
            if (t.lane() >= delta)
                inclusive[t] += lower[t];
        });
    }
    ex.each([&](ThreadId t) { x[t] = inclusive[t] - x[t]; });
    return ex.shfl_idx(inclusive, [](ThreadId) { return warp_size - 1; });
}

/// Replaces x in every thread by the sum of x over the lower threads of the block and returns
/// the block's total in every thread. Level 1 scans each warp; level 2 scans the warps' totals,
/// passed through shared memory, in every warp, and each warp adds its own warp's offset.
template <class Exec>
BROOK_DEVICE PerThread<Exec, Size> block_exclusive_scan(Exec& ex, PerThread<Exec, Size>& x) {
    const PerThread<Exec, Size> warp_total = warp_exclusive_scan(ex, x);
    const unsigned warps = ex.threads() / warp_size;
    if (warps == 1)
        return warp_total;

    Size* slots = ex.template shared<Size, warp_size>();
    ex.sync(); // a previous call may still be reading the slots
    ex.each([&](ThreadId t) {
        if (t.lane() == 0)
            slots[t.warp()] = warp_total[t];
    });
    ex.sync();
    PerThread<Exec, Size> warp_offset(ex);
    ex.each([&](ThreadId t) { warp_offset[t] = t.lane() < warps ? slots[t.lane()] : 0; });
    const PerThread<Exec, Size> total = warp_exclusive_scan(ex, warp_offset);
    const PerThread<Exec, Size> mine =
        ex.shfl_idx(warp_offset, [](ThreadId t) { return t.warp(); });
    ex.each([&](ThreadId t) { x[t] += mine[t]; });
    return total;
}

// ---------------------------------------------------------------------------------------------
// Grid level
// ---------------------------------------------------------------------------------------------
//
// Scheme for n >= 1 counts given by load(i), with plan_chunks(n, threads, Items, max_blocks):
//   pass 1: block c calls count_chunk: totals[c] = the sum of chunk c (in any order);
//   pass 2: one block calls scan_chunk over the totals in place (n = chunk = blocks, c = 0,
//           base 0, load/store on totals): totals[c] becomes chunk c's offset, and *grand_total
//           the sum of all counts (the size of the variable output);
//   pass 3: block c calls scan_chunk on its chunk with base = totals[c], storing every element's
//           exclusive prefix through store(i, prefix).
// Inside a block, the chunk is walked in tiles of threads() * Items counts; thread t keeps its
// Items consecutive counts in registers, block_exclusive_scan scans the threads' sums, and the
// running base moves on by the tile's total. In place (store writing where load reads) is fine:
// a thread loads its run before the block scan's barriers and stores only its own run after.

/// Pass 1, called by every thread of the block: thread 0 stores the sum of chunk c
/// ([c * chunk, min(n, (c + 1) * chunk)), c * chunk < n) to *total. Sums modulo 2^64 commute,
/// so the chunk is read in any order: a warp's loads are 32 consecutive counts.
template <class Exec, class Load>
BROOK_DEVICE void count_chunk(Exec& ex, Size n, Size chunk, Size c, Load load, Size* total) {
    reduce_chunk_any_order(
        ex, n, chunk, c, [&load](Size i) -> Size { return static_cast<Size>(load(i)); },
        [](Size a, Size b) { return a + b; }, total);
}

/// Passes 2 and 3, called by every thread of the block: store(i, base + the sum of the counts of
/// chunk c before i) for every i in chunk c; thread 0 stores the chunk's sum (without base) to
/// *chunk_total unless it is null.
template <unsigned Items, class Exec, class Load, class Store>
BROOK_DEVICE void scan_chunk(Exec& ex, Size n, Size chunk, Size c, Size base, Load load,
                             Store store, Size* chunk_total) {
    static_assert(Items >= 1, "a thread scans at least one count");
    const Size begin = c * chunk;
    const Size end = detail::min(n, begin + chunk);
    const Size tile = Size{ex.threads()} * Items;
    PerThread<Exec, Size> running(ex);
    ex.each([&](ThreadId t) { running[t] = base; });
    for (Size tile_begin = begin; tile_begin < end; tile_begin += tile) {
        PerThread<Exec, Array<Size, Items>> counts(ex);
        PerThread<Exec, Size> prefix(ex);
        ex.each([&](ThreadId t) {
            const Size first = tile_begin + Size{t.index} * Items;
            Size sum = 0;
            BROOK_UNROLL
            for (unsigned j = 0; j < Items; ++j) {
                counts[t][j] = first + j < end ? static_cast<Size>(load(first + j)) : 0;
                sum += counts[t][j];
            }
            prefix[t] = sum;
        });
        const PerThread<Exec, Size> tile_total = block_exclusive_scan(ex, prefix);
        ex.each([&](ThreadId t) {
            const Size first = tile_begin + Size{t.index} * Items;
            Size at = running[t] + prefix[t];
            BROOK_UNROLL
            for (unsigned j = 0; j < Items; ++j) {
                if (first + j < end)
                    store(first + j, at);
                at += counts[t][j];
            }
            running[t] += tile_total[t];
        });
    }
    ex.each([&](ThreadId t) {
        if (t.index == 0 && chunk_total != nullptr)
            *chunk_total = running[t] - base;
    });
}

} // namespace brook::cuda::device
