// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// kernel void slots(uint2 counts<>, out uint2 slots<>, vout float values<>): the count entry
// adds element i's counts[i], read as a uint64, to the vout's counts; the write entry stores
// element i's first slot to slots[i] and pushes nothing, so that the test sees the backend's
// scan of the counts itself, totals past 2^32 included. Streams of the domain's shape, dense.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "frame.glsl"
#include "test_shader_common.glsl"

void main() {
    const BrtArg values_arg = brt_frame.args[2];
    for (uint64_t i = brt_frame.run_begin + gl_GlobalInvocationID.x; i < brt_frame.run_end;
         i += grid_stride()) {
        if (brt_mode == brt_mode_count) {
            const uint64_t count = Uint64s(brt_frame.args[0].data + i * 8).value;
            Uint64s(values_arg.push_counts + i * 8).value += count;
        } else if (brt_mode == brt_mode_write) {
            const uint64_t slot = Uint64s(values_arg.push_offsets + i * 8).value;
            Uint64s(brt_frame.args[1].data + i * 8).value = slot;
        }
    }
}
