// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The framebuffer's attachments and the texture units, each changed only where it differs.
#include "backends/gl/render_targets.hpp"

#include <algorithm>

namespace brook::detail::gl {

void RenderTargets::create() {
    GLuint name = 0;
    glCreateFramebuffers(1, &name);
    framebuffer_ = Framebuffer(name);
}

void RenderTargets::bind(const GLuint* textures, std::size_t count) {
    const GLuint framebuffer = framebuffer_.get();
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    attached_.resize(std::max(attached_.size(), count), 0);
    for (std::size_t i = 0; i < attached_.size(); ++i) {
        const GLuint texture = i < count ? textures[i] : 0;
        if (attached_[i] != texture) {
            glNamedFramebufferTexture(framebuffer, attachment(i), texture, 0);
            attached_[i] = texture;
        }
    }
    if (count != drawn_) {
        std::vector<GLenum> buffers;
        for (std::size_t i = 0; i < count; ++i) {
            buffers.push_back(attachment(i));
        }
        glNamedFramebufferDrawBuffers(framebuffer, static_cast<GLsizei>(count), buffers.data());
        drawn_ = count;
    }
}

void RenderTargets::forget(GLuint texture, bool current) {
    for (std::size_t i = 0; i < attached_.size(); ++i) {
        if (attached_[i] != texture) {
            continue;
        }
        if (current) {
            glNamedFramebufferTexture(framebuffer_.get(), attachment(i), 0, 0);
        }
        attached_[i] = current ? 0 : stale;
    }
}

void RenderTargets::refresh() {
    std::fill(attached_.begin(), attached_.end(), stale);
}

void bind_texture_unit(GLuint unit, GLuint texture) {
    glActiveTexture(GL_TEXTURE0 + unit);
    GLint bound = 0;
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &bound);
    if (static_cast<GLuint>(bound) != texture) {
        glBindTexture(GL_TEXTURE_2D, texture);
    }
}

} // namespace brook::detail::gl
