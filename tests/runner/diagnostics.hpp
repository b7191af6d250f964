// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The `diagnostics` subcommand: brcc must report exactly the errors marked in the file.
#pragma once

#include "conformance.hpp"
#include "test_file.hpp"

#include <string>
#include <vector>

namespace brook_test {

/// One `FILE:LINE:COL: severity: message` line of brcc's output.
struct ReportedDiagnostic {
    std::string file;
    int line = 0;
    int column = 0;
    std::string severity;
    std::string message;
};

/// The diagnostics found in brcc's output (other lines, such as source excerpts, are skipped).
[[nodiscard]] std::vector<ReportedDiagnostic> parse_reported_diagnostics(const std::string& output);

/// Matches markers to diagnostics of `file`; returns one line per problem (empty: they agree).
[[nodiscard]] std::vector<std::string>
match_diagnostics(const std::vector<ExpectedDiagnostic>& expected,
                  const std::vector<ReportedDiagnostic>& reported, const std::string& file);

[[nodiscard]] Outcome run_diagnostics(const std::string& brcc, const std::string& file,
                                      double timeout_s);

} // namespace brook_test
