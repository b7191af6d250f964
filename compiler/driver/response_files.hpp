// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Response files: an argument `@FILE` stands for the arguments written in FILE, as in gcc and
// nvcc, so that a command line longer than the system allows can still reach brcc.

#include <string>
#include <vector>

namespace brcc {

/// `args` with each `@FILE` replaced by the arguments FILE holds (those may name further
/// response files). Arguments are split at white space; single or double quotes keep white
/// space inside one argument and a backslash takes the next character as it is (gcc's rules).
/// Sets `error` and returns nothing useful when a file cannot be read.
std::vector<std::string> expand_response_files(const std::vector<std::string>& args,
                                               std::string& error);

/// The arguments written in `text`, split by the rules above.
std::vector<std::string> split_response_file(const std::string& text);

} // namespace brcc
