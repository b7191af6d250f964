#pragma once
// Cg-style short vectors: `brook::vec<T, N>` for N = 2, 3, 4 with members x, y, z, w, the aliases
// float2..4, int2..4, uint2..4, char2..4, uchar2..4 and bool2..4, component-wise operators, and
// BrookGPU's fixed-point types: `fixed` and `shortfixed`, which read as floats in [0, 1], and host
// code's fixed2..4 and shortfixed2..4.
//
// Host code and the CPU code brcc generates share these types, so a vec is a plain struct: N
// members of T, no padding, alignof(T), zero-initialised by default, and every operator is a small
// constexpr function over the named members that compilers inline and vectorise. Scalars broadcast
// on either side of a binary operator; the scalar parameter is not deduced (type_identity_t),
// so `float4 * 2` converts the 2 to float as Cg does. Comparisons give vec<bool, N>; there is no
// conversion of a vector to bool, so host code cannot mistake `a == b` for "all equal".
//
// Integer arithmetic wraps around as in C on two's-complement machines, without relying on
// -fwrapv: signed + - * and negation are computed in the unsigned type (where overflow is
// defined) and converted back (modular since C++20); INT_MIN / -1 gives INT_MIN and INT_MIN % -1
// gives 0; shift counts are taken modulo the width of the promoted type, as x86 and GPUs do.
// Division by zero stays undefined, as in C. Byte types compute in int and wrap on the way back.
//
// Constructors:
//   vec()                     all components zero
//   vec(x, y[, z[, w]])       N values of T (brace initialisation `float2 p = {2, 0};` uses it)
//   explicit vec(s)           every component s (broadcast)
//   explicit vec(vec<U, N>)   component-wise static_cast
//   vec(parts...)             Cg composite: scalars and vectors of any arithmetic type, N
//                             components in all, e.g. float4(float3, float), float4(float2, float2)

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

    Bits x = 0;

    constexpr basic_fixed() = default;
    constexpr basic_fixed(float value) : x(encode(value)) {}
    template <class Raw>
    requires portable::is_integral_v<Raw>
    constexpr basic_fixed(Raw raw) : x(static_cast<Bits>(raw)) {}
    constexpr operator float() const { return static_cast<float>(x) / steps; }
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

using fixed = basic_fixed<unsigned char>;
using shortfixed = basic_fixed<unsigned short>;

using uint = unsigned int;
using uchar = unsigned char;

template <class T, int N> struct vec;

namespace detail {

template <class X> struct is_vec : portable::false_type {};
template <class U, int M> struct is_vec<vec<U, M>> : portable::true_type {};

/// A scalar a vector may hold or be built from.
template <class X>
concept vec_scalar = portable::is_arithmetic_v<X>;
/// An element type that arithmetic is defined on (bool vectors only compare and combine).
template <class T>
concept vec_arithmetic = portable::is_arithmetic_v<T> && !portable::is_same_v<T, bool>;
template <class T>
concept vec_integral = portable::is_integral_v<T> && !portable::is_same_v<T, bool>;

template <class X> struct part_size : portable::integral_constant<int, 1> {};
template <class U, int M> struct part_size<vec<U, M>> : portable::integral_constant<int, M> {};

/// A piece of a composite constructor: a scalar or a vector.
template <class X>
concept vec_part =
    vec_scalar<portable::remove_cvref_t<X>> || is_vec<portable::remove_cvref_t<X>>::value;

/// Collects the components of composite-constructor parts into out[0..N).
template <class T> struct part_writer {
    T* out;
    int next = 0;

    template <class X> constexpr void operator()(const X& part) {
        if constexpr (is_vec<X>::value) {
            for (int i = 0; i < part_size<X>::value; ++i) {
                out[next++] = static_cast<T>(part[i]);
            }
        } else {
            out[next++] = static_cast<T>(part);
        }
    }
};

/// The component that index `i` selects among N: i itself, clamped to [0, N). A floating index
/// truncates toward zero first, as it did when operator[] took an int. operator[] takes any
/// arithmetic index type, so that it matches `v[0u]` exactly where int2..4's pointer conversion
/// would otherwise make the call ambiguous.
template <int N, class I> constexpr int component_index(I i) {
    if constexpr (portable::is_floating_point_v<I>) {
        const int k = static_cast<int>(i);
        return k < 0 ? 0 : k > N - 1 ? N - 1 : k;
    } else {
        return !(i > I(0)) ? 0 : i >= I(N - 1) ? N - 1 : static_cast<int>(i);
    }
}

/// BrookGPU's host int2..4 convert to `int*` (COMPAT.md 2.5): the components are consecutive
/// ints, x first. A base of every vec, empty: other element types have no such conversion.
template <class V, class T> struct int_pointer {};
template <class V> struct int_pointer<V, int> {
    constexpr operator int*() { return &static_cast<V*>(this)->x; }
    constexpr operator const int*() const { return &static_cast<const V*>(this)->x; }
};

} // namespace detail

