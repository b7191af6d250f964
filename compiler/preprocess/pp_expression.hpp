// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Evaluation of `#if` / `#elif` conditions, after `defined` and macro expansion have been applied
// and every remaining identifier has become 0.

#include "lex/token.hpp"
#include "support/diagnostics.hpp"

#include <optional>
#include <span>
#include <string_view>

namespace brcc {

/// Evaluates a C integer constant expression (`?:`, `|| && | ^ & == != < > <= >= << >> + - * /
/// %`, unary `+ - ! ~`, parentheses, integer and character constants); nullopt after an error.
std::optional<long long> evaluate_pp_expression(std::span<const Token> tokens,
                                                std::string_view directive_name,
                                                SourceRange directive_range,
                                                DiagnosticEngine& diags);

/// The value of an integer or character constant token (suffixes ignored).
unsigned long long pp_literal_value(const Token& token);

} // namespace brcc
