// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "backends/vulkan/vulkan_memory.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <string>
#include <utility>

namespace brook::detail::vulkan {

namespace {

constexpr VkMemoryPropertyFlags readable_mapping = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
                                                   VK_MEMORY_PROPERTY_HOST_CACHED_BIT;

/// Where buffers start within their block: brcc's shaders assume that a buffer starts 256-byte
/// aligned (leaf_alignment in compiler/codegen/vulkan/compute_shader_emitter.cpp), as memory of
/// its own would.
constexpr VkDeviceSize buffer_alignment = 256;

constexpr VkDeviceSize mebibyte = VkDeviceSize{1} << 20;
constexpr VkDeviceSize first_block_bytes = 4 * mebibyte;
constexpr VkDeviceSize largest_block_bytes = 64 * mebibyte;

std::string bytes_text(VkDeviceSize bytes) {
    return std::to_string(bytes) + " bytes";
}

} // namespace

struct MemoryPiece::Block {
    Block(MemoryHandle memory_, std::uint32_t type_, VkDeviceSize size, bool dedicated_)
        : memory(std::move(memory_)), type(type_), ranges(size), dedicated(dedicated_) {}

    MemoryHandle memory;
    std::uint32_t type;
    FreeRanges ranges;
    /// One buffer's alone (larger than half the largest block): freed when it comes back.
    bool dedicated;
    /// The whole block mapped, where its type is host visible.
    std::byte* mapped = nullptr;
};

MemoryPiece& MemoryPiece::operator=(MemoryPiece&& other) noexcept {
    if (this != &other) {
        reset();
        pool_ = std::exchange(other.pool_, nullptr);
        block_ = std::exchange(other.block_, nullptr);
        offset_ = other.offset_;
        size_ = other.size_;
    }
    return *this;
}

VkDeviceMemory MemoryPiece::memory() const {
    return block_ != nullptr ? block_->memory.get() : VK_NULL_HANDLE;
}

std::byte* MemoryPiece::mapped() const {
    return block_ != nullptr && block_->mapped != nullptr ? block_->mapped + offset_ : nullptr;
}

void MemoryPiece::reset() {
    if (block_ != nullptr) {
        pool_->give_back(*block_, offset_, size_);
    }
    pool_ = nullptr;
    block_ = nullptr;
}

MemoryPool::MemoryPool(const Device& device) : device_(&device) {}

MemoryPool::~MemoryPool() {
    assert(std::all_of(blocks_.begin(), blocks_.end(),
                       [](const auto& block) { return block->ranges.all_free(); }));
}

std::size_t MemoryPool::allocation_count() const {
    const std::lock_guard lock(mutex_);
    return blocks_.size();
}

std::unique_ptr<MemoryPool::Block> MemoryPool::allocate_block(VkDeviceSize bytes,
                                                              std::uint32_t type, bool dedicated,
                                                              VkResult& refused) {
    const Api& api = device_->api();
    VkMemoryAllocateFlagsInfo flags{};
    flags.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO;
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    VkMemoryAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    allocate.pNext = &flags;
    allocate.allocationSize = bytes;
    allocate.memoryTypeIndex = type;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    refused = api.vkAllocateMemory(device_->handle(), &allocate, nullptr, &memory);
    if (refused != VK_SUCCESS) {
        return nullptr;
    }
    auto block = std::make_unique<Block>(MemoryHandle(api, device_->handle(), memory), type, bytes,
                                         dedicated);
    if ((device_->memory_flags(type) & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) != 0) {
        void* host = nullptr;
        const VkResult mapped =
            api.vkMapMemory(device_->handle(), memory, 0, VK_WHOLE_SIZE, 0, &host);
        if (mapped != VK_SUCCESS) {
            fatal("vulkan: cannot map " + bytes_text(bytes) +
                  " of device memory into host memory: " + result_name(mapped));
        }
        block->mapped = static_cast<std::byte*>(host);
    }
    return block;
}

MemoryPiece MemoryPool::allocate(const VkMemoryRequirements& requirements, std::uint32_t type,
                                 bool host_use, const char* what) {
    const std::lock_guard lock(mutex_);
    const VkDeviceSize size = requirements.size;
    const VkDeviceSize alignment = std::max(requirements.alignment, buffer_alignment);
    MemoryPiece piece;
    piece.pool_ = this;
    piece.size_ = size;
    const auto take_from = [&](Block& block) {
        if (const std::optional<std::uint64_t> offset = block.ranges.take(size, alignment)) {
            piece.block_ = &block;
            piece.offset_ = *offset;
            return true;
        }
        return false;
    };

    const bool shared = size <= largest_block_bytes / 2;
    if (shared) {
        for (const std::unique_ptr<Block>& block : blocks_) {
            if (!block->dedicated && block->type == type && take_from(*block)) {
                return piece;
            }
        }
    }
    std::unique_ptr<Block> block;
    VkResult refused = VK_SUCCESS;
    if (shared) {
        const auto blocks_of_type = std::count_if(blocks_.begin(), blocks_.end(), [&](auto& b) {
            return !b->dedicated && b->type == type;
        });
        const VkDeviceSize grown = first_block_bytes << std::min<std::ptrdiff_t>(blocks_of_type, 4);
        VkDeviceSize bytes = std::min(grown, largest_block_bytes);
        if (device_->max_allocation() != 0) {
            bytes = std::min(bytes, device_->max_allocation());
        }
        block = allocate_block(std::max(bytes, size), type, false, refused);
    }
    if (!block) {
        // Too large to share, or the device refused a whole block: memory of its own.
        block = allocate_block(size, type, true, refused);
    }
    if (!block) {
        const bool host = host_use || refused == VK_ERROR_OUT_OF_HOST_MEMORY;
        fatal("vulkan: cannot allocate " + bytes_text(size) + " of " + (host ? "host" : "device") +
              " memory for " + what + ": " + result_name(refused) +
              "; free device memory by releasing streams first");
    }
    [[maybe_unused]] const bool taken = take_from(*block);
    assert(taken);
    blocks_.push_back(std::move(block));
    return piece;
}

void MemoryPool::give_back(Block& block, VkDeviceSize offset, VkDeviceSize size) noexcept {
    const std::lock_guard lock(mutex_);
    block.ranges.give_back(offset, size);
    if (!block.ranges.all_free()) {
        return;
    }
    const bool another_empty = std::any_of(blocks_.begin(), blocks_.end(), [&](auto& other) {
        return other.get() != &block && !other->dedicated && other->type == block.type &&
               other->ranges.all_free();
    });
    if (block.dedicated || another_empty) {
        std::erase_if(blocks_, [&](auto& owned) { return owned.get() == &block; });
    }
}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
    if (this != &other) {
        buffer_.reset();
        memory_ = std::move(other.memory_);
        buffer_ = std::move(other.buffer_);
        address_ = other.address_;
        size_ = other.size_;
        mapped_ = other.mapped_;
    }
    return *this;
}