template <class T> struct vec<T, 2> : detail::int_pointer<vec<T, 2>, T> {
    T x{}, y{};

    constexpr vec() = default;
    constexpr vec(T x_, T y_) : x(x_), y(y_) {}
    template <detail::vec_scalar U>
    constexpr explicit vec(U s) : x(static_cast<T>(s)), y(static_cast<T>(s)) {}
    template <class U>
    constexpr explicit vec(const vec<U, 2>& v) : x(static_cast<T>(v.x)), y(static_cast<T>(v.y)) {}
    template <detail::vec_part... Parts>
    requires(sizeof...(Parts) >= 2 &&
             (detail::part_size<Parts>::value + ...) == 2) constexpr vec(const Parts&... parts) {
        T c[2]{};
        detail::part_writer<T> write{c};
        (write(parts), ...);
        x = c[0];
        y = c[1];
    }

    /// Component i; indices outside [0, N) clamp to the nearest component.
    template <detail::vec_scalar I> constexpr T& operator[](I i) {
        return detail::component_index<2>(i) == 0 ? x : y;
    }
    template <detail::vec_scalar I> constexpr const T& operator[](I i) const {
        return detail::component_index<2>(i) == 0 ? x : y;
    }
};

template <class T> struct vec<T, 3> : detail::int_pointer<vec<T, 3>, T> {
    T x{}, y{}, z{};

    constexpr vec() = default;
    constexpr vec(T x_, T y_, T z_) : x(x_), y(y_), z(z_) {}
    template <detail::vec_scalar U>
    constexpr explicit vec(U s)
        : x(static_cast<T>(s)), y(static_cast<T>(s)), z(static_cast<T>(s)) {}
    template <class U>
    constexpr explicit vec(const vec<U, 3>& v)
        : x(static_cast<T>(v.x)), y(static_cast<T>(v.y)), z(static_cast<T>(v.z)) {}
    template <detail::vec_part... Parts>
    requires(sizeof...(Parts) >= 2 &&
             (detail::part_size<Parts>::value + ...) == 3) constexpr vec(const Parts&... parts) {
        T c[3]{};
        detail::part_writer<T> write{c};
        (write(parts), ...);
        x = c[0];
        y = c[1];
        z = c[2];
    }

    /// Component i; indices outside [0, N) clamp to the nearest component.
    template <detail::vec_scalar I> constexpr T& operator[](I i) {
        const int k = detail::component_index<3>(i);
        return k == 0 ? x : k == 1 ? y : z;
    }
    template <detail::vec_scalar I> constexpr const T& operator[](I i) const {
        const int k = detail::component_index<3>(i);
        return k == 0 ? x : k == 1 ? y : z;
    }
};

