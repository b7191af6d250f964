// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// SAXPY written directly against OpenGL, the way the GPGPU tutorial does it: the vectors in
// RGBA32F textures, a framebuffer object with the result texture attached, one fragment shader,
// one full-viewport quad per call. It is the baseline the gl backend's SAXPY is measured against
// (issue 4). It owns its own headless EGL context so that it shares no GL state with the gl
// backend in the same process; enter() makes that context current and leave() restores whatever
// was current before (the backend's), so the two alternate on one thread.
#include <epoxy/egl.h>

#include <cstddef>
#include <vector>

namespace bench {

class GlSaxpy {
public:
    /// width x height float4 elements of x and y (4 floats each, row-major).
    GlSaxpy(int width, int height, const float* x, const float* y);
    ~GlSaxpy();
    GlSaxpy(const GlSaxpy&) = delete;
    GlSaxpy& operator=(const GlSaxpy&) = delete;

    void enter();
    void leave();

    /// One draw of result = alpha * x + y (between enter and leave).
    void run(float alpha);
    /// Waits for the draws issued so far (between enter and leave).
    void finish();
    /// The result texture read back (enters and leaves itself).
    std::vector<float> result();

private:
    int width_;
    int height_;
    EGLDisplay display_ = EGL_NO_DISPLAY;
    EGLContext context_ = EGL_NO_CONTEXT;
    EGLDisplay saved_display_ = EGL_NO_DISPLAY;
    EGLSurface saved_draw_ = EGL_NO_SURFACE;
    EGLSurface saved_read_ = EGL_NO_SURFACE;
    EGLContext saved_context_ = EGL_NO_CONTEXT;
    unsigned textures_[3] = {}; // x, y, result
    unsigned framebuffer_ = 0;
    unsigned vertex_array_ = 0;
    unsigned program_ = 0;
    int alpha_location_ = -1;
};

} // namespace bench
