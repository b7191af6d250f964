// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The texts the backend gives NVRTC, embedded at build time: the headers a kernel's program may
// include, by the names it includes them with (brook/kernel_language.hpp and what it includes,
// from include/brook/; brook/cuda/*.hpp, the device ABI and the ordered reduction and scan, from
// device/), and the backend's own program, device/vout_scan.cu.

#include "backends/cuda/nvrtc_compiler.hpp"

#include <vector>

namespace brook::detail::cuda {

const std::vector<Header>& nvrtc_headers();

/// device/vout_scan.cu: the exclusive scan of a variable output's counts.
const char* vout_scan_source();

} // namespace brook::detail::cuda
