// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// How the CPU printer prints each `c ? a : b` of a kernel body that chooses between two vectors
// by a scalar condition (both sides free to evaluate): a blend of the two values
// (brook::cpu::select_whole), or a component-wise select, which GCC may turn into a branch.
// The blend is the better where the choice is data: GCC builds the component-wise select's mask
// a bit at a time, or branches and mispredicts (the bitonic sort's min/max, 74 -> 53-62 ms). The
// branch is the better where the value becomes an address, since a predicted branch lets the
// gather's address be computed before the condition is known, and where the choice shares its
// condition with such a choice, since the same branch then decides it (the FFT's butterfly:
// 52 ms with the branch, 61 ms with its four data choices blended, 77 ms with its partner's
// position blended too).

#include "ast/ast.hpp"

#include <unordered_set>

namespace brcc {

/// The conditionals of `body` to print component-wise: those whose value may reach a gather's
/// index (inside it, or in a value given to a local that an index reads, directly or through
/// other such locals: its initialiser, or an assignment to it or to part of it), and those whose
/// condition is a local that decides one of those too.
std::unordered_set<const Conditional*> componentwise_choices(const Stmt& body);

} // namespace brcc
