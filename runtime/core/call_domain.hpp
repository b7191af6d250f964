// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Brook+'s per-call execution domain (BROOKPLUS.md §3.2): a kernel object's domainOffset and
// domainSize set it for the next call of that kernel on the calling thread
// (brook::set_call_domain_offset and _size); the call takes it, so it applies once.

#include "core/backend.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace brook::detail {

/// What domainOffset and domainSize asked for, `.x` (the fastest dimension) first.
struct CallDomain {
    std::array<unsigned, 4> offset{};
    std::array<unsigned, 4> size{};
    bool has_size = false; ///< without one, the domain runs from the offset to the end
};

/// The per-call domain set for the kernel named `kernel` on this thread, if any, which is then
/// forgotten.
std::optional<CallDomain> take_call_domain(std::string_view kernel);

/// The positions of a launch's domain that a CallDomain keeps: [low, high) in each dimension,
/// slowest first as Launch::extents (components past the domain's rank are ignored).
struct DomainBox {
    std::array<std::size_t, 4> low{};
    std::array<std::size_t, 4> high{};

    /// The box of `domain` clipped to `launch`'s extents.
    static DomainBox clipped(const CallDomain& domain, const Launch& launch);
    /// True when the box holds every position of `launch`'s domain.
    bool covers(const Launch& launch) const;
    /// True when element `element` (row-major) of `launch`'s domain lies in the box.
    bool contains(const Launch& launch, std::size_t element) const;
};

} // namespace brook::detail
