// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The gl generator's check of a kernel (BackendGenerator::check_kernel): what it needs of a
// driver against what OpenGL 4.5 guarantees every driver has.

#include "ast/ast.hpp"
#include "support/diagnostics.hpp"

namespace brcc {

/// Warns (-Wgl-limits) about a kernel that reads more textures or passes more uniform
/// components than OpenGL 4.5 guarantees: valid, but gl runs it only where the driver has more.
/// Counts the parameters the body names (ParamDecl::named_in_body), as the driver does.
void check_gl_limits(const KernelDecl& kernel, DiagnosticEngine& diags);

} // namespace brcc
