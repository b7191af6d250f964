// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The generated program as a tree that the generator builds, the printer turns into a .br file
// and the reducer shrinks: units (independent kernels with the host code that calls and prints
// them), kernel bodies as statements, statements holding expressions. Every node knows how to
// print itself from a template, so the reducer can drop statements and replace expressions
// without knowing what they mean.
#pragma once

#include <string>
#include <vector>

namespace brook_fuzz {

/// An expression printed from `pattern`, where `$0`..`$9` stand for `children`. `fallback` is a
/// literal of the same type and value class, safe wherever the expression stands (the reducer
/// replaces the expression with it); empty for leaves, which have nothing simpler.
struct Expr {
    std::string pattern;
    std::vector<Expr> children;
    std::string fallback;
};

/// A statement printed as `parts[0] bodies[0] parts[1] bodies[1] ...`; each part is a template
/// over `exprs` as in Expr. A statement that is not `removable` (a declaration, the final store
/// to an output) keeps the program well-typed and every output written when the reducer runs.
struct Stmt {
    std::vector<std::string> parts;
    std::vector<Expr> exprs;
    std::vector<std::vector<Stmt>> bodies;
    bool removable = true;
};

/// One kernel or reduce function: its head (`kernel void k(...)`) and body.
struct Kernel {
    std::string head;
    std::vector<Stmt> body;
};

/// Kernels with the host block (declarations, reads, the calls, the prints) that exercises them.
/// Units are independent, so the reducer may drop any of them.
struct Unit {
    std::vector<Kernel> kernels;
    std::string host;
    /// File-scope lines before the kernels (the typedef of a struct element type).
    std::string declarations;
};

struct Program {
    unsigned long long seed = 0;
    std::vector<Unit> units;
};

/// The whole .br file: a comment naming the seed, the print helpers, the units' declarations and
/// kernels, then main()
/// running every unit's host block in order.
[[nodiscard]] std::string print_program(const Program& program);

[[nodiscard]] std::string print_expr(const Expr& expr);

} // namespace brook_fuzz
