// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Control comments are `//` line comments alone on their line, `// keyword: value`, with a fixed
// set of keywords; any other comment is ordinary text. Diagnostics markers are different: they sit
// after code on the offending line, so they are searched anywhere in the line.
#include "test_file.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace brook_test {
namespace {

constexpr const char* whitespace = " \t\r\n\f\v";

struct Directive {
    std::string keyword;
    std::string value;
};

// `// keyword: value` with a keyword of lower-case letters and dashes, or nothing.
std::optional<Directive> directive_of(const std::string& line) {
    const std::string text = trim(line);
    if (text.rfind("//", 0) != 0) {
        return std::nullopt;
    }
    std::size_t pos = text.find_first_not_of(" \t", 2);
    if (pos == std::string::npos) {
        return std::nullopt;
    }
    const std::size_t start = pos;
    while (pos < text.size() && ((text[pos] >= 'a' && text[pos] <= 'z') || text[pos] == '-')) {
        ++pos;
    }
    if (pos == start || pos >= text.size() || text[pos] != ':') {
        return std::nullopt;
    }
    std::string value = text.substr(pos + 1);
    if (!value.empty() && value[0] == ' ') {
        value.erase(0, 1);
    }
    return Directive{text.substr(start, pos - start), value};
}

int parse_int(const std::string& keyword, const std::string& value) {
    const std::string text = trim(value);
    char* end = nullptr;
    const long number = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || number < 0 || number > 255) {
        throw TestFormatError{"'// " + keyword + ":' needs an exit status 0..255, got '" + text +
                              "'"};
    }
    return static_cast<int>(number);
}

} // namespace

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw TestFormatError{"cannot read " + path};
    }
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) {
            end = text.size();
        }
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        lines.push_back(std::move(line));
        start = end + 1;
    }
    return lines;
}

std::string trim(const std::string& text) {
    const std::size_t first = text.find_first_not_of(whitespace);
    if (first == std::string::npos) {
        return "";
    }
    return text.substr(first, text.find_last_not_of(whitespace) - first + 1);
}

std::vector<std::string> split_words(const std::string& text) {
    std::vector<std::string> words;
    std::istringstream in(text);
    for (std::string word; in >> word;) {
        words.push_back(word);
    }
    return words;
}

ConformanceSpec parse_conformance_spec(const std::string& source,
                                       const std::optional<std::string>& expected_file) {
    ConformanceSpec spec;
    std::vector<std::string> expect_lines;
    bool has_expect = false;
    bool has_tolerance = false;
    bool has_exit = false;
    for (const std::string& line : split_lines(source)) {
        const std::optional<Directive> directive = directive_of(line);
        if (!directive) {
            continue;
        }
        const std::string& keyword = directive->keyword;
        const std::string& value = directive->value;
        if (keyword == "expect") {
            has_expect = true;
            expect_lines.push_back(value);
        } else if (keyword == "tolerance") {
            char* end = nullptr;
            const std::string text = trim(value);
            spec.tolerance = std::strtod(text.c_str(), &end);
            if (has_tolerance || text.empty() || *end != '\0' || !(spec.tolerance >= 0.0)) {
                throw TestFormatError{"'// tolerance:' needs one non-negative number, got '" +
                                      text + "'"};
            }
            has_tolerance = true;
        } else if (keyword == "excludes") {
            const std::size_t dashes = value.find("--");
            for (std::string& name : split_words(value.substr(0, dashes))) {
                spec.excluded_backends.push_back(std::move(name));
            }
            spec.exclusion_reason =
                dashes == std::string::npos ? "" : trim(value.substr(dashes + 2));
            if (spec.excluded_backends.empty() || spec.exclusion_reason.empty()) {
                throw TestFormatError{"'// excludes:' needs backends, then '--' and the reason"};
            }
        } else if (keyword == "requires") {
            for (std::string& name : split_words(value)) {
                spec.required_backends.push_back(std::move(name));
            }
        } else if (keyword == "exit") {
            if (has_exit) {
                throw TestFormatError{"'// exit:' given twice"};
            }
            has_exit = true;
            spec.exit_code = parse_int(keyword, value);
        } else if (keyword == "stderr") {
            spec.stderr_texts.push_back(trim(value));
        } else if (keyword == "env") {
            const std::string text = trim(value);
            const std::size_t equals = text.find('=');
            if (equals == std::string::npos || equals == 0) {
                throw TestFormatError{"'// env:' needs NAME=VALUE, got '" + text + "'"};
            }
            spec.env.emplace_back(text.substr(0, equals), text.substr(equals + 1));
        } else if (keyword == "args") {
            for (std::string& word : split_words(value)) {
                spec.args.push_back(std::move(word));
            }
        } else if (keyword == "brcc-args") {
            for (std::string& word : split_words(value)) {
                spec.brcc_args.push_back(std::move(word));
            }
        } else if (keyword == "inputs") {
            for (std::string& word : split_words(value)) {
                spec.inputs.push_back(std::move(word));
            }
        } else if (keyword == "kernels-header") {
            for (std::string& word : split_words(value)) {
                spec.kernels_headers.push_back(std::move(word));
            }
        }
    }
    if (has_expect && expected_file) {
        throw TestFormatError{"expected output given both as '// expect:' lines and in a .expected "
                              "file; keep one"};
    }
    if (has_expect) {
        spec.expected_lines = std::move(expect_lines);
    } else if (expected_file) {
        spec.expected_lines = split_lines(*expected_file);
    }
    return spec;
}

std::vector<ExpectedDiagnostic> parse_expected_diagnostics(const std::string& source) {
    std::vector<ExpectedDiagnostic> expected;
    const std::vector<std::string> lines = split_lines(source);
    for (std::size_t index = 0; index < lines.size(); ++index) {
        const std::string& line = lines[index];
        // Each marker runs up to the next marker or the end of the line.
        std::vector<std::pair<std::size_t, std::string>> markers;
        for (const char* severity : {"error", "warning"}) {
            const std::string marker = std::string("// ") + severity + ":";
            for (std::size_t pos = line.find(marker); pos != std::string::npos;
                 pos = line.find(marker, pos + 1)) {
                markers.emplace_back(pos, severity);
            }
        }
        std::sort(markers.begin(), markers.end());
        for (std::size_t i = 0; i < markers.size(); ++i) {
            const auto& [pos, severity] = markers[i];
            const std::size_t text_start = pos + 3 + severity.size() + 1;
            const std::size_t text_end =
                i + 1 < markers.size() ? markers[i + 1].first : line.size();
            const std::string text = trim(line.substr(text_start, text_end - text_start));
            if (text.empty()) {
                throw TestFormatError{"line " + std::to_string(index + 1) + ": empty '// " +
                                      severity + ":' marker; give part of the expected message"};
            }
            expected.push_back({static_cast<int>(index + 1), severity, text});
        }
    }
    return expected;
}

std::vector<std::string> parse_brcc_args(const std::string& source) {
    std::vector<std::string> args;
    for (const std::string& line : split_lines(source)) {
        const std::optional<Directive> directive = directive_of(line);
        if (directive && directive->keyword == "brcc-args") {
            for (std::string& word : split_words(directive->value)) {
                args.push_back(std::move(word));
            }
        }
    }
    return args;
}

} // namespace brook_test
