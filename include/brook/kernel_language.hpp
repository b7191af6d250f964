#pragma once
// The kernel language: everything the body of a kernel calls that is not plain C++ on brook::vec,
// in namespace brook::lang. Swizzles and write masks, conversions, Cg's condition rules (a vector
// is true when any component is non-zero; `?:` on a vector selects per component), conversions to
// `fixed`, signed arithmetic that wraps around, gather arrays with DESIGN.md's index rule (and the
// unclamped reads of brcc's SIMD loops), and the Cg built-in functions for scalars and vectors.
// brcc prints kernel bodies once, with these names, for every backend that compiles C++: the CPU
// backend's loops (cpu_kernel.hpp) and the CUDA backend's kernels, which NVRTC compiles at run
// time.
//
// So this header and the ones it includes compile both as host C++ and under NVRTC (options
// `-std=c++20 -default-device`), which has no standard headers. The NVRTC-visible headers, given
// to nvrtcCreateProgram in memory under these names, are exactly:
//   brook/kernel_language.hpp
//   brook/vector.hpp
//   brook/detail/portable_std.hpp
// They reach the standard library only through brook::portable (portable_std.hpp).
//
// Every function is a small inline template over scalars and brook::vec, written with constant
// component indices, so that after inlining a kernel's loop is straight-line arithmetic that the
// C++ compiler vectorises.

#include "brook/detail/portable_std.hpp"
#include "brook/vector.hpp"

