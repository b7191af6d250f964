// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Compiles without a warning for compute_80 and compute_90.
#include "brook_check_prelude.cuh"

extern "C" __global__ void brook_scale(float* out, const float* in, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) {
        out[i] = brook_twice(in[i]);
    }
}

extern "C" __global__ void brook_tile_sum(float* out, const float* in) {
    __shared__ float tile[256];
    tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        float sum = 0.0f;
        for (int i = 0; i < 256; ++i) {
            sum += tile[i];
        }
        out[blockIdx.x] = sum;
    }
}
