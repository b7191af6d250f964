// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "codegen/cpu/element_cost.hpp"

#include "ast/operands.hpp"
#include "ast/stmt_children.hpp"

#include <algorithm>

namespace brcc {

namespace {

/// Built-ins that compile to a library routine of tens of instructions a component.
bool transcendental(BuiltinId id) {
    switch (id) {
    case BuiltinId::acos:
    case BuiltinId::asin:
    case BuiltinId::atan:
    case BuiltinId::atan2:
    case BuiltinId::cos:
    case BuiltinId::cosh:
    case BuiltinId::exp:
    case BuiltinId::exp2:
    case BuiltinId::fmod:
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
    case BuiltinId::frac:
    case BuiltinId::isfinite:
    case BuiltinId::isinf:
    case BuiltinId::isnan:
    case BuiltinId::ldexp:
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
        return false;
    }
    return false;
}

/// The components of an arithmetic value (a struct's count as one: it is only copied).
std::size_t components(const Type& type) {
    return type.is_arithmetic() ? static_cast<std::size_t>(type.width()) : 1;
}

/// The operations of `expr` itself, apart from its operands'.
std::size_t own_operations(const Expr& expr) {
    switch (expr.kind) {
    case NodeKind::Unary: {
        const auto& unary = static_cast<const Unary&>(expr);
        return unary.op != UnaryOp::Plus ? components(unary.type) : 0;
    }
    case NodeKind::Binary: {
        const auto& binary = static_cast<const Binary&>(expr);
        return binary.op == BinaryOp::Comma
                   ? 0
                   : std::max(components(binary.lhs->type), components(binary.rhs->type));
    }
    case NodeKind::Assign: {
        const auto& assign = static_cast<const Assign&>(expr);
        return assign.op == AssignOp::Assign ? 0 : components(assign.type);
    }
    case NodeKind::Conditional:
        return components(expr.type);
    case NodeKind::Call: {
        const auto& call = static_cast<const Call&>(expr);
        if (call.builtin) {
            std::size_t width = components(call.type);
            for (const Expr* arg : call.args)
                width = std::max(width, components(arg->type));
            return (transcendental(*call.builtin) ? 16 : 2) * width;
        }
        return call.helper != nullptr ? element_operations(*call.helper) : 0;
    }
    case NodeKind::Subscript:
        return static_cast<const Subscript&>(expr).gather != nullptr ? 4 : 0;
    case NodeKind::Construct:
    case NodeKind::InitList:
    case NodeKind::Cast:
    case NodeKind::ImplicitConvert:
    case NodeKind::Member:
    case NodeKind::NameRef:
    case NodeKind::Indexof:
    case NodeKind::InstanceInGroup:
    case NodeKind::BoolLiteral:
    case NodeKind::IntLiteral:
    case NodeKind::FloatLiteral:
        return 0;
#include "ast/stmt_kind_cases.def"
        break;
    }
    return 0;
}

std::size_t operations(const Expr* expr) {
    if (expr == nullptr)
        return 0;
    std::size_t total = own_operations(*expr);
    for_each_operand(*expr, [&total](const Expr* operand) { total += operations(operand); });
    return total;
}

std::size_t operations(const Stmt* stmt) {
    if (stmt == nullptr)
        return 0;
    std::size_t total = 0;
    for_each_child(
        *stmt, [&total](const Stmt* child) { total += operations(child); },
        [&total](const Expr* child) { total += operations(child); });
    return total;
}

} // namespace

std::size_t element_operations(const KernelDecl& kernel) {
    return operations(kernel.body);
}

} // namespace brcc
