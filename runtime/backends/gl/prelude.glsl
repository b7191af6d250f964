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

// DESIGN.md §2 resizing: output index i reads input index floor(i * in / out), per dimension, in
// unsigned arithmetic (exact while i * in < 2^32; equal extents need no product).
ivec4 brt_resize(ivec4 position, ivec4 from, ivec4 to) {
    ivec4 resized;
    for (int d = 0; d < 4; ++d) {
        resized[d] = from[d] == to[d] ? position[d]
                                      : int(uint(position[d]) * uint(from[d]) / uint(to[d]));
    }
    return resized;
}

// A position as Brook shows it (indexof): .x is the last dimension.
vec4 brt_xlast(ivec4 position) {
    return vec4(position.w, position.z, position.y, position.x);
}

// DESIGN.md §2 gather index rule: each component v becomes floor(v + 0.25), clamped to the
// extent (by the caller). GLSL leaves the conversion to int of NaN, of an infinity and of a
// value beyond int's range undefined (llvmpipe gives INT_MIN for +infinity, which would read
// element 0), so the value is first brought into [-1, 2^31 - 128], the largest float below
// 2^31, and NaN to 0, as on the CPU: +infinity reads the last element, -infinity and NaN the
// first. Integer indices are exact already.
#define BRT_FLOAT_GATHER_INDEX(F, I)                                                             \
    I brt_gidx(F v) {                                                                            \
        F index = floor(v + 0.25);                                                               \
        return I(mix(clamp(index, F(-1.0), F(2147483520.0)), F(0.0), isnan(index)));            \
    }
BRT_FLOAT_GATHER_INDEX(float, int)
BRT_FLOAT_GATHER_INDEX(vec2, ivec2)
BRT_FLOAT_GATHER_INDEX(vec3, ivec3)
BRT_FLOAT_GATHER_INDEX(vec4, ivec4)
int brt_gidx(int v) { return v; }
ivec2 brt_gidx(ivec2 v) { return v; }
ivec3 brt_gidx(ivec3 v) { return v; }
ivec4 brt_gidx(ivec4 v) { return v; }

// `position` has .x as the last dimension; the result is a storage position (.w fastest).
ivec4 brt_gather_clamp(ivec4 position, ivec4 extents) {
    return clamp(position.wzyx, ivec4(0), extents - 1);
}

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

// Cg's truth of a value: non-zero.
bool brt_truth(bool v) { return v; }
bvec2 brt_truth(bvec2 v) { return v; }
bvec3 brt_truth(bvec3 v) { return v; }
bvec4 brt_truth(bvec4 v) { return v; }
bool brt_truth(float v) { return v != 0.0; }
bvec2 brt_truth(vec2 v) { return notEqual(v, vec2(0.0)); }
bvec3 brt_truth(vec3 v) { return notEqual(v, vec3(0.0)); }
bvec4 brt_truth(vec4 v) { return notEqual(v, vec4(0.0)); }
bool brt_truth(int v) { return v != 0; }
bvec2 brt_truth(ivec2 v) { return notEqual(v, ivec2(0)); }
bvec3 brt_truth(ivec3 v) { return notEqual(v, ivec3(0)); }
bvec4 brt_truth(ivec4 v) { return notEqual(v, ivec4(0)); }
bool brt_truth(uint v) { return v != 0u; }

bvec2 brt_and(bvec2 a, bvec2 b) { return bvec2(a.x && b.x, a.y && b.y); }
bvec3 brt_and(bvec3 a, bvec3 b) { return bvec3(a.x && b.x, a.y && b.y, a.z && b.z); }
bvec4 brt_and(bvec4 a, bvec4 b) { return bvec4(a.x && b.x, a.y && b.y, a.z && b.z, a.w && b.w); }
bvec2 brt_or(bvec2 a, bvec2 b) { return bvec2(a.x || b.x, a.y || b.y); }
bvec3 brt_or(bvec3 a, bvec3 b) { return bvec3(a.x || b.x, a.y || b.y, a.z || b.z); }
bvec4 brt_or(bvec4 a, bvec4 b) { return bvec4(a.x || b.x, a.y || b.y, a.z || b.z, a.w || b.w); }

