// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Where a kernel uses Brook+'s doubles, for the GLSL backends' generators (gl, vulkan): a kernel
// using doubles needs the double helpers of include/brook/detail/glsl_double.glsl, which also
// define the built-ins GLSL has only for floats (BROOKPLUS.md §4.1).

#include "ast/ast.hpp"

namespace brcc {

/// The built-ins GLSL defines for floats only, not for doubles (sin, exp, pow, radians...): the
/// GLSL of a double call names the helper of glsl_double.glsl (brt_sin) instead.
bool glsl_lacks_double(BuiltinId id);

/// Whether `type` is a double, a double2 or a struct with such a field.
bool has_double(const Type& type);

/// Whether the kernel or a kernel it calls has a double anywhere: a parameter, a local, a value
/// computed (a literal typed double, a cast), a helper's return.
bool uses_double(const KernelDecl& kernel);

} // namespace brcc
