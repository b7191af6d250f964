// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "fuzzed_compilation.hpp"

#include "codegen/backend_generator.hpp"
#include "parse/parser.hpp"
#include "sema/sema.hpp"

#include <string>

namespace brcc_fuzz {

FuzzedCompilation::FuzzedCompilation(const std::uint8_t* data, std::size_t size) {
    const std::uint32_t file =
        sources_.add_buffer("fuzz.br", std::string(reinterpret_cast<const char*>(data), size));
    std::unique_ptr<brcc::TranslationUnit> unit =
        brcc::parse_translation_unit(sources_, file, brcc::PreprocessorOptions{}, diags_);
    if (diags_.has_errors())
        return;
    // With every backend's check of each kernel, as brcc runs them by default.
    const std::vector<std::unique_ptr<brcc::BackendGenerator>> generators =
        brcc::make_backend_generators();
    brcc::analyze(*unit, diags_, [&](const brcc::KernelDecl& kernel) {
        for (const std::unique_ptr<brcc::BackendGenerator>& generator : generators)
            generator->check_kernel(kernel, diags_);
    });
    if (!diags_.has_errors())
        unit_ = std::move(unit);
}

void FuzzedCompilation::for_each_kernel_source(
    std::string_view backend,
    const std::function<void(const std::string& kernel, const std::string& source)>& check) const {
    if (unit_ == nullptr)
        return;
    for (const std::unique_ptr<brcc::BackendGenerator>& generator :
         brcc::make_backend_generators()) {
        if (generator->name() != backend)
            continue;
        for (const brcc::TopLevelItem& item : unit_->items) {
            const auto* kernel = std::get_if<brcc::KernelDecl*>(&item);
            if (kernel == nullptr || (*kernel)->is_helper())
                continue;
            if (const std::optional<brcc::KernelSource> source = generator->kernel_source(**kernel))
                check((*kernel)->name, source->text);
        }
    }
}

} // namespace brcc_fuzz