// brt_opaque(v) (with the built-ins below, for float and float2..float4): a divisor as the shader
// compiler cannot know it, `v` itself at run time, its bits flipped by the sign bit of the
// frame's element count, which is never negative, but opaque to constant folding.
// Mesa's compiler folds a division by a zero it knows (`a / 0.0`, or a local holding 0.0) into 0
// or garbage, where IEEE-754, as C and CUDA compute it, gives an infinity or NaN. brcc divides
// through this wherever the divisor is not a non-zero constant. A flip of no bits, unlike adding
// a zero, keeps -0.0's sign; and it declares no uniform of its own, which a kernel's uniform
// components would count.
uint brt_opaque_bits() { return uint(brt_frame_count) >> 31u; }

// Cg built-ins that GLSL defines differently or lacks, for float and float2..float4.
#define BRT_FLOAT_BUILTINS(T)                                                                    \
    T brt_opaque(T v) { return uintBitsToFloat(floatBitsToUint(v) ^ brt_opaque_bits()); }        \
    T brt_fmod(T x, T y) {                                                                       \
        T divisor = brt_opaque(y); /* 0 * inf is NaN, not the 0 a compiler folds it to */        \
        return x - divisor * trunc(x / divisor);                                                 \
    }                                                                                            \
    T brt_round(T x) { return sign(x) * floor(abs(x) + 0.5); }                                   \
    T brt_log10(T x) { return log2(x) * 0.30102999566398120; }                                   \
    T brt_ldexp(T x, T e) { return x * exp2(e); }
BRT_FLOAT_BUILTINS(float)
BRT_FLOAT_BUILTINS(vec2)
BRT_FLOAT_BUILTINS(vec3)
BRT_FLOAT_BUILTINS(vec4)
vec2 brt_fmod(vec2 x, float y) { return brt_fmod(x, vec2(y)); }
vec3 brt_fmod(vec3 x, float y) { return brt_fmod(x, vec3(y)); }
vec4 brt_fmod(vec4 x, float y) { return brt_fmod(x, vec4(y)); }

// asin and acos through atan, which drivers compute more accurately (llvmpipe's asin is off by
// 2e-4).
#define BRT_INVERSE_TRIG(T)                                                                      \
    T brt_asin(T x) { return atan(x, sqrt((1.0 - x) * (1.0 + x))); }                             \
    T brt_acos(T x) { return atan(sqrt((1.0 - x) * (1.0 + x)), x); }
BRT_INVERSE_TRIG(float)
BRT_INVERSE_TRIG(vec2)
BRT_INVERSE_TRIG(vec3)
BRT_INVERSE_TRIG(vec4)

// Integer division and remainder defined for every operand, as the CPU computes them
// (include/brook/vector.hpp, wrapping_div): a / 0 has every bit set, a % 0 = a, MIN / -1 = MIN
// and MIN % -1 = 0; otherwise C's results (the remainder has the sign of the dividend, where
// GLSL leaves negative operands undefined). The divisor is made safe before dividing, since a
// driver may evaluate both sides of ?: (llvmpipe's integer division of a lane by 0 is undefined).
int brt_idiv(int a, int b) {
    brt_check_division(a, b);
    int d = b == 0 || b == -1 ? 1 : b;
    return b == 0 ? -1 : b == -1 ? -a : a / d;
}
int brt_imod(int a, int b) {
    brt_check_division(a, b);
    int d = b == 0 || b == -1 ? 1 : b;
    return b == 0 ? a : a - d * (a / d);
}
uint brt_idiv(uint a, uint b) {
    brt_check_division(a, b);
    return b == 0u ? 0xFFFFFFFFu : a / max(b, 1u);
}
uint brt_imod(uint a, uint b) {
    brt_check_division(a, b);
    return b == 0u ? a : a % max(b, 1u);
}
#define BRT_INTEGER_DIVISION(T)                                                                  \
    T##2 brt_idiv(T##2 a, T##2 b) { return T##2(brt_idiv(a.x, b.x), brt_idiv(a.y, b.y)); }      \
    T##3 brt_idiv(T##3 a, T##3 b) { return T##3(brt_idiv(a.xy, b.xy), brt_idiv(a.z, b.z)); }    \
    T##4 brt_idiv(T##4 a, T##4 b) { return T##4(brt_idiv(a.xy, b.xy), brt_idiv(a.zw, b.zw)); }  \
    T##2 brt_imod(T##2 a, T##2 b) { return T##2(brt_imod(a.x, b.x), brt_imod(a.y, b.y)); }      \
    T##3 brt_imod(T##3 a, T##3 b) { return T##3(brt_imod(a.xy, b.xy), brt_imod(a.z, b.z)); }    \
    T##4 brt_imod(T##4 a, T##4 b) { return T##4(brt_imod(a.xy, b.xy), brt_imod(a.zw, b.zw)); }
