// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "backends/vulkan/pipelines.hpp"

#include "core/errors.hpp"
#include "core/profiler.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <ranges>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace brook::detail::vulkan {

namespace {

constexpr std::uint32_t spirv_magic = 0x07230203;
/// The words of a SPIR-V header: magic, version, generator, bound, schema.
constexpr std::size_t spirv_header_words = 5;
/// OpCapability's opcode, and the capability of 64-bit floats.
constexpr std::uint32_t spirv_op_capability = 17;
constexpr std::uint32_t spirv_float64 = 10;

/// SPIR-V's subgroup capabilities (GroupNonUniform, ...Vote, ...Arithmetic, ...Ballot,
/// ...Shuffle, ...ShuffleRelative, ...Clustered, ...Quad) and the operation each needs.
constexpr std::array<std::pair<std::uint32_t, VkSubgroupFeatureFlags>, 8> subgroup_capabilities{{
    {61, VK_SUBGROUP_FEATURE_BASIC_BIT},
    {62, VK_SUBGROUP_FEATURE_VOTE_BIT},
    {63, VK_SUBGROUP_FEATURE_ARITHMETIC_BIT},
    {64, VK_SUBGROUP_FEATURE_BALLOT_BIT},
    {65, VK_SUBGROUP_FEATURE_SHUFFLE_BIT},
    {66, VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT},
    {67, VK_SUBGROUP_FEATURE_CLUSTERED_BIT},
    {68, VK_SUBGROUP_FEATURE_QUAD_BIT},
}};

/// The capabilities the module declares: OpCapability instructions come first, after the
/// header, so the scan stops at the first other instruction.
std::vector<std::uint32_t> declared_capabilities(const SpirvModule& spirv) {
    std::vector<std::uint32_t> capabilities;
    for (std::size_t at = spirv_header_words; at + 1 < spirv.word_count;) {
        const std::uint32_t instruction = spirv.words[at];
        const std::uint32_t length = instruction >> 16;
        if ((instruction & 0xFFFFu) != spirv_op_capability || length == 0) {
            break;
        }
        capabilities.push_back(spirv.words[at + 1]);
        at += length;
    }
    return capabilities;
}

/// SPIR-V's 8- and 16-bit storage and arithmetic capabilities (Int16, Int8,
/// StorageBuffer16BitAccess, StorageBuffer8BitAccess), which the shaders of kernels with narrow
/// fields use where the device has them, and the feature each needs.
constexpr std::array<std::pair<std::uint32_t, bool OptionalFeatures::*>, 4> narrow_capabilities{{
    {22, &OptionalFeatures::int16},
    {39, &OptionalFeatures::int8},
    {4433, &OptionalFeatures::storage_buffer_16bit},
    {4448, &OptionalFeatures::storage_buffer_8bit},
}};

bool declares_any(const std::vector<std::uint32_t>& declared, auto&& capabilities) {
    return std::ranges::any_of(declared, [&](std::uint32_t capability) {
        return std::ranges::find(capabilities, capability) != std::ranges::end(capabilities);
    });
}

/// Whether the device has the narrow capability `capability`; false for any other one.
bool has_narrow_capability(std::uint32_t capability, const OptionalFeatures& features) {
    const auto narrow = std::ranges::find_if(
        narrow_capabilities, [&](const auto& known) { return known.first == capability; });
    return narrow != narrow_capabilities.end() && features.*(narrow->second);
}

/// Whether a variant of a payload's module 0 runs on `device`: what it declares beyond module
/// 0's capabilities, which every device the backend takes has (or is refused at the call, as
/// doubles are), is subgroup operations and 8- and 16-bit storage and arithmetic the device has.
bool variant_runs(const std::vector<std::uint32_t>& variant,
                  const std::vector<std::uint32_t>& baseline, const Device& device) {
    return std::ranges::all_of(variant, [&](std::uint32_t capability) {
        if (std::ranges::find(baseline, capability) != baseline.end() ||
            has_narrow_capability(capability, device.features())) {
            return true;
        }
        const auto subgroup = std::ranges::find_if(
            subgroup_capabilities, [&](const auto& known) { return known.first == capability; });
        return subgroup != subgroup_capabilities.end() &&
               (device.compute_subgroup_operations() & subgroup->second) != 0;
    });
}

bool is_spirv(const SpirvModule& spirv) {
    return spirv.word_count >= spirv_header_words && spirv.words[0] == spirv_magic;
}

std::string_view entry_name(Entry entry) {
    switch (entry) {
    case Entry::dense:
        return "dense";
    case Entry::general:
        return "general";
    case Entry::count:
        return "count";
    case Entry::write:
        return "write";
    case Entry::reduce_chunks:
        return "reduce_chunks";
    case Entry::reduce_partials:
        return "reduce_partials";
    case Entry::scan_chunk_totals:
        return "scan_chunk_totals";
    case Entry::scan_chunk_slots:
        return "scan_chunk_slots";
    case Entry::scan_counts:
        return "scan_counts";
    }
    return "?";
}

/// $XDG_CACHE_HOME/brook/vulkan (an absolute path, as the XDG specification asks), else
/// $HOME/.cache/brook/vulkan; empty when there is neither.
std::filesystem::path cache_folder() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg != nullptr && xdg[0] == '/') {
        return std::filesystem::path(xdg) / "brook" / "vulkan";
    }
    const char* home = std::getenv("HOME");
    if (home != nullptr && home[0] != '\0') {
        return std::filesystem::path(home) / ".cache" / "brook" / "vulkan";
    }
    return {};
}

