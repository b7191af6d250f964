// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The passes of a kernel call's variable outputs, the core's two passes (core/launch.cpp) on the
// GPU: the count pass renders each element's number of pushes, which the core sums up; the write
// pass of each vout draws over its values, each of which finds its element by a binary search
// over the uploaded prefix sums and runs it, keeping one push (fragment shaders cannot scatter).
#include "backends/gl/kernel_passes.hpp"

#include "brook/detail/glsl_interface.hpp"
#include "core/errors.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace brook::detail::gl {

namespace {

/// Per-element push counts and first slots: one int per element, in the elements' layout.
Format counter_format() {
    return field_format({ScalarKind::Int32, 1, 0});
}

} // namespace

void KernelPasses::count_pushes(const Launch& launch, const Shape4& domain) {
    const KernelInfo& kernel = *launch.kernel;
    const Layout layout = layout_for(domain.count(), device_.context->max_texture_size());
    const Format counter = counter_format();
    std::vector<std::size_t> params;
    std::vector<Texture> counts;
    Targets targets;
    for (std::size_t p = 0; p < kernel.params.size(); ++p) {
        if (kernel.params[p].kind == ParamKind::VariableOutput) {
            params.push_back(p);
            counts.push_back(device_.pool.acquire(counter, layout));
            targets.defines.push_back(glsl::push_count_target(p));
            targets.textures.push_back(counts.back().get());
        }
    }
    draw(kernel, launch, targets, domain, {});
    std::vector<std::int32_t> texels(static_cast<std::size_t>(layout.width) *
                                     static_cast<std::size_t>(layout.height));
    for (std::size_t k = 0; k < params.size(); ++k) {
        glGetTextureImage(counts[k].get(), 0, counter.format, counter.type,
                          static_cast<GLsizei>(texels.size() * sizeof(std::int32_t)),
                          texels.data());
        check("reading push counts back");
        std::size_t* counters = launch.push_counters[params[k]];
        for (std::size_t i = 0; i < domain.count(); ++i) {
            counters[i] += static_cast<std::size_t>(texels[i]);
        }
        release_texture(device_, counter, layout, std::move(counts[k]));
    }
}

void KernelPasses::write_pushes(const Launch& launch, const Shape4& domain, std::size_t param) {
    GlStorage& storage = gl_storage(launch.args[param].stream.storage);
    const std::size_t total = launch.args[param].stream.region.count();
    if (total == 0) {
        return;
    }
    if (total > static_cast<std::size_t>(INT32_MAX)) {
        fatal(call_label(*launch.kernel) + " pushed " + std::to_string(total) +
              " values, more than the gl backend addresses with 32-bit integers");
    }
    const Layout layout = layout_for(domain.count(), device_.context->max_texture_size());
    const Format counter = counter_format();
    std::vector<std::int32_t> slots(static_cast<std::size_t>(layout.width) *
                                    static_cast<std::size_t>(layout.height));
    const std::size_t* offsets = launch.push_counters[param];
    for (std::size_t i = 0; i < domain.count(); ++i) {
        slots[i] = static_cast<std::int32_t>(offsets[i]);
    }
    Texture first_slots = device_.pool.acquire(counter, layout);
    glTextureSubImage2D(first_slots.get(), 0, 0, 0, layout.width, layout.height, counter.format,
                        counter.type, slots.data());
    check("uploading the first slots of pushes");

    std::vector<Output> values;
    values.push_back(
        {static_cast<int>(param), &storage, acquire_surface(device_, storage.formats(), total)});
    PassUniforms extra;
    extra.defines = "#define " + std::string(glsl::push_write_pass) + "\n#define " +
                    glsl::push_write_of(param) + "\n";
    extra.push_total = static_cast<int>(total);
    extra.push_offsets = first_slots.get();
    draw(*launch.kernel, launch, targets_of(values), domain, extra);
    store(storage, launch.args[param].stream.region, values.front().surface);
    release_texture(device_, counter, layout, std::move(first_slots));
}

} // namespace brook::detail::gl
