// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Which rows of a gather an output element reads, for ParamInfo::row_from and its neighbours: a
// backend that spreads streams over processes (mpi) fetches only the rows near its block when
// every index's row component is the element's own row plus a constant (a stencil's
// `a[p + int2(0, 1)]`, SGEMV's `a[row][j]` with `row = indexof(y).x`).

#include "ast/ast.hpp"

#include <vector>

namespace brcc {

struct GatherRows {
    int from = -1;   ///< the component of indexof(stream) that is the row; -1: any row
    int stream = -1; ///< that stream parameter's index
    long long reach_low = 0;
    long long reach_high = 0;
    int argument = -1; ///< the constant parameter whose value the row adds; -1: none
    int argument_component = 0;
};

/// One entry per parameter of `kernel`, in order; bounded only for gathers the body indexes
/// directly (a gather passed on to another kernel reads any row).
std::vector<GatherRows> gather_rows(const KernelDecl& kernel);

} // namespace brcc
