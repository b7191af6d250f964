// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The source manager owns every file brcc reads and turns byte offsets into line/column positions.
// Every token and AST node carries a SourceLocation (file id + byte offset); line and column are
// computed only when a diagnostic is printed.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace brcc {

struct SourceLocation {
    std::uint32_t file = 0;   ///< Index into SourceManager's files; 0 means "no location".
    std::uint32_t offset = 0; ///< Byte offset into that file's text.

    bool valid() const { return file != 0; }
    friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

/// A half-open byte range [begin, end) inside one file.
struct SourceRange {
    SourceLocation begin;
    SourceLocation end;
};

struct LineColumn {
    unsigned line = 0;   ///< 1-based.
    unsigned column = 0; ///< 1-based, counted in bytes.
};

class SourceManager {
public:
    SourceManager();

    /// Registers a buffer under `name` and returns its file id (never 0). A UTF-8 byte-order
    /// mark at its start is dropped.
    std::uint32_t add_buffer(std::string name, std::string text);
    /// Reads a file from disk; returns 0 and sets `error` when it cannot be read.
    std::uint32_t add_file(const std::string& path, std::string& error);

    std::string_view name(std::uint32_t file) const;
    /// One more than the last file id: the files read from now on get ids from here.
    std::uint32_t file_count() const { return static_cast<std::uint32_t>(files_.size()); }
    std::string_view text(std::uint32_t file) const;
    std::string_view text(SourceRange range) const;
    LineColumn line_column(SourceLocation loc) const;
    /// The whole line containing `loc`, without its newline.
    std::string_view line_text(SourceLocation loc) const;

private:
    struct File {
        std::string name;
        std::string text;
        std::vector<std::uint32_t> line_starts; // byte offset of each line's first character
    };
    std::vector<File> files_; // files_[0] is a placeholder so that id 0 stays invalid
};

} // namespace brcc
