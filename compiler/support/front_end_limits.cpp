// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "support/front_end_limits.hpp"

#include <charconv>

namespace brcc {

std::optional<std::string> apply_limit_flag(std::string_view flag, FrontEndLimits& limits) {
    struct Limit {
        std::string_view prefix;
        int FrontEndLimits::*field;
    };
    static constexpr Limit table[] = {
        {"-fbracket-depth=", &FrontEndLimits::bracket_depth},
        {"-fexpression-depth=", &FrontEndLimits::expression_depth},
        {"-fmax-include-depth=", &FrontEndLimits::include_depth},
    };
    for (const Limit& limit : table) {
        if (!flag.starts_with(limit.prefix))
            continue;
        const std::string_view digits = flag.substr(limit.prefix.size());
        int value = 0;
        const auto [end, error] =
            std::from_chars(digits.data(), digits.data() + digits.size(), value);
        if (error != std::errc{} || end != digits.data() + digits.size() || value < 1)
            return "'" + std::string(flag) + "' needs a positive integer, as in '" +
                   std::string(limit.prefix) + "512'";
        limits.*limit.field = value;
        return std::string();
    }
    return std::nullopt;
}

} // namespace brcc
