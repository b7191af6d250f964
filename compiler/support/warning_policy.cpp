// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "support/warning_policy.hpp"

#include "support/diagnostics.hpp"

#include <algorithm>
#include <iterator>

namespace brcc {

namespace {

/// The NAME of -WNAME, -Wno-NAME, -Werror=NAME or -Wno-error=NAME; empty for other flags.
std::string_view warning_named_by(std::string_view flag) {
    if (!flag.starts_with("-W"))
        return {};
    std::string_view name = flag.substr(2);
    if (name.starts_with("no-"))
        name.remove_prefix(3);
    if (name.starts_with("error="))
        name.remove_prefix(6);
    return name;
}

} // namespace

WarningPolicy::WarningPolicy(std::span<const std::string> flags) {
    for (const std::string& flag : flags)
        apply(flag);
}

void WarningPolicy::apply(std::string_view flag) {
    if (flag == "-w") {
        silenced_ = true;
        return;
    }
    if (!flag.starts_with("-W"))
        return;
    std::string_view name = flag.substr(2);
    const bool negated = name.starts_with("no-");
    if (negated)
        name.remove_prefix(3);
    if (name == "all" || name == "extra") {
        all_ = !negated;
    } else if (name == "error") {
        all_errors_ = !negated;
    } else if (name.starts_with("error=")) {
        name.remove_prefix(6);
        named_errors_[std::string(name)] = !negated;
        // gcc: -Werror=NAME also turns NAME on; -Wno-error=NAME leaves it as it was.
        if (!negated)
            named_[std::string(name)] = true;
    } else {
        named_[std::string(name)] = !negated;
    }
}

WarningAction WarningPolicy::action(std::string_view name, WarningGroup group) const {
    if (silenced_)
        return WarningAction::Ignore;
    bool enabled = group == WarningGroup::Default || all_;
    if (const auto named = named_.find(name); named != named_.end())
        enabled = named->second;
    if (!enabled)
        return WarningAction::Ignore;
    bool error = all_errors_;
    if (const auto named = named_errors_.find(name); named != named_errors_.end())
        error = named->second;
    return error ? WarningAction::Error : WarningAction::Warn;
}

std::vector<std::string> host_warning_flags(std::span<const std::string> flags) {
    // brcc's warnings that g++ has too, under the same name and meaning for host code.
    static constexpr std::string_view shared_with_gcc[] = {"unused-parameter", "float-conversion"};
    std::vector<std::string> host;
    std::copy_if(flags.begin(), flags.end(), std::back_inserter(host), [](const std::string& flag) {
        const std::string_view name = warning_named_by(flag);
        return name.empty() || !DiagnosticEngine::is_warning_name(name) ||
               std::find(std::begin(shared_with_gcc), std::end(shared_with_gcc), name) !=
                   std::end(shared_with_gcc);
    });
    return host;
}

} // namespace brcc
