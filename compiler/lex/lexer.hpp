#pragma once
// The lexer: turns one file's text into tokens, reporting malformed ones (unterminated comments
// or literals, stray bytes). Preprocessor directive lines become single `directive` tokens.

#include "lex/token.hpp"
#include "support/diagnostics.hpp"

#include <vector>

namespace brcc {

/// Lexes the whole file; the last token is always end_of_file.
std::vector<Token> lex_file(const SourceManager& sources, std::uint32_t file,
                            DiagnosticEngine& diags);

} // namespace brcc
