// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "fuzzed_compilation.hpp"

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
    brcc::analyze(*unit, diags_);
    if (!diags_.has_errors())
        unit_ = std::move(unit);
}

} // namespace brcc_fuzz
