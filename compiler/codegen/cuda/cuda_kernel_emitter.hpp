// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The cuda backend's code for a kernel: one complete CUDA C++ translation unit that NVRTC
// compiles at run time, following the device ABI of runtime/backends/cuda/device/kernel_frame.hpp.

#include "ast/ast.hpp"

#include <string>

namespace brcc {

/// The NVRTC program of a stream kernel or reduce function: the includes, the struct types and
/// helpers it uses, `NAME__body` and the `extern "C" __global__` entry points.
std::string cuda_kernel_source(const KernelDecl& kernel);

} // namespace brcc
