// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The arithmetic prelude's helpers (glsl_arithmetic.glsl) for double and double2 (dvec2),
// Brook+'s double types, with the same definitions, and the conversions of the gl backend's
// storage (two 32-bit words per component, low word first, in 32UI textures and uvec uniforms).
// brcc puts this file, which follows glsl_arithmetic.glsl, before the GLSL of kernels that use
// doubles only: a double anywhere in a vulkan module makes it need the device's shaderFloat64.
// GLSL has no double sin, exp, log, pow..., which this file then defines (brt_sin...), and
// brcc's GLSL calls for doubles (compiler/codegen/double_use.hpp, glsl_lacks_double).

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

// The built-ins GLSL has only for floats, in double, as C's libm computes them to within a few
// units in the last place (the CPU's std:: functions are the reference): range reduction by
// Cody and Waite's split constants, then Taylor polynomials short enough on the reduced range
// that their truncation is below double's rounding.
double brt_double_bits(uint high) { return packDouble2x32(uvec2(0u, high)); }
const double brt_ln2_hi = 6.93147180369123816490e-01lf; // ln 2's first 32 bits
const double brt_ln2_lo = 1.90821492927058770002e-10lf; // and the rest
const double brt_pio2_1 = 1.57079632673412561417e+00lf; // pi / 2's first 33 bits
const double brt_pio2_2 = 6.07710050630396597660e-11lf; // its next 33
const double brt_pio2_3 = 2.02226624871116645580e-21lf; // and the rest
const double brt_pio2 = 1.5707963267948966lf;
const double brt_pio2_lo = 6.123233995736766e-17lf; // pi / 2 - brt_pio2
const double brt_pi = 3.1415926535897931lf;
const double brt_pi_lo = 1.2246467991473532e-16lf; // pi - brt_pi

// x * 2^k for |k| up to 2100, in two steps so that neither overflows or underflows early.
double brt_scale(double x, int k) { return ldexp(ldexp(x, k / 2), k - k / 2); }

// e^r for |r| <= ln 2 / 2: 1/n! to n = 13.
double brt_exp_reduced(double r) {
    const double c[14] = double[](1.0lf, 1.0lf, 0.5lf, 0.16666666666666666lf,
        0.041666666666666664lf, 0.0083333333333333332lf, 0.0013888888888888889lf,
        0.00019841269841269841lf, 2.4801587301587302e-05lf, 2.7557319223985893e-06lf,
        2.7557319223985888e-07lf, 2.505210838544172e-08lf, 2.08767569878681e-09lf,
        1.6059043836821613e-10lf);
    double p = c[13];
    for (int i = 12; i >= 0; --i)
        p = p * r + c[i];
    return p;
}
double brt_exp(double x) {
    if (isnan(x))
        return x;
    if (x > 709.79lf)
        return brt_double_bits(0x7ff00000u);
    if (x < -745.2lf)
        return 0.0lf;
    double k = floor(x * 1.4426950408889634lf + 0.5lf);
    return brt_scale(brt_exp_reduced((x - k * brt_ln2_hi) - k * brt_ln2_lo), int(k));
}
double brt_exp2(double x) {
    if (isnan(x))
        return x;
    if (x > 1024.5lf)
        return brt_double_bits(0x7ff00000u);
    if (x < -1075.5lf)
        return 0.0lf;
    double k = floor(x + 0.5lf);
    double f = x - k; // exact
    return brt_scale(brt_exp_reduced(f * brt_ln2_hi + f * brt_ln2_lo), int(k));
}

// ln m for m in [sqrt(1/2), sqrt(2)): 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172.
double brt_log_reduced(double m) {
    const double c[12] = double[](1.0lf, 0.33333333333333331lf, 0.20000000000000001lf,
        0.14285714285714285lf, 0.1111111111111111lf, 0.090909090909090912lf,
        0.076923076923076927lf, 0.066666666666666666lf, 0.058823529411764705lf,
        0.052631578947368418lf, 0.047619047619047616lf, 0.043478260869565216lf);
    double s = (m - 1.0lf) / (m + 1.0lf);
    double z = s * s;
    double p = c[11];
    for (int i = 10; i >= 0; --i)
        p = p * z + c[i];
    return 2.0lf * s * p;
}
// x = m 2^e with m in [sqrt(1/2), sqrt(2)); false (and x itself, or NaN, in `special`) for
// x <= 0, infinities and NaN.
bool brt_log_parts(double x, out double m, out int e, out double special) {
    special = x;
    if (isnan(x) || isinf(x) && x > 0.0lf)
        return false;
    if (x < 0.0lf) {
        special = brt_double_bits(0x7ff80000u);
        return false;
    }
    if (x == 0.0lf) {
        special = brt_double_bits(0xfff00000u);
        return false;
    }
    m = frexp(x, e);
    if (m < 0.70710678118654752lf) {
        m *= 2.0lf;
        e -= 1;
    }
    return true;
}
double brt_log(double x) {
    double m, special;
    int e;
    if (!brt_log_parts(x, m, e, special))
        return special;
    return double(e) * brt_ln2_hi + (brt_log_reduced(m) + double(e) * brt_ln2_lo);
}
double brt_log2(double x) {
    double m, special;
    int e;
    if (!brt_log_parts(x, m, e, special))
        return special;
    return double(e) + brt_log_reduced(m) * 1.4426950408889634lf;
}
double brt_log10(double x) { return brt_log(x) * 0.43429448190325176lf; }

