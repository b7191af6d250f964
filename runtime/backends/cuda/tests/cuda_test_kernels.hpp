// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Small CUDA programs shared by the NVRTC and kernel cache tests, and the one NVRTC they use.

#include "backends/cuda/nvrtc_compiler.hpp"

namespace brook::test::cuda {

inline constexpr const char* scale_source = R"(
extern "C" __global__ void brook_scale(float* out, const float* in, float factor, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) {
        out[i] = factor * in[i];
    }
}
)";

/// NVRTC, loaded once for the whole test program.
inline const detail::cuda::Nvrtc& nvrtc() {
    static const detail::cuda::Nvrtc instance;
    return instance;
}

} // namespace brook::test::cuda
