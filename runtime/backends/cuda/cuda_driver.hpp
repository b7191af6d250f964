// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The NVIDIA driver API (libcuda), loaded with dlopen: a Driver holds one function pointer per
// entry point of cuda_driver_api.def, named after the exported symbol. Loading fails with a
// message rather than at program start, so a machine without a GPU still runs the other backends.

#include "backends/cuda/dynamic_library.hpp"

#include <cuda.h>

#include <string>
#include <string_view>

namespace brook::detail::cuda {

/// The loaded driver library and its entry points. Immovable, since the RAII objects of
/// cuda_objects.hpp keep a pointer to it; it must outlive them.
class Driver {
public:
    /// Loads the driver from `path`; throws std::runtime_error "no NVIDIA driver (PATH: why)"
    /// when it cannot be opened, or a message naming the first entry point it lacks.
    explicit Driver(const std::string& path = default_path());
    Driver(const Driver&) = delete;
    Driver& operator=(const Driver&) = delete;

    /// $BRT_CUDA_DRIVER when set and not empty (the tests load a fake driver this way), else
    /// "libcuda.so.1", the name every NVIDIA driver install provides.
    static std::string default_path();

    /// Throws std::runtime_error "cuda: <what>: <error name>: <error text>" unless `result` is
    /// CUDA_SUCCESS.
    void check(CUresult result, std::string_view what) const;
    /// "<error name>: <error text>" of `result`, also for codes the driver does not know.
    std::string describe(CUresult result) const;

#define BROOK_CUDA_ENTRY(symbol) decltype(&::symbol) symbol = nullptr;
#include "backends/cuda/cuda_driver_api.def"
#undef BROOK_CUDA_ENTRY

private:
    DynamicLibrary library_;
};

} // namespace brook::detail::cuda
