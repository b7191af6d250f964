// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Cg-style short vectors: `brook::vec<Scalar, Components>` for 2, 3 or 4 components x, y, z, w,
// the classes float2..4, double2, int2..4, uint2..4, char2..4, uchar2..4, short2..4 and
// ushort2..4 named after them, the aliases bool2..4, component-wise operators, and BrookGPU's
// fixed-point types: `fixed` and `shortfixed`, which read as floats in [0, 1], and host code's
// fixed2..4 and shortfixed2..4.
//
// Host code and the CPU code brcc generates share these types, so a vec is a plain struct of its
// components, no padding, alignof(Scalar), zero-initialised by default, and every operator is a
// small constexpr function over the named members that compilers inline and vectorise. Scalars
// broadcast on either side of a binary operator; the scalar parameter is not deduced
// (type_identity_t), so `float4 * 2` converts the 2 to float as Cg does. Comparisons give
// vec<bool, Components>; there is no conversion of a vector to bool, so host code cannot mistake
// `a == b` for "all equal".
//
// Integer arithmetic wraps around as in C on two's-complement machines, without relying on
// -fwrapv: signed + - * and negation are computed in the unsigned type (where overflow is
// defined) and converted back (modular since C++20); INT_MIN / -1 gives INT_MIN and INT_MIN % -1
// gives 0; shift counts are taken modulo the width of the promoted type, as x86 and GPUs do.
// Division by zero stays undefined, as in C. Byte types compute in int and wrap on the way back.
//
// Constructors:
//   vec()                     all components zero
//   vec(x, y[, z[, w]])       one Scalar per component (brace initialisation
//                             `float2 p = {2, 0};` uses it)
//   explicit vec(s)           every component s (broadcast)
//   explicit vec(vec<Other>)  component-wise static_cast from as many components of Other
//   vec(parts...)             Cg composite: scalars and vectors of any arithmetic type, as many
//                             components in all, e.g. float4(float3, float), float4(float2, float2)
//
// Template parameters have names of several letters: a user's `-DN=1024` or `-DT=float` must not
// break this header (tests/headers checks every single capital letter).

// The standard library's pieces come through brook::portable, so that this header also compiles
// under NVRTC (see kernel_language.hpp).
#include "brook/detail/portable_std.hpp"

