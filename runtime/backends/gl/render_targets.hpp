// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// What a draw renders into and samples from, changed only where it differs from what is in
// place: rebinding what is bound already is what makes small kernel calls slow on llvmpipe.

#include "backends/gl/gl_objects.hpp"

#include <cstddef>
#include <vector>

namespace brook::detail::gl {

/// The framebuffer every pass draws into, and the textures attached to it. Changing an
/// attachment or the draw buffers makes the driver revalidate the framebuffer (llvmpipe then
/// starts a new scene, synchronising its threads): the largest cost of a small kernel call. So
/// a draw changes only what differs from the previous one, and textures stay attached after it.
/// The attachments are always exactly the current draw's targets (a stale one, even unused,
/// would clip rendering to its size), and a texture is forgotten (detached) before it is
/// deleted, so that a recycled name is never taken for one still attached.
class RenderTargets {
public:
    void create();

    /// Binds the framebuffer with `textures` as color attachments 0..count-1, all drawn.
    void bind(const GLuint* textures, std::size_t count);

    /// Detaches `texture` wherever it is attached; called before it is deleted. `current`:
    /// whether this framebuffer's context is current; another context's framebuffer cannot be
    /// changed now, so its attachments are only marked to be set again by its next bind.
    void forget(GLuint texture, bool current);

    /// Makes the next bind set every attachment again: textures that another context drew into
    /// are up to date in this one only once attached again.
    void refresh();

private:
    /// No texture has this name, so a bind always replaces it.
    static constexpr GLuint stale = ~GLuint{0};

    static GLenum attachment(std::size_t i) {
        return GL_COLOR_ATTACHMENT0 + static_cast<GLenum>(i);
    }

    Framebuffer framebuffer_;
    std::vector<GLuint> attached_;
    std::size_t drawn_ = 1; ///< a new framebuffer draws attachment 0
};

/// Binds `texture` to texture unit `unit` unless it is bound there already. Mesa takes any bind,
/// even of the texture already bound, for new sampler state, which costs llvmpipe about as much
/// as a small draw; the query costs nothing. The binding is queried rather than remembered, since
/// an application may change it between calls (gl.hpp's interop), through the active unit (an
/// indexed query of TEXTURE_BINDING_2D is not core OpenGL).
void bind_texture_unit(GLuint unit, GLuint texture);

} // namespace brook::detail::gl
