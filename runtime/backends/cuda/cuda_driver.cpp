// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "backends/cuda/cuda_driver.hpp"

#include <cstdlib>
#include <stdexcept>

namespace brook::detail::cuda {

Driver::Driver(const std::string& path) {
    std::string error;
    library_ = DynamicLibrary::open(path, error);
    if (!library_) {
        // dlerror's text starts with the path it tried: "libcuda.so.1: cannot open ...".
        throw std::runtime_error("no NVIDIA driver (" + error + ")");
    }
    // dlsym returns void*; POSIX guarantees that it converts to a function pointer.
#define BROOK_CUDA_ENTRY(symbol)                                                                   \
    symbol = reinterpret_cast<decltype(symbol)>(library_.find(#symbol));                           \
    if (symbol == nullptr) {                                                                       \
        throw std::runtime_error("cuda: the driver " + library_.path() + " lacks " #symbol);       \
    }
#include "backends/cuda/cuda_driver_api.def"
#undef BROOK_CUDA_ENTRY
}

std::string Driver::default_path() {
    const char* path = std::getenv("BRT_CUDA_DRIVER");
    return path != nullptr && *path != '\0' ? path : "libcuda.so.1";
}

std::string Driver::describe(CUresult result) const {
    // Both calls fail, leaving the pointers alone, for a code this driver does not know.
    const char* name = nullptr;
    const char* text = nullptr;
    cuGetErrorName(result, &name);
    cuGetErrorString(result, &text);
    return std::string(name != nullptr ? name : "CUresult " + std::to_string(result)) + ": " +
           (text != nullptr ? text : "unknown error");
}

void Driver::check(CUresult result, std::string_view what) const {
    if (result == CUDA_SUCCESS) {
        return;
    }
    throw std::runtime_error("cuda: " + std::string(what) + ": " + describe(result));
}

} // namespace brook::detail::cuda
