// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The hand-written GL SAXPY. Context: Mesa's surfaceless platform (what the gl backend uses on
// llvmpipe), else the default display; OpenGL 4.5 core, functions through libepoxy. The EGL
// display is shared with the gl backend (EGL displays are per process), so it is initialised but
// never terminated here; only this class's context is destroyed.
#include "gl_saxpy.hpp"

#include <epoxy/gl.h>

#include <cstdio>
#include <cstdlib>

namespace bench {

namespace {

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "bench: hand-written GL SAXPY: %s\n", what);
    std::exit(1);
}

// The quad covers the viewport: two triangles from gl_VertexID, no vertex buffer.
constexpr const char* vertex_shader = R"(#version 450 core
void main() {
    vec2 corner = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;
    gl_Position = vec4(corner, 0.0, 1.0);
}
)";

constexpr const char* fragment_shader = R"(#version 450 core
uniform sampler2D x;
uniform sampler2D y;
uniform float alpha;
out vec4 result;
void main() {
    ivec2 texel = ivec2(gl_FragCoord.xy);
    result = alpha * texelFetch(x, texel, 0) + texelFetch(y, texel, 0);
}
)";

GLuint compile(GLenum kind, const char* source) {
    const GLuint shader = glCreateShader(kind);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetShaderInfoLog(shader, sizeof log, nullptr, log);
        fail(log);
    }
    return shader;
}

EGLDisplay open_display() {
    if (epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless")) {
        const EGLDisplay display =
            eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
        if (display != EGL_NO_DISPLAY && eglInitialize(display, nullptr, nullptr)) {
            return display;
        }
    }
    const EGLDisplay display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, nullptr, nullptr)) {
        fail("no EGL display");
    }
    return display;
}

} // namespace

GlSaxpy::GlSaxpy(int width, int height, const float* x, const float* y)
    : width_(width), height_(height), display_(open_display()) {
    // No surface is ever made: with EGL_KHR_no_config_context no config is needed either.
    const EGLint config_attributes[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                        EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    if (!eglBindAPI(EGL_OPENGL_API)) {
        fail("no desktop OpenGL");
    }
    if (!epoxy_has_egl_extension(display_, "EGL_KHR_no_config_context") &&
        (!eglChooseConfig(display_, config_attributes, &config, 1, &configs) || configs < 1)) {
        fail("no EGL config for OpenGL");
    }
    const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 4,
                                         EGL_CONTEXT_MINOR_VERSION, 5,
                                         EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                         EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    context_ = eglCreateContext(display_, config, EGL_NO_CONTEXT, context_attributes);
    if (context_ == EGL_NO_CONTEXT) {
        fail("no OpenGL 4.5 core context");
    }
    enter();
    glGenTextures(3, textures_);
    const float* data[3] = {x, y, nullptr};
    for (int i = 0; i < 3; ++i) {
        glBindTexture(GL_TEXTURE_2D, textures_[i]);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, width, height);
        if (data[i] != nullptr) {
            glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RGBA, GL_FLOAT, data[i]);
        }
    }
    glGenFramebuffers(1, &framebuffer_);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, textures_[2], 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fail("the framebuffer is incomplete");
    }
    program_ = glCreateProgram();
    const GLuint shaders[2] = {compile(GL_VERTEX_SHADER, vertex_shader),
                               compile(GL_FRAGMENT_SHADER, fragment_shader)};
    glAttachShader(program_, shaders[0]);
    glAttachShader(program_, shaders[1]);
    glLinkProgram(program_);
    glDeleteShader(shaders[0]);
    glDeleteShader(shaders[1]);
    GLint linked = 0;
    glGetProgramiv(program_, GL_LINK_STATUS, &linked);
    if (!linked) {
        fail("the program does not link");
    }
    glUseProgram(program_);
    glUniform1i(glGetUniformLocation(program_, "x"), 0);
    glUniform1i(glGetUniformLocation(program_, "y"), 1);
    alpha_location_ = glGetUniformLocation(program_, "alpha");
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, textures_[0]);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, textures_[1]);
    glGenVertexArrays(1, &vertex_array_);
    glBindVertexArray(vertex_array_);
    glViewport(0, 0, width, height);
    if (glGetError() != GL_NO_ERROR) {
        fail("setting up failed with a GL error");
    }
    leave();
}

GlSaxpy::~GlSaxpy() {
    enter();
    glDeleteVertexArrays(1, &vertex_array_);
    glDeleteProgram(program_);
    glDeleteFramebuffers(1, &framebuffer_);
    glDeleteTextures(3, textures_);
    leave();
    eglDestroyContext(display_, context_);
}

void GlSaxpy::enter() {
    saved_display_ = eglGetCurrentDisplay();
    saved_draw_ = eglGetCurrentSurface(EGL_DRAW);
    saved_read_ = eglGetCurrentSurface(EGL_READ);
    saved_context_ = eglGetCurrentContext();
    if (!eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_)) {
        fail("cannot make its context current");
    }
}

void GlSaxpy::leave() {
    if (saved_context_ == EGL_NO_CONTEXT) {
        eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        return;
    }
    eglMakeCurrent(saved_display_, saved_draw_, saved_read_, saved_context_);
}

// The state set up in the constructor stays bound in this context; a call is the uniform and
// the draw, as in the tutorial's loop.
void GlSaxpy::run(float alpha) {
    glUniform1f(alpha_location_, alpha);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

void GlSaxpy::finish() {
    glFinish();
}

std::vector<float> GlSaxpy::result() {
    enter();
    std::vector<float> values(4 * static_cast<std::size_t>(width_) *
                              static_cast<std::size_t>(height_));
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    glReadPixels(0, 0, width_, height_, GL_RGBA, GL_FLOAT, values.data());
    if (glGetError() != GL_NO_ERROR) {
        fail("reading the result failed with a GL error");
    }
    leave();
    return values;
}

} // namespace bench
