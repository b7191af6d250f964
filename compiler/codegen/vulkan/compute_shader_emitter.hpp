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
/// reduce partials) a specialization constant selects. The first runs on every device; later ones
/// use more of a device, and the backend runs the last one the device has: a reduction's next
/// shader folds within subgroups first (subgroupAdd for a plain sum, subgroupShuffleDown
/// otherwise), and a kernel with 8- or 16-bit fields has all of those again with 8- and 16-bit
/// storage, the first ones reaching such fields in the 32-bit words that hold them.
std::vector<std::string> vulkan_compute_shaders(const KernelDecl& kernel);

} // namespace brcc