namespace brook {

/// BrookGPU's fixed-point scalars: `fixed` is one unsigned byte x read as the float x / 255,
/// `shortfixed` an unsigned short x read as x / 65535. A float stored into one saturates to
/// [0, 1] and rounds to the nearest step (NaN stores 0); an integer is taken as the raw value
/// (`fixed f = (unsigned char)200;` reads as 200 / 255), as BrookGPU's host types did. Arithmetic
/// converts to float first, as on the GPUs where the types come from.
template <class Bits> struct basic_fixed {
    /// The largest raw value, which reads as 1.
    static constexpr float steps = static_cast<float>(static_cast<Bits>(~Bits{}));

    Bits x = 0; ///< the raw value, which reads as x / steps

    constexpr basic_fixed() = default;
    /// `value` saturated to [0, 1] and rounded to the nearest step.
    constexpr basic_fixed(float value) : x(encode(value)) {}
    /// The raw value `raw`, kept as it is.
    template <class Raw>
    requires portable::is_integral_v<Raw>
    constexpr basic_fixed(Raw raw) : x(static_cast<Bits>(raw)) {}
    /// The value read as a float, x / steps.
    constexpr operator float() const { return static_cast<float>(x) / steps; }
    /// Same raw value.
    friend constexpr bool operator==(basic_fixed, basic_fixed) = default;

    /// The raw value of `value` stored as this type.
    static constexpr Bits encode(float value) {
        // Written so that NaN takes the first branch.
        if (!(value > 0.0f)) {
            return 0;
        }
        if (value >= 1.0f) {
            return static_cast<Bits>(~Bits{});
        }
        return static_cast<Bits>(value * steps + 0.5f);
    }
};

using fixed = basic_fixed<unsigned char>;       ///< a byte read as [0, 1]
using shortfixed = basic_fixed<unsigned short>; ///< an unsigned short read as [0, 1]

using uint = unsigned int;     ///< Brook's `uint`
using uchar = unsigned char;   ///< Brook's `uchar`
using ushort = unsigned short; ///< Brook+'s `ushort`

template <class Scalar, int Components> struct vec;

namespace detail {

template <class Type> struct is_vec : portable::false_type {};
template <class Other, int OtherComponents>
struct is_vec<vec<Other, OtherComponents>> : portable::true_type {};

/// A scalar a vector may hold or be built from.
template <class Type>
concept vec_scalar = portable::is_arithmetic_v<Type>;
/// An element type that arithmetic is defined on (bool vectors only compare and combine).
template <class Scalar>
concept vec_arithmetic = portable::is_arithmetic_v<Scalar> && !portable::is_same_v<Scalar, bool>;
template <class Scalar>
concept vec_integral = portable::is_integral_v<Scalar> && !portable::is_same_v<Scalar, bool>;

template <class Type> struct part_size : portable::integral_constant<int, 1> {};
template <class Other, int OtherComponents>
struct part_size<vec<Other, OtherComponents>> : portable::integral_constant<int, OtherComponents> {
};

/// A piece of a composite constructor: a scalar or a vector.
template <class Type>
concept vec_part =
    vec_scalar<portable::remove_cvref_t<Type>> || is_vec<portable::remove_cvref_t<Type>>::value;

/// Collects the components of composite-constructor parts into out[0..Components).
template <class Scalar> struct part_writer {
    Scalar* out;
    int next = 0;

    template <class Type> constexpr void operator()(const Type& part) {
        if constexpr (is_vec<Type>::value) {
            for (int i = 0; i < part_size<Type>::value; ++i) {
                out[next++] = static_cast<Scalar>(part[i]);
            }
        } else {
            out[next++] = static_cast<Scalar>(part);
        }
    }
};

/// The component that index `i` selects among N: i itself, clamped to [0, N). A floating index
/// truncates toward zero first, as it did when operator[] took an int. operator[] takes any
/// arithmetic index type, so that it matches `v[0u]` exactly where int2..4's pointer conversion
/// would otherwise make the call ambiguous.
template <int Components, class Index> constexpr int component_index(Index i) {
    if constexpr (portable::is_floating_point_v<Index>) {
        const int k = static_cast<int>(i);
        return k < 0 ? 0 : k > Components - 1 ? Components - 1 : k;
    } else {
        return !(i > Index(0))              ? 0
               : i >= Index(Components - 1) ? Components - 1
                                            : static_cast<int>(i);
    }
}

/// BrookGPU's host int2..4 convert to `int*` (COMPAT.md 2.5): the components are consecutive
/// ints, x first. A base of every vec, empty: other element types have no such conversion.
template <class Derived, class Scalar> struct int_pointer {};
template <class Derived> struct int_pointer<Derived, int> {
    constexpr operator int*() { return &static_cast<Derived*>(this)->x; }
    constexpr operator const int*() const { return &static_cast<const Derived*>(this)->x; }
};

} // namespace detail

/// A vector of 2 components: `float2`, `int2` and the other 2-vectors.
template <class Scalar> struct vec<Scalar, 2> : detail::int_pointer<vec<Scalar, 2>, Scalar> {
    ///@{
    /// The components, `.x` first.
    Scalar x{}, y{};
    ///@}

    constexpr vec() = default;
    /// From each component, `.x` first.
    constexpr vec(Scalar x_, Scalar y_) : x(x_), y(y_) {}
    /// Every component `s`.
    template <detail::vec_scalar Other>
    constexpr explicit vec(Other s) : x(static_cast<Scalar>(s)), y(static_cast<Scalar>(s)) {}
    /// Each component of `v` converted.
    template <class Other>
    constexpr explicit vec(const vec<Other, 2>& v)
        : x(static_cast<Scalar>(v.x)), y(static_cast<Scalar>(v.y)) {}
    /// From scalars and smaller vectors whose components add up to 2: `float2(v, 1.0f)`.
    template <detail::vec_part... Parts>
    requires(sizeof...(Parts) >= 2 &&
             (detail::part_size<Parts>::value + ...) == 2) constexpr vec(const Parts&... parts) {
        Scalar c[2]{};
        detail::part_writer<Scalar> write{c};
        (write(parts), ...);
        x = c[0];
        y = c[1];
    }

    /// Component i; indices outside [0, N) clamp to the nearest component.
    ///@{
    template <detail::vec_scalar Index> constexpr Scalar& operator[](Index i) {
        return detail::component_index<2>(i) == 0 ? x : y;
    }
    template <detail::vec_scalar Index> constexpr const Scalar& operator[](Index i) const {
        return detail::component_index<2>(i) == 0 ? x : y;
    }
    ///@}
};

/// A vector of 3 components: `float3`, `int3` and the other 3-vectors.
template <class Scalar> struct vec<Scalar, 3> : detail::int_pointer<vec<Scalar, 3>, Scalar> {
    ///@{
    /// The components, `.x` first.
    Scalar x{}, y{}, z{};
    ///@}

    constexpr vec() = default;
    /// From each component, `.x` first.
    constexpr vec(Scalar x_, Scalar y_, Scalar z_) : x(x_), y(y_), z(z_) {}
    /// Every component `s`.
    template <detail::vec_scalar Other>
    constexpr explicit vec(Other s)
        : x(static_cast<Scalar>(s)), y(static_cast<Scalar>(s)), z(static_cast<Scalar>(s)) {}
    /// Each component of `v` converted.
    template <class Other>
    constexpr explicit vec(const vec<Other, 3>& v)
        : x(static_cast<Scalar>(v.x)), y(static_cast<Scalar>(v.y)), z(static_cast<Scalar>(v.z)) {}
    /// From scalars and smaller vectors whose components add up to 3: `float3(v, 1.0f)`.
    template <detail::vec_part... Parts>
    requires(sizeof...(Parts) >= 2 &&
             (detail::part_size<Parts>::value + ...) == 3) constexpr vec(const Parts&... parts) {
        Scalar c[3]{};
        detail::part_writer<Scalar> write{c};
        (write(parts), ...);
        x = c[0];
        y = c[1];
        z = c[2];
    }

    /// Component i; indices outside [0, N) clamp to the nearest component.
    ///@{
    template <detail::vec_scalar Index> constexpr Scalar& operator[](Index i) {
        const int k = detail::component_index<3>(i);
        return k == 0 ? x : k == 1 ? y : z;
    }
    template <detail::vec_scalar Index> constexpr const Scalar& operator[](Index i) const {
        const int k = detail::component_index<3>(i);
        return k == 0 ? x : k == 1 ? y : z;
    }
    ///@}
};

/// A vector of 4 components: `float4`, `int4` and the other 4-vectors.
template <class Scalar> struct vec<Scalar, 4> : detail::int_pointer<vec<Scalar, 4>, Scalar> {
    ///@{
    /// The components, `.x` first.
    Scalar x{}, y{}, z{}, w{};
    ///@}

    constexpr vec() = default;
    /// From each component, `.x` first.
    constexpr vec(Scalar x_, Scalar y_, Scalar z_, Scalar w_) : x(x_), y(y_), z(z_), w(w_) {}
    /// Every component `s`.
    template <detail::vec_scalar Other>
    constexpr explicit vec(Other s)
        : x(static_cast<Scalar>(s)), y(static_cast<Scalar>(s)), z(static_cast<Scalar>(s)),
          w(static_cast<Scalar>(s)) {}
    /// Each component of `v` converted.
    template <class Other>
    constexpr explicit vec(const vec<Other, 4>& v)
        : x(static_cast<Scalar>(v.x)), y(static_cast<Scalar>(v.y)), z(static_cast<Scalar>(v.z)),
          w(static_cast<Scalar>(v.w)) {}
    /// From scalars and smaller vectors whose components add up to 4: `float4(v, 1.0f)`.
    template <detail::vec_part... Parts>
    requires(sizeof...(Parts) >= 2 &&
             (detail::part_size<Parts>::value + ...) == 4) constexpr vec(const Parts&... parts) {
        Scalar c[4]{};
        detail::part_writer<Scalar> write{c};
        (write(parts), ...);
        x = c[0];
        y = c[1];
        z = c[2];
        w = c[3];
    }

    /// Component i; indices outside [0, N) clamp to the nearest component.
    ///@{
    template <detail::vec_scalar Index> constexpr Scalar& operator[](Index i) {
        const int k = detail::component_index<4>(i);
        return k == 0 ? x : k == 1 ? y : k == 2 ? z : w;
    }
    template <detail::vec_scalar Index> constexpr const Scalar& operator[](Index i) const {
        const int k = detail::component_index<4>(i);
        return k == 0 ? x : k == 1 ? y : k == 2 ? z : w;
    }
    ///@}
};

namespace detail {

/// vec<Result, Components>{f(a.x), f(a.y), ...}
template <class Result, class Scalar, int Components, class Function>
constexpr vec<Result, Components> map(const vec<Scalar, Components>& a, Function f) {
    if constexpr (Components == 2) {
        return vec<Result, 2>(static_cast<Result>(f(a.x)), static_cast<Result>(f(a.y)));
    } else if constexpr (Components == 3) {
        return vec<Result, 3>(static_cast<Result>(f(a.x)), static_cast<Result>(f(a.y)),
                              static_cast<Result>(f(a.z)));
    } else {
        return vec<Result, 4>(static_cast<Result>(f(a.x)), static_cast<Result>(f(a.y)),
                              static_cast<Result>(f(a.z)), static_cast<Result>(f(a.w)));
    }
}

/// vec<Result, Components>{f(a.x, b.x), f(a.y, b.y), ...}
template <class Result, class Scalar, int Components, class Function>
constexpr vec<Result, Components> zip(const vec<Scalar, Components>& a,
                                      const vec<Scalar, Components>& b, Function f) {
    if constexpr (Components == 2) {
        return vec<Result, 2>(static_cast<Result>(f(a.x, b.x)), static_cast<Result>(f(a.y, b.y)));
    } else if constexpr (Components == 3) {
        return vec<Result, 3>(static_cast<Result>(f(a.x, b.x)), static_cast<Result>(f(a.y, b.y)),
                              static_cast<Result>(f(a.z, b.z)));
    } else {
        return vec<Result, 4>(static_cast<Result>(f(a.x, b.x)), static_cast<Result>(f(a.y, b.y)),
                              static_cast<Result>(f(a.z, b.z)), static_cast<Result>(f(a.w, b.w)));
    }
}

template <class Scalar>
concept signed_integer = portable::is_integral_v<Scalar> && portable::is_signed_v<Scalar>;

/// a + b, a - b, a * b with C's wrap-around for signed integers (see the top of the file).
template <class Scalar> constexpr Scalar wrapping_add(Scalar a, Scalar b) {
    if constexpr (signed_integer<Scalar>) {
        using Unsigned = portable::make_unsigned_t<Scalar>;
        return static_cast<Scalar>(
            static_cast<Unsigned>(static_cast<Unsigned>(a) + static_cast<Unsigned>(b)));
    } else {
        return static_cast<Scalar>(a + b);
    }
}
template <class Scalar> constexpr Scalar wrapping_sub(Scalar a, Scalar b) {
    if constexpr (signed_integer<Scalar>) {
        using Unsigned = portable::make_unsigned_t<Scalar>;
        return static_cast<Scalar>(
            static_cast<Unsigned>(static_cast<Unsigned>(a) - static_cast<Unsigned>(b)));
    } else {
        return static_cast<Scalar>(a - b);
    }
}
template <class Scalar> constexpr Scalar wrapping_mul(Scalar a, Scalar b) {
    if constexpr (signed_integer<Scalar>) {
        using Unsigned = portable::make_unsigned_t<Scalar>;
        return static_cast<Scalar>(
            static_cast<Unsigned>(static_cast<Unsigned>(a) * static_cast<Unsigned>(b)));
    } else {
        return static_cast<Scalar>(a * b);
    }
}
#if !defined(__CUDACC_RTC__)
/// How many integer divisions and remainders by zero, and by -1 of the smallest value, this
/// thread has computed: BRT_CHECK=1 makes the cpu backend report the element where a count grows
/// (docs/language.md, "Integer division"). The counts are only ever increased on those paths,
/// so the common path pays nothing for them.
inline thread_local unsigned long zero_divisors = 0;
inline thread_local unsigned long division_overflows = 0;
#endif

#if defined(__CUDACC__) && defined(BROOK_CHECK)
/// BRT_CHECK=1 on the cuda backend, which then compiles kernels with -DBROOK_CHECK: the element
/// each thread of the block runs, and the call's record of its first fault (element * 2 + fault,
/// runtime/core/checks.hpp), both set by the generated code (device::check_element; a reduction
/// clears the record, device::check_nothing). A device has no thread-local variables, so the
/// element lives in shared memory, a slot per thread.
__shared__ unsigned long long checked_elements[1024];
__shared__ unsigned long long* division_record;

__device__ inline void record_division_fault(unsigned fault) {
    if (division_record != nullptr)
        atomicMin(division_record, checked_elements[threadIdx.x] * 2 + fault);
}
#endif

/// The smallest value of a signed integer type, the one whose negation overflows.
template <class Scalar> constexpr Scalar smallest_of() {
    using Unsigned = portable::make_unsigned_t<Scalar>;
    return static_cast<Scalar>(static_cast<Unsigned>(Unsigned(1) << (8 * sizeof(Scalar) - 1)));
}

/// Counts a zero divisor: on the host for the cpu backend, on a device under BROOK_CHECK.
inline void note_zero_divisor() {
#if defined(__CUDACC__) && defined(BROOK_CHECK)
    record_division_fault(0);
#elif !defined(__CUDACC_RTC__)
    ++zero_divisors;
#endif
}

/// Counts MIN / -1 or MIN % -1, as note_zero_divisor does a zero divisor.
inline void note_division_overflow() {
#if defined(__CUDACC__) && defined(BROOK_CHECK)
    record_division_fault(1);
#elif !defined(__CUDACC_RTC__)
    ++division_overflows;
#endif
}

/// a / b for integers, defined for every operand as RISC-V defines it: a / 0 has every bit set
/// (-1, or the largest unsigned value), and the one overflowing case, MIN / -1, wraps to MIN.
/// Floating point divides as IEEE 754 says.
template <class Scalar> constexpr Scalar wrapping_div(Scalar a, Scalar b) {
    if constexpr (portable::is_integral_v<Scalar>) {
        if (b == Scalar(0)) {
            note_zero_divisor();
            return static_cast<Scalar>(-1);
        }
    }
    if constexpr (signed_integer<Scalar>) {
        if (b == Scalar(-1)) {
            if (a == smallest_of<Scalar>())
                note_division_overflow();
            return wrapping_sub(Scalar(0), a);
        }
    }
    return static_cast<Scalar>(a / b);
}

/// C's % for integers, with a % 0 = a and MIN % -1 = 0 (so that (a / b) * b + a % b == a for
/// every a and b, as wrapping_div's results keep it); fmod for floating point (Cg's definition).
template <class Scalar> constexpr Scalar remainder_of(Scalar a, Scalar b) {
    if constexpr (portable::is_floating_point_v<Scalar>) {
        return portable::fmod(a, b);
    } else {
        if (b == Scalar(0)) {
            note_zero_divisor();
            return a;
        }
        if constexpr (signed_integer<Scalar>) {
            if (b == Scalar(-1)) {
                if (a == smallest_of<Scalar>())
                    note_division_overflow();
                return Scalar(0);
            }
        }
        return static_cast<Scalar>(a % b);
    }
}

/// A shift count taken modulo the width of the promoted left operand.
template <class Scalar> constexpr unsigned shift_count(Scalar count) {
    constexpr unsigned bits = sizeof(Scalar) > sizeof(int) ? 8 * sizeof(Scalar) : 8 * sizeof(int);
    return static_cast<unsigned>(count) & (bits - 1);
}
template <class Scalar> constexpr Scalar shift_left(Scalar a, Scalar count) {
    return static_cast<Scalar>(a << shift_count(count));
}
template <class Scalar> constexpr Scalar shift_right(Scalar a, Scalar count) {
    return static_cast<Scalar>(a >> shift_count(count));
}

} // namespace detail

// Binary operators: vec op vec, vec op scalar, scalar op vec, and the compound assignment.
#define BROOK_VEC_BINARY(op, concept_name, expr)                                                   \
    template <class Scalar, int Components>                                                        \
    requires detail::concept_name<Scalar> BROOK_ALWAYS_INLINE constexpr vec<Scalar, Components>    \
    operator op(const vec<Scalar, Components>& a, const vec<Scalar, Components>& b) {              \
        return detail::zip<Scalar>(a, b, [](Scalar l, Scalar r) { return expr; });                 \
    }                                                                                              \
    template <class Scalar, int Components>                                                        \
    requires detail::concept_name<Scalar> BROOK_ALWAYS_INLINE constexpr vec<Scalar, Components>    \
    operator op(const vec<Scalar, Components>& a, portable::type_identity_t<Scalar> s) {           \
        return a op vec<Scalar, Components>(s);                                                    \
    }                                                                                              \
    template <class Scalar, int Components>                                                        \
    requires detail::concept_name<Scalar> BROOK_ALWAYS_INLINE constexpr vec<Scalar, Components>    \
    operator op(portable::type_identity_t<Scalar> s, const vec<Scalar, Components>& b) {           \
        return vec<Scalar, Components>(s) op b;                                                    \
    }                                                                                              \
    template <class Scalar, int Components>                                                        \
    requires detail::concept_name<Scalar> BROOK_ALWAYS_INLINE constexpr vec<Scalar, Components>&   \
    operator op##=(vec<Scalar, Components>& a, const vec<Scalar, Components>& b) {                 \
        return a = a op b;                                                                         \
    }                                                                                              \
    template <class Scalar, int Components>                                                        \
    requires detail::concept_name<Scalar> BROOK_ALWAYS_INLINE constexpr vec<Scalar, Components>&   \
    operator op##=(vec<Scalar, Components>& a, portable::type_identity_t<Scalar> s) {              \
        return a = a op vec<Scalar, Components>(s);                                                \
    }