Buffer Buffer::create(MemoryPool& memory, VkDeviceSize bytes, MemoryUse use, const char* what) {
    const Device& device = memory.device();
    const Api& api = device.api();
    const VkDeviceSize size = (bytes + 15) / 16 * 16;
    if (device.max_allocation() != 0 && size > device.max_allocation()) {
        fatal("vulkan: cannot allocate " + std::string(what) + " of " + bytes_text(bytes) +
              ": the device's largest allocation is " + bytes_text(device.max_allocation()) +
              " (maxMemoryAllocationSize); use smaller streams");
    }
    Buffer buffer;
    buffer.size_ = size;
    VkBufferCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.size = size;
    info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                 VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkBuffer handle = VK_NULL_HANDLE;
    const VkResult created = api.vkCreateBuffer(device.handle(), &info, nullptr, &handle);
    if (created != VK_SUCCESS) {
        fatal("vulkan: cannot create " + std::string(what) + " of " + bytes_text(bytes) + ": " +
              result_name(created));
    }
    BufferHandle owned(api, device.handle(), handle);

    VkMemoryRequirements requirements{};
    api.vkGetBufferMemoryRequirements(device.handle(), handle, &requirements);
    const std::optional<std::uint32_t> type =
        use == MemoryUse::device ? device.memory_type(requirements.memoryTypeBits, 0,
                                                      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)
                                 : device.memory_type(requirements.memoryTypeBits,
                                                      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                          VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                                      VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    if (!type) {
        fatal("vulkan: the device has no host-visible coherent memory for " + std::string(what));
    }
    buffer.memory_ = memory.allocate(requirements, *type, use == MemoryUse::host, what);
    buffer.buffer_ = std::move(owned);
    const VkResult bound = api.vkBindBufferMemory(device.handle(), handle, buffer.memory_.memory(),
                                                  buffer.memory_.offset());
    if (bound != VK_SUCCESS) {
        fatal("vulkan: cannot bind memory to " + std::string(what) + ": " + result_name(bound));
    }

    const VkMemoryPropertyFlags properties = device.memory_flags(*type);
    if (use == MemoryUse::host ||
        (device.maps_streams() && (properties & readable_mapping) == readable_mapping)) {
        buffer.mapped_ = buffer.memory_.mapped();
    }

    VkBufferDeviceAddressInfo address{};
    address.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO;
    address.buffer = handle;
    buffer.address_ = api.vkGetBufferDeviceAddress(device.handle(), &address);
    return buffer;
}

} // namespace brook::detail::vulkan
