// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// What every emulated kernel file starts with: the emulation prelude (cuda_emulation.hpp), then
// the headers brcc's generated KERNEL.cu files and the backend's own programs include. The build
// precompiles it once (runtime/backends/cuda/tests/CMakeLists.txt), and emulated_kernels.cmake
// force-includes it into every kernel file, so that g++ reads these headers once instead of once
// per kernel (a kernel file's compile took 1.6 s of CPU, 1.0 s of it for them).
// No include guard: GCC warns about `#pragma once` in the file it precompiles; the headers below
// have their own.
#include "cuda_emulation.hpp"

#include "brook/cuda/kernel_frame.hpp"
#include "brook/cuda/ordered_reduce.hpp"
#include "brook/cuda/prefix_scan.hpp"
#include "brook/kernel_language.hpp"
