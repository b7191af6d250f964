// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Buffers and their memory: one VkDeviceMemory per buffer, bound at offset 0, allocated with the
// device-address flag, since every shader reaches memory through buffer device addresses.
//
// Device buffers (streams and the temporaries of reductions and variable outputs) live in the
// first device-local memory type, the fastest for the GPU. Where that memory is also host
// visible, coherent and cached (lavapipe, integrated GPUs) it stays mapped, so reads copy from it
// directly once the queue is idle (on lavapipe 2.2 GB/s for 64 MiB, where the staged path copies
// twice). Host buffers (the batches' arenas: frames, constants, staging
// of copies) are host visible and coherent, cached where possible, since the host reads results
// back from them.

#include "backends/vulkan/vulkan_device.hpp"
#include "backends/vulkan/vulkan_objects.hpp"

#include <cstddef>

namespace brook::detail::vulkan {

enum class MemoryUse : unsigned char {
    device, ///< device-local: streams and temporaries
    host,   ///< host visible and coherent: arenas
};

class Buffer {
public:
    Buffer() = default;
    /// A buffer of at least `bytes` (rounded up to 16 so fills may cover it whole). Stops the
    /// program with a message when the device has no memory left or the size is past its
    /// largest allocation; `what` names the buffer in it ("a stream").
    static Buffer create(const Device& device, VkDeviceSize bytes, MemoryUse use, const char* what);

    explicit operator bool() const { return static_cast<bool>(buffer_); }
    VkBuffer handle() const { return buffer_.get(); }
    VkDeviceAddress address() const { return address_; }
    VkDeviceSize size() const { return size_; }
    /// The buffer's bytes in host memory; null when its memory is not mapped.
    std::byte* mapped() const { return mapped_; }

private:
    MemoryHandle memory_; // declared first, freed after the buffer
    BufferHandle buffer_;
    VkDeviceAddress address_ = 0;
    VkDeviceSize size_ = 0;
    std::byte* mapped_ = nullptr;
};

} // namespace brook::detail::vulkan
