// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// libFuzzer harness: the preprocessor alone. The input is lexed as a file and all of it is
// expanded as kernel code is, directives applied in order (macros, conditionals, `#if`
// arithmetic), then the end of the file is checked for open conditionals.

#include "lex/lexer.hpp"
#include "preprocess/preprocessor.hpp"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    brcc::SourceManager sources;
    std::ostringstream diagnostics;
    brcc::DiagnosticEngine diags(sources, diagnostics, false);
    const std::uint32_t file =
        sources.add_buffer("fuzz.br", std::string(reinterpret_cast<const char*>(data), size));
    const std::vector<brcc::Token> tokens = brcc::lex_file(sources, file, diags);
    brcc::Preprocessor preprocessor(sources, brcc::PreprocessorOptions{}, diags);
    (void)preprocessor.expand(tokens);
    preprocessor.finish();
    return 0;
}
