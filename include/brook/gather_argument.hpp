// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// What a kernel's gather parameter with every extent written (`float w[2][3]`, Brook+'s constant
// buffer, BROOKPLUS.md §3.4) takes in the stubs host code calls: a stream as any gather does
// (the sizes ignored), or a host array of exactly that shape, whose elements the call copies
// into a stream of those extents (later changes to the array do not matter). `w[i][j]` then
// reads row i, column j, as in C.

#include "brook/stream.hpp"

#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>

namespace brook {

namespace detail {

/// The type a stream element is known by: a named vector (float4) as the vec it derives from
/// (what brcc writes for a kernel's float4), C++'s plain char as Brook's signed char.
template <class Element> struct element_identity { using type = Element; };
template <> struct element_identity<char> { using type = signed char; };
template <class Element>
requires requires {
    typename Element::brook_host_vector_base;
}
struct element_identity<Element> {
    using type = typename Element::brook_host_vector_base;
};
/// Whether values of Given are elements of a parameter of type Element.
template <class Element, class Given>
inline constexpr bool same_element_v = std::is_same_v<typename element_identity<Element>::type,
                                                      typename element_identity<Given>::type>;

/// Whether Array is a C array of Extents... (outermost first) of Element's elements.
template <class Array, class Element, std::size_t... Extents> consteval bool array_of_shape() {
    if constexpr (std::rank_v<Array> != sizeof...(Extents)) {
        return false;
    } else {
        return same_element_v<Element,
                              std::remove_all_extents_t<Array>>&&[]<std::size_t... Dimensions>(
            std::index_sequence<Dimensions...>) {
            constexpr std::size_t wanted[] = {Extents...};
            return ((std::extent_v<Array, Dimensions> == wanted[Dimensions]) && ...);
        }
        (std::make_index_sequence<sizeof...(Extents)>());
    }
}

/// A stream of `extents` (outermost first) holding the array at `values`.
stream constant_buffer(const ElementType& type, std::span<const long long> extents,
                       const void* values, std::source_location where);

} // namespace detail

/// A gather argument of a parameter `Element name[Extents]...`.
template <class Element, std::size_t... Extents> class GatherArgument {
public:
    /// Any stream, as every gather takes.
    GatherArgument(const stream& s) : handle_(s) {} // NOLINT(google-explicit-constructor)
    /// A Brook+ Stream<T> of these elements.
    template <class Handle>
    requires detail::same_element_v<Element, typename Handle::value_type> &&
        requires(const Handle& h) {
        { h.handle() } -> std::convertible_to<const stream&>;
    }
    GatherArgument(const Handle& h) : handle_(h.handle()) {} // NOLINT(google-explicit-constructor)
    /// A host array of exactly the parameter's shape, copied into a new stream.
    template <class Array>
    requires(std::is_array_v<Array>&& detail::array_of_shape<Array, Element, Extents...>())
        GatherArgument(const Array& values, // NOLINT(google-explicit-constructor)
                       std::source_location where = std::source_location::current()) {
        const long long extents[] = {static_cast<long long>(Extents)...};
        handle_ = detail::constant_buffer(element_traits<Element>::type(), extents, &values, where);
    }

    /// The stream the call gathers from.
    const stream& handle() const { return handle_; }

private:
    stream handle_;
};

} // namespace brook
