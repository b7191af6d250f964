// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Brook element types as NumPy sees them. A one-field type is an array of its scalar with the
// stream's shape, plus a last axis of its components for a vector (float4<rows, cols> is a
// float32 array of shape (rows, cols, 4)); a struct is a structured array of the stream's shape
// whose fields lie where the C++ struct's do. fixed and shortfixed are their bits: uint8 and
// uint16.

#include <brook/stream.hpp>

#include <pybind11/numpy.h>

#include <string>
#include <string_view>
#include <vector>

namespace brook::python {

/// The dtype of one component of `kind`.
pybind11::dtype scalar_dtype(ScalarKind kind);

/// The dtype of an array of `type`'s elements: the scalar's for a one-field type, for a
/// struct a structured dtype with a field per leaf field at its C++ offset and the C++ size as
/// itemsize, named as name_fields was told (`position`, `inner.o`), else f0, f1, ...
pybind11::dtype element_dtype(const ElementType& type);

/// Names the leaf fields of the struct `type` (as a loaded library's brook_struct_fields lists
/// them) for element_dtype; the last naming of a type of the same name and layout wins.
void name_fields(const ElementType& type, std::vector<std::string> names);

/// The axis an array adds for `type`'s components: its component count for a vector, else 0.
int component_axis(const ElementType& type);

/// The extents of the stream an array holds as elements of `type` (its shape, less the
/// components' axis); a TypeError or ValueError saying what was expected, naming `what` (the
/// parameter), when its dtype or shape cannot be.
std::vector<long long> stream_extents(const pybind11::array& array, const ElementType& type,
                                      std::string_view what);

/// The element type an array has read as it is: its dtype's scalar (the whole shape is the
/// stream's), or the struct its structured dtype lays out.
const ElementType& element_type_of(const pybind11::dtype& dtype);

/// The vector type `name` names ("float", "float4", "uchar2", "double2").
const ElementType& element_type_named(std::string_view name);

/// An element type that lives as long as the process: the module's streams may outlive the
/// objects they were described from.
const ElementType& keep(ElementType type);

} // namespace brook::python