std::string hex(const std::uint8_t* bytes, std::size_t count) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string text;
    for (std::size_t i = 0; i < count; ++i) {
        text += digits[bytes[i] >> 4];
        text += digits[bytes[i] & 15];
    }
    return text;
}

/// The cache file's bytes when its header is this device's (driver updates change the UUID);
/// nothing otherwise, since some drivers trust what they are given.
std::vector<char> read_cache(const std::filesystem::path& file,
                             const VkPhysicalDeviceProperties& properties) {
    std::ifstream in(file, std::ios::binary);
    std::vector<char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    VkPipelineCacheHeaderVersionOne header{};
    if (data.size() < sizeof header) {
        return {};
    }
    std::memcpy(&header, data.data(), sizeof header);
    if (header.headerSize < sizeof header || header.headerSize > data.size() ||
        header.headerVersion != VK_PIPELINE_CACHE_HEADER_VERSION_ONE ||
        header.vendorID != properties.vendorID || header.deviceID != properties.deviceID ||
        std::memcmp(header.pipelineCacheUUID, properties.pipelineCacheUUID, VK_UUID_SIZE) != 0) {
        return {};
    }
    return data;
}

} // namespace

Pipelines::Pipelines(const Device& device) : device_(&device) {
    const Api& api = device.api();
    const char* verbose = std::getenv("BRT_VERBOSE");
    verbose_ = verbose != nullptr && std::string_view(verbose) == "1";
    const std::filesystem::path folder = cache_folder();
    if (!folder.empty()) {
        cache_file_ = folder / (hex(device.properties().pipelineCacheUUID, VK_UUID_SIZE) + ".bin");
    }
    const std::vector<char> initial =
        cache_file_.empty() ? std::vector<char>{} : read_cache(cache_file_, device.properties());
    VkPipelineCacheCreateInfo cache{};
    cache.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
    cache.initialDataSize = initial.size();
    cache.pInitialData = initial.empty() ? nullptr : initial.data();
    VkPipelineCache cache_handle = VK_NULL_HANDLE;
    check(api.vkCreatePipelineCache(device.handle(), &cache, nullptr, &cache_handle),
          "cannot create a pipeline cache");
    cache_ = PipelineCache(api, device.handle(), cache_handle);

    VkPushConstantRange frame{};
    frame.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    frame.offset = 0;
    frame.size = sizeof(VkDeviceAddress);
    VkPipelineLayoutCreateInfo layout{};
    layout.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    layout.pushConstantRangeCount = 1;
    layout.pPushConstantRanges = &frame;
    VkPipelineLayout layout_handle = VK_NULL_HANDLE;
    check(api.vkCreatePipelineLayout(device.handle(), &layout, nullptr, &layout_handle),
          "cannot create a pipeline layout");
    layout_ = PipelineLayout(api, device.handle(), layout_handle);
}

Pipelines::~Pipelines() {
    if (cache_grew_) {
        save_cache();
    }
}

