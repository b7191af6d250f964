// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Where a kernel uses Brook+'s doubles, for the GLSL backends' generators (gl, vulkan): a kernel
// using doubles needs the double helpers (glsl_double.glsl), and GLSL has no double sin, exp, log
// or pow (BROOKPLUS.md §4.1). Each question looks through the kernels the kernel calls.

#include "ast/ast.hpp"

#include <optional>
#include <string>

namespace brcc {

/// Whether `type` is a double, a double2 or a struct with such a field.
bool has_double(const Type& type);

/// Whether the kernel or a kernel it calls has a double anywhere: a parameter, a local, a value
/// computed (a literal typed double, a cast), a helper's return.
bool uses_double(const KernelDecl& kernel);

/// The first built-in the kernel, or a kernel it calls, computes in double which GLSL defines
/// only for floats (the transcendental and exponential functions); nullopt when there is none.
std::optional<BuiltinId> double_builtin_without_glsl(const KernelDecl& kernel);

/// What keeps a GLSL backend from running the kernel ("double sin", from
/// double_builtin_without_glsl), for the refusal its calls get; nothing when it can run it.
std::optional<std::string> glsl_refused_double_use(const KernelDecl& kernel);

} // namespace brcc
