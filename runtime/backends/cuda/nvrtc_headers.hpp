// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The texts the backend gives NVRTC, embedded at build time: the headers a kernel's program may
// include, by the names it includes them with (brook/kernel_language.hpp and what it includes,
// from include/brook/; brook/cuda/*.hpp, the device ABI and the ordered reduction and scan, from
// device/), and the backend's own program, device/vout_scan.cu.

#include "backends/cuda/kernel_cache.hpp"
#include "backends/cuda/nvrtc_compiler.hpp"

#include <string>
#include <vector>

namespace brook::detail::cuda {

const std::vector<Header>& nvrtc_headers();

/// What the backend gives NVRTC to compile the program `source` named `name` (a kernel's, as brcc
/// printed it, or the backend's own) for compute capability `cc`: the program NAME.cu, with the
/// embedded headers and the base options. fuzz/cuda_fuzzer.cpp compiles kernels through it too.
CompileRequest program_request(std::string source, const std::string& name, int cc);

/// device/vout_scan.cu: the exclusive scan of a variable output's counts.
const char* vout_scan_source();

} // namespace brook::detail::cuda
