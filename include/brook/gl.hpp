// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// OpenGL interop: the textures that hold a stream on the gl backend, so that an application can
// draw a result without copying it back to the host (the paper's §4.1, "the results can be
// rendered directly"). docs/gl_backend.md, "Interop", has an example.
//
// With BRT_RUNTIME=gl an OpenGL 4.5 core context of the runtime (headless EGL) is current on each
// thread that has called Brook, and stays current: the first such thread's context, and on every
// other thread one sharing its objects (textures included). The application issues its own GL
// calls on such a thread, in that context (loading functions with libepoxy, as libbrook does),
// not while another thread is inside a Brook call, and must leave the context current. It may read
// the textures (texelFetch); it must not write, resize or delete them. A kernel call that writes
// the stream may give it new textures (outputs are often rendered into fresh ones, the tutorial's
// ping-pong), so query again after each call. A Brook call may change the context's bindings
// (texture units, framebuffer, program, vertex array): bind what the application draws with
// after each call.
//
// Layout: one 2-D texture per leaf field of the element type, in declaration order (a float4
// stream has one, a `struct { float3 o; float3 d; }` stream two). The storage's elements are laid
// out row-major `width` texels per row: storage element e is texel (e % width, e / width). Formats:
// float fields R32F, RG32F, RGBA32F (float3 is stored as RGBA32F, w undefined); int, char and
// uchar fields the 32I formats; uint fields the 32UI ones; fixed fields R8..RGBA8 and shortfixed
// ones R16..RGBA16 (normalised).
// A stream made by .domain() is a view: its elements are `extents` (slowest dimension first)
// `strides` storage elements apart, from storage element `offset` on.
//
// Available when libbrook is built with the gl backend (EGL and libepoxy found).

#include "brook/stream.hpp"

#include <array>
#include <cstddef>
#include <vector>

namespace brook::gl {

/// Where a stream of the gl backend lives: its textures and its place in them (the layout above).
struct StreamTextures {
    /// GL_TEXTURE_2D names, one per leaf field of the element type.
    std::vector<unsigned int> textures;
    /// The textures' width in texels (all fields alike): storage elements per row.
    int width = 0;
    /// The textures' height in texels (all fields alike).
    int height = 0;
    /// The stream inside its storage: a whole stream is offset 0, dense row-major.
    std::size_t offset = 0;
    /// The stream's number of dimensions, 1 to 4: how many of `extents` and `strides` count.
    int rank = 0;
    /// The stream's extents, slowest dimension first.
    std::array<std::size_t, 4> extents{};
    /// Storage elements between neighbours along each dimension, slowest first.
    std::array<std::size_t, 4> strides{};
};

/// The textures holding `s` now. Stops the program with a message when `s` is empty or is not a
/// stream of the gl backend.
StreamTextures textures(const stream& s);

/// How many shader programs the gl backend has compiled and linked in this process. Each kernel
/// is compiled once per pass configuration (which outputs a pass writes) and then reused, so
/// this stops growing once every kernel has run; tests check the shader cache with it.
std::size_t programs_compiled();

} // namespace brook::gl
