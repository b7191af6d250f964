// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The Vulkan loader (libvulkan.so.1), opened with dlopen: libbrook links nothing of Vulkan, so a
// program runs where there is no Vulkan at all, and BRT_RUNTIME=vulkan then fails with a message
// instead of the program failing to start. An Api holds one function pointer per entry point of
// vulkan_api.def, filled level by level as the instance and the device come to exist.

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES // only the function pointer types: every call goes through an Api
#endif
#include <vulkan/vulkan.h>

#include <string>
#include <string_view>

namespace brook::detail::vulkan {

/// The loader library and the entry points loaded so far. Immovable: the RAII objects of
/// vulkan_objects.hpp keep a pointer to it, so it must outlive them.
class Api {
public:
    /// Opens the loader at `path` and loads the global entry points; throws std::runtime_error
    /// "vulkan: no Vulkan loader (...)" when it cannot be opened.
    explicit Api(const std::string& path = default_path());
    Api(const Api&) = delete;
    Api& operator=(const Api&) = delete;

    /// $BRT_VULKAN_LOADER when set and not empty (the tests name a missing file this way), else
    /// "libvulkan.so.1", the name Debian's libvulkan1 and every other loader install provide.
    static std::string default_path();

    /// Loads the instance-level entry points of `instance`; throws naming the first one missing.
    void load_instance(VkInstance instance);
    /// Loads the device-level entry points of `device`; throws naming the first one missing.
    void load_device(VkDevice device);
    /// An instance-level entry point outside vulkan_api.def (an extension's), or nullptr.
    PFN_vkVoidFunction instance_function(VkInstance instance, const char* name) const;

#define BROOK_VULKAN_GLOBAL(name) PFN_##name name = nullptr;
#define BROOK_VULKAN_INSTANCE(name) PFN_##name name = nullptr;
#define BROOK_VULKAN_DEVICE(name) PFN_##name name = nullptr;
#include "backends/vulkan/vulkan_api.def"
#undef BROOK_VULKAN_GLOBAL
#undef BROOK_VULKAN_INSTANCE
#undef BROOK_VULKAN_DEVICE

private:
    /// The dlopen handle; never closed, since drivers are not made to be unloaded (the ICDs the
    /// loader opened keep threads and atexit handlers of their own).
    void* library_ = nullptr;
    std::string path_;
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
};

/// "VK_ERROR_OUT_OF_DEVICE_MEMORY" for a result, "VkResult N" for one this code does not know.
std::string result_name(VkResult result);

/// Throws std::runtime_error "vulkan: <what>: <result name>" unless `result` is VK_SUCCESS: for
/// the start of the backend, where the registry turns the exception into its message.
void check(VkResult result, std::string_view what);

/// Stops the program (core/errors.hpp's fatal) with "vulkan: <what>: <result name>" unless
/// `result` is VK_SUCCESS: for calls once the backend runs.
void check_or_fatal(VkResult result, std::string_view what);

} // namespace brook::detail::vulkan
