// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Whether a reduce function's operator is commutative as well as associative, so that a backend
// may fold the elements in any order (the CPU backend then folds interleaved blocks, which
// vectorise). Brook only promises associativity (DESIGN.md: reductions keep row-major order, so
// a matrix product gives the ordered result); this recognises the common bodies that commute
// and answers false for everything else, which keeps the order. Float `+` and `*` commute up
// to rounding, as they associate; `min` and `max` with a NaN operand neither commute nor
// associate (Cg's max keeps its first operand), so re-associating folds already give an
// order-dependent result there, and re-ordering changes nothing in kind.

#include "ast/ast.hpp"

namespace brcc {

/// True when `reduce`'s body is one statement combining its accumulator `r` and its input `a`
/// of the same float or integer scalar or vector type with `+`, `*`, `min` or `max` (or `&`,
/// `|`, `^` on integers), in either order: `r = max(r, a)`, `r = a + r`, `r += a`, `r *= a`.
bool reduce_commutes(const KernelDecl& reduce);

} // namespace brcc
