// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Make rules for -M and -MD: the C++ compiler lists the C/C++ headers a generated file reads
// (its depfile names brcc's temporary files), brcc maps those back to the Brook files they were
// made from and adds the Brook files it read itself.

#include <map>
#include <string>
#include <vector>

namespace brcc {

/// The prerequisites of the rules in `depfile` (what gcc -MD writes), unescaped, in order.
std::vector<std::string> read_depfile_prerequisites(const std::string& depfile);

/// `files` with each one `generated` names replaced by the real file it was made from, each
/// other file inside `work_dir` (brcc's own; none when empty) dropped, and repeats left out.
std::vector<std::string> real_dependencies(const std::vector<std::string>& files,
                                           const std::map<std::string, std::string>& generated,
                                           const std::string& work_dir);

/// `name` with the characters special to make quoted as gcc's -MQ quotes them: `$` as `$$`, a
/// space or `#` after a backslash.
std::string make_quoted(const std::string& name);

/// `targets: prerequisites`, the targets as they are (as gcc takes -MT) and the prerequisites
/// escaped as gcc escapes them, and with `phony` (-MP) an empty rule
/// for each prerequisite but the first, so that make goes on when a header is removed.
std::string make_rule(const std::vector<std::string>& targets,
                      const std::vector<std::string>& prerequisites, bool phony);

} // namespace brcc
