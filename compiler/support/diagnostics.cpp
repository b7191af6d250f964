// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "support/diagnostics.hpp"

#include <algorithm>
#include <iterator>
#include <ostream>

namespace brcc {

namespace {

struct DiagInfo {
    Severity severity;
    std::string_view message;
    std::string_view warning_name = {};
    WarningGroup warning_group = WarningGroup::Default;
};

constexpr DiagInfo diag_table[] = {
#define DIAG(id, severity, message) {Severity::severity, message},
#define WARN(id, name, group, message) {Severity::Warning, message, name, WarningGroup::group},
#include "support/all_diagnostics.def"
#undef DIAG
#undef WARN
};

// A warning declared with DIAG would have no name to turn it off with.
constexpr bool every_warning_named() {
    for (const DiagInfo& info : diag_table) {
        if (info.severity == Severity::Warning && info.warning_name.empty())
            return false;
    }
    return true;
}
static_assert(every_warning_named(), "declare warnings with WARN(id, name, group, message)");

std::string substitute(std::string_view pattern, const std::vector<std::string>& args) {
    std::string result;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] >= '0' &&
            pattern[i + 1] <= '9') {
            const auto index = static_cast<std::size_t>(pattern[i + 1] - '0');
            if (index < args.size())
                result += args[index];
            ++i;
        } else {
            result += pattern[i];
        }
    }
    return result;
}

const char* severity_name(Severity severity) {
    switch (severity) {
    case Severity::Note:
        return "note";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        return "error";
    }
    return "error";
}

const char* severity_colour(Severity severity) {
    switch (severity) {
    case Severity::Note:
        return "\033[1;36m";
    case Severity::Warning:
        return "\033[1;35m";
    case Severity::Error:
        return "\033[1;31m";
    }
    return "";
}

} // namespace

DiagnosticBuilder::DiagnosticBuilder(DiagnosticEngine& engine, DiagId id, SourceRange range)
    : engine_(engine), id_(id), range_(range) {}

DiagnosticBuilder::~DiagnosticBuilder() {
    engine_.emit(id_, range_, args_);
}

DiagnosticBuilder& DiagnosticBuilder::operator<<(std::string_view arg) {
    args_.emplace_back(arg);
    return *this;
}

DiagnosticBuilder& DiagnosticBuilder::operator<<(long long arg) {
    args_.push_back(std::to_string(arg));
    return *this;
}

DiagnosticEngine::DiagnosticEngine(const SourceManager& sources, std::ostream& out, bool color,
                                   unsigned error_limit)
    : sources_(sources), out_(out), color_(color), error_limit_(error_limit) {}

Severity DiagnosticEngine::severity(DiagId id) {
    return diag_table[static_cast<std::size_t>(id)].severity;
}

std::string_view DiagnosticEngine::message_template(DiagId id) {
    return diag_table[static_cast<std::size_t>(id)].message;
}

std::string_view DiagnosticEngine::warning_name(DiagId id) {
    return diag_table[static_cast<std::size_t>(id)].warning_name;
}

bool DiagnosticEngine::is_warning_name(std::string_view name) {
    return std::any_of(std::begin(diag_table), std::end(diag_table),
                       [&](const DiagInfo& info) { return info.warning_name == name; });
}

void DiagnosticEngine::emit(DiagId id, SourceRange range, const std::vector<std::string>& args) {
    Severity sev = severity(id);
    if (sev == Severity::Note && last_was_suppressed_)
        return;
    std::string flag; // the warning's flag, after the message
    if (sev == Severity::Warning) {
        const DiagInfo& info = diag_table[static_cast<std::size_t>(id)];
        switch (warning_policy_.action(info.warning_name, info.warning_group)) {
        case WarningAction::Ignore:
            last_was_suppressed_ = true;
            return;
        case WarningAction::Warn:
            flag = " [-W" + std::string(info.warning_name) + "]";
            break;
        case WarningAction::Error:
            sev = Severity::Error;
            flag = " [-Werror=" + std::string(info.warning_name) + "]";
            break;
        }
    }
    if (sev == Severity::Error) {
        if (errors_ >= error_limit_) {
            last_was_suppressed_ = true;
            if (!limit_reported_) {
                limit_reported_ = true;
                out_ << severity_name(Severity::Error) << ": "
                     << message_template(DiagId::too_many_errors) << '\n';
            }
            return;
        }
        ++errors_;
        if (severity(id) == Severity::Warning)
            ++warnings_as_errors_;
    }
    last_was_suppressed_ = false;

    const char* bold = color_ ? "\033[1m" : "";
    const char* reset = color_ ? "\033[0m" : "";
    if (range.begin.valid()) {
        const LineColumn lc = sources_.line_column(range.begin);
        out_ << bold << sources_.name(range.begin.file) << ':' << lc.line << ':' << lc.column
             << ": " << reset;
    } else {
        out_ << bold << "brcc: " << reset;
    }
    out_ << (color_ ? severity_colour(sev) : "") << severity_name(sev) << ": " << reset << bold
         << substitute(message_template(id), args) << flag << reset << '\n';

    if (!range.begin.valid())
        return;
    const std::string_view line = sources_.line_text(range.begin);
    const LineColumn begin = sources_.line_column(range.begin);
    out_ << line << '\n';
    std::string marker;
    for (unsigned i = 1; i < begin.column && i - 1 < line.size(); ++i)
        marker += line[i - 1] == '\t' ? '\t' : ' ';
    marker += '^';
    // Underline the rest of the range when it stays on the same line.
    if (range.end.valid() && range.end.file == range.begin.file &&
        range.end.offset > range.begin.offset + 1) {
        const LineColumn end = sources_.line_column(range.end);
        if (end.line == begin.line)
            marker.append(end.column - begin.column - 1, '~');
    }
    out_ << (color_ ? "\033[1;32m" : "") << marker << reset << '\n';
}

void DiagnosticEngine::print_summary() {
    if (errors_ == 0)
        return;
    out_ << errors_ << (errors_ == 1 ? " error" : " errors") << " generated.\n";
}

void internal_error(const char* file, int line, const std::string& what) {
    throw InternalCompilerError(std::string(file) + ":" + std::to_string(line) + ": " + what);
}

} // namespace brcc
