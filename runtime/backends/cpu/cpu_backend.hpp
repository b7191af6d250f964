#pragma once
// The CPU backend: streams in host memory, kernels as OpenMP-parallel calls of brcc's loop
// functions. It is the reference every other backend must match.

#include "core/backend.hpp"

#include <memory>

namespace brook::detail {

/// A CPU backend using at most BRT_THREADS threads (default: OpenMP's maximum).
std::unique_ptr<Backend> make_cpu_backend();

} // namespace brook::detail
