// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Diagnostics are data: every message brcc can print is declared once in one of the
// *_diagnostics.def tables (id, severity, message template with %0..%9 placeholders) and reported
// by id with a source range. The engine prints `file:line:col: error: message`, the source line
// and a caret under the range, counts errors and stops printing past a limit. Warnings are
// declared with WARN(id, name, group, message) instead: their name is what -Wno-NAME turns off,
// printed after the message (`[-Wunused-parameter]`), and the WarningPolicy the engine is given
// says whether each is shown, and whether as an error (-Werror).

#include "support/source_manager.hpp"
#include "support/warning_policy.hpp"

#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

namespace brcc {

enum class Severity { Note, Warning, Error };

enum class DiagId {
#define DIAG(id, severity, message) id,
#define WARN(id, name, group, message) id,
#include "support/all_diagnostics.def"
#undef DIAG
#undef WARN
};

class DiagnosticEngine;

/// Collects the arguments of one diagnostic and emits it when destroyed:
/// `diags.report(DiagId::unknown_name, range) << name;`
class DiagnosticBuilder {
public:
    DiagnosticBuilder(DiagnosticEngine& engine, DiagId id, SourceRange range);
    DiagnosticBuilder(const DiagnosticBuilder&) = delete;
    DiagnosticBuilder& operator=(const DiagnosticBuilder&) = delete;
    ~DiagnosticBuilder();

    DiagnosticBuilder& operator<<(std::string_view arg);
    DiagnosticBuilder& operator<<(const std::string& arg) { return *this << std::string_view(arg); }
    DiagnosticBuilder& operator<<(const char* arg) { return *this << std::string_view(arg); }
    DiagnosticBuilder& operator<<(long long arg);
    DiagnosticBuilder& operator<<(int arg) { return *this << static_cast<long long>(arg); }
    DiagnosticBuilder& operator<<(unsigned arg) { return *this << static_cast<long long>(arg); }
    DiagnosticBuilder& operator<<(std::size_t arg) { return *this << static_cast<long long>(arg); }

private:
    DiagnosticEngine& engine_;
    DiagId id_;
    SourceRange range_;
    std::vector<std::string> args_;
};

class DiagnosticEngine {
public:
    DiagnosticEngine(const SourceManager& sources, std::ostream& out, bool color,
                     unsigned error_limit = 20);

    /// Which warnings are shown, and which become errors (default: gcc's defaults).
    void set_warning_policy(const WarningPolicy& policy) { warning_policy_ = policy; }

    DiagnosticBuilder report(DiagId id, SourceRange range) { return {*this, id, range}; }
    DiagnosticBuilder report(DiagId id, SourceLocation loc) { return {*this, id, {loc, loc}}; }

    /// Errors reported, warnings made errors by -Werror included.
    unsigned error_count() const { return errors_; }
    /// The warnings among them that -Werror made errors.
    unsigned warnings_as_errors() const { return warnings_as_errors_; }
    bool has_errors() const { return errors_ != 0; }
    /// True once the error limit is reached; stages should stop early then.
    bool too_many_errors() const { return errors_ >= error_limit_; }
    /// Prints "N errors generated." (nothing when there were none).
    void print_summary();

    static Severity severity(DiagId id);
    static std::string_view message_template(DiagId id);
    /// A warning's name, for -WNAME and -Wno-NAME; empty for errors and notes.
    static std::string_view warning_name(DiagId id);
    /// Whether some warning of brcc's is called `name` (the NAME of -WNAME).
    static bool is_warning_name(std::string_view name);

private:
    friend class DiagnosticBuilder;
    void emit(DiagId id, SourceRange range, const std::vector<std::string>& args);

    const SourceManager& sources_;
    std::ostream& out_;
    bool color_;
    unsigned error_limit_;
    WarningPolicy warning_policy_;
    unsigned errors_ = 0;
    unsigned warnings_as_errors_ = 0;
    bool limit_reported_ = false;
    bool last_was_suppressed_ = false; // notes after a suppressed error are suppressed too
};

/// Thrown by BRCC_ASSERT / internal_error: a bug in brcc, not in the user's program. The driver
/// prints "internal compiler error" with the compiler's own location and exits with code 70.
class InternalCompilerError : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

[[noreturn]] void internal_error(const char* file, int line, const std::string& what);

#define BRCC_ASSERT(condition, what)                                                             \
    do {                                                                                         \
        if (!(condition))                                                                        \
            ::brcc::internal_error(__FILE__, __LINE__, what);                                    \
    } while (false)

} // namespace brcc
