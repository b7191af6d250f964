// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// What brcc's GLSL (compiler/codegen/gl) and the gl backend (runtime/backends/gl) must agree on:
// the uniforms a kernel's shader declares and the backend sets, the defines the backend puts
// before the shader to choose what a pass draws, and how many elements a reduction pass folds.
// Both sides build the names from here, so that neither spells one out. GLSL cannot include it:
// the prelude (runtime/backends/gl/prelude.glsl) declares frame_extents by its name.

#include <cstddef>
#include <string>
#include <string_view>

namespace brook::detail::glsl {

/// The backend's name (BRT_RUNTIME=gl), which is also the entry of a KernelInfo's code that holds
/// the kernel's GLSL.
inline constexpr std::string_view backend_name = "gl";

/// A family of names, one per kernel parameter P, or per leaf field F of parameter P: the prefix,
/// then P, then _F.
struct IndexedName {
    std::string_view prefix;

    std::string operator()(std::size_t param) const {
        return std::string(prefix) + std::to_string(param);
    }
    std::string operator()(std::size_t param, std::size_t field) const {
        return (*this)(param) + "_" + std::to_string(field);
    }
};

// Names per parameter. Uniforms of stream parameter P: its region (ivec4 extents, ivec4 strides,
// int offset) and a sampler per leaf field F of its element type (brt_tex_P_F).
inline constexpr IndexedName stream_extents{"brt_ext_"};
inline constexpr IndexedName stream_strides{"brt_str_"};
inline constexpr IndexedName stream_offset{"brt_off_"};
inline constexpr IndexedName stream_texture{"brt_tex_"};
/// Constant parameter P: brt_c_P for a scalar or vector, brt_c_P_F per leaf field F of a struct.
inline constexpr IndexedName constant{"brt_c_"};

// Pass defines; those that name a render target are defined as its location.
/// BRT_OUT_P_F: the render target of leaf field F of output (or vout) P.
inline constexpr IndexedName output_target{"BRT_OUT_"};
/// BRT_COUNT_P: the count pass's render target of vout P, each element's number of pushes.
inline constexpr IndexedName push_count_target{"BRT_COUNT_"};
/// BRT_PUSH_P: the write pass (push_write_pass) is vout P's.
inline constexpr IndexedName push_write_of{"BRT_PUSH_"};
/// BRT_DIRECT_P: stream parameter P is stored as the frame is drawn, read at the drawn texel.
inline constexpr IndexedName direct_read{"BRT_DIRECT_"};
/// BRT_UNRESIZED_P: input P has the frame's extents, read at the frame's position as it is.
inline constexpr IndexedName unresized_read{"BRT_UNRESIZED_"};

// Names that stand alone.
/// The extents of the output domain a pass draws (ivec4).
inline constexpr const char* frame_extents = "brt_frame_ext";
/// A reduction pass's uniforms (ints): the dimension it folds, the elements of the input folded
/// into each of the target's, and the chunks of reduce_fan_in elements that makes.
inline constexpr const char* reduce_dimension = "brt_reduce_dim";
inline constexpr const char* reduce_factor = "brt_reduce_factor";
inline constexpr const char* reduce_chunks = "brt_reduce_chunks";
/// Defined for the write pass of a vout, drawn over its values.
inline constexpr const char* push_write_pass = "BRT_PUSH_WRITE";
/// Defined when a call tracks its elements: the sampler element_flags_sampler holds a flag per
/// element, set for one the call skips.
inline constexpr const char* element_flags = "BRT_FLAGS";
inline constexpr const char* element_flags_sampler = "brt_flags";
/// The render target that gets 1 for each element written, 0 for one skipped or discarded.
inline constexpr const char* written_target = "BRT_WRITTEN";

/// Elements a reduction pass folds, at most, into one.
inline constexpr int reduce_fan_in = 8;

} // namespace brook::detail::glsl
