// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// RAII owners of Vulkan objects. A device object is destroyed through the Api and the VkDevice
// that made it, which must outlive it; the owners of the Device (vulkan_device.hpp) order their
// members so. Destructors cannot fail: Vulkan's vkDestroy* return nothing.

#include "backends/vulkan/vulkan_loader.hpp"

#include <utility>

namespace brook::detail::vulkan {

/// A `Handle` made on `device`, destroyed by the Api entry `Destroy` (vkDestroyBuffer, ...,
/// vkFreeMemory: every one takes the device, the handle and no allocator).
template <typename Handle, auto Destroy> class DeviceObject {
public:
    DeviceObject() = default;
    DeviceObject(const Api& api, VkDevice device, Handle handle)
        : api_(&api), device_(device), handle_(handle) {}
    ~DeviceObject() { reset(); }
    DeviceObject(DeviceObject&& other) noexcept
        : api_(other.api_), device_(other.device_),
          handle_(std::exchange(other.handle_, Handle{})) {}
    DeviceObject& operator=(DeviceObject&& other) noexcept {
        if (this != &other) {
            reset();
            api_ = other.api_;
            device_ = other.device_;
            handle_ = std::exchange(other.handle_, Handle{});
        }
        return *this;
    }
    DeviceObject(const DeviceObject&) = delete;
    DeviceObject& operator=(const DeviceObject&) = delete;

    Handle get() const { return handle_; }
    explicit operator bool() const { return handle_ != Handle{}; }
    void reset() {
        if (handle_ != Handle{}) {
            (api_->*Destroy)(device_, handle_, nullptr);
        }
        handle_ = Handle{};
    }

private:
    const Api* api_ = nullptr;
    VkDevice device_ = VK_NULL_HANDLE;
    Handle handle_{};
};

using BufferHandle = DeviceObject<VkBuffer, &Api::vkDestroyBuffer>;
using MemoryHandle = DeviceObject<VkDeviceMemory, &Api::vkFreeMemory>;
using CommandPool = DeviceObject<VkCommandPool, &Api::vkDestroyCommandPool>;
using Fence = DeviceObject<VkFence, &Api::vkDestroyFence>;
using ShaderModule = DeviceObject<VkShaderModule, &Api::vkDestroyShaderModule>;
using PipelineLayout = DeviceObject<VkPipelineLayout, &Api::vkDestroyPipelineLayout>;
using PipelineCache = DeviceObject<VkPipelineCache, &Api::vkDestroyPipelineCache>;
using Pipeline = DeviceObject<VkPipeline, &Api::vkDestroyPipeline>;

/// The instance, destroyed last of all Vulkan objects.
class Instance {
public:
    Instance(const Api& api, VkInstance instance) : api_(&api), instance_(instance) {}
    ~Instance() {
        if (instance_ != VK_NULL_HANDLE) {
            api_->vkDestroyInstance(instance_, nullptr);
        }
    }
    Instance(const Instance&) = delete;
    Instance& operator=(const Instance&) = delete;

    VkInstance get() const { return instance_; }

private:
    const Api* api_;
    VkInstance instance_;
};

/// The logical device; every DeviceObject made on it must be gone first.
class LogicalDevice {
public:
    LogicalDevice(const Api& api, VkDevice device) : api_(&api), device_(device) {}
    ~LogicalDevice() {
        if (device_ != VK_NULL_HANDLE) {
            api_->vkDestroyDevice(device_, nullptr);
        }
    }
    LogicalDevice(const LogicalDevice&) = delete;
    LogicalDevice& operator=(const LogicalDevice&) = delete;

    VkDevice get() const { return device_; }

private:
    const Api* api_;
    VkDevice device_;
};

} // namespace brook::detail::vulkan
