// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The gl backend's copy into a view (store_pass.cpp): dense values (brt_values, one field) drawn
// into the texels of a view of a stream (brt_view_ext, brt_view_str, brt_view_off) over the
// stream's whole texture; texels that are no element of the view are discarded. BRT_INTEGER and
// BRT_UNSIGNED pick the samplers and outputs of integer textures. The runtime puts it after the
// prelude (prelude.glsl: brt_element, brt_texel, brt_frame_width); embedded by CMake.
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
