// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Kernels as the cuda backend receives them: a KernelInfo with a "cuda" entry holding brcc's
// CUDA program, the `brcc --emit-kernels=cuda` output for backend_test_kernels.br (embedded at
// build time as backend_test_sources.hpp), so that NVRTC compiles what the backend really gets,
// with the headers libbrook embeds.

#include <brook/kernel_abi.hpp>

#include "backend_test_sources.hpp"

#include <span>

namespace brook_test {

/// The KernelInfo of a kernel built for the cuda backend alone (or for `backend`, to test a
/// program built without cuda).
class CudaKernel {
public:
    CudaKernel(const char* name, std::span<const brook::ParamInfo> params, bool is_reduce,
               const char* source, const char* backend = "cuda")
        : backend_{backend, source}, info_{name, params, is_reduce, std::span(&backend_, 1)} {}
    // The info points into the object itself.
    CudaKernel(const CudaKernel&) = delete;
    CudaKernel& operator=(const CudaKernel&) = delete;

    operator const brook::KernelInfo&() const { return info_; }
    const brook::KernelInfo& info() const { return info_; }

private:
    brook::BackendCode backend_;
    brook::KernelInfo info_;
};

inline const brook::ParamInfo copy_params[] = {
    {"a", brook::ParamKind::InputStream, &brook::element_traits<brook::float4>::type, 0},
    {"b", brook::ParamKind::OutputStream, &brook::element_traits<brook::float4>::type, 0, false,
     true},
};
inline const CudaKernel copy_kernel{"copy", copy_params, false, copy_source};

inline const brook::ParamInfo sum_params[] = {
    {"a", brook::ParamKind::ReduceInput, &brook::element_traits<float>::type, 0},
    {"r", brook::ParamKind::ReduceAccumulator, &brook::element_traits<float>::type, 0, true, true},
};
inline const CudaKernel sum_kernel{"sum", sum_params, true, sum_source};

inline const brook::ParamInfo evens_params[] = {
    {"a", brook::ParamKind::InputStream, &brook::element_traits<float>::type, 0},
    {"e", brook::ParamKind::VariableOutput, &brook::element_traits<float>::type, 0, true, true},
};
inline const CudaKernel evens_kernel{"evens", evens_params, false, evens_source};

/// `copy` as a program built with --backends=gl has it: no code for the cuda backend.
inline const CudaKernel copy_without_cuda{"copy", copy_params, false, "void main() {}", "gl"};

} // namespace brook_test
