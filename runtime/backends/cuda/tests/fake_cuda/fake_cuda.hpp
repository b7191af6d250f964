// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The test API of brook_fake_cuda, a stand-in for libcuda that tests load through
// BRT_CUDA_DRIVER. It implements every entry point of cuda_driver_api.def on the host: "device"
// memory is host memory (a CUdeviceptr is its address) and copies really copy, but kernels are
// only recorded. The one device is a "Fake GPU" of compute capability 9.0. Every call is logged,
// so tests can check what a backend asked the driver to do.
//
// Emulated kernels. When FAKE_CUDA_KERNELS names a shared library of host-compiled kernels (the
// program's generated KERNEL.cu files built with tests/emulation/cuda_emulation.hpp and linked
// with its runtime), cuModuleGetFunction also looks the entry point up in that library
// (CUDA_ERROR_NOT_FOUND where it lacks it), and cuLaunchKernel, after recording the launch, runs
// it there through the library's brook_emulate_launch before returning (CUDA_ERROR_LAUNCH_FAILED
// where the emulation refuses it). So a whole program runs on the cuda backend without a GPU.

#include <cuda.h>

#include <cstddef>

extern "C" {

/// A recorded cuLaunchKernel.
struct FakeCudaLaunch {
    const char* kernel;
    unsigned grid[3];
    unsigned block[3];
    unsigned shared_bytes;
    CUstream stream;
};

/// Frees everything still allocated and forgets the log, the failures to inject, cuInit and the
/// device count, as if the library had just been loaded.
void fake_cuda_reset();
/// How many times the entry point `name` (its exported name, "cuMemAlloc_v2") was called.
int fake_cuda_call_count(const char* name);
/// Every call since the last reset, one line each: the entry point's name, then `key=value`
/// details (bytes=, dir=htod|dtoh|dtod, kernel=, grid=X,Y,Z, block=X,Y,Z, result=).
const char* fake_cuda_log();
/// Device and pinned host allocations not freed yet.
std::size_t fake_cuda_live_allocations();
/// Modules loaded and not unloaded, streams not destroyed, primary context retains not released.
std::size_t fake_cuda_live_modules();
std::size_t fake_cuda_live_streams();
std::size_t fake_cuda_live_contexts();
/// The next call of `name` does nothing and returns `result`.
void fake_cuda_fail_next(const char* name, CUresult result);
/// How many devices cuDeviceGetCount reports (1 after a reset).
void fake_cuda_set_device_count(int count);
/// What cuFuncGetAttribute gives for `attribute` of every function (until a reset: 1024 for
/// CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 32 for CU_FUNC_ATTRIBUTE_NUM_REGS, otherwise 0).
void fake_cuda_set_function_attribute(CUfunction_attribute attribute, int value);
/// The launches recorded since the last reset; `index` < fake_cuda_launch_count().
std::size_t fake_cuda_launch_count();
FakeCudaLaunch fake_cuda_launch(std::size_t index);
}
