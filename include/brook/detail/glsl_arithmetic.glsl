// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The GLSL that every kernel shader of brcc's relies on, whatever its backend: Cg's built-ins and
// C's arithmetic as the CPU computes them, Brook's resizing and gather index rules. The gl
// backend appends it to its prelude (runtime/backends/gl/prelude.glsl); brcc puts it into each
// vulkan compute shader (compiler/codegen/vulkan). Before it, the shader defines
// brt_check_division(a, b) (BRT_CHECK=1's division checks, or nothing) and the int
// brt_frame_count (the call's element count, which brt_opaque uses).

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
