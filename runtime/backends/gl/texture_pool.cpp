// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Layouts of elements in textures, and the texture pool.
#include "backends/gl/texture_pool.hpp"

#include "backends/gl/gl_context.hpp"
#include "core/errors.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>
#include <utility>

namespace brook::detail::gl {

namespace {

/// The smallest w with w * w >= n.
std::size_t ceil_sqrt(std::size_t n) {
    auto root = static_cast<std::size_t>(std::sqrt(static_cast<double>(n)));
    while (root * root < n) {
        ++root;
    }
    while (root > 0 && (root - 1) * (root - 1) >= n) {
        --root;
    }
    return root;
}

} // namespace

Layout layout_for(std::size_t count, int max_size) {
    const auto max = static_cast<std::size_t>(max_size);
    const std::size_t width = count <= max
                                  ? std::max<std::size_t>(count, 1)
                                  : std::min(std::bit_ceil(ceil_sqrt(count)), std::bit_floor(max));
    const std::size_t height = std::max<std::size_t>(1, (count + width - 1) / width);
    if (height > max) {
        fatal("gl backend: a stream of " + std::to_string(count) +
              " elements does not fit in a texture of at most " + std::to_string(max) + " x " +
              std::to_string(max) +
              " texels (this OpenGL driver's GL_MAX_TEXTURE_SIZE, or "
              "BRT_GL_MAX_TEXTURE_SIZE, of " +
              std::to_string(max) +
              "): split the stream into smaller ones, or run it with BRT_RUNTIME=cpu");
    }
    return {static_cast<int>(width), static_cast<int>(height)};
}

Texture TexturePool::acquire(const Format& format, Layout layout) {
    auto& free = free_[key(format, layout)];
    if (!free.empty()) {
        Texture texture = std::move(free.back());
        free.pop_back();
        return texture;
    }
    GLuint name = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &name);
    Texture texture(name);
    glTextureStorage2D(name, 1, format.internal_format, layout.width, layout.height);
    glTextureParameteri(name, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(name, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    check("allocating a texture");
    return texture;
}

Texture TexturePool::keep(const Format& format, Layout layout, Texture texture) {
    auto& free = free_[key(format, layout)];
    // A few per size cover ping-pong and reduction passes; more would only hold memory.
    if (free.size() < 4) {
        free.push_back(std::move(texture));
    }
    return texture;
}

} // namespace brook::detail::gl
