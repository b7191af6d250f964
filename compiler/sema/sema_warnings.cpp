// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// brcc's own warnings about kernels, each a likely mistake in a program that is still valid:
// a parameter never used, an output never written, a constant gather index outside the gather,
// a float value losing its fraction in an int. Sema records which parameters a body reads and
// writes as it resolves names and checks assignments; these functions judge what it found. The
// DiagnosticEngine's WarningPolicy decides which are shown (docs/language.md, "Warnings"). What
// a backend cannot promise to run (a kernel past OpenGL 4.5's limits) is that backend's
// generator's own check (BackendGenerator::check_kernel).

#include "sema/sema_impl.hpp"

#include "ast/operators.hpp"
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
    case NodeKind::BoolLiteral:
    case NodeKind::NameRef:
    case NodeKind::Indexof:
    case NodeKind::InstanceInGroup:
    case NodeKind::Member:
    case NodeKind::Subscript:
    case NodeKind::Call:
    case NodeKind::Construct:
    case NodeKind::Cast:
    case NodeKind::ImplicitConvert:
    case NodeKind::Binary:
    case NodeKind::Assign:
    case NodeKind::Conditional:
    case NodeKind::InitList:
        return std::nullopt;
#include "ast/stmt_kind_cases.def"
        break;
    }
    return std::nullopt;
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

} // namespace

void Sema::warn_unused_parameters(const KernelDecl& kernel) {
    if (kernel.body == nullptr)
        return; // a prototype
    for (const ParamDecl* param : kernel.params) {
        switch (param->param_kind) {
        case ParamKind::OutputStream:
        case ParamKind::ScatterOutput:
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
            if (!param->named_in_body)
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

void Sema::warn_widened_operand(const Expr& arg, std::string_view name) {
    if (arg.kind != NodeKind::Binary)
        return;
    const auto& operation = static_cast<const Binary&>(arg);
    const auto widened = [](const Expr* operand) -> const Member* {
        if (operand->kind == NodeKind::ImplicitConvert)
            operand = static_cast<const ImplicitConvert*>(operand)->operand;
        if (operand->kind != NodeKind::Member)
            return nullptr;
        const auto* member = static_cast<const Member*>(operand);
        return member->is_implicit_widening ? member : nullptr;
    };
    const Member* member = widened(operation.lhs);
    const Expr* other = operation.rhs;
    if (member == nullptr) {
        member = widened(operation.rhs);
        other = operation.lhs;
    }
    if (member == nullptr)
        return;
    diags_.report(DiagId::widened_operand_reduced, arg.range)
        << spelling(operation.op) << member->base->type.name() << other->type.name() << name
        << std::to_string(member->type.width()) << std::to_string(member->base->type.width());
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

} // namespace brcc
