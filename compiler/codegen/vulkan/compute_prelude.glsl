// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// What brcc's vulkan compute shaders define between the frame ABI (frame.glsl) and the
// arithmetic prelude every GLSL backend shares (brook/detail/glsl_arithmetic.glsl): the state of
// the element an invocation runs, positions and offsets in 64-bit arithmetic, fixed point as the
// host encodes it, and BRT_CHECK=1's division checks.

// The output element running, in the row-major order of the domain, and its position.
uint64_t brt_element;
ivec4 brt_index;
// The domain's extents, and its element count as an int (saturated; brt_opaque reads its sign
// bit, which is never set).
ivec4 brt_frame_ext;
int brt_frame_count;

// The position of row-major element `element` of `extents` (.x the slowest dimension). In 32-bit
// arithmetic where the element allows it: 64-bit division is several times slower on GPUs.
ivec4 brt_position_of(uint64_t element, ivec4 extents) {
    ivec4 position;
    if (element <= 0xFFFFFFFFul) {
        uint rest = uint(element);
        for (int d = 3; d > 0; --d) {
            position[d] = int(rest % uint(extents[d]));
            rest /= uint(extents[d]);
        }
        position.x = int(rest);
        return position;
    }
    uint64_t rest = element;
    for (int d = 3; d > 0; --d) {
        position[d] = int(rest % uint64_t(extents[d]));
        rest /= uint64_t(extents[d]);
    }
    position.x = int(rest);
    return position;
}

// The offset, in elements, of `position` in a region of element `strides`.
int64_t brt_offset(ivec4 position, i64vec4 strides) {
    return int64_t(position.x) * strides.x + int64_t(position.y) * strides.y +
           int64_t(position.z) * strides.z + int64_t(position.w) * strides.w;
}

// Whether a scatter output's index lies inside the stream of `extents` (BROOKPLUS.md §4.7): a
// position with .x the last dimension, or a row-major offset. Outside, the write is dropped.
bool brt_scatter_inside(ivec4 position, ivec4 extents) {
    return all(greaterThanEqual(position, ivec4(0))) && all(lessThan(position.wzyx, extents));
}
bool brt_offset_inside(int offset, ivec4 extents) {
    const uint64_t count =
        uint64_t(extents.x) * uint64_t(extents.y) * uint64_t(extents.z) * uint64_t(extents.w);
    return offset >= 0 && uint64_t(offset) < count;
}

// A gather's one-component index (a row-major offset) clamped to the elements of `extents`.
uint64_t brt_clamp_offset(int offset, ivec4 extents) {
    const uint64_t count =
        uint64_t(extents.x) * uint64_t(extents.y) * uint64_t(extents.z) * uint64_t(extents.w);
    return offset <= 0 ? 0ul : min(uint64_t(offset), count - 1ul);
}

// A fixed-point value (fixed: steps 255; shortfixed: 65535) as its integer, as the host's
// basic_fixed::encode computes it: NaN and what is not above 0 give 0, 1 and above the largest.
#define BRT_ENCODE_FIXED(T)                                                                      \
    T brt_encode_fixed(T value, float steps) {                                                   \
        return mix(mix(floor(value * steps + 0.5), T(steps), greaterThanEqual(value, T(1.0))),   \
                   T(0.0), not(greaterThan(value, T(0.0))));                                     \
    }
float brt_encode_fixed(float value, float steps) {
    return !(value > 0.0) ? 0.0 : value >= 1.0 ? steps : floor(value * steps + 0.5);
}
BRT_ENCODE_FIXED(vec2)
BRT_ENCODE_FIXED(vec3)
BRT_ENCODE_FIXED(vec4)

// BRT_CHECK=1 (runtime/core/checks.hpp): the first element of the call that divides an integer
// by zero (fault 0) or INT_MIN by -1 (fault 1), recorded as element * 2 + fault by an atomic
// minimum over all elements. Without it (specialization constant brt_checks false) the driver
// removes every trace of the checks.
layout(buffer_reference, scalar, buffer_reference_align = 4) buffer BrtDivisionRecord {
    uint value;
};
void brt_division_fault(uint fault) {
    const uint element = uint(min(brt_element, 0x7FFFFFFFul));
    atomicMin(BrtDivisionRecord(brt_frame.division_record).value, element * 2u + fault);
}
void brt_check_division(int a, int b) {
    if (!brt_checks) {
        return;
    }
    if (b == 0) {
        brt_division_fault(0u);
    } else if (b == -1 && a == int(0x80000000u)) {
        brt_division_fault(1u);
    }
}
void brt_check_division(uint a, uint b) {
    if (brt_checks && b == 0u) {
        brt_division_fault(0u);
    }
}