double brt_pow(double x, double y) {
    if (y == 0.0lf || x == 1.0lf)
        return 1.0lf;
    if (isnan(x) || isnan(y))
        return x + y;
    bool integer = y == trunc(y);
    bool odd = integer && abs(y) < 9007199254740992.0lf && mod(y, 2.0lf) == 1.0lf;
    if (x == 0.0lf)
        return y > 0.0lf ? (odd ? x : 0.0lf)
                         : (odd && 1.0lf / x < 0.0lf ? brt_double_bits(0xfff00000u)
                                                     : brt_double_bits(0x7ff00000u));
    if (x < 0.0lf && !integer)
        return brt_double_bits(0x7ff80000u);
    double r = brt_exp(y * brt_log(abs(x)));
    return x < 0.0lf && odd ? -r : r;
}

// sin r and cos r for |r| <= pi / 4: Taylor to r^19 and r^20.
double brt_sin_reduced(double r) {
    const double c[10] = double[](1.0lf, -0.16666666666666666lf, 0.0083333333333333332lf,
        -0.00019841269841269841lf, 2.7557319223985893e-06lf, -2.505210838544172e-08lf,
        1.6059043836821613e-10lf, -7.6471637318198164e-13lf, 2.8114572543455206e-15lf,
        -8.2206352466243295e-18lf);
    double z = r * r;
    double p = c[9];
    for (int i = 8; i >= 0; --i)
        p = p * z + c[i];
    return r * p;
}
double brt_cos_reduced(double r) {
    const double c[11] = double[](1.0lf, -0.5lf, 0.041666666666666664lf,
        -0.0013888888888888889lf, 2.4801587301587302e-05lf, -2.7557319223985888e-07lf,
        2.08767569878681e-09lf, -1.1470745597729725e-11lf, 4.7794773323873853e-14lf,
        -1.5619206968586225e-16lf, 4.1103176233121648e-19lf);
    double z = r * r;
    double p = c[10];
    for (int i = 9; i >= 0; --i)
        p = p * z + c[i];
    return p;
}
// x = q pi / 2 + r, |r| <= pi / 4 (accurate while |x| is below about 2^20 pi / 2).
double brt_reduce_pio2(double x, out int q) {
    double k = floor(x * 0.63661977236758134lf + 0.5lf);
    q = int(mod(k, 4.0lf));
    return ((x - k * brt_pio2_1) - k * brt_pio2_2) - k * brt_pio2_3;
}
double brt_sin(double x) {
    if (isinf(x) || isnan(x))
        return x - x;
    int q;
    double r = brt_reduce_pio2(x, q);
    double v = (q & 1) == 0 ? brt_sin_reduced(r) : brt_cos_reduced(r);
    return q >= 2 ? -v : v;
}
double brt_cos(double x) {
    if (isinf(x) || isnan(x))
        return x - x;
    int q;
    double r = brt_reduce_pio2(x, q);
    double v = (q & 1) == 0 ? brt_cos_reduced(r) : brt_sin_reduced(r);
    return q == 1 || q == 2 ? -v : v;
}
double brt_tan(double x) {
    if (isinf(x) || isnan(x))
        return x - x;
    int q;
    double r = brt_reduce_pio2(x, q);
    double s = brt_sin_reduced(r);
    double c = brt_cos_reduced(r);
    return (q & 1) == 0 ? s / c : -c / s;
}

