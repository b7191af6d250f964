// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
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

template <class Value> struct traits {
    using scalar = Value;
    static constexpr int width = 1;
};
template <class Scalar, int Components> struct traits<vec<Scalar, Components>> {
    using scalar = Scalar;
    static constexpr int width = Components;
};
/// A named vector (float4, the class of host code) as the vec it derives from.
template <class Value>
requires requires {
    typename Value::brook_host_vector_base;
}
struct traits<Value> : traits<typename Value::brook_host_vector_base> {};

template <class Value> using scalar_t = typename traits<portable::remove_cvref_t<Value>>::scalar;
template <class Value> constexpr int width_v = traits<portable::remove_cvref_t<Value>>::width;

/// Component I of a vector (or the scalar itself: scalars broadcast).
template <int Index, class Value> constexpr decltype(auto) get(Value&& x) {
    using Plain = portable::remove_cvref_t<Value>;
    if constexpr (traits<Plain>::width == 1) {
        return (x);
    } else if constexpr (Index == 0) {
        return (x.x);
    } else if constexpr (Index == 1) {
        return (x.y);
    } else if constexpr (Index == 2) {
        return (x.z);
    } else {
        static_assert(Index == 3, "component index out of range");
        return (x.w);
    }
}

/// Scalar for width 1, vec<Scalar, Components> otherwise.
template <class Scalar, int Components> struct value_type { using type = vec<Scalar, Components>; };
template <class Scalar> struct value_type<Scalar, 1> { using type = Scalar; };
template <class Scalar, int Components>
using value_t = typename value_type<Scalar, Components>::type;

template <class Function, class... Value, size_t... Indices>
constexpr auto map_impl(portable::index_sequence<Indices...>, Function f, const Value&... x) {
    if constexpr (sizeof...(Indices) == 1) {
        return f(x...);
    } else {
        const auto component = [&](auto index) { return f(get<decltype(index)::value>(x)...); };
        using Result = decltype(component(portable::integral_constant<int, 0>{}));
        return vec<Result, static_cast<int>(sizeof...(Indices))>(
            component(portable::integral_constant<int, static_cast<int>(Indices)>{})...);
    }
}

template <class... Value> constexpr int max_width() {
    int width = 1;
    ((width = width_v<Value> > width ? width_v<Value> : width), ...);
    return width;
}

/// f applied component by component; scalar arguments broadcast to the widest argument.
template <class Function, class... Value> constexpr auto map(Function f, const Value&... x) {
    constexpr int width = max_width<Value...>();
    return map_impl(portable::make_index_sequence<static_cast<size_t>(width)>{}, f, x...);
}

template <class Value, size_t... Indices>
constexpr bool any_impl(portable::index_sequence<Indices...>, const Value& x) {
    return ((get<static_cast<int>(Indices)>(x) != scalar_t<Value>{}) || ...);
}
template <class Value, size_t... Indices>
constexpr bool all_impl(portable::index_sequence<Indices...>, const Value& x) {
    return ((get<static_cast<int>(Indices)>(x) != scalar_t<Value>{}) && ...);
}
template <class Value, size_t... Indices>
constexpr auto dot_impl(portable::index_sequence<Indices...>, const Value& a, const Value& b) {
    return ((get<static_cast<int>(Indices)>(a) * get<static_cast<int>(Indices)>(b)) + ...);
}

/// std::min(std::max(v, lo), hi), the same comparisons in the same order (NaN stays NaN).
template <class Scalar> constexpr Scalar clamp_to(Scalar v, Scalar lo, Scalar hi) {
    const Scalar low = v < lo ? lo : v;
    return hi < low ? hi : low;
}

template <class Value> constexpr auto indices() {
    return portable::make_index_sequence<static_cast<size_t>(width_v<Value>)>{};
}

} // namespace detail

