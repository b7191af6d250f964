// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// kernel void positives(float x<>, vout float y<>): pushes x, then x * 2, when x is positive;
// the count and write entries.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "frame.glsl"
#include "test_shader_common.glsl"

void main() {
    const BrtArg output_arg = brt_frame.args[1];
    for (uint64_t i = brt_frame.run_begin + gl_GlobalInvocationID.x; i < brt_frame.run_end;
         i += grid_stride()) {
        const float x = load_float(resized_address(brt_frame.args[0], i, 4));
        if (!(x > 0.0)) {
            continue;
        }
        if (brt_mode == brt_mode_count) {
            Uint64s(output_arg.push_counts + i * 8).value += 2;
        } else if (brt_mode == brt_mode_write) {
            const uint64_t slot = Uint64s(output_arg.push_offsets + i * 8).value;
            store_float(output_arg.data + slot * 4, x);
            store_float(output_arg.data + (slot + 1) * 4, x * 2.0);
        }
    }
}
