// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The loops of a kernel that the cuda backend runs a warp per output element for. In SGEMV's
// form (`for (int j = 0; j < n; ++j) sum += a[row][j] * x[j];`) a thread per element has the 32
// lanes of a warp read 32 rows at once, a row apart: 32 sectors per request where 4 would do.
// Spread over the lanes of one element's warp, the loop's iterations read consecutive elements
// of one row instead (4 sectors per request), and the lanes' partial sums meet in a warp_sum
// (runtime/backends/cuda/device/kernel_frame.hpp). The rest of the body runs alike in every
// lane, which all hold the same values, so control flow stays uniform across the warp.

#include "ast/ast.hpp"
#include "codegen/simd_loop.hpp"

#include <map>

namespace brcc {

/// The `for` statements of `kernel`'s body (not of the helpers it calls) to spread over a warp,
/// each with its SimdLoop:
/// loops whose iterations share nothing but float sums (simd_loop.hpp) and that read gathered
/// rows along the counter, a gather of rank two or more indexed by it in its last dimension and
/// none indexed by it in another (which the lanes would read a row apart), unless literal bounds
/// give fewer iterations than a warp has lanes. None for a reduction or a kernel with thread
/// groups, variable outputs or scatter outputs, whose elements are not each one thread's.
std::map<const For*, SimdLoop> warp_loops(const KernelDecl& kernel);

} // namespace brcc
