// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Does not compile: brook_cuda_check must fail and print NVRTC's log.
extern "C" __global__ void brook_broken(float* out) {
    out[threadIdx.x] = undefined_value;
}
