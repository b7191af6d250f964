// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// warp_loops: find_simd_loop on each `for` of the body, then the shape of the loop's reads.

#include "codegen/cuda/warp_loop.hpp"

#include "ast/stmt_children.hpp"
#include "codegen/param_access.hpp"

namespace brcc {

namespace {

/// Threads of a warp (kernel_frame.hpp's warp_lanes).
constexpr long long warp_lanes = 32;

/// Whether `loop` reads gathered rows along its counter, and only along them.
bool walks_rows(const SimdLoop& loop) {
    bool along_a_row = false;
    for (const auto& [subscript, dimension] : loop.counter_indices) {
        const int rank = subscript->gather->gather_view_rank();
        if (dimension != rank - 1)
            return false;
        along_a_row = along_a_row || rank >= 2;
    }
    return along_a_row;
}

/// Whether literal bounds give `loop` fewer iterations than a warp has lanes.
bool fewer_iterations_than_lanes(const SimdLoop& loop) {
    if (loop.lower->kind != NodeKind::IntLiteral || loop.upper->kind != NodeKind::IntLiteral)
        return false;
    const long long lower = static_cast<const IntLiteral&>(*loop.lower).value;
    const long long upper = static_cast<const IntLiteral&>(*loop.upper).value;
    return upper - lower + (loop.inclusive ? 1 : 0) < warp_lanes;
}

void collect(const Stmt& stmt, std::map<const For*, SimdLoop>& loops) {
    if (stmt.kind == NodeKind::For) {
        const auto& loop = static_cast<const For&>(stmt);
        if (const std::optional<SimdLoop> simd = find_simd_loop(loop);
            simd && walks_rows(*simd) && !fewer_iterations_than_lanes(*simd)) {
            loops.emplace(&loop, *simd);
            return; // its body has no loops
        }
    }
    for_each_child(
        stmt, [&](const Stmt* child) { collect(*child, loops); }, [](const Expr*) {});
}

} // namespace

std::map<const For*, SimdLoop> warp_loops(const KernelDecl& kernel) {
    std::map<const For*, SimdLoop> loops;
    if (kernel.body == nullptr || kernel.is_reduce || kernel.has_group_size() ||
        has_variable_output(kernel) || has_scatter_output(kernel))
        return loops;
    collect(*kernel.body, loops);
    return loops;
}

} // namespace brcc
