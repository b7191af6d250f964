// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Per-call execution domains (core/call_domain.hpp). Settings are kept per thread and per kernel
// name, as Brook+'s thread-local kernel objects kept them; a kernel's name is its stub's, which
// the program's link makes unique.
#include "core/call_domain.hpp"

#include "brook/kernel_abi.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace brook {

namespace detail {

namespace {

std::unordered_map<std::string, CallDomain>& pending_domains() {
    thread_local std::unordered_map<std::string, CallDomain> domains;
    return domains;
}

std::array<unsigned, 4> components(const vec<unsigned, 4>& v) {
    return {v.x, v.y, v.z, v.w};
}

} // namespace

std::optional<CallDomain> take_call_domain(std::string_view kernel) {
    auto& domains = pending_domains();
    if (domains.empty()) {
        return std::nullopt;
    }
    const auto found = domains.find(std::string(kernel));
    if (found == domains.end()) {
        return std::nullopt;
    }
    const CallDomain domain = found->second;
    domains.erase(found);
    return domain;
}

DomainBox DomainBox::clipped(const CallDomain& domain, const Launch& launch) {
    DomainBox box;
    const auto rank = static_cast<std::size_t>(launch.rank);
    for (std::size_t d = 0; d < rank; ++d) {
        // Launch extents are slowest first; the domain's components fastest first.
        const std::size_t component = rank - 1 - d;
        const std::size_t extent = launch.extents[d];
        box.low[d] = std::min<std::size_t>(domain.offset[component], extent);
        box.high[d] = domain.has_size
                          ? std::min<std::size_t>(box.low[d] + domain.size[component], extent)
                          : extent;
    }
    return box;
}

bool DomainBox::covers(const Launch& launch) const {
    for (std::size_t d = 0; d < static_cast<std::size_t>(launch.rank); ++d) {
        if (low[d] != 0 || high[d] != launch.extents[d]) {
            return false;
        }
    }
    return true;
}

bool DomainBox::contains(const Launch& launch, std::size_t element) const {
    for (std::size_t d = static_cast<std::size_t>(launch.rank); d-- > 0;) {
        const std::size_t position = element % launch.extents[d];
        element /= launch.extents[d];
        if (position < low[d] || position >= high[d]) {
            return false;
        }
    }
    return true;
}

} // namespace detail

void set_call_domain_offset(std::string_view kernel, const vec<unsigned, 4>& offset) {
    detail::pending_domains()[std::string(kernel)].offset = detail::components(offset);
}

void set_call_domain_size(std::string_view kernel, const vec<unsigned, 4>& size) {
    detail::CallDomain& domain = detail::pending_domains()[std::string(kernel)];
    domain.size = detail::components(size);
    domain.has_size = true;
}

} // namespace brook
