// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The objects of each thread's context, the lock of a backend call, and texture release.
#include "backends/gl/gl_device.hpp"

#include <utility>

namespace brook::detail::gl {

ContextObjects::ContextObjects() {
    targets.create();
    GLuint name = 0;
    glCreateVertexArrays(1, &name);
    empty_vertex_array = VertexArray(name);
    check("creating the backend's objects");
}

DeviceLock::DeviceLock(Device& device) : lock_(*device.context) {
    if (lock_.switched()) {
        // A texture another context changed is seen with its new contents here only once
        // bound or attached again (OpenGL 4.5, 5.3 "Propagating Changes to Objects"), and
        // one it deleted stays bound here under its old name, which a new texture may
        // have taken since. The binds and attachments of a call skip what is in place
        // already, so both are cleared first: the call then makes every one of them anew.
        device.objects().targets.refresh();
        glBindTextures(0, device.context->max_texture_units(), nullptr);
    }
}

void release_texture(Device& device, const Format& format, Layout layout, Texture texture) {
    const Texture dropped = device.pool.keep(format, layout, std::move(texture));
    if (dropped.get() != 0) {
        const std::thread::id self = std::this_thread::get_id();
        for (auto& [thread, objects] : device.per_thread) {
            objects.targets.forget(dropped.get(), thread == self);
        }
    }
}

} // namespace brook::detail::gl
