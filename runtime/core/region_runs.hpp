// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// A Region as runs of consecutive elements of its storage: what one copy each moves (a
// cudaMemcpy, a VkBufferCopy) between a GPU backend's storage and host memory.

#include "core/backend.hpp"

#include <cstddef>

namespace brook::detail {

/// Calls f(first element, count, position in row-major order) for each run of consecutive
/// elements of `region`: the whole region when it is contiguous, else its rows, or its single
/// elements when the fastest dimension has gaps.
template <class F> void for_each_run(const Region& region, F&& f) {
    const std::size_t count = region.count();
    if (count == 0) {
        return;
    }
    if (region.contiguous()) {
        f(region.offset, count, std::size_t{0});
        return;
    }
    const auto last = static_cast<std::size_t>(region.rank - 1);
    const std::size_t row = region.extents[last];
    for (std::size_t start = 0; start < count; start += row) {
        std::size_t rest = start / row;
        std::size_t offset = region.offset;
        for (int d = region.rank - 2; d >= 0; --d) {
            const auto dim = static_cast<std::size_t>(d);
            offset += (rest % region.extents[dim]) * region.strides[dim];
            rest /= region.extents[dim];
        }
        if (region.strides[last] == 1) {
            f(offset, row, start);
            continue;
        }
        for (std::size_t i = 0; i < row; ++i) {
            f(offset + i * region.strides[last], std::size_t{1}, start + i);
        }
    }
}

} // namespace brook::detail
