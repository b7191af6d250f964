// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The GL objects that the backend and its streams share (Device), and a call's hold on them
// (DeviceLock), which renews what a context keeps of its own when another thread ran since.

#include "backends/gl/field_format.hpp"
#include "backends/gl/gl_context.hpp"
#include "backends/gl/gl_objects.hpp"
#include "backends/gl/gl_programs.hpp"
#include "backends/gl/render_targets.hpp"
#include "backends/gl/texture_pool.hpp"

#include <map>
#include <memory>
#include <thread>

namespace brook::detail::gl {

/// The objects a context cannot share with the others: each thread's context has its own.
struct ContextObjects {
    RenderTargets targets;
    VertexArray empty_vertex_array;

    ContextObjects();
};

/// What the GL objects of the backend share; destroyed after the last of them.
/// Members are destroyed in reverse order: the context last, while the others still need it.
struct Device {
    std::shared_ptr<Context> context;
    TexturePool pool;
    ProgramCache programs;
    /// BRT_CHECK=1's record of a call's first division fault (KernelPasses::clear_division_record).
    Buffer division_record;
    /// Per thread that used the backend, the objects of its context (gl::Context).
    std::map<std::thread::id, ContextObjects> per_thread;

    /// The calling thread's objects, made on its first call; only under a DeviceLock.
    ContextObjects& objects() { return per_thread[std::this_thread::get_id()]; }
};

/// A backend call's hold on the device: gl::Context::Lock, and the calling thread's
/// attachments and texture bindings renewed when another thread ran since its last call.
class DeviceLock {
public:
    explicit DeviceLock(Device& device);

private:
    Context::Lock lock_;
};

/// Returns `texture` to the pool, or deletes it (detached first, in every context) when the
/// pool has enough.
void release_texture(Device& device, const Format& format, Layout layout, Texture texture);

} // namespace brook::detail::gl
