// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Buffers and their memory. Every buffer is bound to a piece of a larger block of device memory
// (MemoryPool), 256-byte aligned, allocated with the device-address flag, since every shader
// reaches memory through buffer device addresses.
//
// Device buffers (streams and the temporaries of reductions and variable outputs) live in the
// first device-local memory type, the fastest for the GPU. Where that memory is also host
// visible, coherent and cached (lavapipe, integrated GPUs) it stays mapped, so reads copy from it
// directly once the queue is idle (on lavapipe 2.2 GB/s for 64 MiB, where the staged path copies
// twice). Host buffers (the batches' arenas: frames, constants, staging
// of copies) are host visible and coherent, cached where possible, since the host reads results
// back from them.

#include "backends/vulkan/free_ranges.hpp"
#include "backends/vulkan/vulkan_device.hpp"
#include "backends/vulkan/vulkan_objects.hpp"

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace brook::detail::vulkan {

enum class MemoryUse : unsigned char {
    device, ///< device-local: streams and temporaries
    host,   ///< host visible and coherent: arenas
};

class MemoryPool;

/// Bytes of a block that one buffer is bound to; given back to the pool when destroyed.
class MemoryPiece {
public:
    MemoryPiece() = default;
    ~MemoryPiece() { reset(); }
    MemoryPiece(MemoryPiece&& other) noexcept { *this = std::move(other); }
    MemoryPiece& operator=(MemoryPiece&& other) noexcept;
    MemoryPiece(const MemoryPiece&) = delete;
    MemoryPiece& operator=(const MemoryPiece&) = delete;

    VkDeviceMemory memory() const;
    VkDeviceSize offset() const { return offset_; }
    /// The piece's bytes in host memory; null where its memory type is not host visible.
    std::byte* mapped() const;
    void reset();

private:
    friend class MemoryPool;
    struct Block;

    MemoryPool* pool_ = nullptr;
    Block* block_ = nullptr;
    VkDeviceSize offset_ = 0;
    VkDeviceSize size_ = 0;
};

/// The device's memory, handed out in pieces of large blocks, so that a program's streams take
/// few of the device's allocations (drivers allow as few as 4,096 alive at once,
/// maxMemoryAllocationCount, and allocating is slow on many) and creating a stream costs no call
/// into the driver's allocator. Each memory type has its own blocks: the first 4 MiB, each next
/// one twice the last, up to 64 MiB. A buffer larger than half the largest block gets a block of
/// its own, freed with it. A block whose pieces are all back is freed, except one per memory
/// type, kept for the next stream (programs make and free streams in loops). Thread-safe.
class MemoryPool {
public:
    explicit MemoryPool(const Device& device);
    /// Every piece must be back.
    ~MemoryPool();
    MemoryPool(const MemoryPool&) = delete;
    MemoryPool& operator=(const MemoryPool&) = delete;

    const Device& device() const { return *device_; }
    /// Memory for a buffer with `requirements` in memory type `type`. Stops the program with a
    /// message when the device has none left; `what` names the buffer in it ("a stream").
    MemoryPiece allocate(const VkMemoryRequirements& requirements, std::uint32_t type,
                         bool host_use, const char* what);
    /// The device memory allocations alive (blocks, shared or not).
    std::size_t allocation_count() const;

private:
    friend class MemoryPiece;
    using Block = MemoryPiece::Block;

    /// A new block of `bytes` in `type`, or null when the device refuses it (`refused` says why).
    std::unique_ptr<Block> allocate_block(VkDeviceSize bytes, std::uint32_t type, bool dedicated,
                                          VkResult& refused);
    void give_back(Block& block, VkDeviceSize offset, VkDeviceSize size) noexcept;

    const Device* device_;
    /// Recursive, as the Context's: an error stops the program with exit() from inside
    /// allocate, and the streams destroyed at exit give their pieces back.
    mutable std::recursive_mutex mutex_;
    std::vector<std::unique_ptr<Block>> blocks_;
};

class Buffer {
public:
    Buffer() = default;
    /// A buffer of at least `bytes` (rounded up to 16 so fills may cover it whole). Stops the
    /// program with a message when the device has no memory left or the size is past its
    /// largest allocation; `what` names the buffer in it ("a stream").
    static Buffer create(MemoryPool& memory, VkDeviceSize bytes, MemoryUse use, const char* what);
    Buffer(Buffer&&) noexcept = default;
    /// The buffer this one held is destroyed before its memory goes back to the pool.
    Buffer& operator=(Buffer&& other) noexcept;

    explicit operator bool() const { return static_cast<bool>(buffer_); }
    VkBuffer handle() const { return buffer_.get(); }
    VkDeviceAddress address() const { return address_; }
    VkDeviceSize size() const { return size_; }
    /// The buffer's bytes in host memory; null when its memory is not mapped.
    std::byte* mapped() const { return mapped_; }

private:
    MemoryPiece memory_; // declared first, given back after the buffer is destroyed
    BufferHandle buffer_;
    VkDeviceAddress address_ = 0;
    VkDeviceSize size_ = 0;
    std::byte* mapped_ = nullptr;
};

} // namespace brook::detail::vulkan
