#pragma once
// The prelude of the CPU code brcc generates: everything a translated kernel body calls that is
// not plain C++ on brook::vec. Swizzles and write masks, conversions, Cg's condition rules (a
// vector is true when any component is non-zero; `?:` on a vector selects per component),
// conversions to `fixed`, gather arrays with DESIGN.md's index rule (and the unclamped reads of
// brcc's SIMD loops), the element addressing of the general (non-dense) loop, indexof, the fold
// of a reduction, and the Cg built-in functions for scalars and vectors.
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

/// A conversion to fixed..fixed4 inside a kernel, where fixed values are floats: `from` as To
/// (float..float4), each component saturated to [0, 1] and rounded to the nearest step b / 255.
template <class To, class From> constexpr To to_fixed(const From& from) {
    return detail::map([](float v) { return static_cast<float>(fixed(v)); }, convert<To>(from));
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

    /// Whether a SIMD loop's counter, running over [lower, end), can index dimension `d`
    /// through at_in_range: it stays inside the extent, and consecutive indices of the last
    /// dimension are consecutive elements.
    bool covers(int d, long long lower, long long end) const {
        const auto dim = static_cast<std::size_t>(d);
        return lower >= 0 && end <= static_cast<long long>(extents_[dim]) &&
               (d != R - 1 || strides_[dim] == 1);
    }

    /// `g[i0][i1]` inside a SIMD loop whose counter indexes the dimensions set in InRange (bit d
    /// for dimension d) where `covers` held before the loop: those indices are used as they
    /// are, so that consecutive iterations read consecutive elements (the last dimension's
    /// stride is known to be 1); the others follow the index rule.
    template <unsigned InRange, class... I> const T& at_in_range(I... indices) const {
        static_assert(sizeof...(I) == static_cast<std::size_t>(R),
                      "a gather takes one index per dimension");
        return [&]<std::size_t... D>(std::index_sequence<D...>)->const T& {
            return element((term<InRange, D>(indices) + ...));
        }
        (std::make_index_sequence<static_cast<std::size_t>(R)>{});
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
    /// Dimension D's part of an element's offset, for at_in_range.
    template <unsigned InRange, std::size_t D, class I> std::size_t term(I index_value) const {
        if constexpr (((InRange >> D) & 1u) == 0) {
            return index(index_value, extents_[D]) * strides_[D];
        } else if constexpr (D == static_cast<std::size_t>(R - 1)) {
            return static_cast<std::size_t>(index_value);
        } else {
            return static_cast<std::size_t>(index_value) * strides_[D];
        }
    }

    // Selects rather than branches, and no std::floor (which GCC vectorises only without
    // -ftrapping-math), so that a loop of gathers vectorises. For a float index s = v + 0.25:
    // floor(s) <= 0 exactly when s < 1, where truncation also gives 0, and above that
    // truncation is floor; floor(s) >= extent - 1 exactly when s >= extent - 1.
    template <class I> static std::size_t index(I value, std::size_t extent) {
        if constexpr (std::is_floating_point_v<I>) {
            const I shifted = value + I(0.25);
            // Written so that NaN selects 0.
            const I low = shifted > I(0) ? shifted : I(0);
            return low < static_cast<I>(extent - 1) ? static_cast<std::size_t>(low) : extent - 1;
        } else {
            const I low = value > I(0) ? value : I(0);
            const auto unsigned_value = static_cast<std::size_t>(low);
            return unsigned_value < extent ? unsigned_value : extent - 1;
        }
    }
    const T& element(std::size_t offset) const {
        return *reinterpret_cast<const T*>(data_ + offset * sizeof(T));
    }

    const std::byte* data_;
    std::size_t extents_[R]{};
    std::size_t strides_[R]{};
};

/// The end of the output row that element `index` is in, or `end` if that comes first: the
/// general loop takes the output domain a row (its last dimension) at a time.
inline std::size_t row_end(const Frame& frame, std::size_t index, std::size_t end) {
    const std::size_t row_length =
        frame.output_extents[static_cast<std::size_t>(frame.output_rank - 1)];
    return std::min(end, index - index % row_length + row_length);
}

/// A stream argument of a call that is not dense, addressed by output element index: element
/// `index` of the output domain reads the input element that resizing maps it to (DESIGN.md §2),
/// or for an output, the element of its (possibly strided) view. The general loop visits
/// consecutive indices, so the position of the current output row in the stream is worked out
/// once per row (divisions over every dimension), and the elements along it cost a step each.
template <class T> class ResizedView {
public:
    ResizedView(const Frame& frame, int param)
        : view_(frame.args[param].stream), frame_(&frame),
          last_(static_cast<std::size_t>(frame.output_rank - 1)),
          row_length_(frame.output_extents[last_]), in_length_(view_.extents[last_]),
          stride_(view_.strides[last_]) {}

    T& operator[](std::size_t index) {
        if (index < row_first_ || index >= row_end_) {
            start_row(index);
        }
        const std::size_t column = index - row_first_;
        const std::size_t in_column =
            in_length_ == row_length_ ? column : column * in_length_ / row_length_;
        return *reinterpret_cast<T*>(row_ + in_column * stride_ * sizeof(T));
    }

    /// Where element `index` is when the rest of its output row follows it contiguously (the
    /// stream is not resized along the row and its view does not skip elements there), so that
    /// the general loop can run that row as a plain array loop, which vectorises: a domain of a
    /// stream, or an input repeated down the rows like the paper's x<1, n> in SGEMV. Null
    /// otherwise.
    T* unit_row(std::size_t index) {
        if (in_length_ != row_length_ || stride_ != 1) {
            return nullptr;
        }
        if (index < row_first_ || index >= row_end_) {
            start_row(index);
        }
        return reinterpret_cast<T*>(row_) + (index - row_first_);
    }

private:
    void start_row(std::size_t index) {
        row_first_ = index - index % row_length_;
        row_end_ = row_first_ + row_length_;
        std::size_t rest = index / row_length_;
        std::size_t offset = 0;
        for (std::size_t d = last_; d-- > 0;) {
            const std::size_t out = frame_->output_extents[d];
            offset += (rest % out * view_.extents[d] / out) * view_.strides[d];
            rest /= out;
        }
        row_ = view_.data + offset * sizeof(T);
    }

    const StreamView& view_;
    const Frame* frame_;
    std::size_t last_;
    std::size_t row_length_; ///< of the output domain
    std::size_t in_length_;  ///< of the stream's last dimension
    std::size_t stride_;     ///< of the stream's last dimension, in elements
    /// The current row: its output indices [row_first_, row_end_) and where it starts in the
    /// stream. Empty at first, so that the first access starts a row.
    std::size_t row_first_ = 1;
    std::size_t row_end_ = 0;
    std::byte* row_ = nullptr;
};

namespace detail {

/// The position of output element `index` in `view` (resized to the output's shape), or in the
/// output itself when `view` is null, as a float4 whose .x is the last dimension.
inline float4 element_position(const Frame& frame, const StreamView* view, std::size_t index) {
    float4 position;
    for (int d = frame.output_rank - 1, component = 0; d >= 0; --d, ++component) {
        const auto dim = static_cast<std::size_t>(d);
        const std::size_t out = frame.output_extents[dim];
        // The slowest dimension takes what is left, and an input of the output's extent needs
        // no scaling: a 1-D call of same-shaped streams divides nothing.
        const std::size_t i = d == 0 ? index : index % out;
        index /= d == 0 ? 1 : out;
        const std::size_t extent = view != nullptr && d < view->rank ? view->extents[dim] : out;
        position[component] = static_cast<float>(extent == out ? i : i * extent / out);
    }
    return position;
}

} // namespace detail

/// `indexof(s)`: the position of output element `index` in stream parameter `param`, as a float4
/// whose .x is the last dimension (an input of another shape is resized as it is read).
inline float4 indexof(const Frame& frame, int param, std::size_t index) {
    return detail::element_position(frame, &frame.args[param].stream, index);
}

/// Positions along one output row of a dense call, for kernels that use indexof. Every stream
/// of a dense call has the output's shape, so an element's position is the same in all of them,
/// and along a row only .x changes, by one per element: worked out from the row's first element
/// once, indexof costs an addition, where the division per dimension of the general indexof
/// would keep the element loop from vectorising. The column is added as an integer and then
/// converted, so that .x rounds as the general indexof's does beyond 2^24.
class DenseRow {
public:
    DenseRow(const Frame& frame, std::size_t first)
        : first_(first),
          first_column_(first % frame.output_extents[static_cast<std::size_t>(
                                    frame.output_rank - 1)]),
          start_(detail::element_position(frame, nullptr, first)) {}

    float4 at(std::size_t index) const {
        float4 position = start_;
        position.x = static_cast<float>(first_column_ + (index - first_));
        return position;
    }

private:
    std::size_t first_;
    std::size_t first_column_;
    float4 start_;
};

/// `indexof(s)` in a dense call's row loop: see DenseRow.
inline float4 indexof(const DenseRow& row, int /*param*/, std::size_t index) {
    return row.at(index);
}

namespace detail {

/// Folds `count` elements, `stride` apart, into `result` (or starts it from the first element
/// when `first`). A long contiguous run is cut into `chains` consecutive parts folded side by
/// side, each into its own accumulator, which are then joined in order: the operands are
/// re-associated, never re-ordered, and the independent chains keep the core's adders busy
/// where one chain would wait on each step's latency.
template <class T, class Combine>
void fold_run(const T* data, std::size_t count, std::size_t stride, T& result, bool& first,
              Combine& combine) {
    constexpr std::size_t chains = 8;
    constexpr std::size_t min_part = 32;
    if (count == 0) {
        return;
    }
    std::size_t start = 0;
    if (first) {
        result = data[0];
        first = false;
        start = 1;
    }
    if (stride != 1 || count - start < chains * min_part) {
        for (std::size_t i = start; i < count; ++i) {
            combine(data[i * stride], result);
        }
        return;
    }
    const T* run = data + start;
    const std::size_t length = count - start;
    const std::size_t part = length / chains;
    T partial[chains];
    for (std::size_t c = 0; c < chains; ++c) {
        partial[c] = run[c * part];
    }
    for (std::size_t i = 1; i < part; ++i) {
        for (std::size_t c = 0; c < chains; ++c) {
            combine(run[c * part + i], partial[c]);
        }
    }
    // The elements after the last full part continue its chain.
    for (std::size_t i = chains * part; i < length; ++i) {
        combine(run[i], partial[chains - 1]);
    }
    for (std::size_t c = 0; c < chains; ++c) {
        combine(partial[c], result);
    }
}

} // namespace detail

/// Folds the elements of `view` inside `box` in row-major order: the accumulator becomes the
/// first element, then `combine(element, accumulator)` takes each next one (long rows are
/// re-associated, see detail::fold_run). The fold runs on a local copy, so the accumulator
/// stays in registers rather than in memory the compiler must assume the input may alias.
template <class T, class Combine>
void fold_box(const StreamView& view, const Box& box, T& accumulator, Combine combine) {
    // The view's dimensions right-aligned in four, so that the innermost loop runs along its
    // last dimension whatever its rank.
    std::array<std::size_t, 4> lo{0, 0, 0, 0};
    std::array<std::size_t, 4> hi{1, 1, 1, 1};
    std::array<std::size_t, 4> stride{0, 0, 0, 0};
    const int shift = 4 - view.rank;
    for (int d = 0; d < view.rank; ++d) {
        const auto from = static_cast<std::size_t>(d);
        const auto to = static_cast<std::size_t>(d + shift);
        lo[to] = box.lo[from];
        hi[to] = box.hi[from];
        stride[to] = view.strides[from];
    }
    const T* base = reinterpret_cast<const T*>(view.data);
    T result{};
    bool first = true;
    for (std::size_t i0 = lo[0]; i0 < hi[0]; ++i0) {
        for (std::size_t i1 = lo[1]; i1 < hi[1]; ++i1) {
            for (std::size_t i2 = lo[2]; i2 < hi[2]; ++i2) {
                const T* row = base + i0 * stride[0] + i1 * stride[1] + i2 * stride[2];
                detail::fold_run(row + lo[3] * stride[3], hi[3] - lo[3], stride[3], result, first,
                                 combine);
            }
        }
    }
    accumulator = result;
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
