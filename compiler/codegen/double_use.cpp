// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "codegen/double_use.hpp"

#include "ast/operands.hpp"
#include "ast/stmt_children.hpp"

namespace brcc {

namespace {

bool expr_uses_double(const Expr* expr) {
    bool found = has_double(expr->type);
    for_each_operand(*expr,
                     [&](const Expr* operand) { found = found || expr_uses_double(operand); });
    return found;
}

bool stmt_uses_double(const Stmt* stmt) {
    bool found = false;
    if (stmt->kind == NodeKind::DeclStmt)
        for (const LocalDecl* var : static_cast<const DeclStmt*>(stmt)->vars)
            found = found || has_double(var->type);
    for_each_child(
        *stmt, [&](const Stmt* child) { found = found || stmt_uses_double(child); },
        [&](const Expr* child) { found = found || expr_uses_double(child); });
    return found;
}

} // namespace

bool glsl_lacks_double(BuiltinId id) {
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
    case BuiltinId::degrees:
    case BuiltinId::radians:
        return true;
    case BuiltinId::abs:
    case BuiltinId::all:
    case BuiltinId::any:
    case BuiltinId::ceil:
    case BuiltinId::clamp:
    case BuiltinId::cross:
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
    if (kernel.body != nullptr && stmt_uses_double(kernel.body))
        return true;
    for (const KernelDecl* callee : kernel.callees)
        if (uses_double(*callee))
            return true;
    return false;
}

} // namespace brcc
