// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The markers are the first words of each tool's report; "runtime error:" is UBSan's.
#include "sanitizers.hpp"

#include <cstdlib>

namespace brook_test {
namespace {

std::string with_exit_code(const char* variable) {
    const char* current = std::getenv(variable);
    const std::string options = current != nullptr ? std::string(current) + ":" : std::string();
    return options + "exitcode=86:print_stacktrace=1";
}

} // namespace

std::vector<std::pair<std::string, std::string>> sanitizer_environment() {
    return {{"ASAN_OPTIONS", with_exit_code("ASAN_OPTIONS")},
            {"UBSAN_OPTIONS", with_exit_code("UBSAN_OPTIONS")}};
}

std::optional<std::string> find_crash_report(const std::string& output) {
    for (const char* report : {"AddressSanitizer", "UndefinedBehaviorSanitizer", "LeakSanitizer",
                               "runtime error:", "internal compiler error"}) {
        if (output.find(report) != std::string::npos) {
            return std::string(report);
        }
    }
    return std::nullopt;
}

} // namespace brook_test
