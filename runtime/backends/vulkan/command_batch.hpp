// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Work for the device's one queue, recorded into batches and submitted asynchronously. A batch
// is a command buffer, a fence and an arena: host-visible memory for what its commands read from
// the host (frames, constants, data on its way to a stream) and write for it (data on its way
// back). Batches form a ring and are reused once their fence has signalled; the host waits only
// where it needs data (BatchQueue::finish), or for the oldest batch when the ring is full.
//
// Every command is preceded by a global memory barrier (compute and transfer writes before it,
// in any earlier batch too, are visible to compute and transfer reads and writes after it), so
// the commands run as if in issue order; each batch ends with one that makes its writes visible
// to the host.
//
// Not thread-safe: the backend serialises its calls (vulkan_backend.cpp).

#include "backends/vulkan/vulkan_memory.hpp"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace brook::detail::vulkan {

/// Bytes of a batch's arena reserved by BatchQueue::allocate.
struct ArenaSlice {
    std::byte* host = nullptr;
    VkDeviceAddress address = 0;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
};

class BatchQueue {
public:
    /// The largest piece of a transfer through an arena (BatchQueue::allocate): large copies
    /// go in pieces, so that the arenas stay small and the device copies one piece while the
    /// host fills the next.
    static constexpr VkDeviceSize transfer_piece = VkDeviceSize{4} << 20;

    /// Batches on `memory`'s device, their arenas in `memory`.
    explicit BatchQueue(MemoryPool& memory);
    /// Waits for every batch (destroying what they use) without reporting errors.
    ~BatchQueue();
    BatchQueue(const BatchQueue&) = delete;
    BatchQueue& operator=(const BatchQueue&) = delete;

    /// `bytes` of the recording batch's arena, 16-byte aligned. When they do not fit, the batch
    /// is submitted first and the slice comes from the next: commands that use a slice must be
    /// recorded before the next allocate.
    ArenaSlice allocate(VkDeviceSize bytes);

    /// Records vkCmdFillBuffer of `value` over [offset, offset + size) of `buffer` (size a
    /// multiple of 4, or VK_WHOLE_SIZE).
    void fill(VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size, std::uint32_t value);
    /// Records one vkCmdCopyBuffer of `regions` (none: nothing).
    void copy(VkBuffer source, VkBuffer target, std::span<const VkBufferCopy> regions);
    /// Records a dispatch of `pipeline` on a (x, y) grid, its push constant `frame`.
    void dispatch(VkPipeline pipeline, VkPipelineLayout layout, VkDeviceAddress frame,
                  std::uint32_t x, std::uint32_t y);

    /// Keeps `buffer` alive until the commands recorded so far are done (a stream destroyed
    /// while kernels that use it may run, the temporaries of a call).
    void keep_until_done(Buffer buffer);
    /// Runs `action` on the host once the commands recorded so far are done (copies out of an
    /// arena), before the arena is reused; at the latest in finish().
    void when_done(std::function<void()> action);

    /// Submits the recording batch when the device has nothing else to do, so that it starts
    /// at once, or when it has grown long; otherwise keeps recording into it. Called at the end
    /// of each operation, never between commands that share an arena slice.
    void submit_if_useful();
    /// Submits the recording batch and waits for every batch; `what` starts the message of a
    /// device lost meanwhile ("streamWrite: a kernel that wrote the stream failed").
    void finish(const std::string& what);

private:
    struct Batch;

    Batch& recording();
    VkCommandBuffer command_buffer_for_next_command();
    void submit();
    /// Waits for the oldest submitted batch and recycles it.
    void retire_oldest(const std::string& what);

    const Device* device_;
    MemoryPool* memory_;
    std::vector<std::unique_ptr<Batch>> batches_;
    std::size_t current_ = 0;
    /// Submitted batches, oldest first.
    std::deque<Batch*> in_flight_;
};

} // namespace brook::detail::vulkan
