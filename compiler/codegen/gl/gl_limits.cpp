// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// A kernel past what OpenGL 4.5 guarantees: the gl backend keeps each field of a stream or
// gather argument in a texture of its own, and passes constants and every stream's shape as
// uniforms (docs/gl_backend.md). A driver counts only what a shader uses, so an argument the
// body never names costs nothing; the backend checks the driver's own limits when it runs.

#include "codegen/gl/gl_limits.hpp"

namespace brcc {

namespace {

/// The leaf fields of `type` (1 for an arithmetic type): the gl backend keeps each in a texture
/// of its own. Adds to `components` the leaves' components: a constant's uniform components
/// (two per double, passed as its 32-bit words).
std::size_t count_leaves(const Type& type, std::size_t& components) {
    if (!type.is_struct()) {
        const std::size_t words = type.scalar_type() == ScalarType::Double ? 2 : 1;
        components += words * static_cast<std::size_t>(type.width());
        return 1;
    }
    std::size_t leaves = 0;
    for (const FieldDecl& field : type.struct_decl()->fields)
        leaves += count_leaves(field.type, components);
    return leaves;
}

// The minimums OpenGL 4.5 sets for GL_MAX_TEXTURE_IMAGE_UNITS and
// GL_MAX_FRAGMENT_UNIFORM_COMPONENTS (its implementation-dependent limits): what a kernel may use
// and still run on every driver. The gl backend checks the driver's own values when it runs.
constexpr std::size_t guaranteed_texture_units = 16;
constexpr std::size_t guaranteed_uniform_components = 1024;
// Each stream argument's extents, strides and offset (ivec4, ivec4, int; docs/gl_backend.md).
constexpr std::size_t uniform_components_per_stream = 9;

} // namespace

void check_gl_limits(const KernelDecl& kernel, DiagnosticEngine& diags) {
    if (kernel.body == nullptr)
        return; // a prototype
    std::size_t textures = 0;
    std::size_t uniform_components = 0;
    for (const ParamDecl* param : kernel.params) {
        std::size_t components = 0;
        const std::size_t leaves = count_leaves(param->type, components);
        // The driver counts what a shader uses: an argument never named is optimised out.
        const bool read = param->named_in_body || param->param_kind == ParamKind::ReduceInput;
        switch (param->param_kind) {
        case ParamKind::Constant:
            if (read)
                uniform_components += components;
            break;
        case ParamKind::InputStream:
        case ParamKind::Gather:
        case ParamKind::ReduceInput:
            if (read) {
                textures += leaves;
                uniform_components += uniform_components_per_stream;
            }
            break;
        case ParamKind::OutputStream:
        case ParamKind::ReduceAccumulator:
        case ParamKind::VariableOutput:
            uniform_components += uniform_components_per_stream;
            break;
        case ParamKind::ScatterOutput: // run on the host (glsl_kernel_source)
            break;
        }
    }
    if (textures > guaranteed_texture_units)
        diags.report(DiagId::gl_texture_units, kernel.name_range)
            << kernel.name << textures << guaranteed_texture_units;
    if (uniform_components > guaranteed_uniform_components)
        diags.report(DiagId::gl_uniform_components, kernel.name_range)
            << kernel.name << uniform_components << guaranteed_uniform_components;
}

} // namespace brcc