namespace brook::lang {

using portable::size_t;

namespace detail {

template <class X> struct traits {
    using scalar = X;
    static constexpr int width = 1;
};
template <class T, int N> struct traits<vec<T, N>> {
    using scalar = T;
    static constexpr int width = N;
};

template <class X> using scalar_t = typename traits<portable::remove_cvref_t<X>>::scalar;
template <class X> constexpr int width_v = traits<portable::remove_cvref_t<X>>::width;

/// Component I of a vector (or the scalar itself: scalars broadcast).
template <int I, class X> constexpr decltype(auto) get(X&& x) {
    using V = portable::remove_cvref_t<X>;
    if constexpr (traits<V>::width == 1) {
        return (x);
    } else if constexpr (I == 0) {
        return (x.x);
    } else if constexpr (I == 1) {
        return (x.y);
    } else if constexpr (I == 2) {
        return (x.z);
    } else {
        static_assert(I == 3, "component index out of range");
        return (x.w);
    }
}

/// T for width 1, vec<T, N> otherwise.
template <class T, int N> struct value_type { using type = vec<T, N>; };
template <class T> struct value_type<T, 1> { using type = T; };
template <class T, int N> using value_t = typename value_type<T, N>::type;

template <class F, class... X, size_t... I>
constexpr auto map_impl(portable::index_sequence<I...>, F f, const X&... x) {
    if constexpr (sizeof...(I) == 1) {
        return f(x...);
    } else {
        const auto component = [&](auto index) { return f(get<decltype(index)::value>(x)...); };
        using R = decltype(component(portable::integral_constant<int, 0>{}));
        return vec<R, static_cast<int>(sizeof...(I))>(
            component(portable::integral_constant<int, static_cast<int>(I)>{})...);
    }
}

template <class... X> constexpr int max_width() {
    int width = 1;
    ((width = width_v<X> > width ? width_v<X> : width), ...);
    return width;
}

/// f applied component by component; scalar arguments broadcast to the widest argument.
template <class F, class... X> constexpr auto map(F f, const X&... x) {
    constexpr int width = max_width<X...>();
    return map_impl(portable::make_index_sequence<static_cast<size_t>(width)>{}, f, x...);
}

template <class X, size_t... I>
constexpr bool any_impl(portable::index_sequence<I...>, const X& x) {
    return ((get<static_cast<int>(I)>(x) != scalar_t<X>{}) || ...);
}
template <class X, size_t... I>
constexpr bool all_impl(portable::index_sequence<I...>, const X& x) {
    return ((get<static_cast<int>(I)>(x) != scalar_t<X>{}) && ...);
}
template <class X, size_t... I>
constexpr auto dot_impl(portable::index_sequence<I...>, const X& a, const X& b) {
    return ((get<static_cast<int>(I)>(a) * get<static_cast<int>(I)>(b)) + ...);
}

/// std::min(std::max(v, lo), hi), the same comparisons in the same order (NaN stays NaN).
template <class V> constexpr V clamp_to(V v, V lo, V hi) {
    const V low = v < lo ? lo : v;
    return hi < low ? hi : low;
}

template <class X> constexpr auto indices() {
    return portable::make_index_sequence<static_cast<size_t>(width_v<X>)>{};
}

} // namespace detail

// ---------------------------------------------------------------------------------------------
// Conditions, swizzles, write masks, conversions

/// A Brook condition: a scalar is true when non-zero, a vector when any component is.
template <class X> constexpr bool truth(const X& x) {
    return detail::any_impl(detail::indices<X>(), x);
}

/// `c ? a : b` with a vector condition: each component chosen by the condition's component.
template <class C, class A, class B> constexpr auto select(const C& c, const A& a, const B& b) {
    return detail::map([](auto ci, auto ai, auto bi) { return ci != decltype(ci){} ? ai : bi; }, c,
                       a, b);
}

/// `v.zyx`: the components I... of v (a scalar's swizzle repeats the scalar).
template <int... I, class X> constexpr auto swizzle(const X& v) {
    if constexpr (sizeof...(I) == 1) {
        return (detail::get<I>(v), ...);
    } else {
        return vec<detail::scalar_t<X>, static_cast<int>(sizeof...(I))>(detail::get<I>(v)...);
    }
}

/// `v.xz = value`: assigns the components of value to the components I... of v; gives value.
template <int... I, class T, int N, class X>
constexpr vec<T, static_cast<int>(sizeof...(I))> assign_mask(vec<T, N>& v, const X& value) {
    const vec<T, static_cast<int>(sizeof...(I))> source(value);
    int next = 0;
    ((detail::get<I>(v) = source[next++]), ...);
    return source;
}

/// A write mask `v.zw` passed to a called kernel's `out` parameter (COMPAT 1.2), which copies
/// the components in as one vector and assigns them back when the kernel returns.
template <class V, int... I> class MaskedLvalue {
public:
    using value_type = vec<detail::scalar_t<V>, static_cast<int>(sizeof...(I))>;
    constexpr explicit MaskedLvalue(V& v) : v_(v) {}
    constexpr operator value_type() const { return swizzle<I...>(v_); }
    constexpr MaskedLvalue& operator=(const value_type& value) {
        assign_mask<I...>(v_, value);
        return *this;
    }

private:
    V& v_;
};

template <int... I, class T, int N> constexpr MaskedLvalue<vec<T, N>, I...> masked(vec<T, N>& v) {
    return MaskedLvalue<vec<T, N>, I...>(v);
}

/// Brook's explicit and implicit conversions: scalar to scalar, scalar to vector (broadcast),
/// vector to a vector of another component type, and truncation to fewer components.
template <class To, class From> constexpr To convert(const From& from) {
    if constexpr (portable::is_same_v<To, From>) {
        return from;
    } else if constexpr (detail::width_v<To> == 1) {
        return static_cast<To>(detail::get<0>(from));
    } else if constexpr (detail::width_v<From> == 1) {
        return To(static_cast<detail::scalar_t<To>>(from));
    } else if constexpr (detail::width_v<To> == detail::width_v<From>) {
        return To(from);
    } else {
        static_assert(detail::width_v<To> < detail::width_v<From>, "a conversion cannot widen");
        return [&]<size_t... I>(portable::index_sequence<I...>) {
            return To(static_cast<detail::scalar_t<To>>(detail::get<static_cast<int>(I)>(from))...);
        }
        (detail::indices<To>());
    }
}

/// A conversion to fixed..fixed4 (shortfixed..shortfixed4) inside a kernel, where their values
/// are floats: `from` as To (float..float4), each component saturated to [0, 1] and rounded to
/// the nearest step of Fixed (b / 255, b / 65535).
template <class Fixed, class To, class From> constexpr To to_fixed(const From& from) {
    return detail::map([](float v) { return static_cast<float>(Fixed(v)); }, convert<To>(from));
}

/// `&&`, `||` and `!` on vectors: component-wise, as in Cg.
template <class A, class B> constexpr auto logical_and(const A& a, const B& b) {
    return detail::map([](auto x, auto y) { return x != decltype(x){} && y != decltype(y){}; }, a,
                       b);
}
template <class A, class B> constexpr auto logical_or(const A& a, const B& b) {
    return detail::map([](auto x, auto y) { return x != decltype(x){} || y != decltype(y){}; }, a,
                       b);
}
template <class A> constexpr auto logical_not(const A& a) {
    return detail::map([](auto x) { return x == decltype(x){}; }, a);
}

// ---------------------------------------------------------------------------------------------
// Signed integer arithmetic with wrap-around

namespace detail {
/// a op b for signed integers, computed on the unsigned type (where overflow is defined) and
/// converted back (modular since C++20): two's complement wrap-around, as Brook defines it.
template <class T, class Op> constexpr T wrapped(T a, T b, Op op) {
    using U = portable::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(op(static_cast<U>(a), static_cast<U>(b))));
}
} // namespace detail

