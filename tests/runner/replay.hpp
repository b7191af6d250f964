// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The `replay` subcommand: inputs that once made brcc fail (tests/fuzz/regressions/, kept from
// libFuzzer's crashes) fed to the sanitized brcc again.
#pragma once

#include "conformance.hpp"

#include <optional>
#include <string>

namespace brook_test {

struct ProcessResult;

/// What is wrong with one brcc run on arbitrary input: anything but accepting it (0) or
/// rejecting it (1) with no sanitizer report; nullopt when nothing is.
[[nodiscard]] std::optional<std::string> brcc_failure(const ProcessResult& result);

/// Runs `brcc --emit-cpp file`; fails on a brcc_failure.
[[nodiscard]] Outcome run_replay(const std::string& brcc, const std::string& file,
                                 const std::string& work_dir, double timeout_s);

} // namespace brook_test
