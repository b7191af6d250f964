// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The free bytes of one block of device memory (vulkan_memory.hpp's MemoryPool), as ranges keyed
// by offset. Pieces are taken first fit at the alignment asked for, and a piece given back is
// merged with the free ranges beside it, so that a block whose pieces are all back is one range
// again. Plain arithmetic, no Vulkan: the pool keeps one per block, behind its lock.

#include <cstdint>
#include <map>
#include <optional>

namespace brook::detail::vulkan {

class FreeRanges {
public:
    /// A block of `size` bytes, all free.
    explicit FreeRanges(std::uint64_t size);

    /// The offset of `size` bytes (at least 1) at a multiple of `alignment` (a power of two),
    /// taken from the lowest free range that holds them; nothing when none does.
    std::optional<std::uint64_t> take(std::uint64_t size, std::uint64_t alignment);
    /// Gives back [offset, offset + size), a piece that take() returned.
    void give_back(std::uint64_t offset, std::uint64_t size);

    /// Whether every byte is free.
    bool all_free() const;
    std::uint64_t size() const { return size_; }

private:
    std::uint64_t size_;
    /// Offset -> length of each free range; no two touch (give_back merges them).
    std::map<std::uint64_t, std::uint64_t> free_;
};

} // namespace brook::detail::vulkan
