// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The compute pipelines of brcc's SPIR-V modules and the backend's own. A pipeline is a module (of
// a kernel's payload, shader_frame.hpp), one of its entries and a workgroup size, given to the
// module as specialization constants; it is created on first use and kept for the process.
// Shader modules are made once per payload, of the last module in it that the device runs (a
// reduction's variant with subgroup operations where the device has them). Every pipeline
// shares one layout: no descriptor sets, one push constant of 8 bytes, the address of the
// call's Frame (or of the backend's own shader's block).
//
// Creation goes through a VkPipelineCache kept on disk across processes, one file per device
// (named after its pipelineCacheUUID) in $XDG_CACHE_HOME/brook/vulkan, else
// $HOME/.cache/brook/vulkan. It is read at the start and written at the end when pipelines were
// created, to a temporary file renamed over the old one, so that processes that end together
// leave one whole file; a folder that cannot be written only costs the cache.

#include "backends/vulkan/shader_frame.hpp"
#include "backends/vulkan/vulkan_device.hpp"
#include "backends/vulkan/vulkan_objects.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <tuple>

namespace brook::detail::vulkan {

class Pipelines {
public:
    explicit Pipelines(const Device& device);
    /// Writes the pipeline cache to disk when it has grown.
    ~Pipelines();
    Pipelines(const Pipelines&) = delete;
    Pipelines& operator=(const Pipelines&) = delete;

    VkPipelineLayout layout() const { return layout_.get(); }

    /// The pipeline of `entry` of the module `payload` (a KernelInfo's "vulkan" code) in
    /// workgroups of `workgroup_size`, with BRT_CHECK's division checks when `checks`. `label`
    /// names the kernel in messages ("kernel 'saxpy'"), `name` in profiles.
    VkPipeline get(const void* payload, Entry entry, std::uint32_t workgroup_size, bool checks,
                   const std::string& label, std::string_view name);

    /// The cache file of this device, empty when neither XDG_CACHE_HOME nor HOME is set.
    const std::filesystem::path& cache_file() const { return cache_file_; }

private:
    /// The module of a payload (shader_frame.hpp, SpirvPayload) that runs on this device, and
    /// what BRT_VERBOSE=1 says of its form (", subgroup operations, 8/16-bit storage").
    struct LoadedModule {
        ShaderModule module;
        std::string form;
    };

    const LoadedModule& module(const void* payload, const std::string& label);
    void save_cache() const;

    const Device* device_;
    std::filesystem::path cache_file_;
    bool verbose_ = false;
    /// Set once a pipeline was created: the cache has something to save.
    bool cache_grew_ = false;
    PipelineCache cache_;
    PipelineLayout layout_;
    std::map<const void*, LoadedModule> modules_;
    std::map<std::tuple<const void*, Entry, std::uint32_t, bool>, Pipeline> pipelines_;
};

} // namespace brook::detail::vulkan
