// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Response files are split the way libiberty's buildargv splits them for gcc: a backslash
// escapes any character, quotes of either kind group (and may sit inside a word, as in
// -DNAME="a b"), and white space outside quotes ends an argument. A file that names itself,
// directly or not, would never end, so nesting is limited.

#include "driver/response_files.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace brcc {

namespace {

constexpr int max_nesting = 32;

void expand_into(const std::vector<std::string>& args, int depth, std::vector<std::string>& result,
                 std::string& error) {
    for (const std::string& arg : args) {
        if (!error.empty())
            return;
        if (arg.size() < 2 || arg.front() != '@') {
            result.push_back(arg);
            continue;
        }
        const std::string path = arg.substr(1);
        if (depth == max_nesting) {
            error = "response files nest more than " + std::to_string(max_nesting) + " deep at '" +
                    path + "': does one name itself?";
            return;
        }
        errno = 0;
        std::ifstream file(path, std::ios::binary);
        std::ostringstream text;
        if (file)
            text << file.rdbuf();
        if (!file || file.bad()) {
            error = "cannot read the response file '" + path +
                    "': " + (errno != 0 ? std::strerror(errno) : "unreadable");
            return;
        }
        expand_into(split_response_file(text.str()), depth + 1, result, error);
    }
}

} // namespace

std::vector<std::string> split_response_file(const std::string& text) {
    std::vector<std::string> args;
    std::string word;
    bool in_word = false;
    char quote = '\0';
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\\' && i + 1 < text.size()) {
            word += text[++i];
            in_word = true;
        } else if (quote != '\0') {
            if (c == quote)
                quote = '\0';
            else
                word += c;
        } else if (c == '\'' || c == '"') {
            quote = c;
            in_word = true;
        } else if (std::isspace(static_cast<unsigned char>(c)) != 0) {
            if (in_word)
                args.push_back(word);
            word.clear();
            in_word = false;
        } else {
            word += c;
            in_word = true;
        }
    }
    if (in_word)
        args.push_back(word);
    return args;
}

std::vector<std::string> expand_response_files(const std::vector<std::string>& args,
                                               std::string& error) {
    std::vector<std::string> result;
    expand_into(args, 0, result, error);
    return result;
}

} // namespace brcc
