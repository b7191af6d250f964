// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "backends/vulkan/free_ranges.hpp"

#include <cassert>
#include <iterator>

namespace brook::detail::vulkan {

FreeRanges::FreeRanges(std::uint64_t size) : size_(size) {
    if (size != 0) {
        free_.emplace(0, size);
    }
}

std::optional<std::uint64_t> FreeRanges::take(std::uint64_t size, std::uint64_t alignment) {
    assert(size != 0 && alignment != 0 && (alignment & (alignment - 1)) == 0);
    for (auto range = free_.begin(); range != free_.end(); ++range) {
        const auto [start, length] = *range;
        const std::uint64_t end = start + length;
        const std::uint64_t aligned = (start + alignment - 1) & ~(alignment - 1);
        if (aligned >= end || end - aligned < size) {
            continue;
        }
        free_.erase(range);
        if (aligned != start) {
            free_.emplace(start, aligned - start); // the gap the alignment leaves stays free
        }
        if (aligned + size != end) {
            free_.emplace(aligned + size, end - aligned - size);
        }
        return aligned;
    }
    return std::nullopt;
}

void FreeRanges::give_back(std::uint64_t offset, std::uint64_t size) {
    assert(size != 0 && offset + size <= size_);
    auto next = free_.lower_bound(offset);
    assert(next == free_.end() || next->first >= offset + size);
    std::uint64_t start = offset;
    std::uint64_t end = offset + size;
    if (next != free_.begin()) {
        const auto previous = std::prev(next);
        assert(previous->first + previous->second <= offset);
        if (previous->first + previous->second == offset) {
            start = previous->first;
            free_.erase(previous);
        }
    }
    if (next != free_.end() && next->first == end) {
        end += next->second;
        free_.erase(next);
    }
    free_.emplace(start, end - start);
}

bool FreeRanges::all_free() const {
    return free_.size() == 1 && free_.begin()->second == size_;
}

} // namespace brook::detail::vulkan
