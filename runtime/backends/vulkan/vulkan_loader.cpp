// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "backends/vulkan/vulkan_loader.hpp"

#include "core/errors.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <stdexcept>

namespace brook::detail::vulkan {

namespace {

template <typename Function> Function as(PFN_vkVoidFunction function) {
    // Vulkan hands out every entry point as PFN_vkVoidFunction, to be cast to its own type.
    return reinterpret_cast<Function>(function);
}

[[noreturn]] void missing(const std::string& path, const char* name) {
    throw std::runtime_error("vulkan: the Vulkan loader " + path + " lacks " + name +
                             " (Vulkan 1.2 needs a loader from 2020 or later)");
}

} // namespace

Api::Api(const std::string& path) : path_(path) {
    // RTLD_LOCAL keeps the loader's symbols out of the global namespace, where they could
    // satisfy another library's references to a different libvulkan.
    library_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library_ == nullptr) {
        const char* text = dlerror();
        throw std::runtime_error(
            "vulkan: no Vulkan loader (" + std::string(text != nullptr ? text : path) +
            "): install libvulkan1 and your GPU's Vulkan driver (mesa-vulkan-drivers for "
            "lavapipe, Mesa's Vulkan on the CPU)");
    }
    // dlsym returns void*; POSIX guarantees that it converts to a function pointer.
    vkGetInstanceProcAddr =
        reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library_, "vkGetInstanceProcAddr"));
    if (vkGetInstanceProcAddr == nullptr) {
        missing(path_, "vkGetInstanceProcAddr");
    }
#define BROOK_VULKAN_GLOBAL(name)                                                                  \
    name = as<PFN_##name>(vkGetInstanceProcAddr(nullptr, #name));                                  \
    if (name == nullptr) {                                                                         \
        missing(path_, #name);                                                                     \
    }
#define BROOK_VULKAN_INSTANCE(name)
#define BROOK_VULKAN_DEVICE(name)
#include "backends/vulkan/vulkan_api.def"
#undef BROOK_VULKAN_GLOBAL
#undef BROOK_VULKAN_INSTANCE
#undef BROOK_VULKAN_DEVICE
}

std::string Api::default_path() {
    const char* path = std::getenv("BRT_VULKAN_LOADER");
    return path != nullptr && *path != '\0' ? path : "libvulkan.so.1";
}

void Api::load_instance(VkInstance instance) {
#define BROOK_VULKAN_GLOBAL(name)
#define BROOK_VULKAN_INSTANCE(name)                                                                \
    name = as<PFN_##name>(vkGetInstanceProcAddr(instance, #name));                                 \
    if (name == nullptr) {                                                                         \
        missing(path_, #name);                                                                     \
    }
#define BROOK_VULKAN_DEVICE(name)
#include "backends/vulkan/vulkan_api.def"
#undef BROOK_VULKAN_GLOBAL
#undef BROOK_VULKAN_INSTANCE
#undef BROOK_VULKAN_DEVICE
}

void Api::load_device(VkDevice device) {
#define BROOK_VULKAN_GLOBAL(name)
#define BROOK_VULKAN_INSTANCE(name)
#define BROOK_VULKAN_DEVICE(name)                                                                  \
    name = as<PFN_##name>(vkGetDeviceProcAddr(device, #name));                                     \
    if (name == nullptr) {                                                                         \
        throw std::runtime_error("vulkan: the device's driver lacks " #name);                      \
    }
#include "backends/vulkan/vulkan_api.def"
#undef BROOK_VULKAN_GLOBAL
#undef BROOK_VULKAN_INSTANCE
#undef BROOK_VULKAN_DEVICE
}

PFN_vkVoidFunction Api::instance_function(VkInstance instance, const char* name) const {
    return vkGetInstanceProcAddr(instance, name);
}

std::string result_name(VkResult result) {
    switch (result) {
#define BROOK_RESULT(name)                                                                         \
    case name:                                                                                     \
        return #name;
        BROOK_RESULT(VK_SUCCESS)
        BROOK_RESULT(VK_NOT_READY)
        BROOK_RESULT(VK_TIMEOUT)
        BROOK_RESULT(VK_INCOMPLETE)
        BROOK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
        BROOK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        BROOK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
        BROOK_RESULT(VK_ERROR_DEVICE_LOST)
        BROOK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
        BROOK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
        BROOK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
        BROOK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
        BROOK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
        BROOK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
        BROOK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
        BROOK_RESULT(VK_ERROR_FRAGMENTED_POOL)
        BROOK_RESULT(VK_ERROR_UNKNOWN)
        BROOK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
        BROOK_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
        BROOK_RESULT(VK_ERROR_FRAGMENTATION)
        BROOK_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
        BROOK_RESULT(VK_ERROR_INVALID_SHADER_NV)
#undef BROOK_RESULT
    default:
        return "VkResult " + std::to_string(static_cast<int>(result));
    }
}

void check(VkResult result, std::string_view what) {
    if (result != VK_SUCCESS) {
        throw std::runtime_error("vulkan: " + std::string(what) + ": " + result_name(result));
    }
}

void check_or_fatal(VkResult result, std::string_view what) {
    if (result != VK_SUCCESS) {
        fatal("vulkan: " + std::string(what) + ": " + result_name(result));
    }
}

} // namespace brook::detail::vulkan
