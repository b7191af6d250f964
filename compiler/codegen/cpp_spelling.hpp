// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// How Brook names, types and literals are spelled in the generated C++ (kernel code, stubs and
// the host-side rewrites all use the same spelling).

#include "ast/type.hpp"

#include <string>
#include <string_view>

namespace brcc {

/// `float`, `::brook::float4`, `::brook::vec<unsigned, 2>`, or a struct's typedef name.
std::string cpp_type_name(const Type& type);
/// The C++ type of a stream element of `type`: cpp_type_name, except that `fixed` values, which
/// kernels compute with as floats, are stored as bytes (`::brook::fixed`, `vec<fixed, N>`).
std::string cpp_storage_type_name(const Type& type);
/// The C++ type host code holds a value of `type` in (a constant argument, a reduction's
/// result, a struct's field): cpp_storage_type_name, except that vectors are host code's named
/// classes, `::brook::float4`, `::brook::fixed2` and so on, with the same bytes, so that a stub
/// has the signature BrookGPU's programs declare (`const float4&`).
std::string cpp_host_type_name(const Type& type);
/// Whether `type` is `fixed`, `shortfixed` or a vector of them, whose storage type differs from
/// its value type.
bool is_fixed(const Type& type);
/// A Brook identifier, renamed (`brook_kw_<name>`) when it is a C++ keyword.
std::string cpp_identifier(std::string_view name);
/// A float literal that reads back as exactly the same float: `0.1f`, `1.0f`, `1e+30f`.
std::string cpp_float_literal(double value);
/// A double literal that reads back as exactly the same double: `0.33333333333333331`.
std::string cpp_double_literal(double value);

} // namespace brcc