template <class T> struct vec<T, 4> : detail::int_pointer<vec<T, 4>, T> {
    T x{}, y{}, z{}, w{};

    constexpr vec() = default;
    constexpr vec(T x_, T y_, T z_, T w_) : x(x_), y(y_), z(z_), w(w_) {}
    template <detail::vec_scalar U>
    constexpr explicit vec(U s)
        : x(static_cast<T>(s)), y(static_cast<T>(s)), z(static_cast<T>(s)), w(static_cast<T>(s)) {}
    template <class U>
    constexpr explicit vec(const vec<U, 4>& v)
        : x(static_cast<T>(v.x)), y(static_cast<T>(v.y)), z(static_cast<T>(v.z)),
          w(static_cast<T>(v.w)) {}
    template <detail::vec_part... Parts>
    requires(sizeof...(Parts) >= 2 &&
             (detail::part_size<Parts>::value + ...) == 4) constexpr vec(const Parts&... parts) {
        T c[4]{};
        detail::part_writer<T> write{c};
        (write(parts), ...);
        x = c[0];
        y = c[1];
        z = c[2];
        w = c[3];
    }

    /// Component i; indices outside [0, N) clamp to the nearest component.
    template <detail::vec_scalar I> constexpr T& operator[](I i) {
        const int k = detail::component_index<4>(i);
        return k == 0 ? x : k == 1 ? y : k == 2 ? z : w;
    }
    template <detail::vec_scalar I> constexpr const T& operator[](I i) const {
        const int k = detail::component_index<4>(i);
        return k == 0 ? x : k == 1 ? y : k == 2 ? z : w;
    }
};

namespace detail {

/// vec<R, N>{f(a.x), f(a.y), ...}
template <class R, class T, int N, class F> constexpr vec<R, N> map(const vec<T, N>& a, F f) {
    if constexpr (N == 2) {
        return vec<R, 2>(static_cast<R>(f(a.x)), static_cast<R>(f(a.y)));
    } else if constexpr (N == 3) {
        return vec<R, 3>(static_cast<R>(f(a.x)), static_cast<R>(f(a.y)), static_cast<R>(f(a.z)));
    } else {
        return vec<R, 4>(static_cast<R>(f(a.x)), static_cast<R>(f(a.y)), static_cast<R>(f(a.z)),
                         static_cast<R>(f(a.w)));
    }
}

/// vec<R, N>{f(a.x, b.x), f(a.y, b.y), ...}
template <class R, class T, int N, class F>
constexpr vec<R, N> zip(const vec<T, N>& a, const vec<T, N>& b, F f) {
    if constexpr (N == 2) {
        return vec<R, 2>(static_cast<R>(f(a.x, b.x)), static_cast<R>(f(a.y, b.y)));
    } else if constexpr (N == 3) {
        return vec<R, 3>(static_cast<R>(f(a.x, b.x)), static_cast<R>(f(a.y, b.y)),
                         static_cast<R>(f(a.z, b.z)));
    } else {
        return vec<R, 4>(static_cast<R>(f(a.x, b.x)), static_cast<R>(f(a.y, b.y)),
                         static_cast<R>(f(a.z, b.z)), static_cast<R>(f(a.w, b.w)));
    }
}

template <class T>
concept signed_integer = portable::is_integral_v<T> && portable::is_signed_v<T>;

/// a + b, a - b, a * b with C's wrap-around for signed integers (see the top of the file).
template <class T> constexpr T wrapping_add(T a, T b) {
    if constexpr (signed_integer<T>) {
        using U = portable::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    } else {
        return static_cast<T>(a + b);
    }
}
template <class T> constexpr T wrapping_sub(T a, T b) {
    if constexpr (signed_integer<T>) {
        using U = portable::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
    } else {
        return static_cast<T>(a - b);
    }
}
template <class T> constexpr T wrapping_mul(T a, T b) {
    if constexpr (signed_integer<T>) {
        using U = portable::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
    } else {
        return static_cast<T>(a * b);
    }
}
/// a / b; for signed integers the one overflowing case, MIN / -1, wraps to MIN.
template <class T> constexpr T wrapping_div(T a, T b) {
    if constexpr (signed_integer<T>) {
        if (b == T(-1)) {
            return wrapping_sub(T(0), a);
        }
    }
    return static_cast<T>(a / b);
}

/// C's % for integers (MIN % -1 is 0), fmod for floating point (Cg's definition).
template <class T> constexpr T remainder_of(T a, T b) {
    if constexpr (portable::is_floating_point_v<T>) {
        return portable::fmod(a, b);
    } else {
        if constexpr (signed_integer<T>) {
            if (b == T(-1)) {
                return T(0);
            }
        }
        return static_cast<T>(a % b);
    }
}

/// A shift count taken modulo the width of the promoted left operand.
template <class T> constexpr unsigned shift_count(T count) {
    constexpr unsigned bits = sizeof(T) > sizeof(int) ? 8 * sizeof(T) : 8 * sizeof(int);
    return static_cast<unsigned>(count) & (bits - 1);
}
template <class T> constexpr T shift_left(T a, T count) {
    return static_cast<T>(a << shift_count(count));
}
template <class T> constexpr T shift_right(T a, T count) {
    return static_cast<T>(a >> shift_count(count));
}

} // namespace detail

