// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The gl backend's prelude: what every kernel shader brcc generates relies on (the runtime puts
// it between the `#version`/pass defines and the kernel's own source; embedded by CMake).
//
// Address translation (the paper's §4): a stream is stored row-major as a run of elements laid
// out in 2-D textures `width` texels wide, so element e is texel (e % width, e / width), in exact
// integer arithmetic. Positions are ivec4s with the slowest dimension in .x and the last
// (fastest) dimension in .w; a stream of rank r < 4 uses the last r components, with extents 1
// and strides 0 in front.

// The output domain of the draw: its extents, and the dense frame it is rendered in.
uniform ivec4 brt_frame_ext;
uniform int brt_frame_width;
uniform int brt_frame_count;

// The output element this invocation computes (set by brt_locate).
ivec4 brt_index;
// Set by brt_locate for a texel drawn that stands for no element (past the frame's last, between
// a view's elements, past a vout's last value); brt_index is then some element in range. `main`
// runs the kernel only where this is false and discards the texel at its end. A discard at the
// start, before the kernel's loops, can cost llvmpipe (LLVM 15's ScalarEvolution, in loop
// strength reduction) minutes to compile a kernel with nested loops, where it otherwise takes a
// second.
bool brt_outside = false;

#ifdef BRT_CHECK
// BRT_CHECK=1 (runtime/core/checks.hpp): the first element of the call that divides an integer
// by zero (fault 0) or INT_MIN by -1 (fault 1), recorded as element * 2 + fault by an atomic
// minimum over all elements, from all ones; the runtime reads it after the call. Only kernel
// passes define BRT_CHECK, so other shaders carry no trace of it.
layout(std430, binding = 0) buffer BrtDivisionRecord {
    uint brt_division_record;
};
// The element this invocation runs, in the row-major order of the kernel's domain.
int brt_checked_element;

void brt_division_fault(uint fault) {
    atomicMin(brt_division_record, uint(brt_checked_element) * 2u + fault);
}
void brt_check_division(int a, int b) {
    if (b == 0) {
        brt_division_fault(0u);
    } else if (b == -1 && a == int(0x80000000u)) {
        brt_division_fault(1u);
    }
}
void brt_check_division(uint a, uint b) {
    if (b == 0u) {
        brt_division_fault(0u);
    }
}
#define BRT_CHECK_ELEMENT(element) brt_checked_element = (element)
#else
#define brt_check_division(a, b)
#define BRT_CHECK_ELEMENT(element)
#endif

ivec2 brt_texel(int element, int width) {
    // A texture holds one row of elements, or rows of a power-of-two width (the runtime's
    // layout_for): masks and shifts for those, where llvmpipe runs integer division and
    // remainder one lane at a time. llvmpipe runs both sides of a branch, even one that depends
    // on uniforms only, so neither side divides.
    if ((width & (width - 1)) == 0) {
        return ivec2(element & (width - 1), element >> findMSB(width));
    }
    return ivec2(element, 0);
}

int brt_element(ivec4 position, ivec4 strides, int offset) {
    return offset + position.x * strides.x + position.y * strides.y + position.z * strides.z +
           position.w * strides.w;
}

ivec4 brt_unflatten(int element, ivec4 extents) {
    ivec4 position;
    position.w = element % extents.w;
    element /= extents.w;
    position.z = element % extents.z;
    element /= extents.z;
    position.y = element % extents.y;
    position.x = element / extents.y;
    return position;
}

#if defined(BRT_DRAW_POINTS)
// The call renders straight into a view of its outputs' streams as one point per element, on
// the element's texel (the runtime's output_view; gl_programs.cpp's vertex shader): the point
// carries the element's position.
flat in ivec4 brt_point_index;

