// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The instruction sets brcc builds CPU kernels for (`--target`), named as GCC's -march names
// them. With no --target a program is tuned for the building machine (`native`); with one it is
// built for that set; with several, as ispc's multi-target builds, each kernel's loop functions
// are compiled once per set and the program runs the best one the CPU has (GCC's function
// multiversioning: target_clones, resolved when the program loads), while the host code is
// built for the lowest set, which the program needs.

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace brcc {

struct CpuTarget {
    std::string_view name; ///< as --target and GCC's -march spell it
    std::string_view description;
};

/// The targets of the architecture brcc runs on, lowest first, `native` last.
const std::vector<CpuTarget>& cpu_targets();

/// `brcc --target=list`: each target with its description, marking those this machine runs.
void print_cpu_targets(std::ostream& out);

/// Checks the names given to --target (each comma-separated list split) and puts them lowest
/// first, without repeats. Returns a usage error's message, or an empty string.
std::string check_cpu_targets(std::vector<std::string>& targets);

/// The C++ compiler flags for `targets` (checked): -march=native and its widest vectors when
/// empty or `native`, else -march= the lowest target.
std::vector<std::string> cpu_target_flags(const std::vector<std::string>& targets);

/// The GCC target_clones names of the kernels' loop functions for `targets` (checked):
/// "default" (the lowest, which -march gives) and `arch=NAME` for each other; empty for one.
std::vector<std::string> cpu_target_clones(const std::vector<std::string>& targets);

} // namespace brcc
