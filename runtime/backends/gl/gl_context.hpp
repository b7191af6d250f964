// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The gl backend's OpenGL context: headless EGL (the device platform, then Mesa's surfaceless
// platform, then the default display), an OpenGL 4.5 core context made current without a
// surface, and the limits the backend plans with. Functions are loaded by libepoxy.
//
// Threads (COMPAT §3.6): a GL context is current on one thread at a time, and the thread that
// created it keeps it current (gl.hpp's interop relies on that). So every other thread that uses
// the backend gets a context of its own, made on its first call and sharing the first one's
// objects (textures, programs), and a Lock serialises the backend's calls. When a call follows
// another thread's, it first waits for a fence that call left, so it sees that call's results.
//
// Every GL object of the backend holds a shared_ptr to the context, so the context is destroyed
// (and EGL terminated) only after the last texture and program.

#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace brook::detail::gl {

/// Thrown when no context can be made; what() says why.
class Unavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Context : public std::enable_shared_from_this<Context> {
public:
    /// Makes the context current on this thread; throws Unavailable with the reasons otherwise.
    static std::shared_ptr<Context> create();

    /// Held by every call of the backend: one thread's calls at a time, each with a context of
    /// its thread current (see the top of the file). A thread may take it again inside a call.
    class Lock {
    public:
        explicit Lock(Context& context);
        ~Lock();
        Lock(const Lock&) = delete;
        Lock& operator=(const Lock&) = delete;

        /// True when another thread ran GL work since this thread's last call, so objects that
        /// are not shared between contexts (framebuffer attachments) must be refreshed.
        bool switched() const { return switched_; }

    private:
        Context& context_;
        bool switched_ = false;
    };

    /// Runs (under the lock, with the thread's context current) when a thread that used the
    /// backend exits, before its context is released: the backend frees the objects it made in
    /// that context.
    void on_thread_exit(std::function<void()> release) { release_thread_ = std::move(release); }
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    /// GL_MAX_TEXTURE_SIZE, lowered by BRT_GL_MAX_TEXTURE_SIZE (to test address translation).
    int max_texture_size() const { return max_texture_size_; }
    /// Render targets per pass: GL_MAX_DRAW_BUFFERS, lowered by BRT_GL_MAX_OUTPUTS.
    int max_outputs() const { return max_outputs_; }
    int max_texture_units() const { return max_texture_units_; }
    /// Components of a fragment shader's uniforms: GL_MAX_FRAGMENT_UNIFORM_COMPONENTS, lowered
    /// by BRT_GL_MAX_UNIFORM_COMPONENTS (to test the error for a kernel past it).
    int max_uniform_components() const { return max_uniform_components_; }
    /// "llvmpipe (LLVM 15.0.6, 256 bits), OpenGL 4.5 (Core Profile) Mesa 22.3.6"
    const std::string& description() const { return description_; }
    /// Whether the renderer is one of Mesa's CPU rasterisers (llvmpipe, softpipe, swrast).
    bool software_renderer() const;

private:
    Context(EGLDisplay display, EGLConfig config, EGLContext context);
    /// Records `context` as the calling thread's (current on it) and watches for its exit.
    void add_thread(EGLContext context);
    /// The outermost Lock of a call: makes the thread's context current, waits for the fence
    /// of another thread's last call. Returns whether the previous call was on another thread.
    bool enter();
    /// The end of a call: leaves a fence for a later call on another thread.
    void leave();
    /// Releases the context of the exiting calling thread and destroys it unless it is the
    /// first (see on_thread_exit).
    void thread_exited();

    EGLDisplay display_;
    EGLConfig config_;
    EGLContext context_; ///< the first context, whose objects the others share
    std::recursive_mutex mutex_;
    int depth_ = 0; ///< Locks held by the thread that holds mutex_
    /// The context current on each thread that uses the backend.
    std::map<std::thread::id, EGLContext> thread_contexts_;
    std::thread::id last_thread_;
    GLsync fence_ = nullptr;
    std::function<void()> release_thread_;
    int max_texture_size_ = 0;
    int max_outputs_ = 0;
    int max_texture_units_ = 0;
    int max_uniform_components_ = 0;
    std::string description_;
};

/// In debug builds, stops the program when GL has recorded an error, naming `what` was done.
void check(const char* what);

} // namespace brook::detail::gl