BROOK_VEC_BINARY(+, vec_arithmetic, detail::wrapping_add(l, r))
BROOK_VEC_BINARY(-, vec_arithmetic, detail::wrapping_sub(l, r))
BROOK_VEC_BINARY(*, vec_arithmetic, detail::wrapping_mul(l, r))
BROOK_VEC_BINARY(/, vec_arithmetic, detail::wrapping_div(l, r))
BROOK_VEC_BINARY(%, vec_arithmetic, detail::remainder_of(l, r))
BROOK_VEC_BINARY(&, vec_integral, l& r)
BROOK_VEC_BINARY(|, vec_integral, l | r)
BROOK_VEC_BINARY(^, vec_integral, l ^ r)
BROOK_VEC_BINARY(<<, vec_integral, detail::shift_left(l, r))
BROOK_VEC_BINARY(>>, vec_integral, detail::shift_right(l, r))
#undef BROOK_VEC_BINARY

// Comparisons give a bool per component; scalars broadcast.
#define BROOK_VEC_COMPARE(op)                                                                      \
    template <class Scalar, int Components>                                                        \
    BROOK_ALWAYS_INLINE constexpr vec<bool, Components> operator op(                               \
        const vec<Scalar, Components>& a, const vec<Scalar, Components>& b) {                      \
        return detail::zip<bool>(a, b, [](Scalar l, Scalar r) { return l op r; });                 \
    }                                                                                              \
    template <class Scalar, int Components>                                                        \
    BROOK_ALWAYS_INLINE constexpr vec<bool, Components> operator op(                               \
        const vec<Scalar, Components>& a, portable::type_identity_t<Scalar> s) {                   \
        return a op vec<Scalar, Components>(s);                                                    \
    }                                                                                              \
    template <class Scalar, int Components>                                                        \
    BROOK_ALWAYS_INLINE constexpr vec<bool, Components> operator op(                               \
        portable::type_identity_t<Scalar> s, const vec<Scalar, Components>& b) {                   \
        return vec<Scalar, Components>(s) op b;                                                    \
    }

