// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Semantic analysis of kernels: resolves names, computes every expression's type with Cg's
// vector rules, inserts ImplicitConvert nodes, resolves calls (built-ins, helper kernels),
// member accesses (swizzles, fields) and gather subscripts, and checks Brook's rules (argument
// kinds, read-only inputs, reduce signatures, no recursion).

#include "ast/ast.hpp"
#include "support/diagnostics.hpp"

namespace brcc {

/// Returns false when errors were reported.
bool analyze(TranslationUnit& unit, DiagnosticEngine& diags);

} // namespace brcc
