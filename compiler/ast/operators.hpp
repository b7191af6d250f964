// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Source spellings of the AST's operators, shared by the AST dump, sema's messages and the
// C-like code generators (C++, GLSL and CUDA spell them all as C does).

#include "ast/ast.hpp"

#include <string_view>

namespace brcc {

/// "+", "!", "++" (prefix and postfix alike).
std::string_view spelling(UnaryOp op);
/// "+", "<<", "&&", ",".
std::string_view spelling(BinaryOp op);
/// "=", "+=", ">>=".
std::string_view spelling(AssignOp op);
/// The binary operator a compound assignment applies: "+" for "+=", ">>" for ">>=", "" for "=".
std::string_view operation_spelling(AssignOp op);
/// The binary operator a compound assignment applies: Add for `+=`, Shr for `>>=` (and Add for
/// `=`, which applies none: callers handle it first).
BinaryOp compound_operator(AssignOp op);

} // namespace brcc