BROOK_VEC_COMPARE(<)
BROOK_VEC_COMPARE(>)
BROOK_VEC_COMPARE(<=)
BROOK_VEC_COMPARE(>=)
BROOK_VEC_COMPARE(==)
BROOK_VEC_COMPARE(!=)
#undef BROOK_VEC_COMPARE

/// Unary plus, minus (integers wrap), bitwise not (integer vectors) and logical not (bool
/// vectors), component by component.
///@{
template <class Scalar, int Components>
requires detail::vec_arithmetic<Scalar> BROOK_ALWAYS_INLINE constexpr vec<Scalar, Components>
operator+(const vec<Scalar, Components>& a) {
    return a;
}

template <class Scalar, int Components>
requires detail::vec_arithmetic<Scalar> BROOK_ALWAYS_INLINE constexpr vec<Scalar, Components>
operator-(const vec<Scalar, Components>& a) {
    return detail::map<Scalar>(a, [](Scalar v) { return detail::wrapping_sub(Scalar{}, v); });
}

template <class Scalar, int Components>
requires detail::vec_integral<Scalar> BROOK_ALWAYS_INLINE constexpr vec<Scalar, Components>
operator~(const vec<Scalar, Components>& a) {
    return detail::map<Scalar>(a, [](Scalar v) { return ~v; });
}

