// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The few pieces of the standard library that vector.hpp and kernel_language.hpp use, in
// namespace brook::portable, so that those headers also compile under NVRTC, which has no
// standard headers at all. On the host they are the std ones (using-declarations: the same
// functions, so the CPU loops inline and vectorise exactly as with std::); under NVRTC they are
// defined here, and the math functions forward to CUDA's device math (floorf, sqrtf, ...), which
// NVRTC declares without any include.

#if defined(__CUDACC_RTC__)

namespace brook::portable {

using size_t = decltype(sizeof(0));

template <class Type, Type Value> struct integral_constant { static constexpr Type value = Value; };
using true_type = integral_constant<bool, true>;
using false_type = integral_constant<bool, false>;

template <class Type> struct type_identity { using type = Type; };
template <class Type> using type_identity_t = typename type_identity<Type>::type;

template <class First, class Second> inline constexpr bool is_same_v = false;
template <class First> inline constexpr bool is_same_v<First, First> = true;

template <class Type> struct remove_cv : type_identity<Type> {};
template <class Type> struct remove_cv<const Type> : type_identity<Type> {};
template <class Type> struct remove_cv<volatile Type> : type_identity<Type> {};
template <class Type> struct remove_cv<const volatile Type> : type_identity<Type> {};
template <class Type> struct remove_reference : type_identity<Type> {};
template <class Type> struct remove_reference<Type&> : type_identity<Type> {};
template <class Type> struct remove_reference<Type&&> : type_identity<Type> {};
template <class Type>
using remove_cvref_t = typename remove_cv<typename remove_reference<Type>::type>::type;

namespace detail {
template <class Type> inline constexpr bool integral = false;
template <> inline constexpr bool integral<bool> = true;
template <> inline constexpr bool integral<char> = true;
template <> inline constexpr bool integral<signed char> = true;
template <> inline constexpr bool integral<unsigned char> = true;
template <> inline constexpr bool integral<wchar_t> = true;
template <> inline constexpr bool integral<char8_t> = true;
template <> inline constexpr bool integral<char16_t> = true;
template <> inline constexpr bool integral<char32_t> = true;
template <> inline constexpr bool integral<short> = true;
template <> inline constexpr bool integral<unsigned short> = true;
template <> inline constexpr bool integral<int> = true;
template <> inline constexpr bool integral<unsigned int> = true;
template <> inline constexpr bool integral<long> = true;
template <> inline constexpr bool integral<unsigned long> = true;
template <> inline constexpr bool integral<long long> = true;
template <> inline constexpr bool integral<unsigned long long> = true;

template <class Type> inline constexpr bool floating_point = false;
template <> inline constexpr bool floating_point<float> = true;
template <> inline constexpr bool floating_point<double> = true;
template <> inline constexpr bool floating_point<long double> = true;

template <class Type> struct make_unsigned : type_identity<Type> {};
template <> struct make_unsigned<char> : type_identity<unsigned char> {};
template <> struct make_unsigned<signed char> : type_identity<unsigned char> {};
template <> struct make_unsigned<short> : type_identity<unsigned short> {};
template <> struct make_unsigned<int> : type_identity<unsigned int> {};
template <> struct make_unsigned<long> : type_identity<unsigned long> {};
template <> struct make_unsigned<long long> : type_identity<unsigned long long> {};
} // namespace detail

template <class Type>
inline constexpr bool is_integral_v = detail::integral<typename remove_cv<Type>::type>;
template <class Type>
inline constexpr bool is_floating_point_v = detail::floating_point<typename remove_cv<Type>::type>;
template <class Type>
inline constexpr bool is_arithmetic_v = is_integral_v<Type> || is_floating_point_v<Type>;
namespace detail {
template <class Type> constexpr bool is_signed() {
    if constexpr (is_arithmetic_v<Type>) {
        return Type(-1) < Type(0);
    } else {
        return false;
    }
}
} // namespace detail
template <class Type> inline constexpr bool is_signed_v = detail::is_signed<Type>();
/// Only for the integer types vec holds (enums and cv-qualified types never reach it).
template <class Type> using make_unsigned_t = typename detail::make_unsigned<Type>::type;

// The compiler's own traits, which the standard library's implementations use too.
template <class Type> inline constexpr bool is_standard_layout_v = __is_standard_layout(Type);
template <class Type> inline constexpr bool is_trivially_copyable_v = __is_trivially_copyable(Type);
template <class Type>
inline constexpr bool is_trivially_destructible_v = __is_trivially_destructible(Type);

template <size_t... Indices> struct index_sequence {};
namespace detail {
template <size_t Count, size_t... Indices>
struct make_index_sequence : make_index_sequence<Count - 1, Count - 1, Indices...> {};
template <size_t... Indices>
struct make_index_sequence<0, Indices...> : type_identity<index_sequence<Indices...>> {};
} // namespace detail
template <size_t Count>
using make_index_sequence = typename detail::make_index_sequence<Count>::type;

// The float overload is CUDA's single-precision function (sqrt on a float must not compute in
// double, as the host's std::sqrt(float) does not); the double one its double-precision one.
#define BROOK_PORTABLE_MATH1(name)                                                                 \
    inline float name(float v) {                                                                   \
        return ::name##f(v);                                                                       \
    }                                                                                              \
    inline double name(double v) {                                                                 \
        return ::name(v);                                                                          \
    }
#define BROOK_PORTABLE_MATH2(name)                                                                 \
    inline float name(float a, float b) {                                                          \
        return ::name##f(a, b);                                                                    \
    }                                                                                              \
    inline double name(double a, double b) {                                                       \
        return ::name(a, b);                                                                       \
    }
BROOK_PORTABLE_MATH1(acos)
BROOK_PORTABLE_MATH1(asin)
BROOK_PORTABLE_MATH1(atan)
BROOK_PORTABLE_MATH1(ceil)
BROOK_PORTABLE_MATH1(cos)
BROOK_PORTABLE_MATH1(cosh)
BROOK_PORTABLE_MATH1(exp)
BROOK_PORTABLE_MATH1(exp2)
BROOK_PORTABLE_MATH1(floor)
BROOK_PORTABLE_MATH1(log)
BROOK_PORTABLE_MATH1(log10)
BROOK_PORTABLE_MATH1(log2)
BROOK_PORTABLE_MATH1(round)
BROOK_PORTABLE_MATH1(sin)
BROOK_PORTABLE_MATH1(sinh)
BROOK_PORTABLE_MATH1(sqrt)
BROOK_PORTABLE_MATH1(tan)
BROOK_PORTABLE_MATH1(tanh)
BROOK_PORTABLE_MATH2(atan2)
BROOK_PORTABLE_MATH2(fmod)
BROOK_PORTABLE_MATH2(pow)
#undef BROOK_PORTABLE_MATH1
#undef BROOK_PORTABLE_MATH2

// CUDA declares these as overloads for float and double.
template <class Type> bool isfinite(Type v) {
    return ::isfinite(v);
}
template <class Type> bool isinf(Type v) {
    return ::isinf(v);
}
template <class Type> bool isnan(Type v) {
    return ::isnan(v);
}

/// A float's 32 bits as an unsigned int and back (CUDA's intrinsics).
inline unsigned float_as_uint(float value) {
    return __float_as_uint(value);
}
inline float uint_as_float(unsigned bits) {
    return __uint_as_float(bits);
}

} // namespace brook::portable

