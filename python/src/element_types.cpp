// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "element_types.hpp"

#include <array>
#include <deque>
#include <mutex>
#include <optional>

namespace py = pybind11;

namespace brook::python {

namespace {

struct ScalarName {
    ScalarKind kind;
    std::string_view brook; ///< the language's name: element_traits<T>::type().name
    const char* numpy;      ///< the dtype's string
};

constexpr std::array<ScalarName, 10> scalar_names{{
    {ScalarKind::Float32, "float", "float32"},
    {ScalarKind::Int32, "int", "int32"},
    {ScalarKind::UInt32, "uint", "uint32"},
    {ScalarKind::Int8, "char", "int8"},
    {ScalarKind::UInt8, "uchar", "uint8"},
    {ScalarKind::Fixed8, "fixed", "uint8"},
    {ScalarKind::Fixed16, "shortfixed", "uint16"},
    {ScalarKind::Int16, "short", "int16"},
    {ScalarKind::UInt16, "ushort", "uint16"},
    {ScalarKind::Float64, "double", "float64"},
}};

const ScalarName& name_of(ScalarKind kind) {
    for (const ScalarName& name : scalar_names) {
        if (name.kind == kind) {
            return name;
        }
    }
    throw std::logic_error("brook: a scalar kind without a name");
}

/// The scalar kind a plain (unstructured) dtype holds, or nothing for one Brook has not.
std::optional<ScalarKind> kind_of(const py::dtype& dtype) {
    // '=' native, '|' a byte, '<' little-endian as this machine; '>' is another machine's.
    if (dtype.byteorder() == '>') {
        return std::nullopt;
    }
    switch (dtype.kind()) {
    case 'f':
        return dtype.itemsize() == 4   ? std::optional(ScalarKind::Float32)
               : dtype.itemsize() == 8 ? std::optional(ScalarKind::Float64)
                                       : std::nullopt;
    case 'i':
        return dtype.itemsize() == 1   ? std::optional(ScalarKind::Int8)
               : dtype.itemsize() == 2 ? std::optional(ScalarKind::Int16)
               : dtype.itemsize() == 4 ? std::optional(ScalarKind::Int32)
                                       : std::nullopt;
    case 'u':
        return dtype.itemsize() == 1   ? std::optional(ScalarKind::UInt8)
               : dtype.itemsize() == 2 ? std::optional(ScalarKind::UInt16)
               : dtype.itemsize() == 4 ? std::optional(ScalarKind::UInt32)
                                       : std::nullopt;
    default:
        return std::nullopt;
    }
}

/// The same bits: fixed is an unsigned byte, shortfixed an unsigned short.
bool same_storage(ScalarKind a, ScalarKind b) {
    const auto plain = [](ScalarKind kind) {
        return kind == ScalarKind::Fixed8    ? ScalarKind::UInt8
               : kind == ScalarKind::Fixed16 ? ScalarKind::UInt16
                                             : kind;
    };
    return plain(a) == plain(b);
}

bool is_structured(const py::dtype& dtype) {
    return !py::getattr(dtype, "names").is_none();
}

/// The leaf fields of a dtype at `offset` bytes, nested structs and subarrays flattened as
/// ElementType flattens a C++ struct; false for a scalar Brook has not.
bool flatten(const py::dtype& dtype, std::size_t offset, std::vector<FieldInfo>& fields) {
    if (is_structured(dtype)) {
        const py::dict by_name = py::getattr(dtype, "fields");
        for (const py::handle name : py::getattr(dtype, "names")) {
            const py::tuple field = by_name[name];
            if (!flatten(field[0].cast<py::dtype>(), offset + field[1].cast<std::size_t>(),
                         fields)) {
                return false;
            }
        }
        return true;
    }
    py::dtype scalar = dtype;
    int components = 1;
    if (const py::object sub = py::getattr(dtype, "subdtype"); !sub.is_none()) {
        scalar = sub.cast<py::tuple>()[0].cast<py::dtype>();
        for (const py::handle extent : sub.cast<py::tuple>()[1]) {
            components *= extent.cast<int>();
        }
    }
    const std::optional<ScalarKind> kind = kind_of(scalar);
    if (!kind || components < 1 || components > 4) {
        return false;
    }
    fields.push_back({*kind, components, offset});
    return true;
}

std::string shape_text(const py::array& array) {
    std::string text = "(";
    for (py::ssize_t d = 0; d < array.ndim(); ++d) {
        text += (d == 0 ? "" : ", ") + std::to_string(array.shape(d));
    }
    return text + (array.ndim() == 1 ? ",)" : ")");
}

std::string dtype_text(const py::dtype& dtype) {
    return py::str(static_cast<const py::handle&>(dtype)).cast<std::string>();
}

} // namespace

py::dtype scalar_dtype(ScalarKind kind) {
    return py::dtype(name_of(kind).numpy);
}

namespace {

struct NamedFields {
    ElementType type;
    std::vector<std::string> names;
};

std::mutex naming_mutex;
std::vector<NamedFields> named_fields;

/// The names name_fields gave `type`'s fields, or none.
std::vector<std::string> field_names(const ElementType& type) {
    const std::lock_guard lock(naming_mutex);
    for (auto named = named_fields.rbegin(); named != named_fields.rend(); ++named) {
        if (named->type == type && named->type.name == type.name) {
            return named->names;
        }
    }
    return {};
}

} // namespace

void name_fields(const ElementType& type, std::vector<std::string> names) {
    const std::lock_guard lock(naming_mutex);
    named_fields.push_back({type, std::move(names)});
}

/// A scalar or a vector: one field, its components packed from the start of the element; an
/// array of them is the scalar's, with a components' axis for a vector.
bool is_one_field(const ElementType& type) {
    return type.fields.size() == 1 && type.fields[0].offset == 0 &&
           type.size == scalar_size(type.fields[0].scalar) *
                            static_cast<std::size_t>(type.fields[0].components);
}

py::dtype element_dtype(const ElementType& type) {
    if (is_one_field(type)) {
        return scalar_dtype(type.fields[0].scalar);
    }
    const std::vector<std::string> names = field_names(type);
    py::list names_list;
    py::list formats;
    py::list offsets;
    for (std::size_t i = 0; i < type.fields.size(); ++i) {
        const FieldInfo& field = type.fields[i];
        names_list.append(names.size() == type.fields.size() ? names[i] : "f" + std::to_string(i));
        formats.append(field.components == 1
                           ? py::object(scalar_dtype(field.scalar))
                           : py::object(py::make_tuple(scalar_dtype(field.scalar),
                                                       py::make_tuple(field.components))));
        offsets.append(field.offset);
    }
    py::dict spec;
    spec["names"] = names_list;
    spec["formats"] = formats;
    spec["offsets"] = offsets;
    spec["itemsize"] = type.size;
    return py::dtype::from_args(spec);
}

int component_axis(const ElementType& type) {
    return is_one_field(type) && type.fields[0].components > 1 ? type.fields[0].components : 0;
}

std::vector<long long> stream_extents(const py::array& array, const ElementType& type,
                                      std::string_view what) {
    const py::dtype expected = element_dtype(type);
    const int components = component_axis(type);
    const std::string wanted =
        is_structured(expected)
            ? "a structured array laid out as " + type.name + " (" + dtype_text(expected) + ")"
            : "a " + dtype_text(expected) + " array" +
                  (components != 0
                       ? " whose last axis has the " + std::to_string(components) + " components"
                       : "");
    bool same_type = false;
    if (is_structured(expected)) {
        std::vector<FieldInfo> fields;
        same_type = is_structured(array.dtype()) &&
                    static_cast<std::size_t>(array.dtype().itemsize()) == type.size &&
                    flatten(array.dtype(), 0, fields) && fields.size() == type.fields.size();
        for (std::size_t i = 0; same_type && i < fields.size(); ++i) {
            same_type = same_storage(fields[i].scalar, type.fields[i].scalar) &&
                        fields[i].components == type.fields[i].components &&
                        fields[i].offset == type.fields[i].offset;
        }
    } else {
        const std::optional<ScalarKind> kind =
            is_structured(array.dtype()) ? std::nullopt : kind_of(array.dtype());
        same_type = kind && same_storage(*kind, type.fields[0].scalar);
    }
    if (!same_type) {
        throw py::type_error(std::string(what) + " is " + type.name + ": it takes " + wanted +
                             ", not one of " + dtype_text(array.dtype()));
    }
    const py::ssize_t rank = array.ndim() - (components != 0 ? 1 : 0);
    if (components != 0 && (array.ndim() == 0 || array.shape(array.ndim() - 1) != components)) {
        throw py::value_error(std::string(what) + " is " + type.name + ": it takes " + wanted +
                              ", not an array of shape " + shape_text(array));
    }
    if (rank < 1 || rank > 4) {
        throw py::value_error(std::string(what) +
                              ": a stream has 1 to 4 dimensions, and an array "
                              "of shape " +
                              shape_text(array) + " holds " + std::to_string(rank) + " of " +
                              type.name);
    }
    std::vector<long long> extents;
    for (py::ssize_t d = 0; d < rank; ++d) {
        extents.push_back(static_cast<long long>(array.shape(d)));
    }
    return extents;
}

const ElementType& element_type_of(const py::dtype& dtype) {
    if (!is_structured(dtype)) {
        if (const std::optional<ScalarKind> kind = kind_of(dtype)) {
            return element_type_named(name_of(*kind).brook);
        }
    } else if (std::vector<FieldInfo> fields; flatten(dtype, 0, fields)) {
        return keep(
            ElementType{"struct", static_cast<std::size_t>(dtype.itemsize()), std::move(fields)});
    }
    throw py::type_error("Brook has no element type for arrays of " + dtype_text(dtype) +
                         ": use float32, float64, int8, int16, int32, uint8, uint16 or uint32, or "
                         "a structured dtype of them");
}

const ElementType& element_type_named(std::string_view name) {
    for (const ScalarName& scalar : scalar_names) {
        if (!name.starts_with(scalar.brook)) {
            continue;
        }
        const std::string_view rest = name.substr(scalar.brook.size());
        const int components = rest.empty() ? 1 : rest.size() == 1 ? rest[0] - '0' : 0;
        const int most = scalar.kind == ScalarKind::Float64 ? 2 : 4;
        if (components < 1 || components > most) {
            continue;
        }
        return keep(ElementType{std::string(name),
                                scalar_size(scalar.kind) * static_cast<std::size_t>(components),
                                {{scalar.kind, components, 0}}});
    }
    throw py::value_error("brook.stream: no element type is called '" + std::string(name) +
                          "' (float, float2 .. float4, int, uint, char, uchar, short, ushort, "
                          "fixed, shortfixed and their vectors, double, double2)");
}

const ElementType& keep(ElementType type) {
    static std::mutex mutex;
    static std::deque<ElementType> kept;
    const std::lock_guard lock(mutex);
    for (const ElementType& known : kept) {
        if (known == type && known.name == type.name) {
            return known;
        }
    }
    return kept.emplace_back(std::move(type));
}

} // namespace brook::python