template <int Components>
BROOK_ALWAYS_INLINE constexpr vec<bool, Components> operator!(const vec<bool, Components>& a) {
    return detail::map<bool>(a, [](bool v) { return !v; });
}
///@}

namespace detail {
/// The members of host code's fixed2..4 and shortfixed2..4: N raw values, named as BrookGPU named
/// them.
template <class Bits, int Components> struct fixed_members;
template <class Bits> struct fixed_members<Bits, 2> { Bits x = 0, y = 0; };
template <class Bits> struct fixed_members<Bits, 3> { Bits x = 0, y = 0, z = 0; };
template <class Bits> struct fixed_members<Bits, 4> { Bits x = 0, y = 0, z = 0, w = 0; };
} // namespace detail

/// Host code's fixed2..4 and shortfixed2..4, laid out as BrookGPU's: N raw values x, y[, z, w]
/// (`printf("%u", f.x)` prints the byte). Built from N integers they keep them as raw values,
/// from N floats (or the 4-float form, whose first N count) they saturate and round as
/// basic_fixed does; they convert to and from the float vectors (x / 255 per component).
/// Kernels keep their elements as vec<basic_fixed<Bits>, N>, which has the same bytes.
template <class Bits, int Components>
struct fixed_vector : detail::fixed_members<Bits, Components> {
    constexpr fixed_vector() = default;
    /// From N integers, kept as the raw values.
    template <class... Raw>
    requires(sizeof...(Raw) == Components &&
             (portable::is_integral_v<Raw> && ...)) constexpr fixed_vector(Raw... raw) {
        const Bits given[] = {static_cast<Bits>(raw)...};
        assign(given);
    }
    /// From N floats (or 4, whose first N count), each saturated and rounded.
    template <class... Values>
    requires((sizeof...(Values) == Components || sizeof...(Values) == 4) &&
             (portable::is_floating_point_v<Values> &&
              ...)) constexpr fixed_vector(Values... values) {
        const float given[] = {static_cast<float>(values)...};
        Bits raw[Components]{};
        for (int i = 0; i < Components; ++i) {
            raw[i] = basic_fixed<Bits>::encode(given[i]);
        }
        assign(raw);
    }
    /// From a float vector, each component saturated and rounded.
    constexpr explicit fixed_vector(const vec<float, Components>& values) {
        Bits raw[Components]{};
        for (int i = 0; i < Components; ++i) {
            raw[i] = basic_fixed<Bits>::encode(values[i]);
        }
        assign(raw);
    }
    /// The values read as floats, raw / 255 (or / 65535) per component.
    constexpr operator vec<float, Components>() const {
        const auto read = [](Bits b) { return static_cast<float>(b) / basic_fixed<Bits>::steps; };
        if constexpr (Components == 2) {
            return {read(this->x), read(this->y)};
        } else if constexpr (Components == 3) {
            return {read(this->x), read(this->y), read(this->z)};
        } else {
            return {read(this->x), read(this->y), read(this->z), read(this->w)};
        }
    }

private:
    constexpr void assign(const Bits (&raw)[Components]) {
        this->x = raw[0];
        this->y = raw[1];
        if constexpr (Components > 2) {
            this->z = raw[2];
        }
        if constexpr (Components > 3) {
            this->w = raw[3];
        }
    }
};