template <class A, class B> constexpr auto wrapping_add(const A& a, const B& b) {
    return detail::map(
        [](auto x, auto y) { return detail::wrapped(x, y, [](auto l, auto r) { return l + r; }); },
        a, b);
}
template <class A, class B> constexpr auto wrapping_sub(const A& a, const B& b) {
    return detail::map(
        [](auto x, auto y) { return detail::wrapped(x, y, [](auto l, auto r) { return l - r; }); },
        a, b);
}
template <class A, class B> constexpr auto wrapping_mul(const A& a, const B& b) {
    return detail::map(
        [](auto x, auto y) { return detail::wrapped(x, y, [](auto l, auto r) { return l * r; }); },
        a, b);
}
template <class A> constexpr auto wrapping_neg(const A& a) {
    return wrapping_sub(detail::scalar_t<A>{}, a);
}
template <class T, class B> constexpr T& wrapping_add_assign(T& target, const B& value) {
    return target = wrapping_add(target, value);
}
template <class T, class B> constexpr T& wrapping_sub_assign(T& target, const B& value) {
    return target = wrapping_sub(target, value);
}
template <class T, class B> constexpr T& wrapping_mul_assign(T& target, const B& value) {
    return target = wrapping_mul(target, value);
}
template <class T> constexpr T& wrapping_pre_increment(T& target) {
    return wrapping_add_assign(target, detail::scalar_t<T>(1));
}
template <class T> constexpr T& wrapping_pre_decrement(T& target) {
    return wrapping_sub_assign(target, detail::scalar_t<T>(1));
}
template <class T> constexpr T wrapping_post_increment(T& target) {
    const T old = target;
    wrapping_add_assign(target, detail::scalar_t<T>(1));
    return old;
}
template <class T> constexpr T wrapping_post_decrement(T& target) {
    const T old = target;
    wrapping_sub_assign(target, detail::scalar_t<T>(1));
    return old;
}

// ---------------------------------------------------------------------------------------------
// Gathers

/// DESIGN.md §2's gather index rule for one index of a dimension of `extent` elements:
/// floor(v + 0.25) clamped to [0, extent - 1], NaN giving 0; integers are only clamped.
template <class I> constexpr size_t gather_index(I value, size_t extent) {
    // Selects rather than branches, and no floor (which GCC vectorises only without
    // -ftrapping-math), so that a loop of gathers vectorises. For a float index s = v + 0.25:
    // floor(s) <= 0 exactly when s < 1, where truncation also gives 0, and above that
    // truncation is floor; floor(s) >= extent - 1 exactly when s >= extent - 1.
    if constexpr (portable::is_floating_point_v<I>) {
        const I shifted = value + I(0.25);
        // Written so that NaN selects 0.
        const I low = shifted > I(0) ? shifted : I(0);
        // Converted through a signed integer, one instruction on x86-64 where an unsigned 64-bit
        // conversion takes a branch: `low` is below extent - 1 there, far below 2^63.
        return low < static_cast<I>(extent - 1) ? static_cast<size_t>(static_cast<long long>(low))
                                                : extent - 1;
    } else {
        const I low = value > I(0) ? value : I(0);
        const auto unsigned_value = static_cast<size_t>(low);
        return unsigned_value < extent ? unsigned_value : extent - 1;
    }
}

