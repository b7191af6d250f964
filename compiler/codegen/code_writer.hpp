#pragma once
// The text sink of the code generators. It keeps the C++ compiler's idea of the current line in
// step with the .br file: text copied from the source is preceded by a `#line` directive whenever
// the output line would otherwise map to the wrong source line, so errors in host code (and in
// kernels, which start with their own directive) point into the .br file.

#include <string>
#include <string_view>

namespace brcc {

class CodeWriter {
public:
    /// `file_name` is what `#line` directives name (the .br file as given on the command line).
    explicit CodeWriter(std::string_view file_name);

    /// Appends source text whose first character is on line `first_line` of the .br file, and
    /// re-synchronises with a `#line` at every line start where the mapping went out of step.
    void source(std::string_view text, unsigned first_line);
    /// Appends generated text; the lines it adds count as continuing the current mapping.
    void generated(std::string_view text);
    /// Starts a new line (when not at the start of one) and maps it to `line` of the .br file.
    void line_directive(unsigned line);
    /// Starts a new line unless the output is already at the start of one.
    void ensure_line_start();

    const std::string& text() const { return out_; }
    std::string take() { return std::move(out_); }

private:
    void append(std::string_view text);

    std::string out_;
    std::string quoted_name_; // the file name as a C string literal
    bool at_line_start_ = true;
    unsigned mapped_line_ = 0; // source line the current output line maps to; 0 = none yet
};

} // namespace brcc
