// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// How deep the front end lets a program nest before it stops with an error naming the limit and
// the option that raises it (as clang's -fbracket-depth). Every stage after the parser walks the
// tree recursively, so these limits are what keeps hostile input from overflowing the stack.

#include <optional>
#include <string>
#include <string_view>

namespace brcc {

struct FrontEndLimits {
    /// -fbracket-depth=N: statements, blocks, parentheses, brackets and operands of unary
    /// operators inside one another in kernel code.
    int bracket_depth = 256;
    /// -fexpression-depth=N: operators chained into one expression tree (`a + b + ... + z` is
    /// as deep as it has operators); counted along the path from the statement to the deepest
    /// operand, the nesting of brackets included.
    int expression_depth = 2048;
    /// -fmax-include-depth=N (gcc's name): quoted `#include`s brcc reads, one inside another.
    int include_depth = 200;
};

/// Applies one `-fbracket-depth=N`, `-fexpression-depth=N` or `-fmax-include-depth=N` to
/// `limits`: nullopt when `flag` is none of them, an empty string when it was applied, else the
/// usage error to report.
std::optional<std::string> apply_limit_flag(std::string_view flag, FrontEndLimits& limits);

} // namespace brcc
