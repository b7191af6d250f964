// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// BRT_CHECK=1 (docs/language.md, "Integer division"): a kernel that divides an integer by zero,
// or INT_MIN by -1, stops the program with an error naming the kernel and the first element
// where it happened, instead of computing the result the kernel language defines. Every
// backend finds the element its own way (the cpu one element at a time, gl and cuda with an
// atomic minimum over the elements) and reports it here, so the message is the same on all.

#include "core/backend.hpp"

#include <cstddef>
#include <cstdint>

namespace brook::detail {

/// Whether BRT_CHECK=1 (unset or 0: no checks; anything else is an error).
bool checks_enabled();

/// What an element did wrong. The values are those the GPU shaders record (prelude.glsl,
/// brook/vector.hpp): a record is `element * 2 + fault`, so that the smallest record is the
/// first element, whatever order the GPU ran the elements in.
enum class DivisionFault : unsigned {
    ZeroDivisor = 0, ///< a / 0 or a % 0
    Overflow = 1,    ///< INT_MIN / -1 or INT_MIN % -1
};

/// Stops with the error for `fault` at row-major element `element` of `launch`'s domain.
[[noreturn]] void report_division_fault(const Launch& launch, std::size_t element,
                                        DivisionFault fault);

/// Stops with the error a GPU recorded, `record` = element * 2 + fault; returns when `record`
/// is `none` (nothing happened).
void report_division_record(const Launch& launch, std::uint64_t record, std::uint64_t none);

} // namespace brook::detail