namespace detail {

/// What each named vector class (float4, int2, ...) adds to its brook::vec, as Brook+'s host
/// vectors had it (BROOKPLUS.md §1.3):
///   float4(1, 2)   fewer scalars than components: the missing ones are 0 (one scalar still
///                  broadcasts, explicitly, as brook::vec does)
///   float* p = v;  every type but double2 converts to a pointer to its first component
/// `brook_host_vector_base` names the vec, for the composite constructors and element_traits,
/// which look through it.
template <class Scalar, int Components> struct named_vec : vec<Scalar, Components> {
    using brook_host_vector_base = vec<Scalar, Components>;
    using brook_host_vector_base::brook_host_vector_base;

    constexpr named_vec() = default;
    /// The value of a vector expression: `float4 c = a + b;` (operators give a brook::vec).
    constexpr named_vec(const brook_host_vector_base& v) // NOLINT(google-explicit-constructor)
        : brook_host_vector_base(v) {}
    /// A fixed vector's values read as floats (BrookGPU's `float4 f = fixed4_value;`).
    template <class Bits>
    constexpr named_vec(
        const fixed_vector<Bits, Components>& v) // NOLINT(google-explicit-constructor)
        requires portable::is_same_v<Scalar, float>
        : brook_host_vector_base(static_cast<brook_host_vector_base>(v)) {}
    /// The first two components; the rest are 0.
    constexpr named_vec(Scalar x_, Scalar y_) requires(Components > 2) {
        this->x = x_;
        this->y = y_;
    }
    /// The first three components; the fourth is 0.
    constexpr named_vec(Scalar x_, Scalar y_, Scalar z_) requires(Components > 3) {
        this->x = x_;
        this->y = y_;
        this->z = z_;
    }

    /// The components as an array, `.x` first.
    ///@{
    constexpr operator Scalar*() // NOLINT(google-explicit-constructor)
        requires(!portable::is_same_v<Scalar, double>) {
        return &this->x;
    }
    constexpr operator const Scalar*() const // NOLINT(google-explicit-constructor)
        requires(!portable::is_same_v<Scalar, double>) {
        return &this->x;
    }
    ///@}
};

/// A named vector counts as its vec in the composite constructors: `float4(a2, b2)`.
template <class Type>
requires requires {
    typename Type::brook_host_vector_base;
}
struct is_vec<Type> : portable::true_type {};
template <class Type>
requires requires {
    typename Type::brook_host_vector_base;
}
struct part_size<Type> : part_size<typename Type::brook_host_vector_base> {};

} // namespace detail

