// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// A stream's memory on the vulkan backend: one device-local buffer of its elements in the C++
// layout, which the shaders read with the scalar block layout, byte for byte alike.

#include "backends/vulkan/vulkan_context.hpp"
#include "backends/vulkan/vulkan_memory.hpp"
#include "core/backend.hpp"

#include <memory>

namespace brook::detail::vulkan {

class VulkanStorage final : public Storage {
public:
    /// Counts the bytes against BRT_MAX_MEMORY (Storage), then allocates them; not yet zeroed.
    VulkanStorage(std::shared_ptr<Context> context, std::size_t element_size, std::size_t count)
        : Storage(element_size, count), context_(std::move(context)),
          buffer_(count == 0 ? Buffer()
                             : Buffer::create(context_->memory, element_size * count,
                                              MemoryUse::device, "a stream")) {}
    /// Kernels issued before may still use the buffer: it goes when they are done.
    ~VulkanStorage() override {
        const std::lock_guard lock(context_->mutex);
        context_->queue.keep_until_done(std::move(buffer_));
    }

    /// The buffer; empty for a stream of no elements.
    const Buffer& buffer() const { return buffer_; }
    VkDeviceAddress address() const { return buffer_.address(); }

private:
    std::shared_ptr<Context> context_;
    Buffer buffer_;
};

inline const VulkanStorage& vulkan_storage(const Storage& storage) {
    return static_cast<const VulkanStorage&>(storage);
}

} // namespace brook::detail::vulkan
