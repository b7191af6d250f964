// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// What the libFuzzer harnesses share: one input run through the front end as `brcc --emit-cpp`
// runs it (driver/pipeline.cpp's front_end), its diagnostics kept out of the fuzzer's output.

#include "ast/ast.hpp"
#include "support/diagnostics.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>

namespace brcc_fuzz {

class FuzzedCompilation {
public:
    /// Preprocesses, parses and analyses `size` bytes at `data` as the file `fuzz.br`.
    FuzzedCompilation(const std::uint8_t* data, std::size_t size);

    /// The checked unit; null when the input has errors.
    const brcc::TranslationUnit* unit() const { return unit_.get(); }
    const brcc::SourceManager& sources() const { return sources_; }
    /// Calls `check` with the name and the generated source of every kernel (helpers aside) that
    /// `backend`'s generator writes code for, as the runtime would compile it; nothing for an
    /// input with errors.
    void for_each_kernel_source(
        std::string_view backend,
        const std::function<void(const std::string& kernel, const std::string& source)>& check)
        const;

private:
    brcc::SourceManager sources_;
    std::ostringstream diagnostics_;
    brcc::DiagnosticEngine diags_{sources_, diagnostics_, false};
    std::unique_ptr<brcc::TranslationUnit> unit_;
};

} // namespace brcc_fuzz
