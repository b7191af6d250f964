#pragma once
// The gl backend's OpenGL context: headless EGL (the device platform, then Mesa's surfaceless
// platform, then the default display), an OpenGL 4.5 core context made current without a
// surface, and the limits the backend plans with. Functions are loaded by libepoxy.
//
// Every GL object of the backend holds a shared_ptr to the context, so the context is destroyed
// (and EGL terminated) only after the last texture and program.

#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace brook::detail::gl {

/// Thrown when no context can be made; what() says why.
class Unavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Context {
public:
    /// Makes the context current on this thread; throws Unavailable with the reasons otherwise.
    static std::shared_ptr<Context> create();
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    /// GL_MAX_TEXTURE_SIZE, lowered by BRT_GL_MAX_TEXTURE_SIZE (to test address translation).
    int max_texture_size() const { return max_texture_size_; }
    /// Render targets per pass: GL_MAX_DRAW_BUFFERS, lowered by BRT_GL_MAX_OUTPUTS.
    int max_outputs() const { return max_outputs_; }
    int max_texture_units() const { return max_texture_units_; }
    /// "llvmpipe (LLVM 15.0.6, 256 bits), OpenGL 4.5 (Core Profile) Mesa 22.3.6"
    const std::string& description() const { return description_; }
    /// Whether the renderer is one of Mesa's CPU rasterisers (llvmpipe, softpipe, swrast).
    bool software_renderer() const;

private:
    Context(EGLDisplay display, EGLContext context);

    EGLDisplay display_;
    EGLContext context_;
    int max_texture_size_ = 0;
    int max_outputs_ = 0;
    int max_texture_units_ = 0;
    std::string description_;
};

/// In debug builds, stops the program when GL has recorded an error, naming `what` was done.
void check(const char* what);

} // namespace brook::detail::gl
