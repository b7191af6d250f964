// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Comparing a program's output with the expected output: numbers within a tolerance, other text
// exactly after normalising whitespace.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace brook_test {

/// The first difference found, for the failure report.
struct OutputMismatch {
    std::size_t line = 0; // 1-based; 0 when the line counts differ
    std::string expected;
    std::string actual;
    std::string reason;
};

/// Trims a line and collapses each run of whitespace to one space.
[[nodiscard]] std::string normalise_whitespace(const std::string& line);

/// True when `a` (expected) and `b` (actual) agree absolutely or relatively within `tolerance`.
[[nodiscard]] bool numbers_match(double a, double b, double tolerance);

/// Compares two lines; returns why they differ, or nothing when they match.
[[nodiscard]] std::optional<std::string> compare_line(const std::string& expected,
                                                      const std::string& actual, double tolerance);

/// Compares whole outputs line by line, ignoring trailing empty lines.
[[nodiscard]] std::optional<OutputMismatch> compare_output(std::vector<std::string> expected,
                                                           std::vector<std::string> actual,
                                                           double tolerance);

} // namespace brook_test
