// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The cuda backend's generator: a kernel's NVRTC program (cuda_kernel_emitter), embedded as a
// string literal that the runtime's cuda backend finds in the kernel's KernelInfo.

#include "codegen/backend_generator.hpp"
#include "codegen/cuda/cuda_kernel_emitter.hpp"

namespace brcc {

namespace {

/// A raw string literal holding `text`, with a delimiter that `text` does not contain.
std::string raw_string_literal(const std::string& text) {
    std::string delimiter = "brook_cuda";
    while (text.find(")" + delimiter + "\"") != std::string::npos)
        delimiter += "_";
    return "R\"" + delimiter + "(" + text + ")" + delimiter + "\"";
}

class CudaGenerator final : public BackendGenerator {
public:
    std::string_view name() const override { return "cuda"; }

    std::optional<BackendKernelCode> kernel_code(const KernelDecl& kernel) override {
        return BackendKernelCode{{}, raw_string_literal(cuda_kernel_source(kernel))};
    }

    std::optional<KernelSource> kernel_source(const KernelDecl& kernel) override {
        return KernelSource{cuda_kernel_source(kernel), ".cu"};
    }
};

} // namespace

std::unique_ptr<BackendGenerator> make_cuda_generator(const GeneratorContext&) {
    return std::make_unique<CudaGenerator>();
}

} // namespace brcc
