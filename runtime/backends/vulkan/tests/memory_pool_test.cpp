// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The vulkan backend's memory: FreeRanges, the arithmetic of a block's free bytes (no device
// needed), and MemoryPool on the device that starts (lavapipe here), which must hand out
// pieces that never overlap from few allocations, and free what comes back.
#include "backends/vulkan/free_ranges.hpp"
#include "backends/vulkan/vulkan_memory.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

namespace brook::detail::vulkan {
namespace {

TEST(VulkanFreeRanges, TakesFirstFitAtTheAlignment) {
    FreeRanges ranges(100);
    EXPECT_EQ(ranges.take(10, 1), std::optional<std::uint64_t>(0));
    EXPECT_EQ(ranges.take(8, 16), std::optional<std::uint64_t>(16)); // 10..15 stays free
    EXPECT_EQ(ranges.take(6, 2), std::optional<std::uint64_t>(10));  // fills that gap
    EXPECT_EQ(ranges.take(77, 1), std::nullopt);                     // 76 bytes are left
    EXPECT_EQ(ranges.take(76, 4), std::optional<std::uint64_t>(24));
    EXPECT_EQ(ranges.take(1, 1), std::nullopt);
    EXPECT_FALSE(ranges.all_free());
}

TEST(VulkanFreeRanges, PiecesGivenBackMergeWithTheirNeighbours) {
    FreeRanges ranges(64);
    const std::uint64_t a = *ranges.take(16, 16);
    const std::uint64_t b = *ranges.take(16, 16);
    const std::uint64_t c = *ranges.take(16, 16);
    const std::uint64_t d = *ranges.take(16, 16);
    ranges.give_back(b, 16);
    ranges.give_back(c, 16);
    // b and c merged: 32 contiguous bytes.
    EXPECT_EQ(ranges.take(32, 16), std::optional<std::uint64_t>(b));
    ranges.give_back(b, 32);
    ranges.give_back(a, 16);
    EXPECT_FALSE(ranges.all_free());
    ranges.give_back(d, 16);
    EXPECT_TRUE(ranges.all_free());
    EXPECT_EQ(ranges.take(64, 64), std::optional<std::uint64_t>(0));
}

TEST(VulkanFreeRanges, RandomPiecesNeverOverlapAndAllComeBack) {
    constexpr std::uint64_t size = 1 << 16;
    FreeRanges ranges(size);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> taken;
    std::mt19937 random(7);
    for (int step = 0; step < 5000; ++step) {
        if (!taken.empty() && random() % 3 == 0) {
            const std::size_t k = random() % taken.size();
            ranges.give_back(taken[k].first, taken[k].second);
            taken.erase(taken.begin() + static_cast<std::ptrdiff_t>(k));
            continue;
        }
        const std::uint64_t bytes = 1 + random() % 700;
        const std::uint64_t alignment = std::uint64_t{1} << (random() % 7);
        if (const std::optional<std::uint64_t> offset = ranges.take(bytes, alignment)) {
            EXPECT_EQ(*offset % alignment, 0u);
            EXPECT_LE(*offset + bytes, size);
            taken.emplace_back(*offset, bytes);
        }
    }
    std::sort(taken.begin(), taken.end());
    for (std::size_t k = 1; k < taken.size(); ++k) {
        ASSERT_LE(taken[k - 1].first + taken[k - 1].second, taken[k].first);
    }
    for (const auto& [offset, bytes] : taken) {
        ranges.give_back(offset, bytes);
    }
    EXPECT_TRUE(ranges.all_free());
}

TEST(VulkanMemoryPool, ManyBuffersShareFewAllocations) {
    std::unique_ptr<Device> device;
    try {
        device = std::make_unique<Device>();
    } catch (const std::runtime_error& error) {
        GTEST_SKIP() << "no Vulkan device starts here: " << error.what();
    }
    MemoryPool memory(*device);
    // 10,000 buffers alive at once: more than the 4,096 allocations many drivers allow.
    std::vector<Buffer> buffers;
    for (std::size_t k = 0; k < 10000; ++k) {
        buffers.push_back(Buffer::create(memory, 4 + k % 300, MemoryUse::device, "a stream"));
    }
    buffers.push_back(Buffer::create(memory, std::size_t{48} << 20, MemoryUse::device, "a stream"));
    buffers.push_back(Buffer::create(memory, 1000, MemoryUse::host, "an arena"));
    EXPECT_LE(memory.allocation_count(), 8u);

    std::vector<std::pair<VkDeviceAddress, VkDeviceSize>> spans;
    for (const Buffer& buffer : buffers) {
        ASSERT_EQ(buffer.address() % 256, 0u); // what brcc's shaders assume of a stream's start
        spans.emplace_back(buffer.address(), buffer.size());
    }
    std::sort(spans.begin(), spans.end());
    for (std::size_t k = 1; k < spans.size(); ++k) {
        ASSERT_LE(spans[k - 1].first + spans[k - 1].second, spans[k].first);
    }
    EXPECT_NE(buffers.back().mapped(), nullptr); // host buffers are mapped

    // Freed in an order of their own: only the one block kept per memory type stays.
    std::shuffle(buffers.begin(), buffers.end(), std::mt19937(3));
    buffers.clear();
    EXPECT_LE(memory.allocation_count(), 1u);
}

} // namespace
} // namespace brook::detail::vulkan
