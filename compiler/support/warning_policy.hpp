// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Which of brcc's warnings are shown, and which are errors, as the -W flags of the command line
// say (gcc's rules). A warning has a name (`unused-parameter`) and a group: Default warnings are
// on unless turned off, All warnings need -Wall (or -Wextra) or their own -WNAME. Flags apply
// in command-line order, and a warning named on its own (-WNAME, -Wno-NAME) keeps that choice
// whatever -Wall says; -w silences everything. Names brcc does not know are the C++ compiler's
// (the driver passes every -W flag on to it) and are left alone here.

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace brcc {

enum class WarningGroup { Default, All };

enum class WarningAction { Ignore, Warn, Error };

class WarningPolicy {
public:
    /// gcc's defaults: the Default group shown as warnings.
    WarningPolicy() = default;
    /// `-w`, `-Wall`, `-Wextra`, `-Werror`, `-Wno-error`, `-Werror=NAME`, `-Wno-error=NAME`,
    /// `-WNAME` and `-Wno-NAME`, in command-line order.
    explicit WarningPolicy(std::span<const std::string> flags);

    WarningAction action(std::string_view name, WarningGroup group) const;

private:
    void apply(std::string_view flag);

    bool silenced_ = false;   ///< -w
    bool all_ = false;        ///< -Wall, -Wextra
    bool all_errors_ = false; ///< -Werror
    /// -WNAME (true) and -Wno-NAME (false): the last one of each name counts.
    std::map<std::string, bool, std::less<>> named_;
    /// -Werror=NAME (true) and -Wno-error=NAME (false).
    std::map<std::string, bool, std::less<>> named_errors_;
};

/// `flags` without those that name a warning only brcc has (-Wgather-bounds,
/// -Wno-error=unwritten-output...), which the C++ compiler would reject: what the driver passes on
/// to it.
std::vector<std::string> host_warning_flags(std::span<const std::string> flags);

} // namespace brcc
