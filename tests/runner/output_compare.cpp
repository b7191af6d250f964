// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// A line is cut into number and text pieces; two lines match when they have the same pieces, the
// text pieces equal and the numbers within the tolerance. Digits inside words ("float4") become
// numbers too, which is harmless: they match themselves exactly.
#include "output_compare.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <variant>

namespace brook_test {
namespace {

struct Number {
    double value;
    std::string text;
};

using Piece = std::variant<std::string, Number>;

bool is_digit(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}
bool is_word_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// Length of the number starting at `pos`, or 0:
// [+-]?(digits[.digits]|.digits)([eE][+-]?digits)?, or [+-]?(inf|nan|NaN) as a whole word.
std::size_t number_length(const std::string& s, std::size_t pos) {
    std::size_t i = pos;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
        ++i;
    }
    for (const char* word : {"inf", "nan", "NaN"}) {
        const std::string w = word;
        if (s.compare(i, w.size(), w) == 0 &&
            (i + w.size() == s.size() || !is_word_char(s[i + w.size()])) &&
            (pos == 0 || !is_word_char(s[pos - 1]))) {
            return i + w.size() - pos;
        }
    }
    const std::size_t mantissa = i;
    while (i < s.size() && is_digit(s[i])) {
        ++i;
    }
    const bool int_digits = i > mantissa;
    bool frac_digits = false;
    if (i < s.size() && s[i] == '.') {
        std::size_t j = i + 1;
        while (j < s.size() && is_digit(s[j])) {
            ++j;
        }
        frac_digits = j > i + 1;
        if (int_digits || frac_digits) {
            i = j;
        }
    }
    if (!int_digits && !frac_digits) {
        return 0;
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        std::size_t j = i + 1;
        if (j < s.size() && (s[j] == '+' || s[j] == '-')) {
            ++j;
        }
        const std::size_t exponent = j;
        while (j < s.size() && is_digit(s[j])) {
            ++j;
        }
        if (j > exponent) {
            i = j;
        }
    }
    return i - pos;
}

double parse_number(const std::string& text) {
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](char c) {
        return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    });
    if (lower.find("nan") != std::string::npos) {
        return std::nan("");
    }
    return std::strtod(lower.c_str(), nullptr); // strtod reads "inf" and "-inf"
}

std::vector<Piece> pieces_of(const std::string& line) {
    std::vector<Piece> pieces;
    std::string text;
    std::size_t pos = 0;
    while (pos < line.size()) {
        const std::size_t length = number_length(line, pos);
        if (length == 0) {
            text += line[pos++];
            continue;
        }
        if (!text.empty()) {
            pieces.emplace_back(std::move(text));
            text.clear();
        }
        const std::string number = line.substr(pos, length);
        pieces.emplace_back(Number{parse_number(number), number});
        pos += length;
    }
    if (!text.empty()) {
        pieces.emplace_back(std::move(text));
    }
    return pieces;
}

std::string piece_text(const Piece& piece) {
    if (const auto* number = std::get_if<Number>(&piece)) {
        return number->text;
    }
    return std::get<std::string>(piece);
}

} // namespace

std::string normalise_whitespace(const std::string& line) {
    std::string result;
    bool pending_space = false;
    for (const char c : line) {
        if (std::isspace(static_cast<unsigned char>(c)) != 0) {
            pending_space = !result.empty();
            continue;
        }
        if (pending_space) {
            result += ' ';
            pending_space = false;
        }
        result += c;
    }
    return result;
}

bool numbers_match(double a, double b, double tolerance) {
    if (std::isnan(a) || std::isnan(b)) {
        return std::isnan(a) && std::isnan(b);
    }
    if (std::isinf(a) || std::isinf(b)) {
        return a == b;
    }
    const double difference = std::fabs(a - b);
    return difference <= tolerance ||
           difference <= tolerance * std::max(std::fabs(a), std::fabs(b));
}

std::optional<std::string> compare_line(const std::string& expected, const std::string& actual,
                                        double tolerance) {
    const std::vector<Piece> want = pieces_of(normalise_whitespace(expected));
    const std::vector<Piece> got = pieces_of(normalise_whitespace(actual));
    for (std::size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
        if (i >= want.size() || i >= got.size()) {
            return std::string("the line ") + (i >= got.size() ? "ends early" : "goes on") +
                   " at '" + piece_text(i >= got.size() ? want[i] : got[i]) + "'";
        }
        const auto* want_number = std::get_if<Number>(&want[i]);
        const auto* got_number = std::get_if<Number>(&got[i]);
        if (want_number != nullptr && got_number != nullptr) {
            if (!numbers_match(want_number->value, got_number->value, tolerance)) {
                return "number " + got_number->text + " differs from expected " +
                       want_number->text + " by more than the tolerance";
            }
        } else if (piece_text(want[i]) != piece_text(got[i])) {
            return "'" + piece_text(got[i]) + "' where '" + piece_text(want[i]) + "' was expected";
        }
    }
    return std::nullopt;
}

std::optional<OutputMismatch> compare_output(std::vector<std::string> expected,
                                             std::vector<std::string> actual, double tolerance) {
    const auto drop_trailing_empty = [](std::vector<std::string>& lines) {
        while (!lines.empty() && normalise_whitespace(lines.back()).empty()) {
            lines.pop_back();
        }
    };
    drop_trailing_empty(expected);
    drop_trailing_empty(actual);
    for (std::size_t i = 0; i < std::min(expected.size(), actual.size()); ++i) {
        if (std::optional<std::string> reason = compare_line(expected[i], actual[i], tolerance)) {
            return OutputMismatch{i + 1, expected[i], actual[i], *reason};
        }
    }
    if (expected.size() != actual.size()) {
        const std::size_t line = std::min(expected.size(), actual.size()) + 1;
        return OutputMismatch{line,
                              line <= expected.size() ? expected[line - 1] : "<end of output>",
                              line <= actual.size() ? actual[line - 1] : "<end of output>",
                              std::to_string(expected.size()) + " lines expected, " +
                                  std::to_string(actual.size()) + " printed"};
    }
    return std::nullopt;
}

} // namespace brook_test
