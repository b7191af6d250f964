// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// brcc's pipeline: the stages in order, from the .br file to C++ (and on to a program).

#include "driver/options.hpp"

#include <iostream>

namespace brcc {

/// Runs brcc as `options` asks and returns the process exit code. brcc's own diagnostics
/// (`file:line:col: error: ...`) go to `diagnostics`; the C++ compiler's, and the driver's
/// usage errors, to stderr.
int run_pipeline(const DriverOptions& options, std::ostream& diagnostics = std::cerr);

} // namespace brcc