const Pipelines::LoadedModule& Pipelines::module(const void* payload, const std::string& label) {
    auto found = modules_.find(payload);
    if (found != modules_.end()) {
        return found->second;
    }
    const SpirvPayload modules{static_cast<const std::uint32_t*>(payload)};
    if (modules.module_count() == 0 || !is_spirv(modules.module(0))) {
        fatal(label + ": its vulkan code is not a SPIR-V module (was the program built by another "
                      "version of brcc?)");
    }
    const std::vector<std::uint32_t> baseline = declared_capabilities(modules.module(0));
    if (std::ranges::find(baseline, spirv_float64) != baseline.end() &&
        !device_->features().float64) {
        fatal_not_supported(label + " uses doubles, which this device of the vulkan backend "
                                    "cannot run (it lacks shaderFloat64): run the program with "
                                    "BRT_RUNTIME=cpu or BRT_RUNTIME=cuda");
    }
    // The last variant the device runs: later modules use more of it.
    std::size_t chosen = 0;
    std::vector<std::uint32_t> chosen_declares = baseline;
    bool has_narrow_variant = false;
    for (std::size_t index = 1; index < modules.module_count(); ++index) {
        const SpirvModule variant = modules.module(index);
        if (!is_spirv(variant)) {
            continue;
        }
        const std::vector<std::uint32_t> declared = declared_capabilities(variant);
        has_narrow_variant =
            has_narrow_variant || declares_any(declared, std::views::keys(narrow_capabilities));
        if (variant_runs(declared, baseline, *device_)) {
            chosen = index;
            chosen_declares = declared;
        }
    }
    const SpirvModule spirv = modules.module(chosen);
    VkShaderModuleCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    info.codeSize = spirv.word_count * sizeof(std::uint32_t);
    info.pCode = spirv.words;
    VkShaderModule handle = VK_NULL_HANDLE;
    check_or_fatal(device_->api().vkCreateShaderModule(device_->handle(), &info, nullptr, &handle),
                   label + ": cannot load its SPIR-V module");
    std::string form;
    if (declares_any(chosen_declares, std::views::keys(subgroup_capabilities))) {
        form += ", subgroup operations";
    }
    if (declares_any(chosen_declares, std::views::keys(narrow_capabilities))) {
        form += ", 8/16-bit storage";
    } else if (has_narrow_variant) {
        form += ", narrow fields in 32-bit words";
    }
    LoadedModule loaded{ShaderModule(device_->api(), device_->handle(), handle), std::move(form)};
    return modules_.emplace(payload, std::move(loaded)).first->second;
}

VkPipeline Pipelines::get(const void* payload, Entry entry, std::uint32_t workgroup_size,
                          bool checks, const std::string& label, std::string_view name) {
    const auto key = std::make_tuple(payload, entry, workgroup_size, checks);
    auto found = pipelines_.find(key);
    if (found != pipelines_.end()) {
        return found->second.get();
    }
    const auto start = std::chrono::steady_clock::now();
    const ProfileTimer timer;
    // The specialization constants of device/frame.glsl, in the order of their ids.
    struct Constants {
        std::uint32_t workgroup_size;
        std::int32_t entry;
        VkBool32 checks;
    } constants{workgroup_size, static_cast<std::int32_t>(entry), checks ? VK_TRUE : VK_FALSE};
    const std::array<VkSpecializationMapEntry, 3> map{{
        {workgroup_size_constant, offsetof(Constants, workgroup_size), sizeof(std::uint32_t)},
        {entry_constant, offsetof(Constants, entry), sizeof(std::int32_t)},
        {checks_constant, offsetof(Constants, checks), sizeof(VkBool32)},
    }};
    VkSpecializationInfo specialization{};
    specialization.mapEntryCount = static_cast<std::uint32_t>(map.size());
    specialization.pMapEntries = map.data();
    specialization.dataSize = sizeof constants;
    specialization.pData = &constants;

    VkComputePipelineCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    const LoadedModule& loaded = module(payload, label);
    info.stage.module = loaded.module.get();
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = &specialization;
    info.layout = layout_.get();
    VkPipeline handle = VK_NULL_HANDLE;
    const VkResult result = device_->api().vkCreateComputePipelines(device_->handle(), cache_.get(),
                                                                    1, &info, nullptr, &handle);
    check_or_fatal(result, label + ": cannot create the pipeline of its " +
                               std::string(entry_name(entry)) + " entry");
    cache_grew_ = true;
    if (profiling()) [[unlikely]] {
        timer.record(Activity::Compile, name, 0, 0);
    }
    if (verbose_) {
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        std::fprintf(stderr,
                     "brook: vulkan: %s, entry %s, workgroups of %u%s: pipeline created "
                     "(%.1f ms)\n",
                     label.c_str(), std::string(entry_name(entry)).c_str(), workgroup_size,
                     loaded.form.c_str(), ms);
    }
    return pipelines_.emplace(key, Pipeline(device_->api(), device_->handle(), handle))
        .first->second.get();
}

void Pipelines::save_cache() const {
    if (cache_file_.empty()) {
        return;
    }
    const Api& api = device_->api();
    std::size_t size = 0;
    if (api.vkGetPipelineCacheData(device_->handle(), cache_.get(), &size, nullptr) != VK_SUCCESS ||
        size == 0) {
        return;
    }
    std::vector<char> data(size);
    if (api.vkGetPipelineCacheData(device_->handle(), cache_.get(), &size, data.data()) !=
        VK_SUCCESS) {
        return;
    }
    // Whatever fails here only loses the cache for the next run.
    std::error_code error;
    std::filesystem::create_directories(cache_file_.parent_path(), error);
    if (error) {
        return;
    }
    std::filesystem::path temporary = cache_file_;
    temporary += "." + std::to_string(::getpid()) + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out.write(data.data(), static_cast<std::streamsize>(size));
        if (!out.flush()) {
            out.close();
            std::filesystem::remove(temporary, error);
            return;
        }
    }
    std::filesystem::rename(temporary, cache_file_, error);
    if (error) {
        std::filesystem::remove(temporary, error);
    }
}

} // namespace brook::detail::vulkan
