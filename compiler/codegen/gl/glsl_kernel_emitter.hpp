// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The gl backend's code for kernels: each kernel or reduce function becomes the body of one GLSL
// fragment shader, stored in its KernelInfo (`glsl_source`). The runtime prepends `#version`, the
// `BRT_OUT_<param>_<field>` defines that pick the render targets of a pass, and its prelude
// (runtime/backends/gl/prelude.glsl); brook/detail/glsl_interface.hpp declares the names both
// sides share.

#include "ast/ast.hpp"

#include <string>

namespace brcc {

/// The kernel's GLSL (for kernels with `vout` parameters, the count and write passes of
/// docs/gl_backend.md, selected by defines).
std::string glsl_kernel_source(const KernelDecl& kernel);

} // namespace brcc
