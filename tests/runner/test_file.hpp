// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The control comments of a test program (docs/testing.md, "File formats").
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace brook_test {

/// A test file that breaks the format; the runner reports it and exits with status 2.
struct TestFormatError {
    std::string message;
};

/// What a conformance test states about itself in `// keyword: value` comments.
struct ConformanceSpec {
    std::optional<std::vector<std::string>> expected_lines; // `// expect:` lines or NAME.expected
    double tolerance = 1e-4;
    std::vector<std::string> required_backends; // empty: every backend
    /// `// excludes:`: backends the program cannot mean the same on, with the reason after `--`
    /// (host threads racing for the mpi backend, whose ranks must make the same calls in order).
    std::vector<std::string> excluded_backends;
    std::string exclusion_reason;
    int exit_code = 0;
    std::vector<std::string> stderr_texts;
    std::vector<std::pair<std::string, std::string>> env;
    std::vector<std::string> args;
    std::vector<std::string> brcc_args;
    std::vector<std::string> inputs; // `// inputs:` more files of the program, beside the test
    /// `// kernels-header:` Brook files of the program (beside the test) whose `brcc -h` header,
    /// brookgenfiles/NAME.h, its C++ includes, as Brook+ programs do.
    std::vector<std::string> kernels_headers;
};

/// One expected diagnostic of a diagnostics test.
struct ExpectedDiagnostic {
    int line = 0;
    std::string severity; // "error" or "warning"
    std::string text;
};

[[nodiscard]] std::string read_file(const std::string& path);
[[nodiscard]] std::vector<std::string> split_lines(const std::string& text);
[[nodiscard]] std::string trim(const std::string& text);
[[nodiscard]] std::vector<std::string> split_words(const std::string& text);

/// Reads the control comments of `source`; `expected_file` is the content of NAME.expected when
/// that file exists. Throws TestFormatError.
[[nodiscard]] ConformanceSpec
parse_conformance_spec(const std::string& source, const std::optional<std::string>& expected_file);

/// Reads the `// error:` and `// warning:` markers of a diagnostics test, in line order.
[[nodiscard]] std::vector<ExpectedDiagnostic> parse_expected_diagnostics(const std::string& source);

/// Reads the `// brcc-args:` comments only (diagnostics tests may use them too).
[[nodiscard]] std::vector<std::string> parse_brcc_args(const std::string& source);

} // namespace brook_test
