// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The Vulkan instance, the physical device the backend runs on and its logical device with one
// compute queue.
//
// Choice: a discrete GPU, then an integrated one, then a virtual one, and a CPU implementation
// (Mesa's lavapipe) only where there is none of those or BRT_VULKAN_DEVICE names it; `auto`
// passes over it (software_renderer), since the cpu backend runs Brook programs faster.
// BRT_VULKAN_DEVICE (a case-insensitive part of the device's name) also picks one GPU among
// several. A device must have Vulkan 1.2, bufferDeviceAddress, scalarBlockLayout and shaderInt64
// (the ABI of device/frame.glsl); 8- and 16-bit storage and arithmetic and 64-bit floats are
// enabled where the device has them (kernels with 8- and 16-bit fields then run their shaders
// that use them, otherwise those that reach the fields in 32-bit words), and compute shaders use
// the subgroup operations it has (reductions fold within subgroups first).
//
// BRT_VULKAN_VALIDATION=1 turns on the Khronos validation layer: any warning or error it (or the
// loader) reports is printed as "vulkan: validation: ..." and ends the process with status 1 at
// once, so a test run with it fails on any message.

#include "backends/vulkan/vulkan_loader.hpp"
#include "backends/vulkan/vulkan_objects.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace brook::detail::vulkan {

/// What the device has beyond the required features, all enabled when present.
struct OptionalFeatures {
    bool storage_buffer_8bit = false;  ///< storageBuffer8BitAccess
    bool int8 = false;                 ///< shaderInt8
    bool storage_buffer_16bit = false; ///< storageBuffer16BitAccess
    bool int16 = false;                ///< shaderInt16
    bool float64 = false;              ///< shaderFloat64
};

class Device {
public:
    /// Opens the loader, creates the instance (with validation when asked for), chooses the
    /// physical device and creates the logical device; throws std::runtime_error saying why
    /// there is no usable device.
    Device();
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    const Api& api() const { return *api_; }
    VkDevice handle() const { return device_->get(); }
    VkQueue queue() const { return queue_; }
    std::uint32_t queue_family() const { return queue_family_; }
    const VkPhysicalDeviceProperties& properties() const { return properties_; }
    const VkPhysicalDeviceLimits& limits() const { return properties_.limits; }
    /// The optional features enabled; under BRT_VULKAN_NARROW_STORAGE=0, which the tests set to
    /// take the path of a device without them, no 8- or 16-bit storage or arithmetic.
    const OptionalFeatures& features() const { return features_; }
    std::uint32_t subgroup_size() const { return subgroup_size_; }
    /// The subgroup operations compute shaders may use (VkPhysicalDeviceSubgroupProperties'
    /// supportedOperations where its supportedStages have compute, else none); none under
    /// BRT_VULKAN_SUBGROUPS=0, which the tests set to take the path of a device without them.
    VkSubgroupFeatureFlags compute_subgroup_operations() const {
        return compute_subgroup_operations_;
    }
    /// The largest single allocation the driver allows (maxMemoryAllocationSize).
    VkDeviceSize max_allocation() const { return max_allocation_; }
    /// Whether streams in memory the host reads fast stay mapped for direct reads: unless
    /// BRT_VULKAN_MAP_STREAMS=0, which the tests set to take the staged path a discrete GPU
    /// takes on lavapipe too.
    bool maps_streams() const { return maps_streams_; }
    /// A CPU implementation (lavapipe): `auto` passes over it.
    bool is_cpu() const { return properties_.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU; }
    /// "llvmpipe (LLVM 15.0.6, 256 bits), Vulkan 1.3, cpu, Mesa 22.3.6 (LLVM 15.0.6)".
    const std::string& description() const { return description_; }

    /// The first memory type allowed by `type_bits` that has every flag of `required`,
    /// preferring one that also has `preferred`; nothing when none has `required`. Vulkan
    /// orders the types so that the first match is the fastest of its kind.
    std::optional<std::uint32_t> memory_type(std::uint32_t type_bits,
                                             VkMemoryPropertyFlags required,
                                             VkMemoryPropertyFlags preferred) const;
    VkMemoryPropertyFlags memory_flags(std::uint32_t type) const {
        return memory_.memoryTypes[type].propertyFlags;
    }

private:
    struct Messenger;

    std::unique_ptr<Api> api_;
    std::unique_ptr<Instance> instance_;
    std::unique_ptr<Messenger> messenger_;
    std::unique_ptr<LogicalDevice> device_;
    VkQueue queue_ = VK_NULL_HANDLE;
    std::uint32_t queue_family_ = 0;
    VkPhysicalDeviceProperties properties_{};
    VkPhysicalDeviceMemoryProperties memory_{};
    OptionalFeatures features_;
    std::uint32_t subgroup_size_ = 1;
    VkSubgroupFeatureFlags compute_subgroup_operations_ = 0;
    VkDeviceSize max_allocation_ = 0;
    bool maps_streams_ = true;
    std::string description_;
};

} // namespace brook::detail::vulkan
