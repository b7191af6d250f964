// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// One walk over a kernel and its callees, reporting each expression and local, shared by the
// two questions of double_use.hpp.
#include "codegen/double_use.hpp"

#include "ast/operands.hpp"
#include "ast/stmt_children.hpp"
#include "sema/builtins.hpp"

namespace brcc {

namespace {

/// Whether `found` holds for any expression of `expr`.
template <class Found> bool any_expr(const Expr* expr, const Found& found) {
    if (found(*expr))
        return true;
    bool any = false;
    for_each_operand(*expr, [&](const Expr* operand) { any = any || any_expr(operand, found); });
    return any;
}

/// Whether `found` holds for any expression of `stmt`, or `local` for any local it declares.
template <class Found, class Local>
bool any_in_stmt(const Stmt* stmt, const Found& found, const Local& local) {
    bool any = false;
    if (stmt->kind == NodeKind::DeclStmt)
        for (const LocalDecl* var : static_cast<const DeclStmt*>(stmt)->vars)
            any = any || local(*var);
    for_each_child(
        *stmt, [&](const Stmt* child) { any = any || any_in_stmt(child, found, local); },
        [&](const Expr* child) { any = any || any_expr(child, found); });
    return any;
}

/// Whether `found` holds for an expression of the kernel's body or of a kernel it calls.
template <class Found>
bool any_in_kernel(
    const KernelDecl& kernel, const Found& found,
    bool (*local)(const LocalDecl&) = [](const LocalDecl&) { return false; }) {
    if (kernel.body != nullptr && any_in_stmt(kernel.body, found, local))
        return true;
    for (const KernelDecl* callee : kernel.callees)
        if (any_in_kernel(*callee, found, local))
            return true;
    return false;
}

bool is_double_call(const Expr& expr) {
    if (expr.kind != NodeKind::Call)
        return false;
    const auto& call = static_cast<const Call&>(expr);
    return call.builtin && !call.args.empty() && has_double(call.args.front()->type);
}

/// The built-ins GLSL defines for genType (floats) only, not for genDType.
bool glsl_has_no_double(BuiltinId id) {
    switch (id) {
    case BuiltinId::acos:
    case BuiltinId::asin:
    case BuiltinId::atan:
    case BuiltinId::atan2:
    case BuiltinId::cos:
    case BuiltinId::cosh:
    case BuiltinId::exp:
    case BuiltinId::exp2:
    case BuiltinId::ldexp:
    case BuiltinId::log:
    case BuiltinId::log10:
    case BuiltinId::log2:
    case BuiltinId::pow:
    case BuiltinId::sin:
    case BuiltinId::sinh:
    case BuiltinId::tan:
    case BuiltinId::tanh:
        return true;
    case BuiltinId::abs:
    case BuiltinId::all:
    case BuiltinId::any:
    case BuiltinId::ceil:
    case BuiltinId::clamp:
    case BuiltinId::cross:
    case BuiltinId::degrees:
    case BuiltinId::distance:
    case BuiltinId::dot:
    case BuiltinId::floor:
    case BuiltinId::fmod:
    case BuiltinId::frac:
    case BuiltinId::isfinite:
    case BuiltinId::isinf:
    case BuiltinId::isnan:
    case BuiltinId::length:
    case BuiltinId::lerp:
    case BuiltinId::max:
    case BuiltinId::min:
    case BuiltinId::normalize:
    case BuiltinId::radians:
    case BuiltinId::reflect:
    case BuiltinId::round:
    case BuiltinId::rsqrt:
    case BuiltinId::saturate:
    case BuiltinId::sign:
    case BuiltinId::smoothstep:
    case BuiltinId::sqrt:
    case BuiltinId::step:
    case BuiltinId::pack_4ubyte:
    case BuiltinId::unpack_4ubyte:
        break;
    }
    return false;
}

} // namespace

bool has_double(const Type& type) {
    if (type.is_struct()) {
        for (const FieldDecl& field : type.struct_decl()->fields)
            if (has_double(field.type))
                return true;
        return false;
    }
    return type.is_arithmetic() && type.scalar_type() == ScalarType::Double;
}

bool uses_double(const KernelDecl& kernel) {
    if (has_double(kernel.return_type))
        return true;
    for (const ParamDecl* param : kernel.params)
        if (has_double(param->type))
            return true;
    return any_in_kernel(
        kernel, [](const Expr& expr) { return has_double(expr.type); },
        [](const LocalDecl& var) { return has_double(var.type); });
}

std::optional<BuiltinId> double_builtin_without_glsl(const KernelDecl& kernel) {
    std::optional<BuiltinId> first;
    any_in_kernel(kernel, [&](const Expr& expr) {
        if (!is_double_call(expr) || !glsl_has_no_double(*static_cast<const Call&>(expr).builtin))
            return false;
        first = static_cast<const Call&>(expr).builtin;
        return true;
    });
    return first;
}

std::optional<std::string> glsl_refused_double_use(const KernelDecl& kernel) {
    if (const std::optional<BuiltinId> builtin = double_builtin_without_glsl(kernel))
        return "double " + std::string(builtin_name(*builtin));
    return std::nullopt;
}

} // namespace brcc
