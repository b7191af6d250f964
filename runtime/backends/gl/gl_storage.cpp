// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Streams' textures: made from the pool cleared to zeros, given back when a stream goes, and
// read back row by row.
#include "backends/gl/gl_storage.hpp"

#include "core/errors.hpp"

#include <string>
#include <utility>

namespace brook::detail::gl {

Surface acquire_surface(Device& device, const std::vector<Format>& formats, std::size_t count) {
    Surface surface;
    surface.layout = layout_for(count, device.context->max_texture_size());
    for (const Format& format : formats) {
        surface.textures.push_back(device.pool.acquire(format, surface.layout));
    }
    return surface;
}

void release_surface(Device& device, const std::vector<Format>& formats, Surface& surface) {
    for (std::size_t f = 0; f < formats.size(); ++f) {
        release_texture(device, formats[f], surface.layout, std::move(surface.textures[f]));
    }
    surface.textures.clear();
}

GlStorage::GlStorage(std::shared_ptr<Device> device, const ElementType& type, std::size_t count)
    : Storage(type.size, count), device_(std::move(device)), type_(type),
      formats_(formats_of(type)), surface_(acquire_surface(*device_, formats_, count)) {
    for (std::size_t f = 0; f < formats_.size(); ++f) {
        glClearTexImage(surface_.textures[f].get(), 0, formats_[f].format, formats_[f].type,
                        nullptr);
    }
    // Checked in every build (gl::check is a debug aid): a driver out of memory is the
    // user's stream being too large, not a bug.
    if (glGetError() == GL_OUT_OF_MEMORY) {
        fatal("gl backend: cannot allocate a stream of " + std::to_string(type.size * count) +
              " bytes: the OpenGL driver is out of memory; make the stream smaller");
    }
    check("clearing a new stream");
}

GlStorage::~GlStorage() {
    // The last storage may hold the last reference to the device, which must go under the
    // lock too; the lock needs the context, kept here until it is released.
    const std::shared_ptr<Context> context = device_->context;
    const DeviceLock lock(*device_);
    release_surface(*device_, formats_, surface_);
    device_.reset();
}

GlStorage& gl_storage(Storage* storage) {
    return *static_cast<GlStorage*>(storage);
}
const GlStorage& gl_storage(const Storage& storage) {
    return static_cast<const GlStorage&>(storage);
}

std::vector<std::byte> read_rows(const GlStorage& storage, std::size_t field, std::size_t row0,
                                 std::size_t rows) {
    const Format& format = storage.formats()[field];
    const Layout layout = storage.surface().layout;
    std::vector<std::byte> texels(rows * static_cast<std::size_t>(layout.width) *
                                  format.texel_size());
    glGetTextureSubImage(storage.surface().textures[field].get(), 0, 0, static_cast<GLint>(row0), 0,
                         layout.width, static_cast<GLsizei>(rows), 1, format.format, format.type,
                         static_cast<GLsizei>(texels.size()), texels.data());
    check("reading a stream back");
    return texels;
}

} // namespace brook::detail::gl