// Binary operators: vec op vec, vec op scalar, scalar op vec, and the compound assignment.
#define BROOK_VEC_BINARY(op, concept_name, expr)                                                   \
    template <class T, int N>                                                                      \
    requires detail::concept_name<T>                                                               \
    constexpr vec<T, N> operator op(const vec<T, N>& a, const vec<T, N>& b) {                      \
        return detail::zip<T>(a, b, [](T l, T r) { return expr; });                                \
    }                                                                                              \
    template <class T, int N>                                                                      \
    requires detail::concept_name<T>                                                               \
    constexpr vec<T, N> operator op(const vec<T, N>& a, portable::type_identity_t<T> s) {          \
        return a op vec<T, N>(s);                                                                  \
    }                                                                                              \
    template <class T, int N>                                                                      \
    requires detail::concept_name<T>                                                               \
    constexpr vec<T, N> operator op(portable::type_identity_t<T> s, const vec<T, N>& b) {          \
        return vec<T, N>(s) op b;                                                                  \
    }                                                                                              \
    template <class T, int N>                                                                      \
    requires detail::concept_name<T>                                                               \
    constexpr vec<T, N>& operator op##=(vec<T, N>& a, const vec<T, N>& b) {                        \
        return a = a op b;                                                                         \
    }                                                                                              \
    template <class T, int N>                                                                      \
    requires detail::concept_name<T>                                                               \
    constexpr vec<T, N>& operator op##=(vec<T, N>& a, portable::type_identity_t<T> s) {            \
        return a = a op vec<T, N>(s);                                                              \
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
    template <class T, int N>                                                                      \
    constexpr vec<bool, N> operator op(const vec<T, N>& a, const vec<T, N>& b) {                   \
        return detail::zip<bool>(a, b, [](T l, T r) { return l op r; });                           \
    }                                                                                              \
    template <class T, int N>                                                                      \
    constexpr vec<bool, N> operator op(const vec<T, N>& a, portable::type_identity_t<T> s) {       \
        return a op vec<T, N>(s);                                                                  \
    }                                                                                              \
    template <class T, int N>                                                                      \
    constexpr vec<bool, N> operator op(portable::type_identity_t<T> s, const vec<T, N>& b) {       \
        return vec<T, N>(s) op b;                                                                  \
    }

BROOK_VEC_COMPARE(<)
BROOK_VEC_COMPARE(>)
BROOK_VEC_COMPARE(<=)
BROOK_VEC_COMPARE(>=)
BROOK_VEC_COMPARE(==)
BROOK_VEC_COMPARE(!=)
#undef BROOK_VEC_COMPARE

template <class T, int N>
requires detail::vec_arithmetic<T>
constexpr vec<T, N> operator+(const vec<T, N>& a) {
    return a;
}

template <class T, int N>
requires detail::vec_arithmetic<T>
constexpr vec<T, N> operator-(const vec<T, N>& a) {
    return detail::map<T>(a, [](T v) { return detail::wrapping_sub(T{}, v); });
}

template <class T, int N>
requires detail::vec_integral<T>
constexpr vec<T, N> operator~(const vec<T, N>& a) {
    return detail::map<T>(a, [](T v) { return ~v; });
}

template <int N> constexpr vec<bool, N> operator!(const vec<bool, N>& a) {
    return detail::map<bool>(a, [](bool v) { return !v; });
}

namespace detail {
/// The members of host code's fixed2..4 and shortfixed2..4: N raw values, named as BrookGPU named
/// them.
template <class Bits, int N> struct fixed_members;
template <class Bits> struct fixed_members<Bits, 2> { Bits x = 0, y = 0; };
template <class Bits> struct fixed_members<Bits, 3> { Bits x = 0, y = 0, z = 0; };
template <class Bits> struct fixed_members<Bits, 4> { Bits x = 0, y = 0, z = 0, w = 0; };
} // namespace detail