// atan a for a in [0, 1]: the angle halved twice (atan a = 2 atan(a / (1 + sqrt(1 + a^2)))),
// to at most tan(pi / 16), then Taylor to a^25.
double brt_atan_reduced(double a) {
    const double c[13] = double[](1.0lf, -0.33333333333333331lf, 0.20000000000000001lf,
        -0.14285714285714285lf, 0.1111111111111111lf, -0.090909090909090912lf,
        0.076923076923076927lf, -0.066666666666666666lf, 0.058823529411764705lf,
        -0.052631578947368418lf, 0.047619047619047616lf, -0.043478260869565216lf,
        0.040000000000000001lf);
    a = a / (1.0lf + sqrt(1.0lf + a * a));
    a = a / (1.0lf + sqrt(1.0lf + a * a));
    double z = a * a;
    double p = c[12];
    for (int i = 11; i >= 0; --i)
        p = p * z + c[i];
    return 4.0lf * a * p;
}
double brt_atan(double x) {
    if (isnan(x))
        return x;
    double a = abs(x);
    double r = a > 1.0lf ? (brt_pio2 - brt_atan_reduced(1.0lf / a)) + brt_pio2_lo
                         : brt_atan_reduced(a);
    return x < 0.0lf ? -r : r;
}
double brt_atan2(double y, double x) {
    if (isnan(x) || isnan(y))
        return x + y;
    bool negative_x = x < 0.0lf || x == 0.0lf && 1.0lf / x < 0.0lf;
    if (y == 0.0lf)
        return negative_x ? (1.0lf / y < 0.0lf ? -brt_pi : brt_pi) : y;
    if (x == 0.0lf)
        return y > 0.0lf ? brt_pio2 : -brt_pio2;
    double r = isinf(x) && isinf(y) ? 0.78539816339744828lf : brt_atan(abs(y / x));
    if (negative_x)
        r = (brt_pi - r) + brt_pi_lo;
    return y < 0.0lf ? -r : r;
}
double brt_asin(double x) { return brt_atan2(x, sqrt((1.0lf - x) * (1.0lf + x))); }
double brt_acos(double x) { return brt_atan2(sqrt((1.0lf - x) * (1.0lf + x)), x); }

// sinh for |x| < 0.5 by Taylor to x^17, where e^x - e^-x would cancel.
double brt_sinh_small(double x) {
    const double c[9] = double[](1.0lf, 0.16666666666666666lf, 0.0083333333333333332lf,
        0.00019841269841269841lf, 2.7557319223985893e-06lf, 2.505210838544172e-08lf,
        1.6059043836821613e-10lf, 7.6471637318198164e-13lf, 2.8114572543455206e-15lf);
    double z = x * x;
    double p = c[8];
    for (int i = 7; i >= 0; --i)
        p = p * z + c[i];
    return x * p;
}
double brt_sinh(double x) {
    if (abs(x) < 0.5lf)
        return brt_sinh_small(x);
    double e = brt_exp(abs(x));
    double r = 0.5lf * e - 0.5lf / e;
    return x < 0.0lf ? -r : r;
}
double brt_cosh(double x) {
    double e = brt_exp(abs(x));
    return 0.5lf * e + 0.5lf / e;
}
double brt_tanh(double x) {
    double a = abs(x);
    double r = a < 0.5lf  ? brt_sinh_small(a) / brt_cosh(a)
               : a > 22.0lf ? 1.0lf
                            : 1.0lf - 2.0lf / (brt_exp(2.0lf * a) + 1.0lf);
    if (isnan(x))
        return x;
    return x < 0.0lf ? -r : r;
}

double brt_ldexp(double x, double e) { return x * brt_exp2(e); }
double brt_radians(double x) { return x * 0.017453292519943295lf; }
double brt_degrees(double x) { return x * 57.295779513082323lf; }

#define BRT_DOUBLE2_UNARY(name)                                                                  \
    dvec2 name(dvec2 v) { return dvec2(name(v.x), name(v.y)); }
#define BRT_DOUBLE2_BINARY(name)                                                                 \
    dvec2 name(dvec2 a, dvec2 b) { return dvec2(name(a.x, b.x), name(a.y, b.y)); }
BRT_DOUBLE2_UNARY(brt_exp)
BRT_DOUBLE2_UNARY(brt_exp2)
BRT_DOUBLE2_UNARY(brt_log)
BRT_DOUBLE2_UNARY(brt_log2)
BRT_DOUBLE2_UNARY(brt_log10)
BRT_DOUBLE2_UNARY(brt_sin)
BRT_DOUBLE2_UNARY(brt_cos)
BRT_DOUBLE2_UNARY(brt_tan)
BRT_DOUBLE2_UNARY(brt_asin)
BRT_DOUBLE2_UNARY(brt_acos)
BRT_DOUBLE2_UNARY(brt_atan)
BRT_DOUBLE2_UNARY(brt_sinh)
BRT_DOUBLE2_UNARY(brt_cosh)
BRT_DOUBLE2_UNARY(brt_tanh)
BRT_DOUBLE2_UNARY(brt_radians)
BRT_DOUBLE2_UNARY(brt_degrees)
BRT_DOUBLE2_BINARY(brt_pow)
BRT_DOUBLE2_BINARY(brt_atan2)
BRT_DOUBLE2_BINARY(brt_ldexp)
