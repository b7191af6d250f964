// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// brcc's own warnings about kernels, each a likely mistake in a program that is still valid:
// a parameter never used, an output never written, a constant gather index outside the gather,
// a float value losing its fraction in an int, a kernel past what OpenGL 4.5 guarantees every
// driver has. Sema records which parameters a body reads and
// writes as it resolves names and checks assignments; these functions judge what it found. The
// DiagnosticEngine's WarningPolicy decides which are shown (docs/language.md, "Warnings").

#include "sema/sema_impl.hpp"

#include <cmath>
#include <optional>
#include <sstream>
#include <string>

namespace brcc {

namespace {

/// Whether `scalar` holds fractions: float and the fixed-point types.
bool has_fraction(ScalarType scalar) {
    return !is_integer(scalar) && scalar != ScalarType::Bool;
}

/// The value of a literal number, possibly signed (`7`, `-1`, `2.5f`); nullopt for anything else.
std::optional<double> literal_value(const Expr& expr) {
    switch (expr.kind) {
    case NodeKind::IntLiteral:
        return static_cast<double>(static_cast<const IntLiteral&>(expr).value);
    case NodeKind::FloatLiteral:
        return static_cast<const FloatLiteral&>(expr).value;
    case NodeKind::Unary: {
        const auto& unary = static_cast<const Unary&>(expr);
        if (unary.op != UnaryOp::Minus && unary.op != UnaryOp::Plus)
            return std::nullopt;
        const std::optional<double> operand = literal_value(*unary.operand);
        if (!operand)
            return std::nullopt;
        return unary.op == UnaryOp::Minus ? -*operand : *operand;
    }
    default:
        return std::nullopt;
    }
}

/// A whole-number index as written in a warning: in digits when it fits a long long (converting
/// a larger double would be undefined), else in scientific notation (1e+300).
std::string index_text(double index) {
    constexpr double long_long_bound = 9223372036854775808.0; // 2^63
    if (index > -long_long_bound && index < long_long_bound)
        return std::to_string(static_cast<long long>(index));
    std::ostringstream text;
    text << index;
    return text.str();
}

/// The leaf fields of `type` (1 for an arithmetic type): the gl backend keeps each in a texture
/// of its own. Adds to `components` the leaves' components: a constant's uniform components.
std::size_t count_leaves(const Type& type, std::size_t& components) {
    if (!type.is_struct()) {
        components += static_cast<std::size_t>(type.width());
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

void Sema::warn_unused_parameters(const KernelDecl& kernel) {
    if (kernel.body == nullptr)
        return; // a prototype
    for (const ParamDecl* param : kernel.params) {
        switch (param->param_kind) {
        case ParamKind::OutputStream:
            if (!written_.contains(param))
                diags_.report(DiagId::unwritten_output, param->name_range)
                    << param_description(*param, kernel.is_reduce) << param->name << kernel.name;
            break;
        case ParamKind::VariableOutput: // a vout kernel may push nothing for every element
        case ParamKind::ReduceInput:
        case ParamKind::ReduceAccumulator:
            break;
        case ParamKind::InputStream:
        case ParamKind::Constant:
        case ParamKind::Gather:
            // A reduce function's two streams are fixed by its signature, and as the operator
            // of streamGatherOp or streamScatterOp it may ignore either (`r = r + 1`, a fetch).
            if (kernel.is_reduce && param->param_kind == ParamKind::InputStream)
                break;
            if (!used_.contains(param))
                diags_.report(DiagId::unused_parameter, param->name_range)
                    << param_description(*param, kernel.is_reduce) << param->name << kernel.name;
            break;
        }
    }
}

void Sema::warn_gather_index_outside(const Subscript& expr, const ParamDecl& gather) {
    // With one subscript per `[]`, subscript K is read against the size written in the K-th
    // `[]`; a vector index, or another count of subscripts, only has its sign to check.
    const bool sized = expr.indices.size() == gather.gather_extents.size();
    for (std::size_t k = 0; k < expr.indices.size(); ++k) {
        const std::optional<double> value = literal_value(*expr.indices[k]);
        if (!value)
            continue;
        const double index = std::floor(*value + 0.25); // DESIGN.md §2, gather index conversion
        const unsigned long long extent = sized ? gather.gather_extents[k] : 0;
        if (index < 0)
            diags_.report(DiagId::gather_index_negative, expr.indices[k]->range)
                << index_text(index) << gather.name;
        else if (extent != 0 && index >= static_cast<double>(extent))
            diags_.report(DiagId::gather_index_past_extent, expr.indices[k]->range)
                << index_text(index) << gather.name << std::to_string(extent);
    }
}

void Sema::warn_float_to_int(const Expr& value, Type target) {
    if (!value.type.is_arithmetic() || !target.is_arithmetic() ||
        !has_fraction(value.type.scalar_type()) || !is_integer(target.scalar_type()))
        return;
    // `int n = 4.0;` loses nothing.
    if (const std::optional<double> constant = literal_value(value);
        constant && std::trunc(*constant) == *constant)
        return;
    diags_.report(DiagId::float_to_int_conversion, value.range)
        << value.type.name() << target.name();
}

void Sema::warn_gl_limits(const KernelDecl& kernel) {
    if (kernel.body == nullptr)
        return; // a prototype
    std::size_t textures = 0;
    std::size_t uniform_components = 0;
    for (const ParamDecl* param : kernel.params) {
        std::size_t components = 0;
        const std::size_t leaves = count_leaves(param->type, components);
        // The driver counts what a shader uses: an argument never named is optimised out.
        const bool read = used_.contains(param) || param->param_kind == ParamKind::ReduceInput;
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
        }
    }
    if (textures > guaranteed_texture_units)
        diags_.report(DiagId::gl_texture_units, kernel.name_range)
            << kernel.name << textures << guaranteed_texture_units;
    if (uniform_components > guaranteed_uniform_components)
        diags_.report(DiagId::gl_uniform_components, kernel.name_range)
            << kernel.name << uniform_components << guaranteed_uniform_components;
}

} // namespace brcc
