// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Recognising AddressSanitizer and UndefinedBehaviorSanitizer reports in a child's output.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace brook_test {

/// Environment for a sanitized child: the options already set, plus a distinct exit status so a
/// report cannot pass for a rejected input (both tools exit with 1 by default).
[[nodiscard]] std::vector<std::pair<std::string, std::string>> sanitizer_environment();

/// The name of the first sanitizer report or internal compiler error found in `output`.
[[nodiscard]] std::optional<std::string> find_crash_report(const std::string& output);

} // namespace brook_test
