// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Semantic analysis of kernels: resolves names, computes every expression's type with Cg's
// vector rules, inserts ImplicitConvert nodes, resolves calls (built-ins, helper kernels),
// member accesses (swizzles, fields) and gather subscripts, and checks Brook's rules (argument
// kinds, read-only inputs, reduce signatures, no recursion).

#include "ast/ast.hpp"
#include "support/diagnostics.hpp"

#include <functional>

namespace brcc {

/// What the caller checks of each kernel sema found no mistakes in, right after sema's own
/// warnings about it, so that diagnostics stay in line order: the pipeline passes the limits of
/// the backends it generates code for (BackendGenerator::check_kernel).
using KernelCheck = std::function<void(const KernelDecl&)>;

/// Returns false when errors were reported.
bool analyze(TranslationUnit& unit, DiagnosticEngine& diags, const KernelCheck& check_kernel = {});

} // namespace brcc
