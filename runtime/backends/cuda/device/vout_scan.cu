// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The cuda backend's own NVRTC program: the exclusive scan of a variable output's counts
// (prefix_scan.hpp's grid scheme), between the Count and Write passes of a kernel with `vout`
// parameters, so that the counts never leave the device. libbrook embeds it and compiles it
// once per process, like a kernel. For n counts in blocks of chunk (plan_chunks):
//   brook_vout_count_chunks   grid (blocks): totals[c] = the sum of chunk c's counts;
//   brook_vout_scan_totals    grid (1): the totals become each chunk's first slot, in place,
//                             and *grand_total their sum, the variable output's size;
//   brook_vout_scan_chunks    grid (blocks): each count becomes its element's first slot, in
//                             place.
#include "brook/cuda/prefix_scan.hpp"

namespace device = ::brook::cuda::device;

extern "C" __global__ void brook_vout_count_chunks(const device::Size* counts, device::Size n,
                                                   device::Size chunk, device::Size* totals) {
    device::DeviceBlock block;
    device::count_chunk(
        block, n, chunk, blockIdx.x, [counts](device::Size i) { return counts[i]; },
        totals + blockIdx.x);
}

extern "C" __global__ void brook_vout_scan_totals(device::Size* totals, device::Size blocks,
                                                  device::Size* grand_total) {
    device::DeviceBlock block;
    device::scan_chunk<device::grid_items>(
        block, blocks, blocks, 0, 0, [totals](device::Size i) { return totals[i]; },
        [totals](device::Size i, device::Size slot) { totals[i] = slot; }, grand_total);
}

extern "C" __global__ void brook_vout_scan_chunks(device::Size* counts, device::Size n,
                                                  device::Size chunk,
                                                  const device::Size* chunk_slots) {
    device::DeviceBlock block;
    device::scan_chunk<device::grid_items>(
        block, n, chunk, blockIdx.x, chunk_slots[blockIdx.x],
        [counts](device::Size i) { return counts[i]; },
        [counts](device::Size i, device::Size slot) { counts[i] = slot; }, nullptr);
}
