// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// libFuzzer harness: the whole front end as `brcc --emit-cpp` runs it (preprocess, parse, sema,
// the C++ with every backend's kernel code), then each kernel's standalone source for every
// backend that has one (GLSL, CUDA) as `brcc --emit-kernels` writes it. An internal compiler
// error is thrown out of the harness, so libFuzzer reports it as a crash like any other.

#include "fuzzed_compilation.hpp"

#include "codegen/backend_generator.hpp"
#include "codegen/emit_cpp.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const brcc_fuzz::FuzzedCompilation compilation(data, size);
    if (compilation.unit() == nullptr)
        return 0;
    const brcc::TranslationUnit& unit = *compilation.unit();
    const brcc::CodegenOptions options{.source_name = "fuzz.br",
                                       .output_name = "fuzz.cpp",
                                       .backends = brcc::registered_backends()};
    (void)brcc::emit_cpp(unit, compilation.sources(), options);
    for (const std::unique_ptr<brcc::BackendGenerator>& generator :
         brcc::make_backend_generators()) {
        for (const brcc::TopLevelItem& item : unit.items) {
            const auto* kernel = std::get_if<brcc::KernelDecl*>(&item);
            if (kernel != nullptr && !(*kernel)->is_helper())
                (void)generator->kernel_source(**kernel);
        }
    }
    return 0;
}
