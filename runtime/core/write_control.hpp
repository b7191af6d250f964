// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The calling thread's write query and write mask (brook/write_control.hpp) around the kernel
// calls that launch.cpp issues.

#include "core/backend.hpp"
#include "core/call_domain.hpp"

namespace brook::detail {

/// Runs a call without variable outputs on `backend` as the thread's query and mask and the
/// call's execution domain `box` (null for the whole domain) ask: with none, as it is; when
/// elements may be skipped (outside `box`, or by the mask's test) or discarded while they are
/// counted or marked, with Launch::element_flags (a byte per element: in, nonzero where the call
/// skips; out, 1 where the element was written), which the backend must support.
void run_controlled(Backend& backend, Launch& launch, const DomainBox* box);

/// Before a call with variable outputs, which runs every element of its domain: stops if the
/// thread's mask tests, since the call could not skip elements.
void check_runs_every_element(const Launch& launch);
/// After such a call: counts and marks every element of its domain.
void note_every_element_written(const Launch& launch);

} // namespace brook::detail
