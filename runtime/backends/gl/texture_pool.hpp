// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Where a stream's elements lie in its textures (Layout), and the pool that keeps the textures
// finished passes release for the next passes of the same format and size.

#include "backends/gl/field_format.hpp"
#include "backends/gl/gl_objects.hpp"

#include <cstddef>
#include <map>
#include <tuple>
#include <vector>

namespace brook::detail::gl {

/// Where `count` elements live: `width` elements per texture row, `height` rows.
struct Layout {
    int width = 1;
    int height = 1;
};

/// One row when the elements fit in one, else rows of a power-of-two width, so that the shaders
/// find a texel without dividing (prelude.glsl, brt_texel): the smallest at least as wide as the
/// texture is then high, up to the largest that fits. A square-ish texture keeps the rows of a
/// 64x64 tile, which llvmpipe shades at once, close in memory: rows 16384 float4 texels (256
/// KiB) apart map to the same cache sets, and made a 1024x1024 float4 SAXPY 10-20% slower than
/// in 1024-texel rows (docs/gl_backend.md, "Cost of a call").
Layout layout_for(std::size_t count, int max_size);

/// Textures released by finished passes, reused by the next ones of the same format and size.
class TexturePool {
public:
    Texture acquire(const Format& format, Layout layout);
    /// Keeps `texture` for reuse; returns it when enough of its kind are kept already (the
    /// caller deletes it then).
    Texture keep(const Format& format, Layout layout, Texture texture);

private:
    static std::tuple<GLenum, int, int> key(const Format& format, Layout layout) {
        return {format.internal_format, layout.width, layout.height};
    }
    std::map<std::tuple<GLenum, int, int>, std::vector<Texture>> free_;
};

} // namespace brook::detail::gl
