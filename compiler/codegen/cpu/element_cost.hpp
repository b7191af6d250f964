// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// An estimate of the work of one element of a kernel, for the CPU backend's choice of threads:
// starting a team costs a few microseconds, which a few thousand elements of a kernel like SAXPY
// pay back, but a few hundred of one with a hundred operations per element (a kernel of 43
// float4 multiply-adds ran on one thread up to 4,096 elements, 0.6x the two-thread OpenMP loop
// at 1,024).

#include "ast/ast.hpp"

#include <cstddef>

namespace brcc {

/// The component operations one element of `kernel` performs, counted once per statement: each
/// arithmetic, comparison, logical or selecting operator counts the components of its operands,
/// a gather read 4, a transcendental built-in (sin, exp, pow...) 16 per component and any other
/// built-in 2, and a call of a helper kernel its body. Loop bodies count once: what matters is
/// the straight-line work, since kernels that loop get a small grain anyway (cpu_grain).
std::size_t element_operations(const KernelDecl& kernel);

} // namespace brcc
