// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "backends/vulkan/vulkan_device.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace brook::detail::vulkan {

namespace {

constexpr const char* validation_layer = "VK_LAYER_KHRONOS_validation";

/// Ends the process on any message the validation layer or the loader sends: a test run under
/// BRT_VULKAN_VALIDATION=1 must fail on the first one, wherever the backend is, and the
/// callback may not unwind through the driver.
VKAPI_ATTR VkBool32 VKAPI_CALL
on_validation_message(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                      const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
    std::fprintf(stderr, "vulkan: validation: %s\n",
                 data != nullptr && data->pMessage != nullptr ? data->pMessage : "(no text)");
    std::fflush(stderr);
    std::_Exit(1);
}

VkDebugUtilsMessengerCreateInfoEXT messenger_info() {
    VkDebugUtilsMessengerCreateInfoEXT info{};
    info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    info.pfnUserCallback = on_validation_message;
    return info;
}

template <typename Item, typename Enumerate> std::vector<Item> enumerate(Enumerate&& call) {
    std::uint32_t count = 0;
    call(&count, static_cast<Item*>(nullptr));
    std::vector<Item> items(count);
    call(&count, items.data());
    items.resize(count);
    return items;
}

bool has_extension(const std::vector<VkExtensionProperties>& extensions, const char* name) {
    return std::any_of(extensions.begin(), extensions.end(), [&](const VkExtensionProperties& e) {
        return std::strcmp(e.extensionName, name) == 0;
    });
}

std::string version_text(std::uint32_t version) {
    return std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
           std::to_string(VK_API_VERSION_MINOR(version));
}

std::string type_words(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return "cpu";
    default:
        return "other device";
    }
}

/// The order of preference: discrete, integrated, virtual, other, CPU.
int type_rank(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return 4;
    default:
        return 3;
    }
}

std::string lower(std::string_view text) {
    std::string result(text);
    for (char& c : result) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return result;
}

/// A physical device and what the backend found out about it.
struct Candidate {
    VkPhysicalDevice handle = VK_NULL_HANDLE;
    VkPhysicalDeviceProperties properties{};
    std::string driver_info;
    std::uint32_t subgroup_size = 1;
    VkSubgroupFeatureFlags compute_subgroup_operations = 0;
    VkDeviceSize max_allocation = 0;
    std::optional<std::uint32_t> queue_family;
    OptionalFeatures features;
    bool portability_subset = false;
    /// The required features it lacks, as messages name them; empty when usable.
    std::vector<std::string> missing;

    std::string name() const { return properties.deviceName; }
    std::string label() const { return name() + " (" + type_words(properties.deviceType) + ")"; }
};