BRT_INTEGER_DIVISION(ivec)
BRT_INTEGER_DIVISION(uvec)

// Cg's pack_4ubyte and unpack_4ubyte, as the CPU computes them: each component saturated to
// [0, 1] (NaN to 0), scaled by 255 and rounded half up to a byte, .x in the low byte, the 32
// bits read as a float; and back, each byte b as b / 255.
float brt_pack_4ubyte(vec4 v) {
    uvec4 b = uvec4(floor(mix(vec4(0.0), min(v, 1.0), greaterThan(v, vec4(0.0))) * 255.0 + 0.5));
    return uintBitsToFloat(b.x | (b.y << 8) | (b.z << 16) | (b.w << 24));
}
vec4 brt_unpack_4ubyte(float f) {
    uint u = floatBitsToUint(f);
    return vec4(uvec4(u, u >> 8, u >> 16, u >> 24) & 0xFFu) / 255.0;
}

// `x++` and `x--` on a fixed or shortfixed (a float here): the old value, with x stored back as
// C stores one, saturated to [0, 1] and rounded to a step of 1/steps (1/255, 1/65535).
#define BRT_FIXED_POST_STEP(T)                                                                   \
    T brt_fixed_post_step(inout T x, float step, float steps) {                                  \
        T old = x;                                                                               \
        x = floor(clamp(x + step, 0.0, 1.0) * steps + 0.5) / steps;                              \
        return old;                                                                              \
    }
BRT_FIXED_POST_STEP(float)
BRT_FIXED_POST_STEP(vec2)
BRT_FIXED_POST_STEP(vec3)
BRT_FIXED_POST_STEP(vec4)

// Cg's (and C++'s) min, max and clamp as selects: max(x, y) = x < y ? y : x, so a NaN in x comes
// out as NaN, as on the CPU. GLSL's own may return the other operand (llvmpipe does); `precise`
// keeps the driver from folding the selects back into them.
#define BRT_MIN_MAX(T, S)                                                                        \
    T brt_max(T x, T y) {                                                                        \
        precise T r = mix(x, y, lessThan(x, y));                                                 \
        return r;                                                                                \
    }                                                                                            \
    T brt_min(T x, T y) {                                                                        \
        precise T r = mix(x, y, lessThan(y, x));                                                 \
        return r;                                                                                \
    }                                                                                            \
    T brt_max(T x, S y) { return brt_max(x, T(y)); }                                             \
    T brt_min(T x, S y) { return brt_min(x, T(y)); }                                             \
    T brt_clamp(T x, T low, T high) { return brt_min(brt_max(x, low), high); }                   \
    T brt_clamp(T x, S low, S high) { return brt_min(brt_max(x, T(low)), T(high)); }
float brt_max(float x, float y) {
    precise float r = x < y ? y : x;
    return r;
}
float brt_min(float x, float y) {
    precise float r = y < x ? y : x;
    return r;
}
float brt_clamp(float x, float low, float high) { return brt_min(brt_max(x, low), high); }
BRT_MIN_MAX(vec2, float)
BRT_MIN_MAX(vec3, float)
BRT_MIN_MAX(vec4, float)

bool brt_isfinite(float x) { return !isinf(x) && !isnan(x); }
bvec2 brt_isfinite(vec2 x) { return not(brt_or(isinf(x), isnan(x))); }
bvec3 brt_isfinite(vec3 x) { return not(brt_or(isinf(x), isnan(x))); }
bvec4 brt_isfinite(vec4 x) { return not(brt_or(isinf(x), isnan(x))); }
