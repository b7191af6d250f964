// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Where a kernel uses Brook+'s doubles, for the generators of backends that cannot compute with
// them everywhere: gl stores doubles but runs no kernel using them, and vulkan's GLSL has no
// double sin, exp, log or pow (BROOKPLUS.md §4.1). Each looks through the kernels it calls.

#include "ast/ast.hpp"

#include <optional>

namespace brcc {

/// Whether `type` is a double, a double2 or a struct with such a field.
bool has_double(const Type& type);

/// Whether the kernel or a kernel it calls has a double anywhere: a parameter, a local, a value
/// computed (a literal typed double, a cast), a helper's return.
bool uses_double(const KernelDecl& kernel);

/// The first built-in the kernel, or a kernel it calls, computes in double which GLSL defines
/// only for floats (the transcendental and exponential functions); nullopt when there is none.
std::optional<BuiltinId> double_builtin_without_glsl(const KernelDecl& kernel);

} // namespace brcc
