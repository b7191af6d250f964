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

#include <algorithm>
#include <optional>

namespace brcc {

namespace {

/// How many kernels of the other kind before it a kernel may pair with, the nearest. A program
/// usually defines a map beside the reduction of its output, and each fold costs the C++
/// compiler about 0.25 s (GCC 12, -O3): bounded, the folds and brcc's search for them grow with
/// the file's kernels, not with the product of its maps and reductions. A pair left out is
/// still fused by the runtime, a piece at a time.
constexpr std::size_t max_fused_folds = 4;

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
        std::string definitions = cpu_kernel_code(kernel, code_options());
        const std::string fused = fused_folds(kernel, definitions);
        if (!fused.empty())
            functions += ", .fused_folds = " + fused;
        (kernel.is_reduce ? earlier_reductions_ : earlier_maps_).push_back(&kernel);
        return BackendKernelCode{definitions + "const ::brook::cpu::KernelCode " + code_name + "{" +
                                     functions + "};\n",
                                 "&" + code_name};
    }

private:
    /// The fused folds (cpu_fuses) of `kernel` with the nearest max_fused_folds kernels of the
    /// other kind (maps for a reduction, reductions for a map) before it in the file, added to
    /// `definitions` with their table, whose name it returns: empty when there are none. Each
    /// pair's fold is printed with the later kernel, once both bodies are defined.
    std::string fused_folds(const KernelDecl& kernel, std::string& definitions) const {
        const std::vector<const KernelDecl*>& others =
            kernel.is_reduce ? earlier_maps_ : earlier_reductions_;
        std::string entries;
        const std::size_t nearest = std::min(others.size(), max_fused_folds);
        for (auto other = others.rbegin(); other != others.rbegin() + nearest; ++other) {
            const KernelDecl& map = kernel.is_reduce ? **other : kernel;
            const KernelDecl& reduction = kernel.is_reduce ? kernel : **other;
            if (!cpu_fuses(map, reduction))
                continue;
            definitions += "\n" + cpu_fused_fold_code(map, reduction, code_options());
            entries += "    {&" + cpp_identifier((*other)->name) + "__cpu_code, &" +
                       cpu_fused_fold_function_name(map, reduction) + "},\n";
        }
        if (entries.empty())
            return {};
        const std::string table = cpp_identifier(kernel.name) + "__fused_folds";
        definitions += "\nconst ::brook::cpu::FusedFold " + table + "[] = {\n" + entries + "};\n";
        return table;
    }

    CpuCodeOptions code_options() const {
        return {source_lines_ ? &*source_lines_ : nullptr, clones_};
    }

    /// Where kernel statements come from, for their `#line` directives; none without a file.
    std::optional<SourceLines> source_lines_;
    /// The GCC target_clones names of the loop functions (CodegenOptions::cpu_clones).
    std::vector<std::string> clones_;
    /// The maps and the reductions whose code this generator has printed, in the file's order.
    std::vector<const KernelDecl*> earlier_maps_;
    std::vector<const KernelDecl*> earlier_reductions_;
};

} // namespace

std::unique_ptr<BackendGenerator> make_cpu_generator(const GeneratorContext& context) {
    if (context.sources == nullptr || context.options == nullptr)
        return std::make_unique<CpuGenerator>();
    return std::make_unique<CpuGenerator>(*context.sources, *context.options);
}

} // namespace brcc