// The vector types by name. Each is a class, not an alias of its vec, so that C spellings work
// on them in host code (`struct float4* p`, as Brook+'s VectorDataType.h had them); the vec
// they derive from is what operators take and give, and what brcc writes in kernels.
#define BROOK_NAMED_VECTOR(Name, Scalar, Components)                                               \
    struct Name : detail::named_vec<Scalar, Components> {                                          \
        using named_vec::named_vec;                                                                \
    };
BROOK_NAMED_VECTOR(float2, float, 2)
BROOK_NAMED_VECTOR(float3, float, 3)
BROOK_NAMED_VECTOR(float4, float, 4)
BROOK_NAMED_VECTOR(double2, double, 2)
BROOK_NAMED_VECTOR(int2, int, 2)
BROOK_NAMED_VECTOR(int3, int, 3)
BROOK_NAMED_VECTOR(int4, int, 4)
BROOK_NAMED_VECTOR(uint2, unsigned int, 2)
BROOK_NAMED_VECTOR(uint3, unsigned int, 3)
BROOK_NAMED_VECTOR(uint4, unsigned int, 4)
// Brook+'s char is signed whatever the signedness of C++'s plain char.
BROOK_NAMED_VECTOR(char2, signed char, 2)
BROOK_NAMED_VECTOR(char3, signed char, 3)
BROOK_NAMED_VECTOR(char4, signed char, 4)
BROOK_NAMED_VECTOR(uchar2, unsigned char, 2)
BROOK_NAMED_VECTOR(uchar3, unsigned char, 3)
BROOK_NAMED_VECTOR(uchar4, unsigned char, 4)
BROOK_NAMED_VECTOR(short2, short, 2)
BROOK_NAMED_VECTOR(short3, short, 3)
BROOK_NAMED_VECTOR(short4, short, 4)
BROOK_NAMED_VECTOR(ushort2, unsigned short, 2)
BROOK_NAMED_VECTOR(ushort3, unsigned short, 3)
BROOK_NAMED_VECTOR(ushort4, unsigned short, 4)
#undef BROOK_NAMED_VECTOR
using fixed2 = fixed_vector<unsigned char, 2>;       ///< 2 bytes read as [0, 1]
using fixed3 = fixed_vector<unsigned char, 3>;       ///< 3 bytes read as [0, 1]
using fixed4 = fixed_vector<unsigned char, 4>;       ///< 4 bytes read as [0, 1]
using shortfixed2 = fixed_vector<unsigned short, 2>; ///< 2 unsigned shorts read as [0, 1]
using shortfixed3 = fixed_vector<unsigned short, 3>; ///< 3 unsigned shorts read as [0, 1]
using shortfixed4 = fixed_vector<unsigned short, 4>; ///< 4 unsigned shorts read as [0, 1]
using bool2 = vec<bool, 2>;                          ///< 2 bools, what comparisons give
using bool3 = vec<bool, 3>;                          ///< 3 bools
using bool4 = vec<bool, 4>;                          ///< 4 bools

static_assert(sizeof(float4) == 4 * sizeof(float) && alignof(float4) == alignof(float));
static_assert(sizeof(float3) == 3 * sizeof(float) && portable::is_standard_layout_v<float3>);
static_assert(portable::is_trivially_copyable_v<float4> &&
              portable::is_trivially_destructible_v<int2>);
static_assert(sizeof(fixed3) == 3 && sizeof(uchar3) == 3 && sizeof(vec<fixed, 3>) == 3 &&
              portable::is_trivially_copyable_v<fixed4>);
static_assert(sizeof(shortfixed3) == 6 && sizeof(vec<shortfixed, 3>) == 6);
static_assert(sizeof(double2) == 2 * sizeof(double) && sizeof(short3) == 3 * sizeof(short) &&
              portable::is_standard_layout_v<float4>);

} // namespace brook
