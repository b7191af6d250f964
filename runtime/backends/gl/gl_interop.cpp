// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// brook/gl.hpp's interop: a stream's textures and their layout, for an application's own GL
// code, and the shader cache's counter.
#include "brook/gl.hpp"

#include "backends/gl/gl_device.hpp"
#include "backends/gl/gl_programs.hpp"
#include "backends/gl/gl_storage.hpp"
#include "brook/detail/glsl_interface.hpp"
#include "core/errors.hpp"
#include "core/stream_impl.hpp"

#include <string>

namespace brook::gl {

StreamTextures textures(const stream& s) {
    using namespace detail;
    const StreamImpl& impl = checked_impl(s, "brook::gl::textures");
    if (impl.backend().name() != detail::glsl::backend_name) {
        fatal("brook::gl::textures: the stream is on the " + std::string(impl.backend().name()) +
              " backend, which has no OpenGL textures; run with BRT_RUNTIME=gl");
    }
    const detail::gl::GlStorage& storage = detail::gl::gl_storage(impl.storage());
    const detail::gl::DeviceLock lock(storage.device());
    StreamTextures result;
    for (const detail::gl::Texture& texture : storage.surface().textures) {
        result.textures.push_back(texture.get());
    }
    result.width = storage.surface().layout.width;
    result.height = storage.surface().layout.height;
    const Region& region = impl.region();
    result.offset = region.offset;
    result.rank = region.rank;
    result.extents = region.extents;
    result.strides = region.strides;
    return result;
}

std::size_t programs_compiled() {
    return detail::gl::ProgramCache::compiled_in_process();
}

} // namespace brook::gl
