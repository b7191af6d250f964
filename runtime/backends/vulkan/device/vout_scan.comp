// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The vulkan backend's own compute shader: the exclusive scan of a variable output's counts,
// between the count and write passes of a kernel with `vout` parameters, so that the counts
// never leave the device (vulkan_backend.cpp, scan_variable_outputs). glslc compiles it when
// libbrook is built, which embeds the SPIR-V.
//
// The ABI is frame.glsl's where the two meet: one push constant, here the address of a BrtScan
// in host-visible memory; specialization constant 0 the workgroup's size, 1 the entry (the
// values of shader_frame.hpp's Entry). The counts are the count pass's: one uint64_t per element
// of the domain. For `count` of them in chunks of `chunk`, one workgroup per chunk:
//   scan_chunk_totals (grid: chunks): slots[c] = the sum of chunk c's counts;
//   scan_chunk_slots  (grid: 1):      slots[0, chunks) become each chunk's first slot (their
//                                     exclusive scan) in place, and slots[chunks] their sum, the
//                                     variable output's size;
//   scan_counts       (grid: chunks): each count of chunk c becomes its element's first slot, from
//                                     slots[c] on, in place.
// Sums wrap modulo 2^64, as the host's std::size_t do. A workgroup walks its chunk a tile at a
// time; the backend keeps chunks short enough that no workgroup walks more than a few thousand
// tiles (lavapipe ends a shader loop after 65535 iterations).
#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(buffer_reference, scalar, buffer_reference_align = 8) readonly buffer BrtScan {
    uint64_t counts; // the address of the counts
    uint64_t count;
    uint64_t chunk;
    uint64_t slots; // the address of chunks + 1 words
};

layout(buffer_reference, scalar, buffer_reference_align = 8) buffer BrtWord {
    uint64_t v;
};

layout(push_constant) uniform BrtPush {
    BrtScan brt_scan;
};

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int brt_mode = 0;

const int brt_mode_scan_chunk_totals = 6;
const int brt_mode_scan_chunk_slots = 7;
const int brt_mode_scan_counts = 8;

// A tile is 1024 counts, 8 KB of shared memory (every device has 16 KB), brt_items per
// invocation: loaded and stored by neighbouring invocations at neighbouring addresses, scanned by
// each invocation as a run of its own. The more counts per invocation, the fewer barriers per
// count: on lavapipe, 16 per invocation and one barrier per step of the workgroup's scan took
// 26-31 ms for 1M counts, 4 per invocation and two barriers per step 45 ms.
const uint brt_items = 1024u / gl_WorkGroupSize.x;

shared uint64_t brt_tile[gl_WorkGroupSize.x * brt_items];
// Two rows of a value per invocation: Hillis and Steele's steps read one and write the other.
shared uint64_t brt_sums[2u * gl_WorkGroupSize.x];

uint64_t load_word(uint64_t array, uint64_t i) {
    return BrtWord(array + i * 8ul).v;
}

void store_word(uint64_t array, uint64_t i, uint64_t value) {
    BrtWord(array + i * 8ul).v = value;
}

// Called by every invocation: `value`'s exclusive scan over the workgroup's invocations, and
// their sum in `total`. Hillis and Steele's steps, one barrier each: step d reads the row the
// previous step wrote and writes the other.
uint64_t workgroup_exclusive_scan(uint64_t value, out uint64_t total) {
    const uint t = gl_LocalInvocationID.x;
    const uint size = gl_WorkGroupSize.x;
    uint from = 0u;
    brt_sums[t] = value;
    barrier();
    for (uint step = 1u; step < size; step *= 2u) {
        const uint to = size - from;
        brt_sums[to + t] = brt_sums[from + t] + (t >= step ? brt_sums[from + t - step] : 0ul);
        barrier();
        from = to;
    }
    total = brt_sums[from + size - 1u];
    return brt_sums[from + t] - value;
}

// Called by every invocation: the sum of array[begin, end), in invocation 0.
uint64_t workgroup_sum(uint64_t array, uint64_t begin, uint64_t end) {
    const uint t = gl_LocalInvocationID.x;
    const uint size = gl_WorkGroupSize.x;
    uint64_t sum = 0ul;
    for (uint64_t first = begin; first < end; first += uint64_t(size * brt_items)) {
        for (uint k = 0u; k < brt_items; ++k) {
            const uint64_t i = first + t + k * size;
            if (i < end) {
                sum += load_word(array, i);
            }
        }
    }
    brt_sums[t] = sum;
    barrier();
    for (uint step = 1u; step < size; step *= 2u) {
        if (t % (2u * step) == 0u && t + step < size) {
            brt_sums[t] += brt_sums[t + step];
        }
        barrier();
    }
    return brt_sums[0];
}

// Called by every invocation: array[begin, end) becomes, in place, base plus the sum of the
// words before each; returns the sum of the range.
uint64_t workgroup_scan(uint64_t array, uint64_t begin, uint64_t end, uint64_t base) {
    const uint t = gl_LocalInvocationID.x;
    const uint size = gl_WorkGroupSize.x;
    uint64_t running = base;
    for (uint64_t first = begin; first < end; first += uint64_t(size * brt_items)) {
        for (uint k = 0u; k < brt_items; ++k) {
            const uint64_t i = first + t + k * size;
            brt_tile[t + k * size] = i < end ? load_word(array, i) : 0ul;
        }
        barrier();
        uint64_t own = 0ul;
        for (uint k = 0u; k < brt_items; ++k) {
            own += brt_tile[t * brt_items + k];
        }
        uint64_t tile_total;
        uint64_t at = running + workgroup_exclusive_scan(own, tile_total);
        for (uint k = 0u; k < brt_items; ++k) {
            const uint64_t count = brt_tile[t * brt_items + k];
            brt_tile[t * brt_items + k] = at;
            at += count;
        }
        barrier();
        for (uint k = 0u; k < brt_items; ++k) {
            const uint64_t i = first + t + k * size;
            if (i < end) {
                store_word(array, i, brt_tile[t + k * size]);
            }
        }
        running += tile_total;
        // The next tile's loads overwrite brt_tile, and its scan brt_sums.
        barrier();
    }
    return running - base;
}

void main() {
    const uint64_t chunk = brt_scan.chunk;
    const uint64_t c = gl_WorkGroupID.x;
    const uint64_t begin = c * chunk;
    const uint64_t end = min(begin + chunk, brt_scan.count);
    if (brt_mode == brt_mode_scan_chunk_totals) {
        const uint64_t total = workgroup_sum(brt_scan.counts, begin, end);
        if (gl_LocalInvocationID.x == 0u) {
            store_word(brt_scan.slots, c, total);
        }
    } else if (brt_mode == brt_mode_scan_chunk_slots) {
        const uint64_t chunks = (brt_scan.count + chunk - 1ul) / chunk;
        const uint64_t total = workgroup_scan(brt_scan.slots, 0ul, chunks, 0ul);
        if (gl_LocalInvocationID.x == 0u) {
            store_word(brt_scan.slots, chunks, total);
        }
    } else if (brt_mode == brt_mode_scan_counts) {
        workgroup_scan(brt_scan.counts, begin, end, load_word(brt_scan.slots, c));
    }
}
