// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The vulkan backend's generator: a kernel's compute shaders (compute_shader_emitter: one, or a
// reduction's two) compiled to SPIR-V by brcc (spirv_compiler), embedded as an array of 32-bit
// words, the number of modules, then each module's number of words and its words
// (runtime/backends/vulkan/shader_frame.hpp, SpirvPayload). Its check compiles each kernel once
// sema has analysed the program, so that a shader the compiler rejects is an error at the kernel.

#include "codegen/backend_generator.hpp"
#include "codegen/cpp_spelling.hpp"
#include "codegen/vulkan/compute_shader_emitter.hpp"
#include "codegen/vulkan/spirv_compiler.hpp"
#include "support/diagnostics.hpp"

namespace brcc {

namespace {

constexpr std::string_view backend = "vulkan";

std::string shader_name(const KernelDecl& kernel) {
    return kernel.name + ".comp";
}

/// The SPIR-V modules of the kernel's shaders, in their order.
std::vector<std::vector<std::uint32_t>> spirv_of(const KernelDecl& kernel) {
    std::vector<std::vector<std::uint32_t>> modules;
    for (const std::string& shader : vulkan_compute_shaders(kernel)) {
        auto compiled = compile_compute_shader(shader, shader_name(kernel));
        if (auto* errors = std::get_if<SpirvErrors>(&compiled))
            internal_error(__FILE__, __LINE__,
                           "the SPIR-V of kernel '" + kernel.name + "': " + errors->messages);
        modules.push_back(std::get<std::vector<std::uint32_t>>(std::move(compiled)));
    }
    return modules;
}

/// `const std::uint32_t NAME[] = {modules, count, words..., count, words...};`, eight words a
/// line.
std::string words_definition(const std::string& name,
                             const std::vector<std::vector<std::uint32_t>>& modules) {
    std::string text =
        "const std::uint32_t " + name + "[] = {\n    " + std::to_string(modules.size()) + "u,";
    for (const std::vector<std::uint32_t>& words : modules) {
        text += "\n    " + std::to_string(words.size()) + "u,";
        for (std::size_t i = 0; i < words.size(); ++i)
            text += (i % 8 == 0 ? "\n    " : " ") + std::to_string(words[i]) + "u,";
    }
    return text + "\n};\n";
}

class VulkanGenerator final : public BackendGenerator {
public:
    std::string_view name() const override { return backend; }

    std::string prologue() const override { return "#include <cstdint>\n"; }

    void check_analysed_kernel(const KernelDecl& kernel, DiagnosticEngine& diags) const override {
        for (const std::string& shader : vulkan_compute_shaders(kernel)) {
            const auto compiled = compile_compute_shader(shader, shader_name(kernel));
            if (const auto* errors = std::get_if<SpirvErrors>(&compiled)) {
                diags.report(DiagId::backend_rejects_kernel, kernel.name_range)
                    << std::string(backend) << kernel.name << errors->messages;
                return;
            }
        }
    }

    std::optional<BackendKernelCode> kernel_code(const KernelDecl& kernel) override {
        const std::string name = "brook_vulkan_" + cpp_identifier(kernel.name);
        return BackendKernelCode{words_definition(name, spirv_of(kernel)), name};
    }

    /// The SPIR-V module that runs on every device (a reduction's first), as a file.
    std::optional<KernelSource> kernel_source(const KernelDecl& kernel) override {
        const std::vector<std::uint32_t> words = spirv_of(kernel).front();
        std::string bytes(words.size() * sizeof(std::uint32_t), '\0');
        for (std::size_t i = 0; i < words.size(); ++i)
            for (std::size_t b = 0; b < sizeof(std::uint32_t); ++b)
                bytes[i * sizeof(std::uint32_t) + b] = static_cast<char>(words[i] >> (8 * b));
        return KernelSource{std::move(bytes), ".spv"};
    }
};

} // namespace

std::unique_ptr<BackendGenerator> make_vulkan_generator(const GeneratorContext&) {
    return std::make_unique<VulkanGenerator>();
}

} // namespace brcc