Candidate inspect(const Api& api, VkPhysicalDevice handle) {
    Candidate candidate;
    candidate.handle = handle;
    VkPhysicalDeviceProperties2 basic{};
    basic.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    api.vkGetPhysicalDeviceProperties2(handle, &basic);
    candidate.properties = basic.properties;
    if (basic.properties.apiVersion < VK_API_VERSION_1_2) {
        // The 1.2 structures below may not be chained on an older device.
        candidate.missing.push_back("Vulkan 1.2 (it has " +
                                    version_text(basic.properties.apiVersion) + ")");
        return candidate;
    }

    VkPhysicalDeviceSubgroupProperties subgroup{};
    subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
    VkPhysicalDeviceMaintenance3Properties maintenance3{};
    maintenance3.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES;
    maintenance3.pNext = &subgroup;
    VkPhysicalDeviceDriverProperties driver{};
    driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    driver.pNext = &maintenance3;
    VkPhysicalDeviceProperties2 properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties.pNext = &driver;
    api.vkGetPhysicalDeviceProperties2(handle, &properties);
    candidate.subgroup_size = std::max<std::uint32_t>(1, subgroup.subgroupSize);
    if ((subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0) {
        candidate.compute_subgroup_operations = subgroup.supportedOperations;
    }
    candidate.max_allocation = maintenance3.maxMemoryAllocationSize;
    candidate.driver_info = driver.driverInfo;

    VkPhysicalDeviceVulkan12Features features12{};
    features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    VkPhysicalDeviceVulkan11Features features11{};
    features11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    features11.pNext = &features12;
    VkPhysicalDeviceFeatures2 features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features.pNext = &features11;
    api.vkGetPhysicalDeviceFeatures2(handle, &features);
    if (!features12.bufferDeviceAddress) {
        candidate.missing.emplace_back("bufferDeviceAddress");
    }
    if (!features12.scalarBlockLayout) {
        candidate.missing.emplace_back("scalarBlockLayout");
    }
    if (!features.features.shaderInt64) {
        candidate.missing.emplace_back("shaderInt64");
    }
    candidate.features.storage_buffer_8bit = features12.storageBuffer8BitAccess == VK_TRUE;
    candidate.features.int8 = features12.shaderInt8 == VK_TRUE;
    candidate.features.storage_buffer_16bit = features11.storageBuffer16BitAccess == VK_TRUE;
    candidate.features.int16 = features.features.shaderInt16 == VK_TRUE;
    candidate.features.float64 = features.features.shaderFloat64 == VK_TRUE;

    const auto families = enumerate<VkQueueFamilyProperties>([&](std::uint32_t* n, auto* items) {
        api.vkGetPhysicalDeviceQueueFamilyProperties(handle, n, items);
    });
    // A family of compute without graphics is the GPU's own compute queue, which does not share
    // its time with a display; any family with compute will do.
    for (std::uint32_t f = 0; f < families.size(); ++f) {
        const VkQueueFlags flags = families[f].queueFlags;
        if ((flags & VK_QUEUE_COMPUTE_BIT) == 0 || families[f].queueCount == 0) {
            continue;
        }
        if (!candidate.queue_family || (flags & VK_QUEUE_GRAPHICS_BIT) == 0) {
            candidate.queue_family = f;
        }
    }
    if (!candidate.queue_family) {
        candidate.missing.emplace_back("a compute queue");
    }
    const auto extensions = enumerate<VkExtensionProperties>([&](std::uint32_t* n, auto* items) {
        api.vkEnumerateDeviceExtensionProperties(handle, nullptr, n, items);
    });
    // Portability implementations (MoltenVK) must have the extension enabled when they list it.
    candidate.portability_subset = has_extension(extensions, "VK_KHR_portability_subset");
    return candidate;
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
    std::string text;
    for (const std::string& item : items) {
        text += (text.empty() ? "" : separator) + item;
    }
    return text;
}

/// The device to run on, by the rules at the top of vulkan_device.hpp; throws saying why none.
Candidate choose(const Api& api, VkInstance instance) {
    const auto handles =
        enumerate<VkPhysicalDevice>([&](std::uint32_t* n, VkPhysicalDevice* items) {
            api.vkEnumeratePhysicalDevices(instance, n, items);
        });
    if (handles.empty()) {
        throw std::runtime_error("vulkan: no Vulkan device (the Vulkan loader found no driver "
                                 "for a GPU here: install your GPU's Vulkan driver)");
    }
    std::vector<Candidate> candidates;
    for (VkPhysicalDevice handle : handles) {
        candidates.push_back(inspect(api, handle));
    }
    const char* wanted = std::getenv("BRT_VULKAN_DEVICE");
    const std::string wanted_name = wanted != nullptr ? lower(wanted) : "";
    std::vector<std::string> labels;
    std::vector<std::string> unusable;
    const Candidate* best = nullptr;
    bool named_any = false;
    for (const Candidate& candidate : candidates) {
        labels.push_back(candidate.label());
        if (!wanted_name.empty() &&
            lower(candidate.name()).find(wanted_name) == std::string::npos) {
            continue;
        }
        named_any = true;
        if (!candidate.missing.empty()) {
            unusable.push_back(candidate.label() + " lacks " + joined(candidate.missing, ", "));
            continue;
        }
        if (best == nullptr ||
            type_rank(candidate.properties.deviceType) < type_rank(best->properties.deviceType)) {
            best = &candidate;
        }
    }
    if (best != nullptr) {
        return *best;
    }
    if (!wanted_name.empty() && !named_any) {
        throw std::runtime_error("vulkan: BRT_VULKAN_DEVICE=" + std::string(wanted) +
                                 " names no Vulkan device (a part of a device's name, in any "
                                 "case); the devices here: " +
                                 joined(labels, ", "));
    }
    // Every device named, or every device, lacks what Brook needs.
    throw std::runtime_error(
        "vulkan: no Vulkan device that Brook can use: " + joined(unusable, "; ") +
        " (Brook needs Vulkan 1.2 with bufferDeviceAddress, scalarBlockLayout and "
        "shaderInt64)");
}

VkInstance create_instance(const Api& api, bool validation) {
    std::uint32_t version = 0;
    check(api.vkEnumerateInstanceVersion(&version), "cannot ask the loader for its version");
    if (version < VK_API_VERSION_1_2) {
        throw std::runtime_error("vulkan: the Vulkan loader is version " + version_text(version) +
                                 "; Brook needs Vulkan 1.2 (a newer libvulkan1)");
    }
    std::vector<const char*> layers;
    std::vector<const char*> extensions;
    const auto available = enumerate<VkExtensionProperties>([&](std::uint32_t* n, auto* items) {
        api.vkEnumerateInstanceExtensionProperties(nullptr, n, items);
    });
    VkInstanceCreateFlags flags = 0;
    if (has_extension(available, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
        // Lists portability implementations (MoltenVK) too, which the loader hides otherwise.
        extensions.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
        flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
    }
    const VkDebugUtilsMessengerCreateInfoEXT messages = messenger_info();
    if (validation) {
        const auto installed =
            enumerate<VkLayerProperties>([&](std::uint32_t* n, VkLayerProperties* items) {
                api.vkEnumerateInstanceLayerProperties(n, items);
            });
        if (std::none_of(installed.begin(), installed.end(), [](const VkLayerProperties& layer) {
                return std::strcmp(layer.layerName, validation_layer) == 0;
            })) {
            throw std::runtime_error(
                "vulkan: BRT_VULKAN_VALIDATION=1 asks for the Khronos validation layer (" +
                std::string(validation_layer) +
                "), which is not installed (Debian: vulkan-validationlayers)");
        }
        layers.push_back(validation_layer);
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    }

    VkApplicationInfo application{};
    application.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    application.pApplicationName = "Brook program";
    application.pEngineName = "Brook";
    application.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    // Chained, the messenger also reports what happens while the instance is created and
    // destroyed.
    info.pNext = validation ? &messages : nullptr;
    info.flags = flags;
    info.pApplicationInfo = &application;
    info.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    VkInstance instance = VK_NULL_HANDLE;
    const VkResult result = api.vkCreateInstance(&info, nullptr, &instance);
    if (result == VK_ERROR_INCOMPATIBLE_DRIVER) {
        throw std::runtime_error("vulkan: no Vulkan device (no Vulkan driver is installed: "
                                 "install your GPU's Vulkan driver)");
    }
    check(result, "cannot create a Vulkan instance");
    return instance;
}

VkDevice create_device(const Api& api, const Candidate& chosen) {
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{};
    queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queue.queueFamilyIndex = *chosen.queue_family;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;

    const OptionalFeatures& optional = chosen.features;
    VkPhysicalDeviceVulkan12Features features12{};
    features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    features12.bufferDeviceAddress = VK_TRUE;
    features12.scalarBlockLayout = VK_TRUE;
    features12.storageBuffer8BitAccess = optional.storage_buffer_8bit ? VK_TRUE : VK_FALSE;
    features12.shaderInt8 = optional.int8 ? VK_TRUE : VK_FALSE;
    VkPhysicalDeviceVulkan11Features features11{};
    features11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    features11.pNext = &features12;
    features11.storageBuffer16BitAccess = optional.storage_buffer_16bit ? VK_TRUE : VK_FALSE;
    VkPhysicalDeviceFeatures2 features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features.pNext = &features11;
    features.features.shaderInt64 = VK_TRUE;
    features.features.shaderInt16 = optional.int16 ? VK_TRUE : VK_FALSE;
    features.features.shaderFloat64 = optional.float64 ? VK_TRUE : VK_FALSE;

    std::vector<const char*> extensions;
    if (chosen.portability_subset) {
        extensions.push_back("VK_KHR_portability_subset");
    }
    VkDeviceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    info.pNext = &features;
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    VkDevice device = VK_NULL_HANDLE;
    check(api.vkCreateDevice(chosen.handle, &info, nullptr, &device),
          "cannot create a device on " + chosen.name());
    return device;
}

/// A switch the tests set to take another device's path: on unless the variable is "0".
bool unless_switched_off(const char* name) {
    const char* value = std::getenv(name);
    return value == nullptr || std::string_view(value) != "0";
}

} // namespace

/// The debug messenger of BRT_VULKAN_VALIDATION=1, destroyed before the instance.
struct Device::Messenger {
    Messenger(const Api& api, VkInstance instance) : instance_(instance) {
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            api.instance_function(instance, "vkCreateDebugUtilsMessengerEXT"));
        destroy_ = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            api.instance_function(instance, "vkDestroyDebugUtilsMessengerEXT"));
        if (create == nullptr || destroy_ == nullptr) {
            throw std::runtime_error("vulkan: the validation layer offers no VK_EXT_debug_utils");
        }
        const VkDebugUtilsMessengerCreateInfoEXT info = messenger_info();
        check(create(instance, &info, nullptr, &messenger_),
              "cannot listen to the validation layer");
    }
    ~Messenger() { destroy_(instance_, messenger_, nullptr); }
    Messenger(const Messenger&) = delete;
    Messenger& operator=(const Messenger&) = delete;

    VkInstance instance_;
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_ = nullptr;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
};