void brt_locate() {
    brt_index = brt_point_index;
}
#elif defined(BRT_DRAW_IN_VIEW)
// The call renders straight into a view of its outputs' streams (the runtime's output_view),
// over the texels from its first element to its last: the texels drawn are the streams' own,
// brt_frame_width wide, and the view's elements are brt_view_off + position . brt_view_str for
// the positions within brt_frame_ext (strides nested, slowest first; 0 where the extent is 1).
// The texels between the view's elements compute nothing.
uniform ivec4 brt_view_str;
uniform int brt_view_off;

void brt_locate() {
    int rest = int(gl_FragCoord.y) * brt_frame_width + int(gl_FragCoord.x) - brt_view_off;
    bool outside = rest < 0;
    for (int d = 0; d < 4; ++d) {
        // (Both sides of ?: may run: the divisor is made safe.)
        int position = brt_view_str[d] == 0 ? 0 : rest / max(brt_view_str[d], 1);
        rest -= position * brt_view_str[d];
        outside = outside || position >= brt_frame_ext[d];
        brt_index[d] = position;
    }
    brt_outside = outside || rest != 0;
    brt_index = clamp(brt_index, ivec4(0), brt_frame_ext - 1);
}
#else
// Finds this invocation's output element; the texels past the last element of the frame's last
// row compute nothing (there are none under BRT_FILLS_LAYOUT).
void brt_locate() {
    int element = int(gl_FragCoord.y) * brt_frame_width + int(gl_FragCoord.x);
#ifndef BRT_FILLS_LAYOUT
    brt_outside = element >= brt_frame_count;
    element = min(element, brt_frame_count - 1);
#endif
    BRT_CHECK_ELEMENT(element);
    brt_index = brt_unflatten(element, brt_frame_ext);
}
#endif

#ifdef BRT_PUSH_WRITE
// The write pass of a variable output is drawn over its values, brt_push_total of them, laid
// out `brt_frame_width` texels wide; the frame uniforms otherwise describe the kernel's elements.
// brt_push_offsets holds each element's first value (the exclusive prefix sums of the counts),
// in the elements' layout.
uniform int brt_push_total;
uniform isampler2D brt_push_offsets;
// Which of its element's pushes this invocation stores (0 for the first).
int brt_push_wanted;

int brt_push_offset(int element) {
    return texelFetch(brt_push_offsets,
                      brt_texel(element, textureSize(brt_push_offsets, 0).x), 0).x;
}

// Finds the element that pushed this invocation's value: the last one whose first value is at
// or before it (elements that push nothing share their offset with the next, so "last" skips
// them). A binary search, log2(elements) fetches.
void brt_locate_push() {
    int value = int(gl_FragCoord.y) * brt_frame_width + int(gl_FragCoord.x);
    brt_outside = value >= brt_push_total;
    value = min(value, brt_push_total - 1);
    int low = 0; // brt_push_offset(low) <= value always (the first offset is 0)
    int high = brt_frame_count;
    while (high - low > 1) {
        int middle = low + (high - low) / 2;
        if (brt_push_offset(middle) <= value) {
            low = middle;
        } else {
            high = middle;
        }
    }
    BRT_CHECK_ELEMENT(low);
    brt_index = brt_unflatten(low, brt_frame_ext);
    brt_push_wanted = value - brt_push_offset(low);
}
#endif

// The element holding row-major element `offset` of a stream of `extents`, the offset clamped to
// [0, count - 1]: a gather read with one index component. The runtime binds such a gather to a
// contiguous view, or to a 1-D one whose elements are strides.w apart (core/launch.cpp,
// offset_readable), so the offset needs no position worked out: that took four integer
// divisions and remainders per read, which llvmpipe runs one lane at a time. (A contiguous
// view's dimensions of extent 1 may carry any stride, so only a 1-D view's is used.)
int brt_offset_element(int offset, ivec4 extents, ivec4 strides, int first) {
    int rows = extents.x * extents.y * extents.z;
    int step = rows == 1 ? strides.w : 1;
    return first + clamp(offset, 0, rows * extents.w - 1) * step;
}
