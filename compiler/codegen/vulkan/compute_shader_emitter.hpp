// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The vulkan backend's code for kernels: each kernel as a GLSL compute shader, a reduce function
// as two, on the ABI of runtime/backends/vulkan/device/frame.glsl, which brcc compiles to SPIR-V
// (spirv_compiler.hpp).

#include "ast/ast.hpp"

#include <string>
#include <vector>

namespace brcc {

/// The kernel's compute shaders, each whole: `#version`, the frame ABI, the arithmetic prelude,
/// the kernel's functions and `main`, whose entries (dense, general, count, write, reduce chunks,
/// reduce partials) a specialization constant selects. The first runs on every device; a
/// reduction has a second, whose workgroups fold within subgroups first, for devices with
/// subgroup operations (subgroupAdd for a plain sum, subgroupShuffleDown otherwise).
std::vector<std::string> vulkan_compute_shaders(const KernelDecl& kernel);

} // namespace brcc
