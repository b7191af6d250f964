// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "kernel_call.hpp"

#include "element_types.hpp"
#include "stream_object.hpp"

#include <brook/errors.hpp>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <numeric>
#include <optional>
#include <vector>

namespace py = pybind11;

namespace brook::python {

namespace {

/// A parameter the call writes: an output, a variable or scatter output, a reduce target
/// (param_kinds.def's `writes`).
bool is_output(ParamKind kind) {
    switch (kind) {
#define BROOK_PARAM_KIND(name, words, is_stream, reads, writes)                                    \
    case ParamKind::name:                                                                          \
        return writes;
#include "brook/param_kinds.def"
#undef BROOK_PARAM_KIND
    }
    return false;
}

std::string type_name(const ParamInfo& param) {
    return param.element_type == nullptr ? "bool" : param.element_type().name;
}

/// `float x<>` as the parameter was declared (a gather's brackets as one pair).
std::string declaration(const ParamInfo& param) {
    const std::string named = type_name(param) + " " + param.name;
    switch (param.kind) {
    case ParamKind::Constant:
        return named;
    case ParamKind::InputStream:
    case ParamKind::ReduceInput:
        return named + "<>";
    case ParamKind::OutputStream:
        return "out " + named + "<>";
    case ParamKind::Gather:
        return named + "[]";
    case ParamKind::ReduceAccumulator:
        return "reduce " + named + "<>";
    case ParamKind::VariableOutput:
        return "vout " + named + "<>";
    case ParamKind::ScatterOutput:
        return "out " + named + "[]";
    }
    return named;
}

/// Stores `value` at `at` as one component of `kind`, converted as C++ converts a double or
/// a long long to the host type (fixed and shortfixed from the value they read as).
void store_scalar(ScalarKind kind, py::handle value, std::byte* at) {
    const auto put = [at](auto scalar) { std::memcpy(at, &scalar, sizeof scalar); };
    switch (kind) {
    case ScalarKind::Float32:
        return put(static_cast<float>(value.cast<double>()));
    case ScalarKind::Float64:
        return put(value.cast<double>());
    case ScalarKind::Fixed8:
        return put(fixed(static_cast<float>(value.cast<double>())));
    case ScalarKind::Fixed16:
        return put(shortfixed(static_cast<float>(value.cast<double>())));
    case ScalarKind::Int32:
        return put(static_cast<int>(value.cast<long long>()));
    case ScalarKind::UInt32:
        return put(static_cast<unsigned>(value.cast<long long>()));
    case ScalarKind::Int8:
        return put(static_cast<signed char>(value.cast<long long>()));
    case ScalarKind::UInt8:
        return put(static_cast<unsigned char>(value.cast<long long>()));
    case ScalarKind::Int16:
        return put(static_cast<short>(value.cast<long long>()));
    case ScalarKind::UInt16:
        return put(static_cast<unsigned short>(value.cast<long long>()));
    }
}

/// One component of `kind` at `at`, as a Python number (fixed and shortfixed as the floats
/// they read as).
py::object load_scalar(ScalarKind kind, const std::byte* at) {
    const auto get = [at]<class Scalar>(Scalar scalar) {
        std::memcpy(&scalar, at, sizeof scalar);
        return scalar;
    };
    switch (kind) {
    case ScalarKind::Float32:
        return py::float_(get(0.0f));
    case ScalarKind::Float64:
        return py::float_(get(0.0));
    case ScalarKind::Fixed8:
        return py::float_(static_cast<float>(get(fixed())));
    case ScalarKind::Fixed16:
        return py::float_(static_cast<float>(get(shortfixed())));
    case ScalarKind::Int32:
        return py::int_(get(0));
    case ScalarKind::UInt32:
        return py::int_(get(0U));
    case ScalarKind::Int8:
        return py::int_(get(static_cast<signed char>(0)));
    case ScalarKind::UInt8:
        return py::int_(get(static_cast<unsigned char>(0)));
    case ScalarKind::Int16:
        return py::int_(get(static_cast<short>(0)));
    case ScalarKind::UInt16:
        return py::int_(get(static_cast<unsigned short>(0)));
    }
    return py::none();
}

/// A constant argument as the bytes of the parameter's C++ type: a number, a sequence of a
/// vector's components, or for a struct what numpy.asarray makes of it with the struct's dtype
/// (a tuple, a structured scalar).
std::vector<std::byte> constant_bytes(const ParamInfo& param, py::handle value) {
    if (param.element_type == nullptr) {
        const bool flag = value.cast<bool>();
        std::vector<std::byte> bytes(sizeof flag);
        std::memcpy(bytes.data(), &flag, sizeof flag);
        return bytes;
    }
    const ElementType& type = param.element_type();
    std::vector<std::byte> bytes(type.size);
    const std::string what = std::string(param.name) + " is " + type.name;
    if (type.fields.size() == 1) {
        const FieldInfo& field = type.fields[0];
        try {
            if (field.components == 1) {
                store_scalar(field.scalar, value, bytes.data());
                return bytes;
            }
            const py::sequence components = py::reinterpret_borrow<py::sequence>(
                py::module_::import("numpy").attr("ravel")(value));
            if (components.size() != static_cast<std::size_t>(field.components)) {
                throw py::value_error(what + ": give its " + std::to_string(field.components) +
                                      " components, not " + std::to_string(components.size()));
            }
            for (int i = 0; i < field.components; ++i) {
                store_scalar(field.scalar, components[static_cast<std::size_t>(i)],
                             bytes.data() +
                                 static_cast<std::size_t>(i) * scalar_size(field.scalar));
            }
        } catch (const py::cast_error&) {
            throw py::type_error(what + ": " + py::repr(value).cast<std::string>() +
                                 " is not a number of that type");
        }
        return bytes;
    }
    const py::array array =
        py::module_::import("numpy").attr("asarray")(value, element_dtype(type));
    if (array.size() != 1) {
        throw py::value_error(what + ": give one value of its dtype, not " +
                              std::to_string(array.size()));
    }
    std::memcpy(bytes.data(), array.data(), type.size);
    return bytes;
}

/// The bytes of a reduction's result as Python gives it back: a number, a vector as an array of
/// its components, a struct as a structured scalar.
py::object value_of(const ElementType& type, const std::vector<std::byte>& bytes) {
    if (type.fields.size() == 1 && type.fields[0].components == 1) {
        return load_scalar(type.fields[0].scalar, bytes.data());
    }
    py::array array(element_dtype(type),
                    std::vector<py::ssize_t>{component_axis(type) != 0 ? component_axis(type) : 1});
    std::memcpy(array.mutable_data(), bytes.data(), type.size);
    if (component_axis(type) != 0) {
        return array;
    }
    return array[py::int_(0)];
}

/// An array of `value`, whose dtype must then be `type`'s: arrays as they are, anything else
/// (lists, numbers) as numpy.asarray makes it of `type`'s scalar.
py::array array_argument(py::handle value, const ElementType& type) {
    if (py::isinstance<py::array>(value)) {
        return py::reinterpret_borrow<py::array>(value);
    }
    return py::module_::import("numpy").attr("asarray")(value, element_dtype(type));
}

/// A brook.stream argument's stream, which must hold the parameter's element type.
brook::stream stream_argument(const py::object& value, const ParamInfo& param) {
    const ElementType& type = param.element_type();
    brook::stream stream = value.cast<Stream&>().for_parameter(type, param.name);
    if (!(stream.element_type() == type)) {
        throw py::type_error(std::string(param.name) + " is " + type.name +
                             ": it takes a stream of " + type.name + ", not " + stream.describe());
    }
    return stream;
}

/// What one parameter's argument became for the call.
struct Bound {
    std::vector<std::byte> bytes; ///< a constant, or a reduction's value
    brook::stream stream;
    /// An output's array that the stream's elements are copied into after the call (none when
    /// the stream is the array's own memory).
    py::object copy_back;
    py::object result; ///< the output the call returns: what out= gave, or made
};

/// The bytes an array's elements occupy, for telling arrays that share memory apart.
struct Span {
    const std::byte* begin;
    const std::byte* end;
    bool overlaps(const Span& other) const { return begin < other.end && other.begin < end; }
};

Span span_of(const py::array& array) {
    const auto* begin = static_cast<const std::byte*>(array.data());
    return {begin, begin + array.nbytes()};
}

/// A stream that is `array`'s own memory, where the backend uses host memory in place (cpu)
/// and the array is C-contiguous, aligned, and writeable when the call writes it; an empty
/// handle otherwise, for a copy.
brook::stream borrowed(const py::array& array, const ElementType& type,
                       const std::vector<long long>& extents, bool written) {
    const int flags = array.flags();
    if ((flags & py::array::c_style) == 0 ||
        (flags & py::detail::npy_api::NPY_ARRAY_ALIGNED_) == 0 || (written && !array.writeable())) {
        return {};
    }
    return brook::stream::borrow(type, extents, const_cast<void*>(array.data()));
}

} // namespace

std::string Kernel::signature() const {
    std::string text = std::string(info_->is_reduce ? "reduce " : "kernel ") + info_->name + "(";
    for (std::size_t i = 0; i < info_->params.size(); ++i) {
        text += (i == 0 ? "" : ", ") + declaration(info_->params[i]);
    }
    return text + ")";
}

py::dict Kernel::element_dtypes() const {
    py::dict dtypes;
    for (const ParamInfo& param : info_->params) {
        if (param.element_type != nullptr) {
            dtypes[py::str(param.element_type().name)] = element_dtype(param.element_type());
        }
    }
    return dtypes;
}

/// A call's arguments bound to its parameters: what run_kernel or run_reduce takes, and what
/// becomes of each output after it.
struct Kernel::Call {
    std::vector<Bound> bound;
    std::vector<KernelArg> args;
    std::vector<std::size_t> outputs;
};

py::object Kernel::call(const py::args& args, const py::kwargs& keywords) const {
    Call call = bind(args, keywords);
    run(call);
    return results(call);
}

double Kernel::cpp_call_seconds(const py::args& args, const py::kwargs& keywords) const {
    py::dict options = keywords;
    const long long repeats =
        options.contains("repeats") ? options["repeats"].cast<long long>() : 1000;
    if (options.contains("repeats")) {
        PyDict_DelItemString(options.ptr(), "repeats");
    }
    Call call = bind(args, options);
    run(call);
    const py::gil_scoped_release unlocked;
    const auto start = std::chrono::steady_clock::now();
    for (long long i = 0; i < repeats; ++i) {
        launch(call);
    }
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    return elapsed.count() / static_cast<double>(repeats);
}

Kernel::Call Kernel::bind(const py::args& args, const py::kwargs& keywords) const {
    const std::span<const ParamInfo> params = info_->params;
    Call call;
    std::vector<std::size_t> inputs;
    for (std::size_t i = 0; i < params.size(); ++i) {
        (is_output(params[i].kind) ? call.outputs : inputs).push_back(i);
    }
    const std::vector<std::size_t>& outputs = call.outputs;

    // Each parameter's argument: positional ones for the inputs (or every parameter in order,
    // as in C++), then keywords by name and out= for the outputs.
    std::vector<py::object> given(params.size());
    std::vector<std::size_t> positional = inputs;
    if (args.size() == params.size()) {
        positional.resize(params.size());
        std::iota(positional.begin(), positional.end(), std::size_t{0});
    }
    if (args.size() > positional.size()) {
        std::string names;
        for (const std::size_t i : inputs) {
            names += (names.empty() ? "" : ", ") + std::string(params[i].name);
        }
        throw py::type_error(std::string(name()) + "() takes " + std::to_string(inputs.size()) +
                             " arguments (" + names + ") and its outputs as out=, or all " +
                             std::to_string(params.size()) + " parameters in order; " +
                             std::to_string(args.size()) + " given");
    }
    for (std::size_t k = 0; k < args.size(); ++k) {
        given[positional[k]] = args[k];
    }
    std::optional<std::vector<long long>> shape;
    for (const auto& [key, value] : keywords) {
        const std::string word = key.cast<std::string>();
        if (word == "shape") {
            shape = py::isinstance<py::int_>(value)
                        ? std::vector<long long>{value.cast<long long>()}
                        : value.cast<std::vector<long long>>();
            continue;
        }
        if (word == "out") {
            const bool several = outputs.size() > 1 || py::isinstance<py::tuple>(value);
            const py::tuple outs = several ? value.cast<py::tuple>() : py::make_tuple(value);
            if (outs.size() != outputs.size()) {
                throw py::type_error(std::string(name()) + "() has " +
                                     std::to_string(outputs.size()) + " outputs; out= gives " +
                                     std::to_string(outs.size()));
            }
            for (std::size_t k = 0; k < outputs.size(); ++k) {
                if (!outs[k].is_none()) {
                    given[outputs[k]] = outs[k];
                }
            }
            continue;
        }
        std::size_t i = 0;
        while (i < params.size() && word != params[i].name) {
            ++i;
        }
        if (i == params.size()) {
            throw py::type_error(std::string(name()) + "() has no parameter '" + word +
                                 "': " + signature());
        }
        if (given[i]) {
            throw py::type_error(std::string(name()) + "() got two values for '" + word + "'");
        }
        given[i] = py::reinterpret_borrow<py::object>(value);
    }

    call.bound.resize(params.size());
    call.args.resize(params.size());
    std::vector<Bound>& bound = call.bound;
    std::vector<KernelArg>& kernel_args = call.args;
    // The memory of the arrays used in place: an output is, only if no other argument's array
    // shares its memory (a call reading what it writes elsewhere would see its own writes).
    std::vector<Span> in_place;
    std::optional<std::vector<long long>> domain = shape;
    for (const std::size_t i : inputs) {
        const ParamInfo& param = params[i];
        if (!given[i]) {
            throw py::type_error(std::string(name()) + "() is missing its argument '" + param.name +
                                 "': " + signature());
        }
        if (param.kind == ParamKind::Constant) {
            bound[i].bytes = constant_bytes(param, given[i]);
            kernel_args[i].constant = bound[i].bytes.data();
            continue;
        }
        const ElementType& type = param.element_type();
        if (py::isinstance<Stream>(given[i])) {
            bound[i].stream = stream_argument(given[i], param);
        } else {
            const py::array array = array_argument(given[i], type);
            const std::vector<long long> extents = stream_extents(array, type, param.name);
            bound[i].stream = borrowed(array, type, extents, false);
            if (bound[i].stream.valid()) {
                in_place.push_back(span_of(array));
                bound[i].result = array; // kept alive while the stream uses it
            } else {
                bound[i].stream = brook::stream(type, extents);
                read_into(bound[i].stream, array);
            }
        }
        kernel_args[i].stream_arg = &bound[i].stream;
        if (!domain && param.kind == ParamKind::InputStream) {
            domain.emplace();
            for (const std::size_t extent : bound[i].stream.extents()) {
                domain->push_back(static_cast<long long>(extent));
            }
        }
    }
    for (const std::size_t i : outputs) {
        const ParamInfo& param = params[i];
        const ElementType& type = param.element_type();
        Bound& out = bound[i];
        if (given[i] && py::isinstance<Stream>(given[i])) {
            out.stream = stream_argument(given[i], param);
            out.result = given[i];
        } else if (given[i]) {
            if (param.kind == ParamKind::VariableOutput) {
                throw py::type_error(std::string(param.name) +
                                     " is a variable output, whose size the call decides: give "
                                     "a brook.stream, or leave it out and take the array returned");
            }
            const py::array array = array_argument(given[i], type);
            if (!array.writeable()) {
                throw py::value_error(std::string(param.name) + ": the output array is read-only");
            }
            const std::vector<long long> extents = stream_extents(array, type, param.name);
            const Span memory = span_of(array);
            if (std::none_of(in_place.begin(), in_place.end(),
                             [&](const Span& other) { return memory.overlaps(other); })) {
                out.stream = borrowed(array, type, extents, true);
            }
            if (out.stream.valid()) {
                in_place.push_back(memory);
            } else {
                out.stream = brook::stream(type, extents);
                // The elements the call leaves alone (a scatter's, a kill's) keep their values.
                read_into(out.stream, array);
                out.copy_back = array;
            }
            out.result = array;
        } else if (param.kind == ParamKind::ReduceAccumulator && !shape) {
            out.bytes.resize(type.size);
            kernel_args[i].reduce_value = out.bytes.data();
            kernel_args[i].reduce_value_type = &type;
            continue;
        } else if (param.kind == ParamKind::VariableOutput) {
            out.stream = brook::stream(type, std::vector<long long>{1});
        } else {
            if (!domain || param.kind == ParamKind::ScatterOutput) {
                if (!shape) {
                    throw py::type_error(std::string(name()) + "(): give the output '" +
                                         param.name + "' as out=, or its shape as shape=");
                }
                domain = shape;
            }
            // A new array, which the call writes in place where the backend can.
            std::vector<py::ssize_t> array_shape(domain->begin(), domain->end());
            if (const int components = component_axis(type); components != 0) {
                array_shape.push_back(components);
            }
            const py::array array(element_dtype(type), array_shape);
            out.stream = borrowed(array, type, *domain, true);
            if (!out.stream.valid()) {
                out.stream = brook::stream(type, *domain);
                out.copy_back = array;
            }
            out.result = array;
        }
        kernel_args[i].output = &out.stream;
    }
    return call;
}

void Kernel::launch(Call& call) const {
    if (info_->is_reduce) {
        run_reduce(*info_, call.args, std::source_location());
    } else {
        run_kernel(*info_, call.args, std::source_location());
    }
}

void Kernel::run(Call& call) const {
    std::optional<std::string> failure;
    {
        const py::gil_scoped_release unlocked;
        try {
            launch(call);
        } catch (const error& e) {
            failure = e.message();
        }
    }
    if (failure) {
        throw py::value_error(std::string(name()) + ": " + *failure);
    }
}

py::object Kernel::results(Call& call) const {
    py::list results;
    for (const std::size_t i : call.outputs) {
        Bound& out = call.bound[i];
        if (call.args[i].reduce_value != nullptr) {
            results.append(value_of(info_->params[i].element_type(), out.bytes));
            continue;
        }
        if (!out.result) {
            // A variable output the call sized: its elements, as a new array.
            results.append(array_of(out.stream));
            continue;
        }
        if (out.copy_back) {
            py::array array = py::reinterpret_borrow<py::array>(out.copy_back);
            if ((array.flags() & py::array::c_style) != 0) {
                void* data = array.mutable_data();
                const py::gil_scoped_release unlocked;
                out.stream.write(data, std::source_location());
            } else {
                py::module_::import("numpy").attr("copyto")(array, array_of(out.stream));
            }
        }
        results.append(out.result);
    }
    if (results.size() == 1) {
        return results[0];
    }
    return py::tuple(results);
}

} // namespace brook::python
