// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Runs `brcc --emit-cpp` on the file and matches the diagnostics it prints against the markers,
// one diagnostic per marker, so a mistake reported twice fails ("one mistake, one error").
#include "diagnostics.hpp"

#include "process.hpp"
#include "sanitizers.hpp"

#include <filesystem>
#include <iostream>
#include <regex>
#include <unistd.h>

namespace brook_test {
namespace fs = std::filesystem;
namespace {

constexpr int internal_error_exit = 70;

// Colour escapes are only printed on a terminal, but strip them anyway so a forced colour mode
// cannot break the match.
std::string strip_ansi(const std::string& text) {
    static const std::regex escape("\x1b\\[[0-9;]*[A-Za-z]");
    return std::regex_replace(text, escape, "");
}

bool same_file(const std::string& reported, const std::string& file) {
    return reported == file || fs::path(reported).filename() == fs::path(file).filename();
}

std::string describe(const ReportedDiagnostic& diagnostic) {
    return diagnostic.file + ":" + std::to_string(diagnostic.line) + ":" +
           std::to_string(diagnostic.column) + ": " + diagnostic.severity + ": " +
           diagnostic.message;
}

} // namespace

std::vector<ReportedDiagnostic> parse_reported_diagnostics(const std::string& output) {
    static const std::regex pattern("^(.*?):([0-9]+):([0-9]+): (error|warning|note): (.*)$");
    std::vector<ReportedDiagnostic> reported;
    for (const std::string& line : split_lines(strip_ansi(output))) {
        std::smatch match;
        if (std::regex_match(line, match, pattern)) {
            reported.push_back({match[1].str(), std::stoi(match[2].str()),
                                std::stoi(match[3].str()), match[4].str(), match[5].str()});
        }
    }
    return reported;
}

std::vector<std::string> match_diagnostics(const std::vector<ExpectedDiagnostic>& expected,
                                           const std::vector<ReportedDiagnostic>& reported,
                                           const std::string& file) {
    std::vector<std::string> problems;
    std::vector<bool> used(reported.size(), false);
    for (const ExpectedDiagnostic& marker : expected) {
        bool found = false;
        for (std::size_t i = 0; i < reported.size() && !found; ++i) {
            const ReportedDiagnostic& diagnostic = reported[i];
            if (!used[i] && diagnostic.severity == marker.severity &&
                diagnostic.line == marker.line && same_file(diagnostic.file, file) &&
                diagnostic.message.find(marker.text) != std::string::npos) {
                used[i] = true;
                found = true;
            }
        }
        if (!found) {
            problems.push_back("missing " + marker.severity + " on line " +
                               std::to_string(marker.line) + ": '" + marker.text + "'");
        }
    }
    for (std::size_t i = 0; i < reported.size(); ++i) {
        const ReportedDiagnostic& diagnostic = reported[i];
        // The error limit's own message has no marker to match; the errors before it do. Notes
        // go with the diagnostic before them; a warning no test wants is silenced with -w or
        // -Wno-NAME in the file's `// brcc-args:`.
        if (!used[i] && diagnostic.severity != "note" &&
            diagnostic.message.find("too many errors") == std::string::npos) {
            problems.push_back("unexpected " + diagnostic.severity + ": " + describe(diagnostic));
        }
    }
    return problems;
}

Outcome run_diagnostics(const std::string& brcc, const std::string& file, double timeout_s) {
    std::vector<ExpectedDiagnostic> expected;
    std::vector<std::string> brcc_args;
    try {
        const std::string source = read_file(file);
        expected = parse_expected_diagnostics(source);
        brcc_args = parse_brcc_args(source);
    } catch (const TestFormatError& error) {
        std::cout << file << ": bad test: " << error.message << '\n';
        return Outcome::bad_test;
    }
    const bool expects_errors =
        std::any_of(expected.begin(), expected.end(),
                    [](const auto& marker) { return marker.severity == "error"; });

    const fs::path output =
        fs::temp_directory_path() /
        ("brook-diag-" + std::to_string(getpid()) + "-" + fs::path(file).stem().string() + ".cpp");
    ProcessSpec spec;
    spec.argv.push_back(brcc);
    spec.argv.push_back("--emit-cpp");
    spec.argv.insert(spec.argv.end(), brcc_args.begin(), brcc_args.end());
    spec.argv.insert(spec.argv.end(), {file, "-o", output.string()});
    spec.timeout_s = timeout_s;
    spec.env = sanitizer_environment();
    const ProcessResult result = run_process(spec);
    std::error_code ignored;
    fs::remove(output, ignored);

    const std::string all_output = result.out + result.err;
    std::vector<std::string> problems;
    if (result.exec_failed || result.timed_out || result.signal != 0) {
        problems.push_back("brcc " + result.describe(timeout_s));
    } else if (result.exit_code == internal_error_exit) {
        problems.push_back("brcc exited with 70 (internal compiler error)");
    } else if (result.exit_code != (expects_errors ? 1 : 0)) {
        problems.push_back("brcc exited with " + std::to_string(result.exit_code) + ", expected " +
                           (expects_errors ? "1" : "0"));
    }
    if (const std::optional<std::string> report = find_crash_report(all_output)) {
        problems.push_back("brcc's output contains a crash report (" + *report + ")");
    }
    const std::vector<ReportedDiagnostic> reported = parse_reported_diagnostics(all_output);
    for (std::string& problem : match_diagnostics(expected, reported, file)) {
        problems.push_back(std::move(problem));
    }

    if (problems.empty()) {
        std::cout << "PASSED: " << fs::path(file).filename().string() << " (" << expected.size()
                  << " expected diagnostic" << (expected.size() == 1 ? "" : "s") << ")\n";
        return Outcome::pass;
    }
    std::cout << "FAILED: " << file << '\n';
    for (const std::string& problem : problems) {
        std::cout << "  " << problem << '\n';
    }
    std::cout << "---- expected ----\n";
    for (const ExpectedDiagnostic& marker : expected) {
        std::cout << "line " << marker.line << ": " << marker.severity << ": " << marker.text
                  << '\n';
    }
    std::cout << "---- brcc output ----\n" << all_output;
    if (!all_output.empty() && all_output.back() != '\n') {
        std::cout << '\n';
    }
    return Outcome::fail;
}

} // namespace brook_test
