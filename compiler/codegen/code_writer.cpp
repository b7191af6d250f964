// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "codegen/code_writer.hpp"

#include <algorithm>

namespace brcc {

namespace {

std::string quote(std::string_view text) {
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\')
            quoted += '\\';
        quoted += c;
    }
    quoted += '"';
    return quoted;
}

} // namespace

// What SourceLines::leave() writes; no C++ line can be this.
constexpr std::string_view leave_marker = "#line __brcc_generated_file__\n";

std::string SourceLines::leave() {
    return std::string(leave_marker);
}

std::string SourceLines::directive(SourceLocation loc) const {
    return "#line " + std::to_string(sources.line_column(loc).line) + " " + quote(file_name) + "\n";
}

CodeWriter::CodeWriter(std::string_view file_name, std::string_view output_name)
    : quoted_name_(quote(file_name)),
      quoted_output_name_(output_name.empty() ? std::string() : quote(output_name)) {}

void CodeWriter::append(std::string_view text) {
    for (const char c : text) {
        if (c == '\n' && mapped_line_ != 0)
            ++mapped_line_;
    }
    out_ += text;
    if (!text.empty())
        at_line_start_ = text.back() == '\n';
}

void CodeWriter::ensure_line_start() {
    if (!at_line_start_)
        append("\n");
}

void CodeWriter::line_directive(unsigned line) {
    ensure_line_start();
    out_ += "#line " + std::to_string(line) + " " + quoted_name_ + "\n";
    mapped_line_ = line;
}

void CodeWriter::leave_source_lines() {
    ensure_line_start();
    mapped_line_ = 0;
    if (quoted_output_name_.empty())
        return;
    // The directive names the line after it: its own line number plus one, counted from 1.
    out_ += "#line " + std::to_string(output_lines() + 2) + " " + quoted_output_name_ + "\n";
}

std::size_t CodeWriter::output_lines() {
    const auto from = static_cast<std::ptrdiff_t>(counted_bytes_);
    counted_lines_ += static_cast<std::size_t>(std::count(out_.begin() + from, out_.end(), '\n'));
    counted_bytes_ = out_.size();
    return counted_lines_;
}

void CodeWriter::generated(std::string_view text) {
    for (std::size_t marker = text.find(leave_marker); marker != std::string_view::npos;
         marker = text.find(leave_marker)) {
        append(text.substr(0, marker));
        leave_source_lines();
        text.remove_prefix(marker + leave_marker.size());
    }
    append(text);
}

void CodeWriter::source(std::string_view text, unsigned first_line) {
    unsigned line = first_line;
    while (!text.empty()) {
        // A piece that starts a line must start on the right one; one that continues a line
        // (after a rewritten construct) cannot take a directive and is appended as it is.
        const std::size_t newline = text.find('\n');
        const std::size_t length = newline == std::string_view::npos ? text.size() : newline + 1;
        // Blank lines need no directive: nothing on them can be reported.
        const bool blank =
            text.substr(0, length).find_first_not_of(" \t\r\n") == std::string_view::npos;
        if (at_line_start_ && mapped_line_ != line && !blank)
            line_directive(line);
        append(text.substr(0, length));
        text.remove_prefix(length);
        ++line;
    }
}

} // namespace brcc
