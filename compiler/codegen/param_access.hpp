// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// What a kernel's body does with each parameter's elements, for ParamInfo::read and ::written:
// a backend that keeps an output in a register need not load the old value of one that is only
// assigned, and one that is never written need not be stored.

#include "ast/ast.hpp"

#include <vector>

namespace brcc {

struct ParamAccess {
    /// The body may use the value the element had before the call. For an output: unless every
    /// path assigns it whole before naming it otherwise, since an element the body leaves
    /// unassigned keeps its old value (always when the kernel may discard).
    bool read = false;
    /// The body may change the element.
    bool written = false;
};

/// One entry per parameter of `kernel`, in order. Conservative: a partial write (`o.x = 1`, a
/// compound assignment, `++`) also reads, and an argument of a helper's `out` parameter is both.
std::vector<ParamAccess> param_access(const KernelDecl& kernel);

/// Whether `kernel` has `vout` parameters (its calls run a count pass and a write pass).
bool has_variable_output(const KernelDecl& kernel);
/// The group-shared array (`shared T s[N];`, BROOKPLUS.md §4.8) the body of `kernel`
/// declares, or null.
const LocalDecl* shared_array(const KernelDecl& kernel);
/// Whether `kernel` has a scatter output (BROOKPLUS.md §4.7).
bool has_scatter_output(const KernelDecl& kernel);
/// The reduce input of a reduction.
const ParamDecl& reduce_input(const KernelDecl& kernel);

} // namespace brcc