/// A gather parameter read with indices of up to R components (R: the body's widest index,
/// COMPAT.md §1.9), bound to the array at `data` of `rank` dimensions, extents[d] elements along
/// dimension d (slowest first), consecutive indices of dimension d strides[d] elements apart.
/// The stream's rank counts, not the parameter's brackets: a stream of fewer than R dimensions
/// gets leading dimensions of extent 1, so index components beyond its rank are clamped to 0
/// (ignored); one index component is a row-major element offset. A stream of more than R > 1
/// dimensions is refused before the launch, and one read with single indices has contiguous
/// elements (the runtime makes a dense copy of other views). Indices follow gather_index.
/// Offsets are size_t (64-bit), so arrays beyond 2^31 elements address exactly.
template <class T, int R> class Gather {
public:
    constexpr Gather(const T* data, int rank, const size_t* extents, const size_t* strides)
        : data_(data), bound_rank_(rank) {
        for (int d = 0; d < rank; ++d) {
            bound_extents_[d] = extents[d];
            bound_strides_[d] = strides[d];
        }
        const int missing = R - rank;
        for (int d = 0; d < R; ++d) {
            const auto dim = static_cast<size_t>(d);
            extents_[dim] = d < missing ? 1 : extents[d - missing];
            strides_[dim] = d < missing ? 0 : strides[d - missing];
        }
        for (int d = 0; d < rank; ++d) {
            count_ *= extents[d];
        }
        if (rank > R) {
            // R is 1: the body reads element offsets of the contiguous stream.
            extents_[0] = count_;
            strides_[0] = 1;
        }
    }

    /// A called kernel's gather parameter, bound to the caller's gather of another view rank
    /// (COMPAT.md §1.8): the same stream, whose index meaning follows its rank (§1.9).
    template <int R2>
    constexpr Gather(const Gather<T, R2>& other) // NOLINT(google-explicit-constructor)
        : Gather(other.data_, other.bound_rank_, other.bound_extents_, other.bound_strides_) {}

    /// `g[i0][i1]`: one index per dimension of the last ones, slowest first (the dimensions
    /// before them read index 0); `g[i]` of a gather of R > 1 is the row-major element offset i.
    template <class... I> constexpr const T& at(I... indices) const {
        static_assert(sizeof...(I) <= static_cast<size_t>(R),
                      "a gather takes at most one index per dimension");
        if constexpr (sizeof...(I) == 1 && R > 1) {
            return data_[(gather_index(indices, count_) + ...)];
        } else {
            size_t offset = 0;
            size_t d = static_cast<size_t>(R) - sizeof...(I);
            ((offset += gather_index(indices, extents_[d]) * strides_[d], ++d), ...);
            return data_[offset];
        }
    }

    /// Whether a SIMD loop's counter, running over [lower, end), can index dimension `d`
    /// through at_in_range: it stays inside the extent, and consecutive indices of the last
    /// dimension are consecutive elements.
    constexpr bool covers(int d, long long lower, long long end) const {
        const auto dim = static_cast<size_t>(d);
        return lower >= 0 && end <= static_cast<long long>(extents_[dim]) &&
               (d != R - 1 || strides_[dim] == 1);
    }

    /// `g[i0][i1]` inside a SIMD loop whose counter indexes the dimensions set in InRange (bit d
    /// for dimension d) where `covers` held before the loop: those indices are used as they
    /// are, so that consecutive iterations read consecutive elements (the last dimension's
    /// stride is known to be 1); the others follow the index rule.
    template <unsigned InRange, class... I> constexpr const T& at_in_range(I... indices) const {
        static_assert(sizeof...(I) == static_cast<size_t>(R),
                      "a gather takes one index per dimension");
        return [&]<size_t... D>(portable::index_sequence<D...>)->const T& {
            return data_[(term<InRange, D>(indices) + ...)];
        }
        (portable::make_index_sequence<static_cast<size_t>(R)>{});
    }

    /// `g[float2(x, y)]`: one vector index whose .x is the last (fastest) dimension.
    template <class V> constexpr const T& at_vector(const V& position) const {
        constexpr int width = detail::width_v<V>;
        static_assert(width <= R, "a gather's vector index has at most one component per "
                                  "dimension");
        return [&]<size_t... I>(portable::index_sequence<I...>)->const T& {
            return at(detail::get<width - 1 - static_cast<int>(I)>(position)...);
        }
        (portable::make_index_sequence<static_cast<size_t>(width)>{});
    }

private:
    /// Dimension D's part of an element's offset, for at_in_range.
    template <unsigned InRange, size_t D, class I> constexpr size_t term(I index_value) const {
        if constexpr (((InRange >> D) & 1u) == 0) {
            return gather_index(index_value, extents_[D]) * strides_[D];
        } else if constexpr (D == static_cast<size_t>(R - 1)) {
            return static_cast<size_t>(index_value);
        } else {
            return static_cast<size_t>(index_value) * strides_[D];
        }
    }

    template <class, int> friend class Gather;

    const T* data_;
    size_t extents_[R]{};
    size_t strides_[R]{};
    size_t count_ = 1; ///< elements of the bound stream
    /// The bound stream's own shape, from which a gather of another view rank is made.
    int bound_rank_;
    size_t bound_extents_[4]{};
    size_t bound_strides_[4]{};
};

