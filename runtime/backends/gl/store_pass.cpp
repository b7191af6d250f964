// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// How the values a pass drew reach their stream: a whole stream takes their textures, a view of
// a stream gets them through the scatter shader (scatter.glsl, embedded at build time), one draw
// per field.
#include "backends/gl/kernel_passes.hpp"

#include "backends/gl/render_targets.hpp"

#include <utility>

namespace brook::detail::gl {

extern const char* const scatter_glsl;

void KernelPasses::store(GlStorage& storage, const Region& region, Surface& values) {
    const bool whole =
        region.offset == 0 && region.contiguous() && region.count() == storage.count();
    if (whole) {
        std::swap(storage.surface(), values);
    } else {
        scatter(storage, region, values);
    }
    release_surface(device_, storage.formats(), values);
}

void KernelPasses::scatter(GlStorage& storage, const Region& region, const Surface& values) {
    const Shape4 view = shape_of(region);
    const Layout layout = storage.surface().layout;
    ContextObjects& objects = device_.objects();
    glBindVertexArray(objects.empty_vertex_array.get());
    glViewport(0, 0, layout.width, layout.height);
    for (std::size_t f = 0; f < storage.formats().size(); ++f) {
        const Format& format = storage.formats()[f];
        const char* variant = !format.integer()                 ? ""
                              : format.texel == TexelKind::UInt ? "#define BRT_UNSIGNED\n"
                                                                : "#define BRT_INTEGER\n";
        ShaderProgram& program = device_.programs.get(
            scatter_glsl, "(gl backend: copy into a view)", scatter_glsl, variant);
        glUseProgram(program.get());
        const GLuint target = storage.surface().textures[f].get();
        objects.targets.bind(&target, 1);
        glUniform1i(program.uniform("brt_frame_width"), layout.width);
        glUniform4iv(program.uniform("brt_view_ext"), 1, view.extents.data());
        glUniform4iv(program.uniform("brt_view_str"), 1, view.strides.data());
        glUniform1i(program.uniform("brt_view_off"), view.offset);
        glUniform1i(program.uniform("brt_storage_count"), static_cast<GLint>(storage.count()));
        bind_texture_unit(0, values.textures[f].get());
        glUniform1i(program.uniform("brt_values"), 0);
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    check("copying into a view");
}

} // namespace brook::detail::gl
