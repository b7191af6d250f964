// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The cpu backend's generator: a kernel's loop functions (cpu_kernel_emitter) and the
// brook::cpu::KernelCode that the runtime's cpu backend finds in the kernel's KernelInfo. Its
// code is C++ in the generated file, so its statements carry `#line` directives into the .br
// file, and --target with several instruction sets builds its loops once for each.

#include "codegen/backend_generator.hpp"
#include "codegen/cpp_kernel_printer.hpp"
#include "codegen/cpp_spelling.hpp"
#include "codegen/cpu/cpu_kernel_emitter.hpp"
#include "codegen/emit_cpp.hpp"

#include <optional>

namespace brcc {

namespace {

class CpuGenerator final : public BackendGenerator {
public:
    /// No `#line` directives and one instruction set: code for no file in particular.
    CpuGenerator() = default;
    /// For the file emit_cpp writes as `options` say from the source in `sources`.
    CpuGenerator(const SourceManager& sources, const CodegenOptions& options)
        : source_lines_(SourceLines{sources, options.source_name}), clones_(options.cpu_clones) {}

    std::string_view name() const override { return "cpu"; }
    std::string prologue() const override { return cpu_prologue(code_options()); }
    std::string helper_prototype(const KernelDecl& helper) override {
        return cpu_callable_prototype(helper);
    }
    std::string helper_definition(const KernelDecl& helper) override {
        return cpu_callable_definition(helper, code_options());
    }

    std::optional<BackendKernelCode> kernel_code(const KernelDecl& kernel) override {
        const std::string code_name = cpp_identifier(kernel.name) + "__cpu_code";
        std::string functions = kernel.is_reduce
                                    ? ".fold = &" + cpu_fold_function_name(kernel) +
                                          ", .combine = &" + cpu_combine_function_name(kernel)
                                    : ".kernel = &" + cpu_kernel_function_name(kernel);
        if (const std::size_t grain = cpu_grain(kernel); grain != 0)
            functions += ", .grain = " + std::to_string(grain);
        if (cpu_kernel_loops(kernel))
            functions += ", .loops = true";
        return BackendKernelCode{cpu_kernel_code(kernel, code_options()) +
                                     "const ::brook::cpu::KernelCode " + code_name + "{" +
                                     functions + "};\n",
                                 "&" + code_name};
    }

private:
    CpuCodeOptions code_options() const {
        return {source_lines_ ? &*source_lines_ : nullptr, clones_};
    }

    /// Where kernel statements come from, for their `#line` directives; none without a file.
    std::optional<SourceLines> source_lines_;
    /// The GCC target_clones names of the loop functions (CodegenOptions::cpu_clones).
    std::vector<std::string> clones_;
};

} // namespace

std::unique_ptr<BackendGenerator> make_cpu_generator(const GeneratorContext& context) {
    if (context.sources == nullptr || context.options == nullptr)
        return std::make_unique<CpuGenerator>();
    return std::make_unique<CpuGenerator>(*context.sources, *context.options);
}

} // namespace brcc
