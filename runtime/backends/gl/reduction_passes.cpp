// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The passes of a reduction, each folding up to 8 adjacent elements along one dimension in
// order, last dimension first: O(log n) passes, row-major order preserved.
#include "backends/gl/kernel_passes.hpp"

#include "brook/detail/glsl_interface.hpp"

#include <utility>

namespace brook::detail::gl {

Surface KernelPasses::reduce(const Launch& launch, int input, const std::array<int, 4>& target) {
    const KernelInfo& kernel = *launch.kernel;
    const auto input_param = static_cast<std::size_t>(input);
    std::size_t accumulator = 0;
    for (std::size_t p = 0; p < kernel.params.size(); ++p) {
        if (kernel.params[p].kind == ParamKind::ReduceAccumulator) {
            accumulator = p;
        }
    }
    const GlStorage& storage = gl_storage(launch.args[input_param].stream.storage);
    const std::vector<Format>& formats = storage.formats();
    Shape4 shape = shape_of(launch.args[input_param].stream.region);
    Surface current; // empty: the first pass reads the input itself
    bool passed = false;
    for (int d = 3; d >= 0; --d) {
        const auto dim = static_cast<std::size_t>(d);
        int factor = shape.extents[dim] / target[dim];
        while (factor > 1 || (!passed && d == 0)) {
            const int chunks = (factor + glsl::reduce_fan_in - 1) / glsl::reduce_fan_in;
            std::array<int, 4> extents = shape.extents;
            extents[dim] = target[dim] * chunks;
            const Shape4 next = dense_shape(extents);
            std::vector<Output> outputs;
            outputs.push_back({static_cast<int>(accumulator), nullptr,
                               acquire_surface(device_, formats, next.count())});
            reduce_source_ = current.textures.empty() ? &storage.surface() : &current;
            reduce_param_ = input_param;
            reduce_shape_ = shape;
            PassUniforms extra;
            extra.reduce_dim = d;
            extra.reduce_factor = factor;
            extra.reduce_chunks = chunks;
            draw(kernel, launch, targets_of(outputs), next, extra);
            reduce_source_ = nullptr;
            if (!current.textures.empty()) {
                release_surface(device_, formats, current);
            }
            current = std::move(outputs.front().surface);
            shape = next;
            factor = chunks;
            passed = true;
        }
    }
    return current;
}

} // namespace brook::detail::gl
