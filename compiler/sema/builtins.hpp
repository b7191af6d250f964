// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The signatures of the Cg built-in functions of ast/builtins.def, as data: how many arguments
// each takes, what their scalar type must be and how the result type follows from them. Sema
// (sema_expr.cpp) applies them; every built-in is generic over the vector width (Cg's genType).

#include "ast/ast.hpp"

#include <optional>
#include <string_view>

namespace brcc {

/// What a built-in accepts for its arguments (all arguments share one kind).
enum class BuiltinArgs {
    Float,    ///< float scalars or vectors; ints convert to float
    Numeric,  ///< int or float: integers give int (uint if one is uint), otherwise float
    Logical,  ///< any scalar or vector, converted to bool of the same width (all, any)
    Float3,   ///< float3 only (cross)
    Float4,   ///< float4 only (pack_4ubyte)
    FloatOne, ///< a float scalar; ints convert to float (unpack_4ubyte)
};

/// How the result type follows from the arguments' common type T (after scalar broadcast).
enum class BuiltinResult {
    Same,      ///< T
    Scalar,    ///< T's scalar type (dot, length, distance)
    Bool,      ///< bool (all, any)
    BoolWidth, ///< bool of T's width (isnan, isinf, isfinite)
    Float4,    ///< float4 (unpack_4ubyte)
};

struct BuiltinSignature {
    int arity;
    BuiltinArgs args;
    BuiltinResult result;
};

/// The built-in called `name`, if there is one.
std::optional<BuiltinId> find_builtin(std::string_view name);
std::string_view builtin_name(BuiltinId id);
/// The one width the arguments of `args` must have (cross: 3), or 0 for any width.
int required_width(BuiltinArgs args);
BuiltinSignature builtin_signature(BuiltinId id);

} // namespace brcc