// ---------------------------------------------------------------------------------------------
// Cg built-in functions. Component-wise ones accept scalars and vectors; scalar arguments
// broadcast against vector ones.

#define BROOK_LANG_UNARY(name, expression)                                                         \
    template <class X> constexpr auto name(const X& x) {                                           \
        return detail::map([](auto v) { return expression; }, x);                                  \
    }

BROOK_LANG_UNARY(abs, v < decltype(v){} ? -v : v)
BROOK_LANG_UNARY(acos, portable::acos(v))
BROOK_LANG_UNARY(asin, portable::asin(v))
BROOK_LANG_UNARY(atan, portable::atan(v))
BROOK_LANG_UNARY(ceil, portable::ceil(v))
BROOK_LANG_UNARY(cos, portable::cos(v))
BROOK_LANG_UNARY(cosh, portable::cosh(v))
BROOK_LANG_UNARY(degrees, v* decltype(v)(57.295779513082320876798154814105))
BROOK_LANG_UNARY(exp, portable::exp(v))
BROOK_LANG_UNARY(exp2, portable::exp2(v))
BROOK_LANG_UNARY(floor, portable::floor(v))
BROOK_LANG_UNARY(frac, v - portable::floor(v))
BROOK_LANG_UNARY(isfinite, portable::isfinite(v))
BROOK_LANG_UNARY(isinf, portable::isinf(v))
BROOK_LANG_UNARY(isnan, portable::isnan(v))
BROOK_LANG_UNARY(log, portable::log(v))
BROOK_LANG_UNARY(log10, portable::log10(v))
BROOK_LANG_UNARY(log2, portable::log2(v))
BROOK_LANG_UNARY(radians, v* decltype(v)(0.017453292519943295769236907684886))
BROOK_LANG_UNARY(round, portable::round(v)) // half away from zero, as Cg
BROOK_LANG_UNARY(rsqrt, decltype(v)(1) / portable::sqrt(v))
BROOK_LANG_UNARY(saturate, detail::clamp_to(v, decltype(v)(0), decltype(v)(1)))
BROOK_LANG_UNARY(sign, v > decltype(v){}   ? decltype(v)(1)
                       : v < decltype(v){} ? decltype(v)(-1)
                                           : decltype(v){})
BROOK_LANG_UNARY(sin, portable::sin(v))
BROOK_LANG_UNARY(sinh, portable::sinh(v))
BROOK_LANG_UNARY(sqrt, portable::sqrt(v))
BROOK_LANG_UNARY(tan, portable::tan(v))
BROOK_LANG_UNARY(tanh, portable::tanh(v))
#undef BROOK_LANG_UNARY