#else

#include <bit>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace brook::portable {

using std::false_type;
using std::index_sequence;
using std::integral_constant;
using std::is_arithmetic_v;
using std::is_floating_point_v;
using std::is_integral_v;
using std::is_same_v;
using std::is_signed_v;
using std::is_standard_layout_v;
using std::is_trivially_copyable_v;
using std::is_trivially_destructible_v;
using std::make_index_sequence;
using std::make_unsigned_t;
using std::remove_cvref_t;
using std::size_t;
using std::true_type;
using std::type_identity_t;

using std::acos;
using std::asin;
using std::atan;
using std::atan2;
using std::ceil;
using std::cos;
using std::cosh;
using std::exp;
using std::exp2;
using std::floor;
using std::fmod;
using std::isfinite;
using std::isinf;
using std::isnan;
using std::log;
using std::log10;
using std::log2;
using std::pow;
using std::round;
using std::sin;
using std::sinh;
using std::sqrt;
using std::tan;
using std::tanh;

/// A float's 32 bits as an unsigned int and back.
inline unsigned float_as_uint(float value) {
    return std::bit_cast<unsigned>(value);
}
inline float uint_as_float(unsigned bits) {
    return std::bit_cast<float>(bits);
}

} // namespace brook::portable

#endif

// Forces a function inline in host code (GCC and Clang). NVRTC does not know the attribute and
// warns of it, and inlines such small device functions anyway.
#if defined(__CUDACC_RTC__)
#define BROOK_ALWAYS_INLINE
#else
#define BROOK_ALWAYS_INLINE [[gnu::always_inline]]
#endif
