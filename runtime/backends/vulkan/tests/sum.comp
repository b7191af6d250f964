// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// reduce void sum(float x<>, reduce float r<>): r += x, with both reduce entries. The fold is not
// in row-major order (the test sums whole numbers, exact in any order): the test checks the
// runtime's passes, not brcc's ordered folds.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "frame.glsl"
#include "test_shader_common.glsl"

// The address of element `element` (row-major within the box) of box `box`.
uint64_t box_element(uint64_t box, uint64_t element) {
    const BrtArg reduced = brt_frame.args[0];
    int64_t offset = 0;
    for (int d = 3; d >= 0; --d) {
        const uint64_t targets = uint64_t(brt_frame.reduce_targets[d]);
        const uint64_t extent = uint64_t(brt_frame.output_extents[d]);
        const uint64_t index = (box % targets) * extent + element % extent;
        box /= targets;
        element /= extent;
        offset += int64_t(index) * reduced.strides[d];
    }
    return reduced.data + uint64_t(offset) * 4;
}

// Each invocation's fold of its share of a chunk; invocation 0 adds them up.
shared float folded_by[gl_WorkGroupSize.x];

// The sum of elements [first, end) of `box`, over the workgroup: invocation k takes elements
// first + k, first + k + size, ... (loops of a few thousand iterations: lavapipe stops any loop
// after 65535).
float fold_range(uint64_t box, uint64_t first, uint64_t end, bool partials) {
    float folded = 0.0;
    for (uint64_t e = first + gl_LocalInvocationID.x; e < end; e += gl_WorkGroupSize.x) {
        folded += partials ? load_float(brt_frame.partials + e * 4)
                           : load_float(box_element(box, e));
    }
    folded_by[gl_LocalInvocationID.x] = folded;
    barrier();
    float total = 0.0;
    if (gl_LocalInvocationID.x == 0) {
        for (uint k = 0; k < gl_WorkGroupSize.x; ++k) {
            total += folded_by[k];
        }
    }
    barrier();
    return total;
}

void main() {
    const ivec4 targets = brt_frame.reduce_targets;
    const uint64_t boxes = uint64_t(targets.x) * targets.y * targets.z * targets.w;
    for (uint64_t box = gl_WorkGroupID.y; box < boxes; box += gl_NumWorkGroups.y) {
        if (brt_mode == brt_mode_reduce_chunks) {
            const uint64_t chunks = gl_NumWorkGroups.x;
            const uint64_t first = gl_WorkGroupID.x * brt_frame.reduce_chunk;
            const uint64_t end = min(first + brt_frame.reduce_chunk, brt_frame.element_count);
            const float total = fold_range(box, first, end, false);
            if (gl_LocalInvocationID.x == 0) {
                store_float(brt_frame.partials + (box * chunks + gl_WorkGroupID.x) * 4, total);
            }
        } else if (brt_mode == brt_mode_reduce_partials) {
            const uint64_t first = box * brt_frame.reduce_blocks;
            const float total = fold_range(box, first, first + brt_frame.reduce_blocks, true);
            if (gl_LocalInvocationID.x == 0) {
                store_float(brt_frame.results + box * 4, total);
            }
        }
    }
}
