// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The arithmetic prelude's helpers (glsl_arithmetic.glsl) for double and double2 (dvec2),
// Brook+'s double types, with the same definitions, and the conversions of the gl backend's
// storage (two 32-bit words per component, low word first, in 32UI textures and uvec uniforms).
// brcc puts this file, which follows glsl_arithmetic.glsl, before the GLSL of kernels that use
// doubles only: a double anywhere in a vulkan module makes it need the device's shaderFloat64.
// GLSL has no double sin, exp, log, pow...: brcc refuses those before this file would be needed
// (compiler/codegen/double_use.hpp).

#define BRT_DOUBLE_BUILTINS(T)                                                                   \
    T brt_fmod(T x, T y) {                                                                       \
        T divisor = brt_opaque(y); /* 0 * inf is NaN, not the 0 a compiler folds it to */        \
        return x - divisor * trunc(x / divisor);                                                 \
    }                                                                                            \
    T brt_round(T x) { return sign(x) * floor(abs(x) + 0.5lf); }
// The sign bit flipped as brt_opaque flips a float's (the high word's bit 31).
double brt_opaque(double v) {
    uvec2 words = unpackDouble2x32(v);
    return packDouble2x32(uvec2(words.x, words.y ^ brt_opaque_bits()));
}
dvec2 brt_opaque(dvec2 v) { return dvec2(brt_opaque(v.x), brt_opaque(v.y)); }
BRT_DOUBLE_BUILTINS(double)
BRT_DOUBLE_BUILTINS(dvec2)
dvec2 brt_fmod(dvec2 x, double y) { return brt_fmod(x, dvec2(y)); }

bool brt_truth(double v) { return v != 0.0lf; }
bvec2 brt_truth(dvec2 v) { return notEqual(v, dvec2(0.0lf)); }

double brt_max(double x, double y) {
    precise double r = x < y ? y : x;
    return r;
}
double brt_min(double x, double y) {
    precise double r = y < x ? y : x;
    return r;
}
double brt_clamp(double x, double low, double high) { return brt_min(brt_max(x, low), high); }
BRT_MIN_MAX(dvec2, double)

bool brt_isfinite(double x) { return !isinf(x) && !isnan(x); }
bvec2 brt_isfinite(dvec2 x) { return not(brt_or(isinf(x), isnan(x))); }

double brt_double_of(uvec2 words) { return packDouble2x32(words); }
dvec2 brt_double_of(uvec4 words) {
    return dvec2(packDouble2x32(words.xy), packDouble2x32(words.zw));
}
uvec4 brt_words_of(double v) { return uvec4(unpackDouble2x32(v), 0u, 0u); }
uvec4 brt_words_of(dvec2 v) { return uvec4(unpackDouble2x32(v.x), unpackDouble2x32(v.y)); }
