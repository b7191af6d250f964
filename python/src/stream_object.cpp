// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "stream_object.hpp"

#include "element_types.hpp"

namespace py = pybind11;

namespace brook::python {

namespace {

/// `array` as a C-contiguous array (itself when it is one already).
py::array contiguous(const py::array& array) {
    return py::array::ensure(array, py::array::c_style);
}

/// `lo` as the vector stream::domain takes for `rank` dimensions: `.x` the last one.
template <class Vector> Vector bounds(const std::vector<int>& values) {
    Vector vector{};
    for (std::size_t i = 0; i < values.size(); ++i) {
        vector[static_cast<int>(values.size() - 1 - i)] = values[i];
    }
    return vector;
}

} // namespace

py::array array_of(const brook::stream& stream) {
    const ElementType& type = stream.element_type();
    std::vector<py::ssize_t> shape;
    for (const std::size_t extent : stream.extents()) {
        shape.push_back(static_cast<py::ssize_t>(extent));
    }
    if (const int components = component_axis(type); components != 0) {
        shape.push_back(components);
    }
    py::array array(element_dtype(type), shape);
    void* data = array.mutable_data();
    {
        const py::gil_scoped_release unlocked;
        stream.write(data, std::source_location());
    }
    return array;
}

void read_into(const brook::stream& stream, const py::array& array) {
    const py::array dense = contiguous(array);
    const void* data = dense.data();
    const py::gil_scoped_release unlocked;
    stream.read(data, std::source_location());
}

Stream::Stream(const py::array& array, const std::optional<std::string>& type)
    : waiting_(py::array::ensure(array)) {
    if (!waiting_) {
        throw py::type_error("brook.stream takes an array, or what numpy.asarray takes");
    }
    // A copy: the stream's elements are the array's as it is now, as with a backend's storage.
    waiting_ = waiting_.attr("copy")();
    if (type) {
        for_parameter(element_type_named(*type), "brook.stream");
    }
}

Stream::Stream(const ElementType& type, const std::vector<long long>& extents)
    : stream_(type, extents) {}

Stream::Stream(brook::stream stream) : stream_(std::move(stream)) {}

const brook::stream& Stream::for_parameter(const ElementType& type, std::string_view what) {
    if (!stream_.valid()) {
        const std::vector<long long> extents = stream_extents(waiting_, type, what);
        brook::stream made(type, extents);
        read_into(made, waiting_);
        stream_ = std::move(made);
        waiting_ = py::array();
    }
    return stream_;
}

const brook::stream& Stream::handle() {
    return stream_.valid() ? stream_
                           : for_parameter(element_type_of(waiting_.dtype()), "brook.stream");
}

py::array Stream::numpy() {
    if (!stream_.valid()) {
        return waiting_.attr("copy")();
    }
    return array_of(stream_);
}

py::tuple Stream::shape() {
    if (!stream_.valid()) {
        return py::getattr(waiting_, "shape");
    }
    py::list shape;
    for (const std::size_t extent : stream_.extents()) {
        shape.append(extent);
    }
    if (const int components = component_axis(stream_.element_type()); components != 0) {
        shape.append(components);
    }
    return py::tuple(shape);
}

std::string Stream::type_name() {
    return handle().element_type().name;
}

py::dtype Stream::dtype() {
    return stream_.valid() ? element_dtype(stream_.element_type()) : waiting_.dtype();
}

Stream Stream::domain(const std::vector<int>& lo, const std::vector<int>& hi) {
    const brook::stream& whole = handle();
    if (lo.size() != hi.size() || lo.size() != static_cast<std::size_t>(whole.rank())) {
        throw py::value_error("domain: the stream has " + std::to_string(whole.rank()) +
                              " dimensions; give as many lower and upper bounds, slowest first");
    }
    switch (lo.size()) {
    case 1:
        return Stream(whole.domain(lo[0], hi[0], std::source_location()));
    case 2:
        return Stream(whole.domain(bounds<int2>(lo), bounds<int2>(hi), std::source_location()));
    case 3:
        return Stream(whole.domain(bounds<int3>(lo), bounds<int3>(hi), std::source_location()));
    default:
        return Stream(whole.domain(bounds<int4>(lo), bounds<int4>(hi), std::source_location()));
    }
}

void Stream::write(const py::array& array) {
    const brook::stream& target = handle();
    const std::vector<long long> extents = stream_extents(array, target.element_type(), "write");
    const std::vector<std::size_t> own = target.extents();
    if (!std::equal(extents.begin(), extents.end(), own.begin(), own.end(),
                    [](long long a, std::size_t b) { return static_cast<std::size_t>(a) == b; })) {
        throw py::value_error("write: the array's shape is not the stream's " + target.describe());
    }
    read_into(target, array);
}

std::string Stream::repr() {
    if (!stream_.valid()) {
        return "brook.stream(" + py::repr(waiting_).cast<std::string>() + ")";
    }
    return "<brook.stream " + stream_.describe() + ">";
}

} // namespace brook::python
