#pragma once
// Writes the C++ translation of a checked TranslationUnit: host text with its Brook constructs
// rewritten, and for every kernel its backends' code plus a stub named after it that launches
// through the runtime.

#include "ast/ast.hpp"

#include <string>
#include <vector>

namespace brcc {

struct CodegenOptions {
    std::string source_name;            ///< for `#line` directives
    std::vector<std::string> backends;  ///< which backends' kernel code to embed ("cpu", ...)
};

std::string emit_cpp(const TranslationUnit& unit, const SourceManager& sources,
                     const CodegenOptions& options);

} // namespace brcc
