// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// How C spells a Brook type, shared by the host scanner (stream declarations, typedefs in host
// code) and the kernel parser (parameters, locals, casts): a built-in name (`float4`, `uchar`),
// C's multi-word spellings of the integer types (`unsigned char` is uchar, `unsigned int` and
// `unsigned` are uint, `signed char` is char, `signed int` and `signed` are int), Brook+'s
// two-word vector names (`unsigned int4` is uint4, `unsigned char2` uchar2), a struct by its
// typedef name, its tag or `struct tag` (C), and a typedef of any of these (chains included).

#include "ast/ast.hpp"
#include "lex/token.hpp"

#include <cstddef>
#include <optional>
#include <span>

namespace brcc {

struct TypeSpelling {
    /// Tokens the spelling takes; 0 when the first token cannot start a type.
    std::size_t length = 0;
    /// The type spelled; nullopt for a name brcc does not know as a Brook type (a host type, a
    /// host-only struct, or a mistake).
    std::optional<Type> type;
    /// The token naming a struct, a tag or a typedef (null for the built-in spellings), for
    /// diagnostics about it.
    const Token* name = nullptr;
    /// C++ spells the type this way too. Not so Brook+'s two-word vector names (`unsigned
    /// int4`): generated host code writes those by their one-word name.
    bool is_cpp = true;
};

/// `double3` and `double4`: spelled like the other vectors, but Brook+ limits doubles to double
/// and double2, so the parsers report them (DiagId::double_vector_too_wide).
bool is_too_wide_double(const Type& type);

/// The type spelled by the tokens at the start of `tokens`, looked up in `unit`.
TypeSpelling match_type_spelling(std::span<const Token> tokens, const TranslationUnit& unit);

} // namespace brcc
