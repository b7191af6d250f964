// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// brook._brook, the module's C++ half: streams, kernels and the build of a source into a
// library. brook/__init__.py is the Python half (brook.compile, its cache, CompileError).
#include "kernel_call.hpp"
#include "library.hpp"
#include "stream_object.hpp"

#include "element_types.hpp"

#include <brook/brook.hpp>
#include <brook/runtime_control.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdlib>

namespace py = pybind11;

namespace brook::python {

namespace {

/// Bounds as a list, slowest dimension first: an int for a 1-D stream, else a sequence.
std::vector<int> bounds(const py::object& value) {
    if (py::isinstance<py::int_>(value)) {
        return {value.cast<int>()};
    }
    return value.cast<std::vector<int>>();
}

/// `s[a:b, c:d]`: the domain of those half-open ranges (step 1; a missing bound is the
/// stream's edge).
Stream slice(Stream& stream, const py::object& key) {
    const py::tuple keys =
        py::isinstance<py::tuple>(key) ? key.cast<py::tuple>() : py::make_tuple(key);
    const std::vector<std::size_t> extents = stream.handle().extents();
    if (keys.size() != extents.size()) {
        throw py::index_error("brook.stream: index it with one slice per dimension (" +
                              std::to_string(extents.size()) + ")");
    }
    std::vector<int> lo;
    std::vector<int> hi;
    for (std::size_t d = 0; d < keys.size(); ++d) {
        if (!py::isinstance<py::slice>(keys[d])) {
            throw py::index_error("brook.stream: a view takes slices (a:b), not single elements");
        }
        py::ssize_t start = 0;
        py::ssize_t stop = 0;
        py::ssize_t step = 0;
        py::ssize_t length = 0;
        if (!keys[d].cast<py::slice>().compute(static_cast<py::ssize_t>(extents[d]), &start, &stop,
                                               &step, &length) ||
            step != 1) {
            throw py::index_error("brook.stream: a view's slices have step 1");
        }
        lo.push_back(static_cast<int>(start));
        hi.push_back(static_cast<int>(std::max(start, stop)));
    }
    return stream.domain(lo, hi);
}

} // namespace

} // namespace brook::python

PYBIND11_MODULE(_brook, module) {
    using namespace brook;
    using namespace brook::python;
    // Every runtime error is thrown, and becomes a Python exception, rather than ending the
    // interpreter as it ends a Brook program.
    set_error_handler(throw_error);
    py::register_exception_translator([](std::exception_ptr thrown) {
        try {
            if (thrown) {
                std::rethrow_exception(thrown);
            }
        } catch (const error& e) {
            PyErr_SetString(PyExc_ValueError, e.message().c_str());
        }
    });

    py::class_<Stream>(module, "stream", R"(Elements kept on the backend between kernel calls.

stream(array, type=None): the array's elements. Without a type, the first kernel parameter the
stream is passed to decides it (a float32 array of shape (n, 4) passed as float4 is n float4s);
type="float4" decides it now.
stream(shape=(rows, cols), type="float4"): a stream not yet written.)")
        .def(py::init([](const py::object& array, const std::optional<std::string>& type,
                         const std::optional<std::vector<long long>>& shape) {
                 if (!array.is_none()) {
                     if (shape) {
                         throw py::type_error("brook.stream: give an array or a shape, not both");
                     }
                     return Stream(py::array::ensure(array), type);
                 }
                 if (!shape) {
                     throw py::type_error("brook.stream: give an array, or a shape and a type");
                 }
                 return Stream(element_type_named(type.value_or("float")), *shape);
             }),
             py::arg("array") = py::none(), py::arg("type") = py::none(), py::kw_only(),
             py::arg("shape") = py::none())
        .def("numpy", &Stream::numpy, "The elements, read back into a new array.")
        .def(
            "__array__",
            [](Stream& stream, const py::object& dtype, const py::object&) {
                py::array array = stream.numpy();
                return dtype.is_none() ? array : py::array(array.attr("astype")(dtype));
            },
            py::arg("dtype") = py::none(), py::arg("copy") = py::none())
        .def_property_readonly("shape", &Stream::shape)
        .def_property_readonly("type", &Stream::type_name, "The element type's name.")
        .def_property_readonly("dtype", &Stream::dtype, "The dtype of the arrays numpy() gives.")
        .def(
            "domain",
            [](Stream& stream, const py::object& lo, const py::object& hi) {
                return stream.domain(bounds(lo), bounds(hi));
            },
            py::arg("lo"), py::arg("hi"),
            "The view of [lo, hi), bounds slowest dimension first, sharing the stream's storage.")
        .def("__getitem__", &slice)
        .def("write", &Stream::write, py::arg("array"),
             "Writes the array's elements (of the stream's shape) into the stream.")
        .def("__repr__", &Stream::repr);

    py::class_<Kernel>(module, "Kernel")
        .def("__call__", &Kernel::call)
        .def("_cpp_call_seconds", &Kernel::cpp_call_seconds)
        .def_property_readonly("name", &Kernel::name)
        .def_property_readonly("signature", &Kernel::signature)
        .def("element_dtypes", &Kernel::element_dtypes,
             "The dtype of arrays of each element type its stream parameters take, by name.")
        .def("__repr__", [](const Kernel& kernel) { return "<brook " + kernel.signature() + ">"; });

    module.def(
        "build",
        [](const std::string& source, const std::string& library, const std::string& brcc,
           const std::vector<std::string>& include_dirs) {
            const BuildResult result = build_library(source, library, brcc, include_dirs);
            return py::make_tuple(result.built, result.diagnostics);
        },
        py::arg("source"), py::arg("library"), py::arg("brcc"), py::arg("include_dirs"));
    module.def("load", [](const std::string& library) {
        std::vector<Kernel> kernels;
        for (const KernelInfo* info : load_library(library)) {
            kernels.emplace_back(*info);
        }
        return kernels;
    });
    module.def(
        "use",
        [](const std::string& name) {
            initialize(name.c_str(), nullptr, std::source_location());
            // Threads that have not used Brook yet choose by BRT_RUNTIME.
            setenv("BRT_RUNTIME", name.c_str(), 1);
        },
        py::arg("name"));
    module.def("backend_name", [] { return std::string(runtime(std::source_location())->name()); });
    module.def("finish", [] {
        const py::gil_scoped_release unlocked;
        finish(std::source_location());
    });
    module.def("backends", [] {
        std::vector<std::string> names;
        for (const char** name = runtimeTargets(); *name != nullptr; ++name) {
            names.emplace_back(*name);
        }
        return names;
    });
}
