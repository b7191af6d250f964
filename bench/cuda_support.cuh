// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// What every CUDA baseline's file needs (cuda_baselines.cu, cuda_applications.cu): a failed CUDA
// call stops the program with its message, since a baseline that cannot run leaves no figure to
// compare; and device arrays, allocated once and filled from the host before any timing.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace bench::cuda {

inline void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) {
        std::fprintf(stderr, "bench: CUDA: %s: %s\n", what, cudaGetErrorString(status));
        std::exit(1);
    }
}

template <class T> T* device_array(std::size_t count) {
    void* pointer = nullptr;
    check(cudaMalloc(&pointer, count * sizeof(T)), "cudaMalloc");
    return static_cast<T*>(pointer);
}

template <class T> T* device_copy_of(const T* values, std::size_t count) {
    T* pointer = device_array<T>(count);
    check(cudaMemcpy(pointer, values, count * sizeof(T), cudaMemcpyHostToDevice),
          "cudaMemcpy to the device");
    return pointer;
}

template <class T> T* device_copy_of(const std::vector<T>& values) {
    return device_copy_of(values.data(), values.size());
}

/// `count` values of a device array, copied back (waits for the work queued before).
template <class T> std::vector<T> host_copy_of(const T* device, std::size_t count) {
    std::vector<T> values(count);
    check(cudaMemcpy(values.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost),
          "cudaMemcpy to the host");
    return values;
}

} // namespace bench::cuda
