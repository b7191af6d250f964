// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Writes the C++ translation of a checked TranslationUnit: host text with its Brook constructs
// rewritten, and for every kernel its backends' code plus a stub named after it that launches
// through the runtime; or, for a Brook header, the C++ header declaring its stubs.

#include "ast/ast.hpp"

#include <string>
#include <vector>

namespace brcc {

struct CodegenOptions {
    std::string source_name; ///< for `#line` directives
    /// The generated file's own name, which `#line` directives name after kernel code so that
    /// none of it is taken for a line of the source; empty when unknown (standard output).
    std::string output_name;
    std::vector<std::string> backends; ///< which backends' kernel code to embed ("cpu", ...)
    /// A Brook header (`.brh`): a guarded C++ header of host text, structs and stub
    /// declarations (it has no kernel definitions).
    bool header = false;
    /// The GCC target_clones names of the CPU kernels' loop functions (brcc --target with
    /// several instruction sets); empty: compiled once.
    std::vector<std::string> cpu_clones;
    /// Also export `brook_kernel_table`, for a process that loads the compiled code as a shared
    /// library and calls its kernels by name (the Python module: kernel_table_entry says more).
    bool kernel_table = false;
};

std::string emit_cpp(const TranslationUnit& unit, const SourceManager& sources,
                     const CodegenOptions& options);

/// For `brcc -h FILE`: a guarded C++ header declaring the stubs of the kernels a Brook source
/// defines, with the structs it declares, so that C++ files can call the kernels.
std::string emit_kernels_header(const TranslationUnit& unit, const SourceManager& sources,
                                const CodegenOptions& options);

} // namespace brcc
