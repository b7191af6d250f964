// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "support/source_manager.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace brcc {

SourceManager::SourceManager() {
    files_.emplace_back();
}

std::uint32_t SourceManager::add_buffer(std::string name, std::string text) {
    // A UTF-8 byte-order mark, which some editors write, is not part of the program (gcc and
    // clang skip it too); the columns of the first line count from after it.
    if (text.starts_with("\xEF\xBB\xBF"))
        text.erase(0, 3);
    File file{std::move(name), std::move(text), {0}};
    for (std::uint32_t i = 0; i < file.text.size(); ++i)
        if (file.text[i] == '\n')
            file.line_starts.push_back(i + 1);
    files_.push_back(std::move(file));
    return static_cast<std::uint32_t>(files_.size() - 1);
}

std::uint32_t SourceManager::add_file(const std::string& path, std::string& error) {
    // The reason (no such file, permission denied, a folder) tells the user what to fix.
    const auto with_reason = [](std::string message) {
        return errno != 0 ? message + ": " + std::strerror(errno) : message;
    };
    errno = 0;
    std::error_code ignored;
    if (std::filesystem::is_directory(path, ignored)) {
        errno = EISDIR; // an ifstream opens a folder, then reads nothing from it
        error = with_reason("cannot read '" + path + "'");
        return 0;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = with_reason("cannot open '" + path + "'");
        return 0;
    }
    std::ostringstream contents;
    contents << in.rdbuf();
    if (in.bad()) {
        error = with_reason("cannot read '" + path + "'");
        return 0;
    }
    return add_buffer(path, contents.str());
}

std::string_view SourceManager::name(std::uint32_t file) const {
    return files_.at(file).name;
}

std::string_view SourceManager::text(std::uint32_t file) const {
    return files_.at(file).text;
}

std::string_view SourceManager::text(SourceRange range) const {
    if (!range.begin.valid() || range.begin.file != range.end.file ||
        range.end.offset < range.begin.offset)
        return {};
    return text(range.begin.file).substr(range.begin.offset, range.end.offset - range.begin.offset);
}

LineColumn SourceManager::line_column(SourceLocation loc) const {
    if (!loc.valid())
        return {};
    const auto& starts = files_.at(loc.file).line_starts;
    auto it = std::upper_bound(starts.begin(), starts.end(), loc.offset);
    const auto line = static_cast<unsigned>(it - starts.begin());
    return {line, loc.offset - starts[line - 1] + 1};
}

std::string_view SourceManager::line_text(SourceLocation loc) const {
    if (!loc.valid())
        return {};
    const File& file = files_.at(loc.file);
    const LineColumn lc = line_column(loc);
    const std::uint32_t begin = file.line_starts[lc.line - 1];
    std::uint32_t end = begin;
    while (end < file.text.size() && file.text[end] != '\n' && file.text[end] != '\r')
        ++end;
    return std::string_view(file.text).substr(begin, end - begin);
}

} // namespace brcc
