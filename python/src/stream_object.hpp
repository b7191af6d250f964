// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// brook.stream: data kept on the backend between kernel calls. Made from an array without a
// type, a stream waits for its first use to learn its element type: passed to a float4
// parameter, a float32 array of shape (n, 4) becomes a stream of n float4s, as an array passed
// directly would; anywhere else (a view, reading it back) it is the array's own scalars.

#include <brook/stream.hpp>

#include <pybind11/numpy.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace brook::python {

/// The array of `stream`'s elements (element_types.hpp's layout), read back from the backend.
pybind11::array array_of(const brook::stream& stream);

/// Copies `array` (of the layout `stream`'s element type has, and its extents) into `stream`.
void read_into(const brook::stream& stream, const pybind11::array& array);

class Stream {
public:
    /// A stream of `array`'s elements: of the element type `type` names, else of the type the
    /// first parameter it meets takes.
    Stream(const pybind11::array& array, const std::optional<std::string>& type);
    /// A stream of `extents` elements of `type`, not yet written.
    Stream(const ElementType& type, const std::vector<long long>& extents);
    /// A handle of the runtime's `stream` (an output a call made, a view).
    explicit Stream(brook::stream stream);

    /// The runtime's stream for a parameter of `type`, `what` in messages: made now from the
    /// array, if it has not been, as elements of `type`.
    const brook::stream& for_parameter(const ElementType& type, std::string_view what);
    /// The runtime's stream, made now as the array's own scalars (or struct) if it has not been.
    const brook::stream& handle();
    /// Whether the runtime's stream exists yet (otherwise only its array does).
    bool made() const { return stream_.valid(); }

    /// The elements, read back from the backend (the array it waits with, copied).
    pybind11::array numpy();
    /// The stream's shape as NumPy gives it: the extents, then the components' axis.
    pybind11::tuple shape();
    /// The element type's name ("float4", or the struct's).
    std::string type_name();
    /// The dtype of the arrays numpy() gives (element_types.hpp).
    pybind11::dtype dtype();
    /// The view of [lo, hi) (bounds in NumPy's axis order, slowest first), sharing the storage.
    Stream domain(const std::vector<int>& lo, const std::vector<int>& hi);
    /// Writes `array`'s elements (the stream's layout and shape) into the stream.
    void write(const pybind11::array& array);
    std::string repr();

private:
    brook::stream stream_;
    pybind11::array waiting_; ///< the elements, until the first use says their type
};

} // namespace brook::python
