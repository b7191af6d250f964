// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The table of field formats, and a constant's fields set as uniforms from it: a constant is
// packed as its texel would be, then set through the glUniform*v of its texel kind and size.
#include "backends/gl/field_format.hpp"

#include "brook/vector.hpp"

#include <array>

namespace brook::detail::gl {

namespace {

/// How the fields of one scalar kind are stored.
struct ScalarFormat {
    ScalarKind scalar;
    TexelKind texel;
    /// By the field's components, 1 to 4 (3 are stored as 4, as RGB32F is not renderable).
    std::array<GLenum, 4> internal_formats;
    GLenum type;                ///< of a texel component in host memory
    std::size_t component_size; ///< bytes of a texel component in host memory
};

/// How the fields of `scalar` are stored: the table all of this file reads.
const ScalarFormat& scalar_format(ScalarKind scalar) {
    using enum ScalarKind;
    using enum TexelKind;
    // By scalar kind, in ScalarKind's order. Bytes and shorts are stored as 32-bit integers
    // (pack widens them); a double component as two 32-bit words (field_format doubles the
    // count, so these formats are by words).
    static constexpr std::array<ScalarFormat, 10> rows{{
        {Float32, Float, {GL_R32F, GL_RG32F, GL_RGBA32F, GL_RGBA32F}, GL_FLOAT, 4},
        {Int32, Int, {GL_R32I, GL_RG32I, GL_RGBA32I, GL_RGBA32I}, GL_INT, 4},
        {UInt32, UInt, {GL_R32UI, GL_RG32UI, GL_RGBA32UI, GL_RGBA32UI}, GL_UNSIGNED_INT, 4},
        {Int8, Int, {GL_R32I, GL_RG32I, GL_RGBA32I, GL_RGBA32I}, GL_INT, 4},
        {UInt8, Int, {GL_R32I, GL_RG32I, GL_RGBA32I, GL_RGBA32I}, GL_INT, 4},
        {Fixed8, Normalised, {GL_R8, GL_RG8, GL_RGBA8, GL_RGBA8}, GL_UNSIGNED_BYTE, 1},
        {Fixed16, Normalised, {GL_R16, GL_RG16, GL_RGBA16, GL_RGBA16}, GL_UNSIGNED_SHORT, 2},
        {Int16, Int, {GL_R32I, GL_RG32I, GL_RGBA32I, GL_RGBA32I}, GL_INT, 4},
        {UInt16, Int, {GL_R32I, GL_RG32I, GL_RGBA32I, GL_RGBA32I}, GL_INT, 4},
        {Float64, UInt, {GL_R32UI, GL_RG32UI, GL_RGBA32UI, GL_RGBA32UI}, GL_UNSIGNED_INT, 4},
    }};
    static_assert(
        [] {
            for (std::size_t i = 0; i < rows.size(); ++i) {
                if (static_cast<std::size_t>(rows[i].scalar) != i) {
                    return false;
                }
            }
            return true;
        }(),
        "the rows are in ScalarKind's order");
    return rows[static_cast<std::size_t>(scalar)];
}

/// The pixel formats of a texel of 1 to 4 components.
constexpr std::array<GLenum, 4> float_layouts{GL_RED, GL_RG, GL_RGBA, GL_RGBA};
constexpr std::array<GLenum, 4> integer_layouts{GL_RED_INTEGER, GL_RG_INTEGER, GL_RGBA_INTEGER,
                                                GL_RGBA_INTEGER};

/// A normalised texel component (raw value b of `Bits`) as the shader reads it: fixed's and
/// shortfixed's own conversion, b / 255 or b / 65535.
template <class Bits> float normalised_value(const std::byte* component) {
    basic_fixed<Bits> value;
    std::memcpy(&value.x, component, sizeof value.x);
    return value;
}

/// Sets the uniform at `location`, a vector of `components` Scalars, to the first components of
/// `words` through setters[components - 1] (glUniform1*v .. glUniform4*v).
template <class Scalar, class Setter>
void set_vector(GLint location, int components, const std::byte* words,
                const std::array<Setter, 4>& setters) {
    Scalar values[4] = {};
    std::memcpy(values, words, sizeof values);
    setters[static_cast<std::size_t>(components - 1)](location, 1, values);
}

} // namespace

Format field_format(const FieldInfo& field) {
    const ScalarFormat& row = scalar_format(field.scalar);
    // A double (double2) is stored as its two (four) 32-bit words.
    const int components =
        field.scalar == ScalarKind::Float64 ? 2 * field.components : field.components;
    const auto c = static_cast<std::size_t>(components - 1);
    Format format{row.internal_formats[c],
                  0,
                  row.type,
                  components == 3 ? 4 : components,
                  row.component_size,
                  field.scalar,
                  components,
                  row.texel};
    format.format = format.integer() ? integer_layouts[c] : float_layouts[c];
    return format;
}

std::vector<Format> formats_of(const ElementType& type) {
    std::vector<Format> formats;
    for (const FieldInfo& field : type.fields) {
        formats.push_back(field_format(field));
    }
    return formats;
}

void set_uniform(GLint location, const FieldInfo& field, const std::byte* host) {
    const Format format = field_format(field);
    std::byte texel[16] = {};
    pack(format, host, texel);
    if (format.texel == TexelKind::Normalised) {
        // A fixed (shortfixed) constant is the float b / 255 (b / 65535) in the shader.
        GLfloat values[4] = {};
        for (std::size_t k = 0; k < static_cast<std::size_t>(field.components); ++k) {
            const std::byte* component = texel + k * format.texel_component_size;
            values[k] = field.scalar == ScalarKind::Fixed8
                            ? normalised_value<unsigned char>(component)
                            : normalised_value<unsigned short>(component);
        }
        std::memcpy(texel, values, sizeof values);
    }
    switch (format.texel) {
    case TexelKind::Float:
    case TexelKind::Normalised:
        set_vector<GLfloat>(location, format.components, texel,
                            std::array{glUniform1fv, glUniform2fv, glUniform3fv, glUniform4fv});
        return;
    case TexelKind::Int:
        set_vector<GLint>(location, format.components, texel,
                          std::array{glUniform1iv, glUniform2iv, glUniform3iv, glUniform4iv});
        return;
    case TexelKind::UInt:
        set_vector<GLuint>(location, format.components, texel,
                           std::array{glUniform1uiv, glUniform2uiv, glUniform3uiv, glUniform4uiv});
        return;
    }
}

} // namespace brook::detail::gl
