// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// kernel void saxpy(float a, float x<>, float y<>, out float result<>): result = a * x + y, with
// the dense and general entries.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "frame.glsl"
#include "test_shader_common.glsl"

void main() {
    const float a = load_float(brt_frame.args[0].data);
    for (uint64_t i = brt_frame.run_begin + gl_GlobalInvocationID.x; i < brt_frame.run_end;
         i += grid_stride()) {
        if (brt_mode == brt_mode_dense) {
            const float x = load_float(brt_frame.args[1].data + i * 4);
            const float y = load_float(brt_frame.args[2].data + i * 4);
            store_float(brt_frame.args[3].data + i * 4, a * x + y);
        } else {
            const float x = load_float(resized_address(brt_frame.args[1], i, 4));
            const float y = load_float(resized_address(brt_frame.args[2], i, 4));
            store_float(resized_address(brt_frame.args[3], i, 4), a * x + y);
        }
    }
}
