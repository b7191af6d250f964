// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Random Brook programs, free of undefined behaviour by construction, for differential testing.
#pragma once

#include "program.hpp"

namespace brook_fuzz {

/// The program for `seed`: the same seed gives the same program on every machine (the random
/// numbers come from std::mt19937_64 without the standard distributions, whose results differ
/// between libraries). `units` independent kernels and calls share one program, so one compile
/// and one process start serve them all.
[[nodiscard]] Program generate_program(unsigned long long seed, int units);

} // namespace brook_fuzz