/// Host code's fixed2..4 and shortfixed2..4, laid out as BrookGPU's: N raw values x, y[, z, w]
/// (`printf("%u", f.x)` prints the byte). Built from N integers they keep them as raw values,
/// from N floats (or the 4-float form, whose first N count) they saturate and round as
/// basic_fixed does; they convert to and from the float vectors (x / 255 per component).
/// Kernels keep their elements as vec<basic_fixed<Bits>, N>, which has the same bytes.
template <class Bits, int N> struct fixed_vector : detail::fixed_members<Bits, N> {
    constexpr fixed_vector() = default;
    template <class... Raw>
    requires(sizeof...(Raw) == N &&
             (portable::is_integral_v<Raw> && ...)) constexpr fixed_vector(Raw... raw) {
        const Bits given[] = {static_cast<Bits>(raw)...};
        assign(given);
    }
    template <class... Values>
    requires((sizeof...(Values) == N || sizeof...(Values) == 4) &&
             (portable::is_floating_point_v<Values> &&
              ...)) constexpr fixed_vector(Values... values) {
        const float given[] = {static_cast<float>(values)...};
        Bits raw[N]{};
        for (int i = 0; i < N; ++i) {
            raw[i] = basic_fixed<Bits>::encode(given[i]);
        }
        assign(raw);
    }
    constexpr explicit fixed_vector(const vec<float, N>& values) {
        Bits raw[N]{};
        for (int i = 0; i < N; ++i) {
            raw[i] = basic_fixed<Bits>::encode(values[i]);
        }
        assign(raw);
    }
    constexpr operator vec<float, N>() const {
        const auto read = [](Bits b) { return static_cast<float>(b) / basic_fixed<Bits>::steps; };
        if constexpr (N == 2) {
            return {read(this->x), read(this->y)};
        } else if constexpr (N == 3) {
            return {read(this->x), read(this->y), read(this->z)};
        } else {
            return {read(this->x), read(this->y), read(this->z), read(this->w)};
        }
    }

private:
    constexpr void assign(const Bits (&raw)[N]) {
        this->x = raw[0];
        this->y = raw[1];
        if constexpr (N > 2) {
            this->z = raw[2];
        }
        if constexpr (N > 3) {
            this->w = raw[3];
        }
    }
};

using float2 = vec<float, 2>;
using float3 = vec<float, 3>;
using float4 = vec<float, 4>;
using int2 = vec<int, 2>;
using int3 = vec<int, 3>;
using int4 = vec<int, 4>;
using uint2 = vec<unsigned int, 2>;
using uint3 = vec<unsigned int, 3>;
using uint4 = vec<unsigned int, 4>;
/// Brook+'s char is a signed byte whatever the signedness of C++'s plain char.
using char2 = vec<signed char, 2>;
using char3 = vec<signed char, 3>;
using char4 = vec<signed char, 4>;
using uchar2 = vec<unsigned char, 2>;
using uchar3 = vec<unsigned char, 3>;
using uchar4 = vec<unsigned char, 4>;
using fixed2 = fixed_vector<unsigned char, 2>;
using fixed3 = fixed_vector<unsigned char, 3>;
using fixed4 = fixed_vector<unsigned char, 4>;
using shortfixed2 = fixed_vector<unsigned short, 2>;
using shortfixed3 = fixed_vector<unsigned short, 3>;
using shortfixed4 = fixed_vector<unsigned short, 4>;
using bool2 = vec<bool, 2>;
using bool3 = vec<bool, 3>;
using bool4 = vec<bool, 4>;

static_assert(sizeof(float4) == 4 * sizeof(float) && alignof(float4) == alignof(float));
static_assert(sizeof(float3) == 3 * sizeof(float) && portable::is_standard_layout_v<float3>);
static_assert(portable::is_trivially_copyable_v<float4> &&
              portable::is_trivially_destructible_v<int2>);
static_assert(sizeof(fixed3) == 3 && sizeof(uchar3) == 3 && sizeof(vec<fixed, 3>) == 3 &&
              portable::is_trivially_copyable_v<fixed4>);
static_assert(sizeof(shortfixed3) == 6 && sizeof(vec<shortfixed, 3>) == 6);

} // namespace brook
