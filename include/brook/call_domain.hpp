// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Brook+'s per-call execution domain (BROOKPLUS.md §3.2), which the kernel objects of brcc's -h
// header set with `k.domainOffset(o)` and `k.domainSize(s)`; in a .br file brcc translates those
// calls to these functions itself.

#include "brook/vector.hpp"

#include <string_view>

namespace brook {

/// Brook+'s per-call execution domain (BROOKPLUS.md §3.2), what a kernel object's domainOffset
/// and domainSize set (brcc also translates `k.domainSize(s)` in .br host code to them): the next
/// call of the kernel named `kernel` on this thread writes its outputs only at the positions p
/// with offset <= p < offset + size in each dimension (`.x` the fastest; an offset alone runs to
/// the end, a size alone starts at 0), clipped to its first output; inputs are read as for the
/// whole call and instance() stays absolute. The setting is then forgotten. A reduction given
/// one records BR_ERROR_NOT_SUPPORTED and does nothing.
///@{
void set_call_domain_offset(std::string_view kernel, const vec<unsigned, 4>& offset);
void set_call_domain_size(std::string_view kernel, const vec<unsigned, 4>& size);
///@}

} // namespace brook
