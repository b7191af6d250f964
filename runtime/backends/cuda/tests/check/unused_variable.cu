// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// NVRTC warns that `unused` is never referenced: brook_cuda_check must fail.
extern "C" __global__ void brook_unused(float* out) {
    int unused = 3;
    out[threadIdx.x] = 1.0f;
}