/// A struct field of a vector type as the vec it is: host code's named vectors (float3) derive
/// from theirs (brook/vector.hpp). An lvalue stays one, so the field can be assigned.
///@{
template <class Scalar, int Components>
constexpr vec<Scalar, Components>& field(vec<Scalar, Components>& v) {
    return v;
}
template <class Scalar, int Components>
constexpr const vec<Scalar, Components>& field(const vec<Scalar, Components>& v) {
    return v;
}
template <class Scalar, int Components>
constexpr vec<Scalar, Components> field(vec<Scalar, Components>&& v) {
    return v;
}
///@}

// ---------------------------------------------------------------------------------------------
// Conditions, swizzles, write masks, conversions

/// A Brook condition: a scalar is true when non-zero, a vector when any component is.
template <class Value> constexpr bool truth(const Value& x) {
    return detail::any_impl(detail::indices<Value>(), x);
}

/// `c ? a : b` with a vector condition: each component chosen by the condition's component.
template <class Condition, class IfTrue, class IfFalse>
constexpr auto select(const Condition& c, const IfTrue& a, const IfFalse& b) {
    return detail::map([](auto ci, auto ai, auto bi) { return ci != decltype(ci){} ? ai : bi; }, c,
                       a, b);
}

/// `v.zyx`: the components Indices... of v (a scalar's swizzle repeats the scalar).
template <int... Indices, class Value> constexpr auto swizzle(const Value& v) {
    if constexpr (sizeof...(Indices) == 1) {
        return (detail::get<Indices>(v), ...);
    } else {
        return vec<detail::scalar_t<Value>, static_cast<int>(sizeof...(Indices))>(
            detail::get<Indices>(v)...);
    }
}

/// `v.xz = value`: assigns the components of value to the components Indices... of v; gives value.
template <int... Indices, class Scalar, int Components, class Value>
constexpr vec<Scalar, static_cast<int>(sizeof...(Indices))> assign_mask(vec<Scalar, Components>& v,
                                                                        const Value& value) {
    const vec<Scalar, static_cast<int>(sizeof...(Indices))> source(value);
    int next = 0;
    ((detail::get<Indices>(v) = source[next++]), ...);
    return source;
}

/// A write mask `v.zw` passed to a called kernel's `out` parameter (COMPAT 1.2), which copies
/// the components in as one vector and assigns them back when the kernel returns.
template <class Vector, int... Indices> class MaskedLvalue {
public:
    using value_type = vec<detail::scalar_t<Vector>, static_cast<int>(sizeof...(Indices))>;
    constexpr explicit MaskedLvalue(Vector& v) : v_(v) {}
    constexpr operator value_type() const { return swizzle<Indices...>(v_); }
    constexpr MaskedLvalue& operator=(const value_type& value) {
        assign_mask<Indices...>(v_, value);
        return *this;
    }

private:
    Vector& v_;
};

