// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "backends/vulkan/vulkan_memory.hpp"

#include "core/errors.hpp"

#include <string>

namespace brook::detail::vulkan {

namespace {

constexpr VkMemoryPropertyFlags readable_mapping = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
                                                   VK_MEMORY_PROPERTY_HOST_CACHED_BIT;

std::string bytes_text(VkDeviceSize bytes) {
    return std::to_string(bytes) + " bytes";
}

} // namespace

Buffer Buffer::create(const Device& device, VkDeviceSize bytes, MemoryUse use, const char* what) {
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
    buffer.buffer_ = BufferHandle(api, device.handle(), handle);

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
    VkMemoryAllocateFlagsInfo flags{};
    flags.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO;
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    VkMemoryAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    allocate.pNext = &flags;
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = *type;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    const VkResult allocated = api.vkAllocateMemory(device.handle(), &allocate, nullptr, &memory);
    if (allocated != VK_SUCCESS) {
        const bool host = use == MemoryUse::host || allocated == VK_ERROR_OUT_OF_HOST_MEMORY;
        fatal("vulkan: cannot allocate " + bytes_text(requirements.size) + " of " +
              (host ? "host" : "device") + " memory for " + what + ": " + result_name(allocated) +
              "; free device memory by releasing streams first");
    }
    buffer.memory_ = MemoryHandle(api, device.handle(), memory);
    const VkResult bound = api.vkBindBufferMemory(device.handle(), handle, memory, 0);
    if (bound != VK_SUCCESS) {
        fatal("vulkan: cannot bind memory to " + std::string(what) + ": " + result_name(bound));
    }

    const VkMemoryPropertyFlags properties = device.memory_flags(*type);
    if (use == MemoryUse::host ||
        (device.maps_streams() && (properties & readable_mapping) == readable_mapping)) {
        void* host = nullptr;
        const VkResult mapped =
            api.vkMapMemory(device.handle(), memory, 0, VK_WHOLE_SIZE, 0, &host);
        if (mapped != VK_SUCCESS) {
            fatal("vulkan: cannot map " + std::string(what) +
                  " into host memory: " + result_name(mapped));
        }
        buffer.mapped_ = static_cast<std::byte*>(host);
    }

    VkBufferDeviceAddressInfo address{};
    address.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO;
    address.buffer = handle;
    buffer.address_ = api.vkGetBufferDeviceAddress(device.handle(), &address);
    return buffer;
}

} // namespace brook::detail::vulkan
