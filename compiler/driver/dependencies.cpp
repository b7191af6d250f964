// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// gcc writes a depfile as `target: a.cpp b.hpp \` lines: a backslash-newline continues a line,
// `\ ` and `\#` escape a space and a hash inside a name and `$$` is a dollar. The rules brcc
// writes use the same escapes, so make and Ninja read them as they read gcc's.

#include "driver/dependencies.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

namespace brcc {

std::string make_quoted(const std::string& name) {
    std::string text;
    for (const char c : name) {
        if (c == ' ' || c == '#')
            text += '\\';
        if (c == '$')
            text += '$';
        text += c;
    }
    return text;
}

namespace {

/// `path` made absolute and normal, so that two spellings of one file compare equal.
std::string canonical_spelling(const std::string& path) {
    std::error_code ignored;
    return std::filesystem::weakly_canonical(path, ignored).lexically_normal().string();
}

} // namespace

std::vector<std::string> read_depfile_prerequisites(const std::string& depfile) {
    std::vector<std::string> names;
    std::string name;
    bool in_prerequisites = false; // after a rule's colon
    const auto end_name = [&] {
        if (!name.empty() && in_prerequisites)
            names.push_back(name);
        name.clear();
    };
    for (std::size_t i = 0; i < depfile.size(); ++i) {
        const char c = depfile[i];
        const char next = i + 1 < depfile.size() ? depfile[i + 1] : '\0';
        if (c == '\\' && (next == '\n' || (next == '\r' && i + 2 < depfile.size()))) {
            end_name(); // a continued line
            i += next == '\r' ? 2 : 1;
        } else if (c == '\\' && (next == ' ' || next == '#' || next == '\\')) {
            name += next;
            ++i;
        } else if (c == '$' && next == '$') {
            name += '$';
            ++i;
        } else if (c == ':' && !in_prerequisites &&
                   (next == '\0' || std::isspace(static_cast<unsigned char>(next)) != 0)) {
            name.clear();
            in_prerequisites = true;
        } else if (c == '\n') {
            end_name();
            in_prerequisites = false;
        } else if (std::isspace(static_cast<unsigned char>(c)) != 0) {
            end_name();
        } else {
            name += c;
        }
    }
    end_name();
    return names;
}

std::vector<std::string> real_dependencies(const std::vector<std::string>& files,
                                           const std::map<std::string, std::string>& generated,
                                           const std::string& work_dir) {
    std::map<std::string, std::string> by_spelling;
    for (const auto& [made, real] : generated)
        by_spelling.emplace(canonical_spelling(made), real);
    const std::string work = work_dir.empty() ? "" : canonical_spelling(work_dir) + "/";
    std::vector<std::string> result;
    std::set<std::string> seen;
    for (const std::string& file : files) {
        const std::string spelling = canonical_spelling(file);
        std::string real = file;
        if (const auto found = by_spelling.find(spelling); found != by_spelling.end())
            real = found->second;
        else if (!work.empty() && spelling.starts_with(work))
            continue;
        if (seen.insert(canonical_spelling(real)).second)
            result.push_back(real);
    }
    return result;
}

std::string make_rule(const std::vector<std::string>& targets,
                      const std::vector<std::string>& prerequisites, bool phony) {
    std::string text;
    for (const std::string& target : targets)
        text += (text.empty() ? "" : " ") + target;
    text += ":";
    for (const std::string& prerequisite : prerequisites)
        text += " \\\n  " + make_quoted(prerequisite);
    text += "\n";
    if (phony) {
        for (std::size_t i = 1; i < prerequisites.size(); ++i)
            text += "\n" + make_quoted(prerequisites[i]) + ":\n";
    }
    return text;
}

} // namespace brcc
