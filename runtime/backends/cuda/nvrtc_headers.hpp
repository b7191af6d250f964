#pragma once
// The headers a kernel's NVRTC program may include, by the names it includes them with:
// brook/kernel_language.hpp and what it includes (the kernel language, include/brook/) and
// brook/cuda/*.hpp (the device ABI and the ordered reduction and scan, device/).

#include "backends/cuda/nvrtc_compiler.hpp"

#include <vector>

namespace brook::detail::cuda {

const std::vector<Header>& nvrtc_headers();

} // namespace brook::detail::cuda
