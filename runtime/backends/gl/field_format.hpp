// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// How one field of an element is stored in a texture and set as a uniform, both read from one
// table with a row per scalar kind (field_format.cpp): float fields in 32F textures, int, byte
// and short fields in 32I ones (bytes and shorts widen on upload and wrap back on download),
// uint in 32UI, `fixed` (`shortfixed`) in 8-bit (16-bit) normalised textures, which read as
// b / 255 (b / 65535) and round and saturate when written, as the types are defined, and double
// fields as two 32UI words per component (RG32UI, RGBA32UI): their bytes, which GLSL 4.00 would
// read back with unpackDouble2x32. Texture formats have no 64-bit floats.

#include "brook/stream.hpp"

#include <epoxy/gl.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace brook::detail::gl {

/// What a shader reads from a field's texture, and so what type a constant of it has there.
enum class TexelKind {
    Float,      ///< floats, in a float texture
    Normalised, ///< unsigned integers read as floats in [0, 1] (fixed, shortfixed)
    Int,        ///< signed integers, in an integer texture
    UInt,       ///< unsigned integers, in an integer texture
};

struct Format {
    GLenum internal_format;
    GLenum format;
    GLenum type;
    int texel_components; ///< components stored per texel (3-component fields are stored as 4)
    std::size_t texel_component_size;
    ScalarKind scalar;
    int components; ///< components of the field (32-bit words of a double field)
    TexelKind texel;

    std::size_t texel_size() const {
        return static_cast<std::size_t>(texel_components) * texel_component_size;
    }
    /// Integer textures need integer render targets (BRT_INTEGER in the copy shader).
    bool integer() const { return texel == TexelKind::Int || texel == TexelKind::UInt; }
    /// Bytes and shorts, stored as 32-bit ints: pack widens them, unpack keeps their low bits.
    bool widened() const {
        return scalar == ScalarKind::Int8 || scalar == ScalarKind::UInt8 ||
               scalar == ScalarKind::Int16 || scalar == ScalarKind::UInt16;
    }
};

Format field_format(const FieldInfo& field);

/// The format of each field of `type`, in order.
std::vector<Format> formats_of(const ElementType& type);

// pack and unpack are defined here so that they inline into the loops of a stream's upload and
// download, which call them once per element.

/// One field of one element from host layout into its texel (at most 4 components: the bound
/// also lets GCC see that a 16-byte texel is enough).
inline void pack(const Format& format, const std::byte* host, std::byte* texel) {
    for (int i = 0; i < std::min(format.components, 4); ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (format.widened()) {
            // The low bytes of a little-endian word, the only order the gl backend runs on;
            // signed kinds sign-extend.
            const std::size_t size = scalar_size(format.scalar);
            std::uint32_t bits = 0;
            std::memcpy(&bits, host + size * k, size);
            const auto unused = static_cast<unsigned>(32 - 8 * size);
            const bool is_signed =
                format.scalar == ScalarKind::Int8 || format.scalar == ScalarKind::Int16;
            const std::int32_t value = is_signed
                                           ? static_cast<std::int32_t>(bits << unused) >> unused
                                           : static_cast<std::int32_t>(bits);
            std::memcpy(texel + 4 * k, &value, 4);
        } else {
            std::memcpy(texel + k * format.texel_component_size,
                        host + k * format.texel_component_size, format.texel_component_size);
        }
    }
}

/// The inverse of pack: bytes and shorts keep their low 8 or 16 bits, as C stores them.
inline void unpack(const Format& format, const std::byte* texel, std::byte* host) {
    for (int i = 0; i < format.components; ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (format.widened()) {
            std::uint32_t value = 0;
            std::memcpy(&value, texel + 4 * k, 4);
            const std::size_t size = scalar_size(format.scalar);
            // The low bytes of a little-endian word, the only order the gl backend runs on.
            std::memcpy(host + size * k, &value, size);
        } else {
            std::memcpy(host + k * format.texel_component_size,
                        texel + k * format.texel_component_size, format.texel_component_size);
        }
    }
}

/// Sets the uniform at `location` (the current program's) to field `field` of a constant, whose
/// bytes start at `host`: the value the shader would read from the field's texel.
void set_uniform(GLint location, const FieldInfo& field, const std::byte* host);

} // namespace brook::detail::gl
