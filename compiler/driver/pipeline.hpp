// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// brcc's pipeline: the stages in order, from the .br file to C++ (and on to a program).

#include "driver/options.hpp"

namespace brcc {

/// Runs brcc as `options` asks and returns the process exit code.
int run_pipeline(const DriverOptions& options);

} // namespace brcc
