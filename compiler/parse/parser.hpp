// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The front end's entry point: lexes, preprocesses and parses a .br file into a TranslationUnit
// (host text, host stream declarations, struct typedefs, kernels), reporting syntax errors and
// recovering at the next statement or declaration.

#include "ast/ast.hpp"
#include "preprocess/preprocessor.hpp"
#include "support/diagnostics.hpp"

#include <memory>

namespace brcc {

std::unique_ptr<TranslationUnit> parse_translation_unit(SourceManager& sources, std::uint32_t file,
                                                        const PreprocessorOptions& options,
                                                        DiagnosticEngine& diags);

} // namespace brcc
