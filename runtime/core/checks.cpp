// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "core/checks.hpp"

#include "core/errors.hpp"
#include "core/launch.hpp"

#include <array>
#include <string>

namespace brook::detail {

namespace {

/// Element `index` of a row-major domain as C subscripts: "[1][2]".
std::string subscripts(std::size_t index, int rank, const std::array<std::size_t, 4>& extents) {
    std::array<std::size_t, 4> position{};
    for (int d = rank - 1; d >= 0; --d) {
        const auto dimension = static_cast<std::size_t>(d);
        position[dimension] = index % extents[dimension];
        index /= extents[dimension];
    }
    std::string text;
    for (int d = 0; d < rank; ++d) {
        text += "[" + std::to_string(position[static_cast<std::size_t>(d)]) + "]";
    }
    return text;
}

} // namespace

bool checks_enabled() {
    static const bool enabled = environment_switch("BRT_CHECK");
    return enabled;
}

void report_division_fault(const Launch& launch, std::size_t element, DivisionFault fault) {
    const std::string where =
        " at element " + subscripts(element, launch.rank, launch.extents) + " of its domain";
    switch (fault) {
    case DivisionFault::ZeroDivisor:
        fatal(call_label(*launch.kernel) + " divides an integer by zero" + where +
              " (BRT_CHECK=1; without it, a / 0 is -1 and a % 0 is a)");
    case DivisionFault::Overflow:
        fatal(call_label(*launch.kernel) + " divides INT_MIN by -1" + where +
              " (BRT_CHECK=1; without it, INT_MIN / -1 is INT_MIN and INT_MIN % -1 is 0)");
    }
    fatal(call_label(*launch.kernel) + " recorded an unknown fault" + where);
}

void report_division_record(const Launch& launch, std::uint64_t record, std::uint64_t none) {
    if (record == none) {
        return;
    }
    report_division_fault(launch, static_cast<std::size_t>(record / 2),
                          static_cast<DivisionFault>(record % 2));
}

} // namespace brook::detail
