// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The text sink of the code generators. It keeps the C++ compiler's idea of the current line in
// step with the .br file: text copied from the source is preceded by a `#line` directive whenever
// the output line would otherwise map to the wrong source line, so errors in host code (and in
// kernels, which start with their own directive) point into the .br file.

#include "support/source_manager.hpp"

#include <string>
#include <string_view>
#include <utility>

namespace brcc {

/// Where printed kernel statements came from: each gets a `#line` naming its line of the .br
/// file, so that the C++ compiler's messages and the debugger's lines point into the kernel.
struct SourceLines {
    const SourceManager& sources;
    std::string file_name; ///< the .br file, as `#line` directives name it

    /// `#line N "file"` and a newline, for the line of `loc`.
    std::string directive(SourceLocation loc) const;
    /// After a kernel body: a line that CodeWriter::generated turns into a directive back to
    /// the generated file's own lines (or drops when that file's name is unknown), so that the
    /// loops around the body are not taken for lines of the .br file.
    static std::string leave();
};

class CodeWriter {
public:
    /// `file_name` is what `#line` directives name (the .br file as given on the command line);
    /// `output_name`, when known, is the generated file's own name (leave_source_lines).
    explicit CodeWriter(std::string_view file_name, std::string_view output_name = {});

    /// Appends source text whose first character is on line `first_line` of the .br file, and
    /// re-synchronises with a `#line` at every line start where the mapping went out of step.
    void source(std::string_view text, unsigned first_line);
    /// Appends generated text; the lines it adds count as continuing the current mapping.
    /// Lines of SourceLines::leave() in it become directives naming the generated file.
    void generated(std::string_view text);
    /// Starts a new line (when not at the start of one) and maps it to `line` of the .br file.
    void line_directive(unsigned line);
    /// Starts a new line unless the output is already at the start of one.
    void ensure_line_start();
    /// After generated text with `#line` directives of its own (kernel bodies): the lines that
    /// follow map to the generated file itself when its name is known, so that no scaffolding
    /// is taken for a line of the .br file, and the next source text gets its directive.
    void leave_source_lines();

    const std::string& text() const { return out_; }
    std::string take() {
        counted_bytes_ = 0;
        counted_lines_ = 0;
        return std::exchange(out_, std::string());
    }

private:
    void append(std::string_view text);
    /// The number of newlines in the output, counted on from where the last count stopped, so
    /// that a file of thousands of kernels costs time linear in its size.
    std::size_t output_lines();

    std::string out_;
    std::string quoted_name_;        // the file name as a C string literal
    std::string quoted_output_name_; // the generated file's, or empty
    bool at_line_start_ = true;
    unsigned mapped_line_ = 0;      // source line the current output line maps to; 0 = none yet
    std::size_t counted_bytes_ = 0; // output_lines: how much of out_ was counted
    std::size_t counted_lines_ = 0; // and the newlines in it
};

} // namespace brcc
