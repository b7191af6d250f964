// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// libFuzzer harness: every kernel the front end accepts must give CUDA C++ that NVRTC compiles.
// Each kernel's program is the cuda generator's text, compiled as the cuda backend compiles it at
// its first launch (runtime/backends/cuda: program_request, with the headers libbrook embeds, and
// Nvrtc), to a CUBIN for sm_80, the oldest architecture the project checks its kernels on
// (brook_cuda_check); a program NVRTC rejects is a crash, with NVRTC's log and the program
// printed. NVRTC needs no GPU, only the toolkit's libnvrtc.

#include "fuzzed_compilation.hpp"

#include "backends/cuda/nvrtc_compiler.hpp"
#include "backends/cuda/nvrtc_headers.hpp"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_set>

namespace cuda = brook::detail::cuda;

namespace {

constexpr int compute_capability = 80;

const cuda::Nvrtc& nvrtc() {
    static const cuda::Nvrtc loaded;
    return loaded;
}

void check_compiles(const std::string& kernel_name, const std::string& program) {
    // A compile takes hundreds of milliseconds, and most mutations leave most kernels as they
    // were: each program is compiled once per process, found again by its hash.
    static std::unordered_set<std::size_t> compiled;
    if (!compiled.insert(std::hash<std::string>{}(program)).second)
        return;
    const cuda::CompileRequest request =
        cuda::program_request(program, kernel_name, compute_capability);
    try {
        nvrtc().compile(request.source, request.program, request.headers, request.options,
                        request.compute_capability);
    } catch (const std::runtime_error& error) {
        std::fprintf(stderr, "CUDA of kernel '%s' does not compile:\n%s\n--- program ---\n%s\n",
                     kernel_name.c_str(), error.what(), program.c_str());
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    try {
        nvrtc(); // loaded once, before the first input, so that a missing NVRTC says so at once
    } catch (const std::runtime_error& error) {
        std::fprintf(stderr, "cuda_fuzzer: %s\n", error.what());
        std::exit(1);
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    brcc_fuzz::FuzzedCompilation(data, size).for_each_kernel_source("cuda", check_compiles);
    return 0;
}
