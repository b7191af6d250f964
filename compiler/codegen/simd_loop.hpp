// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Finds the `for` loops of a kernel body whose iterations may run side by side: a counted loop
// whose iterations share nothing but float sums, like the dot product of SGEMV
// (`for (int j = 0; j < n; ++j) sum += a[row][j] * x[j];`). The C++ compiler keeps a body's
// loops in order (floats are not associative), so such a loop would run one element at a time;
// the CPU backend runs it as an OpenMP SIMD reduction, a vector's width at once, and the cuda
// backend spreads it over the lanes of a warp (cuda/warp_loop.hpp), each re-associating the sum
// as any parallel reduction does (DESIGN.md allows re-association, never re-ordering, for
// reductions).

#include "ast/ast.hpp"

#include <optional>
#include <utility>
#include <vector>

namespace brcc {

/// `for (int i = lower; i < upper; ++i)` (or `i <= upper`) with `lower` and `upper` free of side
/// effects and unchanged by the body, a body without loops, jumps or `push` that assigns only
/// its own locals, and scalar float locals of the enclosing code that it only adds to or
/// subtracts from (`sum += e;`, `sum -= e;`) and never reads.
struct SimdLoop {
    const LocalDecl* counter = nullptr;
    const Expr* lower = nullptr;
    const Expr* upper = nullptr;
    bool inclusive = false; ///< `i <= upper`
    /// The bounds read only literals and constant parameters, so the loop runs over the same
    /// range for every element of the stream (the loops of several elements can be jammed).
    bool uniform_bounds = false;
    std::vector<const LocalDecl*> sums;
    /// The gather subscripts indexed by the counter itself in some dimension (subscript,
    /// dimension): when [lower, upper] lies inside that dimension, they need no clamping and
    /// consecutive iterations read consecutive elements.
    std::vector<std::pair<const Subscript*, int>> counter_indices;
};

/// `loop` as a SimdLoop, or nothing when it does not have that form.
std::optional<SimdLoop> find_simd_loop(const For& loop);

} // namespace brcc
