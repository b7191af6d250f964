// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The vulkan backend's code for kernels: each kernel or reduce function as one GLSL compute
// shader on the ABI of runtime/backends/vulkan/device/frame.glsl, which brcc compiles to SPIR-V
// (spirv_compiler.hpp).

#include "ast/ast.hpp"

#include <string>

namespace brcc {

/// The kernel's compute shader, whole: `#version`, the frame ABI, the arithmetic prelude, the
/// kernel's functions and `main`, whose entries (dense, general, count, write, reduce chunks,
/// reduce partials) a specialization constant selects.
std::string vulkan_compute_shader(const KernelDecl& kernel);

} // namespace brcc
