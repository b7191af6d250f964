// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The lexer: turns one file's text into tokens, reporting malformed ones (unterminated comments
// or literals, stray bytes). Preprocessor directive lines become single `directive` tokens.

#include "lex/token.hpp"
#include "support/diagnostics.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace brcc {

/// Lexes the whole file; the last token is always end_of_file.
std::vector<Token> lex_file(const SourceManager& sources, std::uint32_t file,
                            DiagnosticEngine& diags);

/// Lexes the inside of a `directive` token (what follows the `#`; backslash-newlines are
/// whitespace). The tokens point into the file; the last one is end_of_file at the line's end.
/// Malformed tokens are reported to `diags` unless it is null.
std::vector<Token> lex_directive(const SourceManager& sources, const Token& directive,
                                 DiagnosticEngine* diags);

/// The length of the octal prefix of an integer literal with a leading zero and an 8 or 9 among
/// its digits (`0718`: 3, `09`: 1), or 0 for any other literal. Not C, but BrookGPU read such
/// literals with strtol(text, 0, 0), as that prefix (071 = 57), and brcc does the same.
std::size_t misread_octal_prefix(std::string_view literal);
/// Such a literal in decimal, its suffix kept: `0718u` is `57u`.
std::string misread_octal_in_decimal(std::string_view literal);
/// `text`, a piece of C that is copied rather than lexed (a host stream's extents), with every
/// such literal in it in decimal.
std::string with_decimal_literals(std::string_view text);

/// Lexes `spelling` as one token (for `##`); nullopt unless it is exactly one valid token.
std::optional<Token> lex_single_token(std::string_view spelling);

} // namespace brcc