template <int... Indices, class Scalar, int Components>
constexpr MaskedLvalue<vec<Scalar, Components>, Indices...> masked(vec<Scalar, Components>& v) {
    return MaskedLvalue<vec<Scalar, Components>, Indices...>(v);
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
        return [&]<size_t... Indices>(portable::index_sequence<Indices...>) {
            return To(
                static_cast<detail::scalar_t<To>>(detail::get<static_cast<int>(Indices)>(from))...);
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
template <class Left, class Right> constexpr auto logical_and(const Left& a, const Right& b) {
    return detail::map([](auto x, auto y) { return x != decltype(x){} && y != decltype(y){}; }, a,
                       b);
}
template <class Left, class Right> constexpr auto logical_or(const Left& a, const Right& b) {
    return detail::map([](auto x, auto y) { return x != decltype(x){} || y != decltype(y){}; }, a,
                       b);
}
template <class Operand> constexpr auto logical_not(const Operand& a) {
    return detail::map([](auto x) { return x == decltype(x){}; }, a);
}

// ---------------------------------------------------------------------------------------------
// Signed integer arithmetic with wrap-around

namespace detail {
/// a op b for signed integers, computed on the unsigned type (where overflow is defined) and
/// converted back (modular since C++20): two's complement wrap-around, as Brook defines it.
template <class Scalar, class Op> constexpr Scalar wrapped(Scalar a, Scalar b, Op op) {
    using Unsigned = portable::make_unsigned_t<Scalar>;
    return static_cast<Scalar>(
        static_cast<Unsigned>(op(static_cast<Unsigned>(a), static_cast<Unsigned>(b))));
}
} // namespace detail

template <class Left, class Right> constexpr auto wrapping_add(const Left& a, const Right& b) {
    return detail::map(
        [](auto x, auto y) { return detail::wrapped(x, y, [](auto l, auto r) { return l + r; }); },
        a, b);
}
template <class Left, class Right> constexpr auto wrapping_sub(const Left& a, const Right& b) {
    return detail::map(
        [](auto x, auto y) { return detail::wrapped(x, y, [](auto l, auto r) { return l - r; }); },
        a, b);
}
template <class Left, class Right> constexpr auto wrapping_mul(const Left& a, const Right& b) {
    return detail::map(
        [](auto x, auto y) { return detail::wrapped(x, y, [](auto l, auto r) { return l * r; }); },
        a, b);
}
template <class Operand> constexpr auto wrapping_neg(const Operand& a) {
    return wrapping_sub(detail::scalar_t<Operand>{}, a);
}
template <class Target, class Value>
constexpr Target& wrapping_add_assign(Target& target, const Value& value) {
    return target = wrapping_add(target, value);
}
template <class Target, class Value>
constexpr Target& wrapping_sub_assign(Target& target, const Value& value) {
    return target = wrapping_sub(target, value);
}
template <class Target, class Value>
constexpr Target& wrapping_mul_assign(Target& target, const Value& value) {
    return target = wrapping_mul(target, value);
}
template <class Target> constexpr Target& wrapping_pre_increment(Target& target) {
    return wrapping_add_assign(target, detail::scalar_t<Target>(1));
}
template <class Target> constexpr Target& wrapping_pre_decrement(Target& target) {
    return wrapping_sub_assign(target, detail::scalar_t<Target>(1));
}
template <class Target> constexpr Target wrapping_post_increment(Target& target) {
    const Target old = target;
    wrapping_add_assign(target, detail::scalar_t<Target>(1));
    return old;
}
template <class Target> constexpr Target wrapping_post_decrement(Target& target) {
    const Target old = target;
    wrapping_sub_assign(target, detail::scalar_t<Target>(1));
    return old;
}

// ---------------------------------------------------------------------------------------------
// Integer division and remainder, defined for every operand (brook::detail::wrapping_div)

namespace detail {
/// Operands promoted to their common type first, as C does (char / char computes in int).
template <class Scalar, class Other> using promoted_t = decltype(Scalar{} + Other{});
} // namespace detail

template <class Left, class Right> constexpr auto divide(const Left& a, const Right& b) {
    return detail::map(
        [](auto x, auto y) {
            using Common = detail::promoted_t<decltype(x), decltype(y)>;
            return brook::detail::wrapping_div(static_cast<Common>(x), static_cast<Common>(y));
        },
        a, b);
}
template <class Left, class Right> constexpr auto remainder(const Left& a, const Right& b) {
    return detail::map(
        [](auto x, auto y) {
            using Common = detail::promoted_t<decltype(x), decltype(y)>;
            return brook::detail::remainder_of(static_cast<Common>(x), static_cast<Common>(y));
        },
        a, b);
}
/// `x /= y` and `x %= y`: the result stored back into x's type (a char wraps around, as in C).
template <class Target, class Value>
constexpr Target& divide_assign(Target& target, const Value& value) {
    return target = static_cast<Target>(divide(target, value));
}
template <class Target, class Value>
constexpr Target& remainder_assign(Target& target, const Value& value) {
    return target = static_cast<Target>(remainder(target, value));
}

// ---------------------------------------------------------------------------------------------
// Gathers

/// DESIGN.md §2's gather index rule for one index of a dimension of `extent` elements:
/// floor(v + 0.25) clamped to [0, extent - 1], NaN giving 0; integers are only clamped.
/// `narrow`, allowed for an extent of at most 2^31, converts a float index through a 32-bit
/// integer, which AVX2 converts a vector of at once, where it has no conversion to 64-bit
/// integers (a loop that makes one stays scalar); it is meant to be a constant the compiler folds.
template <class Index>
constexpr size_t gather_index(Index value, size_t extent, bool narrow = false) {
    // Selects rather than branches, and no floor (which GCC vectorises only without
    // -ftrapping-math), so that a loop of gathers vectorises. For a float index s = v + 0.25:
    // floor(s) <= 0 exactly when s < 1, where truncation also gives 0, and above that
    // truncation is floor; floor(s) >= extent - 1 exactly when s >= extent - 1.
    if constexpr (portable::is_floating_point_v<Index>) {
        const Index shifted = value + Index(0.25);
        // Written so that NaN selects 0.
        const Index low = shifted > Index(0) ? shifted : Index(0);
        // Converted through a signed integer, one instruction on x86-64 where an unsigned
        // conversion takes a branch, and only where `low` is below extent - 1: far below 2^63,
        // and below 2^31 where narrow.
        return low < static_cast<Index>(extent - 1)
                   ? (narrow ? static_cast<size_t>(static_cast<unsigned>(static_cast<int>(low)))
                             : static_cast<size_t>(static_cast<long long>(low)))
                   : extent - 1;
    } else {
        const Index low = value > Index(0) ? value : Index(0);
        const auto unsigned_value = static_cast<size_t>(low);
        return unsigned_value < extent ? unsigned_value : extent - 1;
    }
}

/// A gather parameter read with indices of up to Rank components (the body's widest index,
/// COMPAT.md §1.9), bound to the array at `data` of `rank` dimensions, extents[d] elements along
/// dimension d (slowest first), consecutive indices of dimension d strides[d] elements apart.
/// The stream's rank counts, not the parameter's brackets: a stream of fewer than Rank dimensions
/// gets leading dimensions of extent 1, so index components beyond its rank are clamped to 0
/// (ignored); one index component is a row-major element offset. A stream of more than Rank > 1
/// dimensions is refused before the launch, and one read with single indices has contiguous
/// elements (the runtime makes a dense copy of other views). Indices follow gather_index.
/// Offsets are size_t (64-bit), so arrays beyond 2^31 elements address exactly.
/// A gather made narrow (cpu::Gather), for an array of fewer than 2^31 elements, has float
/// indices follow gather_index's narrow conversion. That is a run-time flag, which the C++
/// compiler folds only where it is a constant: the CPU backend compiles a kernel's dense loops
/// with it set, for the calls whose arrays allow it.
template <class Element, int Rank> class Gather {
public:
    constexpr Gather(const Element* data, int rank, const size_t* extents, const size_t* strides)
        : data_(data), bound_rank_(rank) {
        for (int d = 0; d < rank; ++d) {
            bound_extents_[d] = extents[d];
            bound_strides_[d] = strides[d];
        }
        const int missing = Rank - rank;
        for (int d = 0; d < Rank; ++d) {
            const auto dim = static_cast<size_t>(d);
            extents_[dim] = d < missing ? 1 : extents[d - missing];
            strides_[dim] = d < missing ? 0 : strides[d - missing];
        }
        for (int d = 0; d < rank; ++d) {
            count_ *= extents[d];
        }
        constexpr size_t int_max = ~0u >> 1;
        last_offset_ = static_cast<int>(count_ - 1 < int_max ? count_ - 1 : int_max);
        if (rank > Rank) {
            // Rank is 1: the body reads element offsets of the contiguous stream.
            extents_[0] = count_;
            strides_[0] = 1;
        }
    }

    /// A called kernel's gather parameter, bound to the caller's gather of another view rank
    /// (COMPAT.md §1.8): the same stream, whose index meaning follows its rank (§1.9).
    template <int OtherRank>
    constexpr Gather(const Gather<Element, OtherRank>& other) // NOLINT(google-explicit-constructor)
        : Gather(other.data_, other.bound_rank_, other.bound_extents_, other.bound_strides_) {
        narrow_float_indices_ = other.narrow_float_indices_;
    }

    /// `g[i0][i1]`: one index per dimension of the last ones, slowest first (the dimensions
    /// before them read index 0); `g[i]` of a gather of Rank > 1 is the row-major element offset i.
    /// Always inlined: a call in a kernel's loop keeps it scalar, and GCC left it out of line
    /// in the larger loop functions (the ray tracer's shading took 1.6 times as long). A vector
    /// element read through an int offset comes as a copy (see read_components), any other as a
    /// reference to the element.
    template <class... Indices>
    BROOK_ALWAYS_INLINE constexpr decltype(auto) at(Indices... indices) const {
        static_assert(sizeof...(Indices) <= static_cast<size_t>(Rank),
                      "a gather takes at most one index per dimension");
        if constexpr (sizeof...(Indices) == 1 && (narrow_signed<Indices> && ...)) {
            return read_components(data_[(narrow_offset(indices) + ...)]);
        } else if constexpr (sizeof...(Indices) == 1 && Rank > 1) {
            return data_[(index_in(indices, count_) + ...)];
        } else {
            size_t offset = 0;
            size_t d = static_cast<size_t>(Rank) - sizeof...(Indices);
            ((offset += index_in(indices, extents_[d]) * strides_[d], ++d), ...);
            return data_[offset];
        }
    }

    /// Whether a SIMD loop's counter, running over [lower, end), can index dimension `d`
    /// through at_in_range: it stays inside the extent, and consecutive indices of the last
    /// dimension are consecutive elements.
    constexpr bool covers(int d, long long lower, long long end) const {
        const auto dim = static_cast<size_t>(d);
        return lower >= 0 && end <= static_cast<long long>(extents_[dim]) &&
               (d != Rank - 1 || strides_[dim] == 1);
    }

    /// `g[i0][i1]` inside a SIMD loop whose counter indexes the dimensions set in InRange (bit d
    /// for dimension d) where `covers` held before the loop: those indices are used as they
    /// are, so that consecutive iterations read consecutive elements (the last dimension's
    /// stride is known to be 1); the others follow the index rule.
    template <unsigned InRange, class... Indices>
    constexpr const Element& at_in_range(Indices... indices) const {
        static_assert(sizeof...(Indices) == static_cast<size_t>(Rank),
                      "a gather takes one index per dimension");
        return [&]<size_t... Dimension>(portable::index_sequence<Dimension...>)->const Element& {
            return data_[(term<InRange, Dimension>(indices) + ...)];
        }
        (portable::make_index_sequence<static_cast<size_t>(Rank)>{});
    }

    /// `g[float2(x, y)]`: one vector index whose .x is the last (fastest) dimension.
    template <class Position> constexpr decltype(auto) at_vector(const Position& position) const {
        constexpr int width = detail::width_v<Position>;
        static_assert(width <= Rank, "a gather's vector index has at most one component per "
                                     "dimension");
        return [&]<size_t... Indices>(portable::index_sequence<Indices...>)->decltype(auto) {
            return at(detail::get<width - 1 - static_cast<int>(Indices)>(position)...);
        }
        (portable::make_index_sequence<static_cast<size_t>(width)>{});
    }

protected:
    /// Whether float indices convert through 32-bit integers (see the class comment).
    bool narrow_float_indices_ = false;

private:
    /// A vector element read one component at a time, anything else as it is. GCC 12 vectorises
    /// a loop's reads of an element at a computed offset as one gather per component only where
    /// each is a component of the element (`e.y`); copying the element whole reads `*(&e + 4)`,
    /// which it does not gather, and the loop stays scalar (bitonic_pass's `list[j ^ d]`). The
    /// components are named here: read through detail::get, which returns a reference, they
    /// become `*(&e + 4)` again and the loop stays scalar.
    static constexpr decltype(auto) read_components(const Element& e) {
        if constexpr (::brook::detail::is_vec<Element>::value) {
            if constexpr (detail::width_v<Element> == 4) {
                return Element(e.x, e.y, e.z, e.w);
            } else if constexpr (detail::width_v<Element> == 3) {
                return Element(e.x, e.y, e.z);
            } else {
                return Element(e.x, e.y);
            }
        } else {
            return e;
        }
    }

    template <class Index>
    static constexpr bool
        narrow_signed = portable::is_integral_v<Index>&& portable::is_signed_v<Index> &&
                        sizeof(Index) <= sizeof(int);

    /// The offset of element gather_index(value, count_) for an int (or narrower) element
    /// offset, computed in int: a loop of such reads vectorises with 32-bit lanes and gathers
    /// (8 to an AVX2 register, where 64-bit offsets fit 4). Clamping to INT_MAX where count_ is
    /// beyond 2^31 changes nothing, since an int never exceeds it; and the element's offset is
    /// its index, the stream being contiguous (see the class comment), so no stride multiplies
    /// it.
    template <class Index> constexpr int narrow_offset(Index value) const {
        const int low = value > Index(0) ? static_cast<int>(value) : 0;
        return low < last_offset_ ? low : last_offset_;
    }

    /// gather_index, narrow where the gather was made narrow.
    template <class Index> constexpr size_t index_in(Index value, size_t extent) const {
        return gather_index(value, extent, narrow_float_indices_);
    }

    /// The part of dimension Dimension in an element's offset, for at_in_range.
    template <unsigned InRange, size_t Dimension, class Index>
    constexpr size_t term(Index index_value) const {
        if constexpr (((InRange >> Dimension) & 1u) == 0) {
            return index_in(index_value, extents_[Dimension]) * strides_[Dimension];
        } else if constexpr (Dimension == static_cast<size_t>(Rank - 1)) {
            return static_cast<size_t>(index_value);
        } else {
            return static_cast<size_t>(index_value) * strides_[Dimension];
        }
    }

    template <class, int> friend class Gather;

    const Element* data_;
    size_t extents_[Rank]{};
    size_t strides_[Rank]{};
    size_t count_ = 1;    ///< elements of the bound stream
    int last_offset_ = 0; ///< count_ - 1, or INT_MAX when that is larger: see narrow_offset
    /// The bound stream's own shape, from which a gather of another view rank is made.
    int bound_rank_;
    size_t bound_extents_[4]{};
    size_t bound_strides_[4]{};
};

/// Brook+'s scatter index rule for one index of a dimension of `extent` elements (BROOKPLUS.md
/// §4.7): floor(v + 0.25) for a float (NaN giving 0), as a gather's, but an index outside
/// [0, extent - 1] names no element; returns false then.
template <class Index> constexpr bool scatter_index(Index value, size_t extent, size_t& index) {
    if constexpr (portable::is_floating_point_v<Index>) {
        const Index shifted = value + Index(0.25);
        if (shifted != shifted) {
            index = 0;
            return true;
        }
        // Truncation is floor for shifted >= 0.
        if (!(shifted >= Index(0)) || !(shifted < static_cast<Index>(extent)))
            return false;
        index = static_cast<size_t>(shifted);
        return index < extent;
    } else {
        if (value < Index(0) || static_cast<size_t>(value) >= extent)
            return false;
        index = static_cast<size_t>(value);
        return true;
    }
}

/// A scatter output parameter (BROOKPLUS.md §4.7), `out T o[]` to `o[][][][]`, written with
/// indices of up to Rank components and bound to the stream at `data` as a Gather is (the
/// stream's rank counts: a dimension it lacks has extent 1; one component is a row-major
/// element offset). `o[i] = v` stores v whole at the element the index names (scatter_index);
/// an index outside the stream names the object's own sink, so the write is dropped. A call
/// makes one Scatter per thread (per CPU loop, per GPU thread), so the sink is private to it.
template <class Element, int Rank> class Scatter {
public:
    constexpr Scatter(Element* data, int rank, const size_t* extents, const size_t* strides)
        : data_(data), bound_rank_(rank) {
        for (int d = 0; d < rank; ++d) {
            bound_extents_[d] = extents[d];
            bound_strides_[d] = strides[d];
            count_ *= extents[d];
        }
        // Dimensions the stream lacks (it has fewer than Rank) have extent 1: an index
        // component there other than 0 names no element.
        const int missing = Rank - rank;
        for (int d = 0; d < Rank; ++d) {
            const auto dim = static_cast<size_t>(d);
            extents_[dim] = d < missing ? 1 : extents[d - missing];
            strides_[dim] = d < missing ? 0 : strides[d - missing];
        }
    }

    /// `o[i0][i1] = v`: one index per dimension of the last ones, slowest first; `o[i]` of a
    /// stream of more dimensions is the row-major element offset i.
    template <class... Indices> constexpr Element& at(Indices... indices) const {
        static_assert(sizeof...(Indices) <= static_cast<size_t>(Rank),
                      "a scatter output takes at most one index per dimension");
        if constexpr (sizeof...(Indices) == 1) {
            if (bound_rank_ > 1)
                return at_offset(indices...);
        }
        size_t offset = 0;
        bool inside = true;
        size_t d = static_cast<size_t>(Rank) - sizeof...(Indices);
        ((inside = inside && add_term(indices, d, offset), ++d), ...);
        return inside ? data_[offset] : sink_;
    }

    /// `o[int2(x, y)] = v`: one vector index whose .x is the last (fastest) dimension.
    template <class Position> constexpr Element& at_vector(const Position& position) const {
        constexpr int width = detail::width_v<Position>;
        static_assert(width <= Rank, "a scatter output's vector index has at most one component "
                                     "per dimension");
        return [&]<size_t... Indices>(portable::index_sequence<Indices...>)->Element& {
            return at(detail::get<width - 1 - static_cast<int>(Indices)>(position)...);
        }
        (portable::make_index_sequence<static_cast<size_t>(width)>{});
    }

private:
    /// Adds dimension d's part of the element's offset; false where the index is outside.
    template <class Index> constexpr bool add_term(Index value, size_t d, size_t& offset) const {
        size_t index = 0;
        if (!scatter_index(value, extents_[d], index))
            return false;
        offset += index * strides_[d];
        return true;
    }

    /// The element at row-major offset `value` of the bound stream, whatever its strides.
    template <class Index> constexpr Element& at_offset(Index value) const {
        size_t element = 0;
        if (!scatter_index(value, count_, element))
            return sink_;
        size_t offset = 0;
        for (int d = bound_rank_ - 1; d >= 0; --d) {
            offset += element % bound_extents_[d] * bound_strides_[d];
            element /= bound_extents_[d];
        }
        return data_[offset];
    }

    Element* data_;
    size_t extents_[Rank]{}; ///< 1 for a dimension the stream lacks
    size_t strides_[Rank]{};
    size_t count_ = 1; ///< elements of the bound stream
    int bound_rank_;
    size_t bound_extents_[4]{};
    size_t bound_strides_[4]{};
    mutable Element sink_{};
};

/// Brook+'s `shared T s[Extent];` (BROOKPLUS.md §4.8): the array a group's threads share. `s[i]`
/// is element i clamped to [0, Extent - 1], read or written. An aggregate, so that CUDA can place
/// it in a block's shared memory.
template <class Element, size_t Extent> struct GroupShared {
    Element elements[Extent];

    template <class Index> constexpr Element& at(Index index) {
        return elements[gather_index(index, Extent)];
    }
};

// ---------------------------------------------------------------------------------------------
// Cg built-in functions. Component-wise ones accept scalars and vectors; scalar arguments
// broadcast against vector ones.

#define BROOK_LANG_UNARY(name, expression)                                                         \
    template <class Value> constexpr auto name(const Value& x) {                                   \
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

template <class Ordinate, class Abscissa>
constexpr auto atan2(const Ordinate& y, const Abscissa& x) {
    return detail::map([](auto a, auto b) { return portable::atan2(a, b); }, y, x);
}
template <class Left, class Right> constexpr auto fmod(const Left& a, const Right& b) {
    return detail::map([](auto x, auto y) { return portable::fmod(x, y); }, a, b);
}
template <class Left, class Right> constexpr auto pow(const Left& a, const Right& b) {
    return detail::map([](auto x, auto y) { return portable::pow(x, y); }, a, b);
}
/// x * 2^e.
template <class Mantissa, class Exponent>
constexpr auto ldexp(const Mantissa& x, const Exponent& e) {
    return detail::map([](auto m, auto n) { return m * portable::exp2(n); }, x, e);
}
template <class Left, class Right> constexpr auto max(const Left& a, const Right& b) {
    return detail::map([](auto x, auto y) { return x < y ? y : x; }, a, b);
}
template <class Left, class Right> constexpr auto min(const Left& a, const Right& b) {
    return detail::map([](auto x, auto y) { return y < x ? y : x; }, a, b);
}
template <class Value, class Low, class High>
constexpr auto clamp(const Value& x, const Low& lo, const High& hi) {
    return min(max(x, lo), hi);
}
/// step(a, x) = x >= a ? 1 : 0.
template <class Edge, class Value> constexpr auto step(const Edge& a, const Value& x) {
    return detail::map(
        [](auto edge, auto v) { return v >= edge ? decltype(v)(1) : decltype(v)(0); }, a, x);
}
/// lerp(a, b, t) = a + t * (b - a).
template <class From, class To, class Weight>
constexpr auto lerp(const From& a, const To& b, const Weight& t) {
    return detail::map([](auto x, auto y, auto s) { return x + s * (y - x); }, a, b, t);
}
/// Hermite interpolation between 0 (x <= a) and 1 (x >= b).
template <class Low, class High, class Value>
constexpr auto smoothstep(const Low& a, const High& b, const Value& x) {
    return detail::map(
        [](auto lo, auto hi, auto v) {
            using Scalar = decltype(v);
            const Scalar t = detail::clamp_to((v - lo) / (hi - lo), Scalar(0), Scalar(1));
            return t * t * (Scalar(3) - Scalar(2) * t);
        },
        a, b, x);
}

/// True when every component is non-zero.
template <class Value> constexpr bool all(const Value& x) {
    return detail::all_impl(detail::indices<Value>(), x);
}
/// True when any component is non-zero.
template <class Value> constexpr bool any(const Value& x) {
    return truth(x);
}

template <class Value> constexpr detail::scalar_t<Value> dot(const Value& a, const Value& b) {
    return detail::dot_impl(detail::indices<Value>(), a, b);
}
template <class Scalar>
constexpr vec<Scalar, 3> cross(const vec<Scalar, 3>& a, const vec<Scalar, 3>& b) {
    return vec<Scalar, 3>(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
template <class Value> constexpr detail::scalar_t<Value> length(const Value& v) {
    return portable::sqrt(dot(v, v));
}
template <class Value> constexpr detail::scalar_t<Value> distance(const Value& a, const Value& b) {
    return length(b - a);
}
template <class Value> constexpr Value normalize(const Value& v) {
    return v * (detail::scalar_t<Value>(1) / length(v));
}
/// The reflection of incident direction i about the normal n: i - 2 * dot(n, i) * n.
template <class Value> constexpr Value reflect(const Value& i, const Value& n) {
    return i - detail::scalar_t<Value>(2) * dot(n, i) * n;
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
