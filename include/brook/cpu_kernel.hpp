#pragma once
// The prelude of the CPU code brcc generates: everything a translated kernel body calls that is
// not plain C++ on brook::vec. Swizzles and write masks, conversions, Cg's condition rules (a
// vector is true when any component is non-zero; `?:` on a vector selects per component), gather
// arrays with DESIGN.md's index rule, the element addressing of the general (non-dense) loop,
// indexof, and the Cg built-in functions for scalars and vectors.
//
// Every function is a small inline template over scalars and brook::vec, written with constant
// component indices, so that after inlining a kernel's loop is straight-line arithmetic that the
// C++ compiler vectorises.

#include "brook/kernel_abi.hpp"
#include "brook/vector.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace brook::cpu {

namespace detail {

template <class X> struct traits {
    using scalar = X;
    static constexpr int width = 1;
};
template <class T, int N> struct traits<vec<T, N>> {
    using scalar = T;
    static constexpr int width = N;
};

template <class X> using scalar_t = typename traits<std::remove_cvref_t<X>>::scalar;
template <class X> constexpr int width_v = traits<std::remove_cvref_t<X>>::width;

/// Component I of a vector (or the scalar itself: scalars broadcast).
template <int I, class X> constexpr decltype(auto) get(X&& x) {
    using V = std::remove_cvref_t<X>;
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

template <class F, class... X, std::size_t... I>
constexpr auto map_impl(std::index_sequence<I...>, F f, const X&... x) {
    if constexpr (sizeof...(I) == 1) {
        return f(x...);
    } else {
        const auto component = [&](auto index) { return f(get<decltype(index)::value>(x)...); };
        using R = decltype(component(std::integral_constant<int, 0>{}));
        return vec<R, static_cast<int>(sizeof...(I))>(
            component(std::integral_constant<int, static_cast<int>(I)>{})...);
    }
}

/// f applied component by component; scalar arguments broadcast to the widest argument.
template <class F, class... X> constexpr auto map(F f, const X&... x) {
    constexpr int width = std::max({width_v<X>...});
    return map_impl(std::make_index_sequence<static_cast<std::size_t>(width)>{}, f, x...);
}

template <class X, std::size_t... I>
constexpr bool any_impl(std::index_sequence<I...>, const X& x) {
    return ((get<static_cast<int>(I)>(x) != scalar_t<X>{}) || ...);
}
template <class X, std::size_t... I>
constexpr bool all_impl(std::index_sequence<I...>, const X& x) {
    return ((get<static_cast<int>(I)>(x) != scalar_t<X>{}) && ...);
}
template <class X, std::size_t... I>
constexpr auto dot_impl(std::index_sequence<I...>, const X& a, const X& b) {
    return ((get<static_cast<int>(I)>(a) * get<static_cast<int>(I)>(b)) + ...);
}

template <class X> constexpr auto indices() {
    return std::make_index_sequence<static_cast<std::size_t>(width_v<X>)>{};
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

/// Brook's explicit and implicit conversions: scalar to scalar, scalar to vector (broadcast),
/// vector to a vector of another component type, and truncation to fewer components.
template <class To, class From> constexpr To convert(const From& from) {
    if constexpr (std::is_same_v<To, From>) {
        return from;
    } else if constexpr (detail::width_v<To> == 1) {
        return static_cast<To>(detail::get<0>(from));
    } else if constexpr (detail::width_v<From> == 1) {
        return To(static_cast<detail::scalar_t<To>>(from));
    } else if constexpr (detail::width_v<To> == detail::width_v<From>) {
        return To(from);
    } else {
        static_assert(detail::width_v<To> < detail::width_v<From>, "a conversion cannot widen");
        return [&]<std::size_t... I>(std::index_sequence<I...>) {
            return To(static_cast<detail::scalar_t<To>>(detail::get<static_cast<int>(I)>(from))...);
        }
        (detail::indices<To>());
    }
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
    using U = std::make_unsigned_t<T>;
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
// Stream access

/// A gather parameter `T g[]..[][]` of rank R. Indices follow DESIGN.md §2: each becomes
/// floor(v + 0.25) clamped to [0, extent - 1] (integers are only clamped).
template <class T, int R> class Gather {
public:
    explicit Gather(const StreamView& view) : data_(view.data) {
        for (std::size_t d = 0; d < static_cast<std::size_t>(R); ++d) {
            extents_[d] = view.extents[d];
            strides_[d] = view.strides[d];
        }
    }

    /// `g[i0][i1]`: one index per dimension, slowest first.
    template <class... I> const T& at(I... indices) const {
        static_assert(sizeof...(I) == static_cast<std::size_t>(R),
                      "a gather takes one index per dimension");
        std::size_t offset = 0;
        std::size_t d = 0;
        ((offset += index(indices, extents_[d]) * strides_[d], ++d), ...);
        return element(offset);
    }

    /// `g[float2(x, y)]`: one vector index whose .x is the last (fastest) dimension.
    template <class V> const T& at_vector(const V& position) const {
        static_assert(detail::width_v<V> == R, "a gather's vector index has one component per "
                                               "dimension");
        return [&]<std::size_t... I>(std::index_sequence<I...>)->const T& {
            return at(detail::get<R - 1 - static_cast<int>(I)>(position)...);
        }
        (std::make_index_sequence<static_cast<std::size_t>(R)>{});
    }

private:
    template <class I> static std::size_t index(I value, std::size_t extent) {
        if constexpr (std::is_floating_point_v<I>) {
            const I rounded = std::floor(value + I(0.25));
            // Written so that NaN takes the first branch.
            if (!(rounded > I(0)))
                return 0;
            if (rounded >= static_cast<I>(extent - 1))
                return extent - 1;
            return static_cast<std::size_t>(rounded);
        } else {
            if (value <= I(0))
                return 0;
            const auto unsigned_value = static_cast<std::size_t>(value);
            return unsigned_value >= extent ? extent - 1 : unsigned_value;
        }
    }
    const T& element(std::size_t offset) const {
        return *reinterpret_cast<const T*>(data_ + offset * sizeof(T));
    }

    const std::byte* data_;
    std::size_t extents_[R]{};
    std::size_t strides_[R]{};
};

/// The general loop's input element for output element `index` (resized, strided).
template <class T> const T& input_at(const Frame& frame, int param, std::size_t index) {
    return *reinterpret_cast<const T*>(
        resized_element(frame.args[param].stream, frame, index, sizeof(T)));
}

/// The general loop's output element `index` (of a possibly strided view).
template <class T> T& output_at(const Frame& frame, int param, std::size_t index) {
    return *reinterpret_cast<T*>(output_element(frame.args[param].stream, frame, index, sizeof(T)));
}

/// `indexof(s)`: the position of output element `index` in stream parameter `param`, as a float4
/// whose .x is the last dimension (an input of another shape is resized as it is read).
inline float4 indexof(const Frame& frame, int param, std::size_t index) {
    const StreamView& view = frame.args[param].stream;
    float4 position;
    for (int d = frame.output_rank - 1, component = 0; d >= 0; --d, ++component) {
        const auto dim = static_cast<std::size_t>(d);
        const std::size_t out = frame.output_extents[dim];
        const std::size_t i = index % out;
        index /= out;
        const std::size_t extent = d < view.rank ? view.extents[dim] : out;
        position[component] = static_cast<float>(i * extent / out);
    }
    return position;
}

/// Folds the elements of `view` inside `box` in row-major order: the accumulator becomes the
/// first element, then `combine(element, accumulator)` takes each next one.
template <class T, class Combine>
void fold_box(const StreamView& view, const Box& box, T& accumulator, Combine combine) {
    bool first = true;
    for_each_in_box(view, box, sizeof(T), [&](const std::byte* element) {
        const T& value = *reinterpret_cast<const T*>(element);
        if (first) {
            accumulator = value;
            first = false;
            return;
        }
        combine(value, accumulator);
    });
}

// ---------------------------------------------------------------------------------------------
// Cg built-in functions. Component-wise ones accept scalars and vectors; scalar arguments
// broadcast against vector ones.

#define BROOK_CPU_UNARY(name, expression)                                                          \
    template <class X> constexpr auto name(const X& x) {                                           \
        return detail::map([](auto v) { return expression; }, x);                                  \
    }

BROOK_CPU_UNARY(abs, v < decltype(v){} ? -v : v)
BROOK_CPU_UNARY(acos, std::acos(v))
BROOK_CPU_UNARY(asin, std::asin(v))
BROOK_CPU_UNARY(atan, std::atan(v))
BROOK_CPU_UNARY(ceil, std::ceil(v))
BROOK_CPU_UNARY(cos, std::cos(v))
BROOK_CPU_UNARY(cosh, std::cosh(v))
BROOK_CPU_UNARY(degrees, v* decltype(v)(57.295779513082320876798154814105))
BROOK_CPU_UNARY(exp, std::exp(v))
BROOK_CPU_UNARY(exp2, std::exp2(v))
BROOK_CPU_UNARY(floor, std::floor(v))
BROOK_CPU_UNARY(frac, v - std::floor(v))
BROOK_CPU_UNARY(isfinite, std::isfinite(v))
BROOK_CPU_UNARY(isinf, std::isinf(v))
BROOK_CPU_UNARY(isnan, std::isnan(v))
BROOK_CPU_UNARY(log, std::log(v))
BROOK_CPU_UNARY(log10, std::log10(v))
BROOK_CPU_UNARY(log2, std::log2(v))
BROOK_CPU_UNARY(radians, v* decltype(v)(0.017453292519943295769236907684886))
BROOK_CPU_UNARY(round, std::round(v)) // half away from zero, as Cg
BROOK_CPU_UNARY(rsqrt, decltype(v)(1) / std::sqrt(v))
BROOK_CPU_UNARY(saturate, std::min(std::max(v, decltype(v)(0)), decltype(v)(1)))
BROOK_CPU_UNARY(sign, v > decltype(v){}   ? decltype(v)(1)
                      : v < decltype(v){} ? decltype(v)(-1)
                                          : decltype(v){})
BROOK_CPU_UNARY(sin, std::sin(v))
BROOK_CPU_UNARY(sinh, std::sinh(v))
BROOK_CPU_UNARY(sqrt, std::sqrt(v))
BROOK_CPU_UNARY(tan, std::tan(v))
BROOK_CPU_UNARY(tanh, std::tanh(v))
#undef BROOK_CPU_UNARY

template <class Y, class X> constexpr auto atan2(const Y& y, const X& x) {
    return detail::map([](auto a, auto b) { return std::atan2(a, b); }, y, x);
}
template <class A, class B> constexpr auto fmod(const A& a, const B& b) {
    return detail::map([](auto x, auto y) { return std::fmod(x, y); }, a, b);
}
template <class A, class B> constexpr auto pow(const A& a, const B& b) {
    return detail::map([](auto x, auto y) { return std::pow(x, y); }, a, b);
}
/// x * 2^e.
template <class A, class B> constexpr auto ldexp(const A& x, const B& e) {
    return detail::map([](auto m, auto n) { return m * std::exp2(n); }, x, e);
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
            const V t = std::min(std::max((v - lo) / (hi - lo), V(0)), V(1));
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
    return std::sqrt(dot(v, v));
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

} // namespace brook::cpu