template <class Y, class X> constexpr auto atan2(const Y& y, const X& x) {
    return detail::map([](auto a, auto b) { return portable::atan2(a, b); }, y, x);
}
template <class A, class B> constexpr auto fmod(const A& a, const B& b) {
    return detail::map([](auto x, auto y) { return portable::fmod(x, y); }, a, b);
}
template <class A, class B> constexpr auto pow(const A& a, const B& b) {
    return detail::map([](auto x, auto y) { return portable::pow(x, y); }, a, b);
}
/// x * 2^e.
template <class A, class B> constexpr auto ldexp(const A& x, const B& e) {
    return detail::map([](auto m, auto n) { return m * portable::exp2(n); }, x, e);
}
template <class A, class B> constexpr auto max(const A& a, const B& b) {
    return detail::map([](auto x, auto y) { return x < y ? y : x; }, a, b);
}
template <class A, class B> constexpr auto min(const A& a, const B& b) {
    return detail::map([](auto x, auto y) { return y < x ? y : x; }, a, b);
}
template <class X, class A, class B> constexpr auto clamp(const X& x, const A& lo, const B& hi) {
    return min(max(x, lo), hi);
}
/// step(a, x) = x >= a ? 1 : 0.
template <class A, class X> constexpr auto step(const A& a, const X& x) {
    return detail::map(
        [](auto edge, auto v) { return v >= edge ? decltype(v)(1) : decltype(v)(0); }, a, x);
}
/// lerp(a, b, t) = a + t * (b - a).
template <class A, class B, class T> constexpr auto lerp(const A& a, const B& b, const T& t) {
    return detail::map([](auto x, auto y, auto s) { return x + s * (y - x); }, a, b, t);
}
/// Hermite interpolation between 0 (x <= a) and 1 (x >= b).
template <class A, class B, class X> constexpr auto smoothstep(const A& a, const B& b, const X& x) {
    return detail::map(
        [](auto lo, auto hi, auto v) {
            using V = decltype(v);
            const V t = detail::clamp_to((v - lo) / (hi - lo), V(0), V(1));
            return t * t * (V(3) - V(2) * t);
        },
        a, b, x);
}

/// True when every component is non-zero.
template <class X> constexpr bool all(const X& x) {
    return detail::all_impl(detail::indices<X>(), x);
}
/// True when any component is non-zero.
template <class X> constexpr bool any(const X& x) {
    return truth(x);
}

template <class X> constexpr detail::scalar_t<X> dot(const X& a, const X& b) {
    return detail::dot_impl(detail::indices<X>(), a, b);
}
template <class T> constexpr vec<T, 3> cross(const vec<T, 3>& a, const vec<T, 3>& b) {
    return vec<T, 3>(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
template <class X> constexpr detail::scalar_t<X> length(const X& v) {
    return portable::sqrt(dot(v, v));
}
template <class X> constexpr detail::scalar_t<X> distance(const X& a, const X& b) {
    return length(b - a);
}
template <class X> constexpr X normalize(const X& v) {
    return v * (detail::scalar_t<X>(1) / length(v));
}
/// The reflection of incident direction i about the normal n: i - 2 * dot(n, i) * n.
template <class X> constexpr X reflect(const X& i, const X& n) {
    return i - detail::scalar_t<X>(2) * dot(n, i) * n;
}

/// Cg's pack_4ubyte: each component saturated to [0, 1], scaled by 255 and rounded to a byte as
/// `fixed` stores it, .x in the low byte; the 32 bits read as a float.
inline float pack_4ubyte(const vec<float, 4>& v) {
    const auto byte = [](float c) { return static_cast<unsigned>(fixed::encode(c)); };
    return portable::uint_as_float(byte(v.x) | byte(v.y) << 8 | byte(v.z) << 16 | byte(v.w) << 24);
}
/// Cg's unpack_4ubyte, pack_4ubyte's inverse: the float's four bytes, .x the low one, each
/// byte b as b / 255.
inline vec<float, 4> unpack_4ubyte(float packed) {
    const unsigned bits = portable::float_as_uint(packed);
    const auto byte = [bits](int shift) {
        return static_cast<float>(fixed(static_cast<unsigned char>(bits >> shift)));
    };
    return vec<float, 4>(byte(0), byte(8), byte(16), byte(24));
}

} // namespace brook::lang
