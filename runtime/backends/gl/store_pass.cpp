// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// How the values a pass drew reach their stream: a whole stream takes their textures, a view of
// a stream gets them through a small scatter shader, one draw per field.
#include "backends/gl/kernel_passes.hpp"

#include "backends/gl/render_targets.hpp"

#include <utility>

namespace brook::detail::gl {

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
    static constexpr const char* source = R"glsl(
uniform ivec4 brt_view_ext;
uniform ivec4 brt_view_str;
uniform int brt_view_off;
uniform int brt_storage_count;
#if defined(BRT_INTEGER)
uniform isampler2D brt_values;
layout(location = 0) out ivec4 brt_out;
#elif defined(BRT_UNSIGNED)
uniform usampler2D brt_values;
layout(location = 0) out uvec4 brt_out;
#else
uniform sampler2D brt_values;
layout(location = 0) out vec4 brt_out;
#endif
void main() {
int element = int(gl_FragCoord.y) * brt_frame_width + int(gl_FragCoord.x);
int rest = element - brt_view_off;
if (element >= brt_storage_count || rest < 0) {
    discard;
}
ivec4 position = ivec4(0);
for (int d = 0; d < 4; ++d) {
    if (brt_view_str[d] != 0) {
        position[d] = rest / brt_view_str[d];
        rest -= position[d] * brt_view_str[d];
    }
    if (position[d] >= brt_view_ext[d]) {
        discard;
    }
}
if (rest != 0) {
    discard;
}
int value = brt_element(position, ivec4(brt_view_ext.y * brt_view_ext.z * brt_view_ext.w,
                                        brt_view_ext.z * brt_view_ext.w, brt_view_ext.w, 1), 0);
brt_out = texelFetch(brt_values, brt_texel(value, textureSize(brt_values, 0).x), 0);
}
)glsl";
    const Shape4 view = shape_of(region);
    const Layout layout = storage.surface().layout;
    ContextObjects& objects = device_.objects();
    glBindVertexArray(objects.empty_vertex_array.get());
    glViewport(0, 0, layout.width, layout.height);
    for (std::size_t f = 0; f < storage.formats().size(); ++f) {
        const Format& format = storage.formats()[f];
        const char* variant = !format.integer()                     ? ""
                              : format.scalar == ScalarKind::UInt32 ? "#define BRT_UNSIGNED\n"
                                                                    : "#define BRT_INTEGER\n";
        ShaderProgram& program =
            device_.programs.get(source, "(gl backend: copy into a view)", source, variant);
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
