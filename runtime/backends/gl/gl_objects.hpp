// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// RAII owners of GL object names: each deletes its object when destroyed, so a texture, a
// framebuffer or a program can never leak or be deleted twice. They must be destroyed while the
// context that made them is current (GlContext outlives them: see gl_context.hpp).

#include <epoxy/gl.h>

#include <utility>

namespace brook::detail::gl {

/// A GL object name owned by this handle; `Delete` frees it.
template <void (*Delete)(GLuint)> class Object {
public:
    Object() = default;
    explicit Object(GLuint name) : name_(name) {}
    ~Object() { reset(); }
    Object(Object&& other) noexcept : name_(std::exchange(other.name_, 0)) {}
    Object& operator=(Object&& other) noexcept {
        if (this != &other) {
            reset();
            name_ = std::exchange(other.name_, 0);
        }
        return *this;
    }
    Object(const Object&) = delete;
    Object& operator=(const Object&) = delete;

    GLuint get() const { return name_; }
    void reset() {
        if (name_ != 0) {
            Delete(name_);
        }
        name_ = 0;
    }

private:
    GLuint name_ = 0;
};

inline void delete_texture(GLuint name) { glDeleteTextures(1, &name); }
inline void delete_framebuffer(GLuint name) { glDeleteFramebuffers(1, &name); }
inline void delete_vertex_array(GLuint name) { glDeleteVertexArrays(1, &name); }
inline void delete_program(GLuint name) { glDeleteProgram(name); }
inline void delete_shader(GLuint name) { glDeleteShader(name); }
inline void delete_buffer(GLuint name) { glDeleteBuffers(1, &name); }

using Texture = Object<&delete_texture>;
using Framebuffer = Object<&delete_framebuffer>;
using VertexArray = Object<&delete_vertex_array>;
using Program = Object<&delete_program>;
using Shader = Object<&delete_shader>;
using Buffer = Object<&delete_buffer>;

} // namespace brook::detail::gl