Device::Device() : api_(std::make_unique<Api>()) {
    const bool validation = environment_switch("BRT_VULKAN_VALIDATION");
    maps_streams_ = unless_switched_off("BRT_VULKAN_MAP_STREAMS");
    const bool uses_subgroups = unless_switched_off("BRT_VULKAN_SUBGROUPS");
    const bool uses_narrow_storage = unless_switched_off("BRT_VULKAN_NARROW_STORAGE");
    instance_ = std::make_unique<Instance>(*api_, create_instance(*api_, validation));
    api_->load_instance(instance_->get());
    if (validation) {
        messenger_ = std::make_unique<Messenger>(*api_, instance_->get());
    }
    Candidate chosen = choose(*api_, instance_->get());
    if (!uses_narrow_storage) {
        chosen.features.storage_buffer_8bit = chosen.features.int8 = false;
        chosen.features.storage_buffer_16bit = chosen.features.int16 = false;
    }
    device_ = std::make_unique<LogicalDevice>(*api_, create_device(*api_, chosen));
    api_->load_device(device_->get());
    queue_family_ = *chosen.queue_family;
    api_->vkGetDeviceQueue(device_->get(), queue_family_, 0, &queue_);
    properties_ = chosen.properties;
    api_->vkGetPhysicalDeviceMemoryProperties(chosen.handle, &memory_);
    features_ = chosen.features;
    subgroup_size_ = chosen.subgroup_size;
    compute_subgroup_operations_ = uses_subgroups ? chosen.compute_subgroup_operations : 0;
    max_allocation_ = chosen.max_allocation;
    description_ = chosen.name() + ", Vulkan " + version_text(properties_.apiVersion) + ", " +
                   type_words(properties_.deviceType);
    if (!chosen.driver_info.empty()) {
        description_ += ", " + chosen.driver_info;
    }
}

Device::~Device() {
    // The members go in reverse order: the device, the messenger, the instance, the loader.
    if (device_) {
        api_->vkDeviceWaitIdle(device_->get());
    }
}

std::optional<std::uint32_t> Device::memory_type(std::uint32_t type_bits,
                                                 VkMemoryPropertyFlags required,
                                                 VkMemoryPropertyFlags preferred) const {
    std::optional<std::uint32_t> found;
    for (std::uint32_t type = 0; type < memory_.memoryTypeCount; ++type) {
        const VkMemoryPropertyFlags flags = memory_.memoryTypes[type].propertyFlags;
        if ((type_bits & (1u << type)) == 0 || (flags & required) != required) {
            continue;
        }
        if ((flags & preferred) == preferred) {
            return type;
        }
        if (!found) {
            found = type;
        }
    }
    return found;
}

} // namespace brook::detail::vulkan
