// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// A stream's storage on the gl backend (GlStorage): a Surface, one texture per leaf field of its
// element type, in the layout of its element count.

#include "backends/gl/field_format.hpp"
#include "backends/gl/gl_device.hpp"
#include "backends/gl/gl_objects.hpp"
#include "backends/gl/texture_pool.hpp"
#include "core/backend.hpp"

#include <cstddef>
#include <memory>
#include <vector>

namespace brook::detail::gl {

/// A set of textures holding `count` elements of one element type, one texture per field.
struct Surface {
    Layout layout;
    std::vector<Texture> textures;
};

/// Textures from the pool for `count` elements of fields in `formats`.
Surface acquire_surface(Device& device, const std::vector<Format>& formats, std::size_t count);

/// Gives the textures of `surface`, of fields in `formats`, back (release_texture).
void release_surface(Device& device, const std::vector<Format>& formats, Surface& surface);

class GlStorage final : public Storage {
public:
    /// `count` elements of `type`, zero.
    GlStorage(std::shared_ptr<Device> device, const ElementType& type, std::size_t count);
    ~GlStorage() override;

    const ElementType& type() const { return type_; }
    Device& device() const { return *device_; }
    const std::vector<Format>& formats() const { return formats_; }
    Surface& surface() { return surface_; }
    const Surface& surface() const { return surface_; }

private:
    std::shared_ptr<Device> device_;
    ElementType type_;
    std::vector<Format> formats_;
    Surface surface_;
};

GlStorage& gl_storage(Storage* storage);
const GlStorage& gl_storage(const Storage& storage);

/// The texels of rows [row0, row0 + rows) of field `field` of `storage`, read back.
std::vector<std::byte> read_rows(const GlStorage& storage, std::size_t field, std::size_t row0,
                                 std::size_t rows);

} // namespace brook::detail::gl
