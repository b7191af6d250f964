// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "codegen/cpu/element_cost.hpp"

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
    default:
        return false;
    }
}

/// The components of an arithmetic value (a struct's count as one: it is only copied).
std::size_t components(const Type& type) {
    return type.is_arithmetic() ? static_cast<std::size_t>(type.width()) : 1;
}

std::size_t operations(const Stmt* stmt);

std::size_t operations(const Expr* expr) {
    if (expr == nullptr) {
        return 0;
    }
    const auto sum = [](const std::vector<Expr*>& exprs) {
        std::size_t total = 0;
        for (const Expr* e : exprs)
            total += operations(e);
        return total;
    };
    switch (expr->kind) {
    case NodeKind::Unary: {
        const auto& unary = static_cast<const Unary&>(*expr);
        const bool does_work = unary.op != UnaryOp::Plus;
        return (does_work ? components(unary.type) : 0) + operations(unary.operand);
    }
    case NodeKind::Binary: {
        const auto& binary = static_cast<const Binary&>(*expr);
        const std::size_t width =
            std::max(components(binary.lhs->type), components(binary.rhs->type));
        return (binary.op == BinaryOp::Comma ? 0 : width) + operations(binary.lhs) +
               operations(binary.rhs);
    }
    case NodeKind::Assign: {
        const auto& assign = static_cast<const Assign&>(*expr);
        return (assign.op == AssignOp::Assign ? 0 : components(assign.type)) +
               operations(assign.target) + operations(assign.value);
    }
    case NodeKind::Conditional: {
        const auto& conditional = static_cast<const Conditional&>(*expr);
        return components(conditional.type) + operations(conditional.condition) +
               operations(conditional.then_value) + operations(conditional.else_value);
    }
    case NodeKind::Call: {
        const auto& call = static_cast<const Call&>(*expr);
        std::size_t work = sum(call.args);
        if (call.builtin) {
            std::size_t width = components(call.type);
            for (const Expr* arg : call.args)
                width = std::max(width, components(arg->type));
            work += (transcendental(*call.builtin) ? 16 : 2) * width;
        } else if (call.helper != nullptr) {
            work += element_operations(*call.helper);
        }
        return work;
    }
    case NodeKind::Construct:
        return sum(static_cast<const Construct&>(*expr).args);
    case NodeKind::Cast:
        return operations(static_cast<const Cast&>(*expr).operand);
    case NodeKind::ImplicitConvert:
        return operations(static_cast<const ImplicitConvert&>(*expr).operand);
    case NodeKind::Member:
        return operations(static_cast<const Member&>(*expr).base);
    case NodeKind::Subscript: {
        const auto& subscript = static_cast<const Subscript&>(*expr);
        return (subscript.gather != nullptr ? 4 : 0) + operations(subscript.base) +
               sum(subscript.indices);
    }
    case NodeKind::InitList:
        return sum(static_cast<const InitList&>(*expr).elements);
    default: // literals, names, indexof
        return 0;
    }
}

std::size_t operations(const Stmt* stmt) {
    if (stmt == nullptr) {
        return 0;
    }
    switch (stmt->kind) {
    case NodeKind::Compound: {
        std::size_t total = 0;
        for (const Stmt* s : static_cast<const Compound&>(*stmt).body)
            total += operations(s);
        return total;
    }
    case NodeKind::DeclStmt: {
        std::size_t total = 0;
        for (const LocalDecl* var : static_cast<const DeclStmt&>(*stmt).vars)
            total += operations(var->init);
        return total;
    }
    case NodeKind::ExprStmt:
        return operations(static_cast<const ExprStmt&>(*stmt).expr);
    case NodeKind::If: {
        const auto& branch = static_cast<const If&>(*stmt);
        return operations(branch.condition) + operations(branch.then_branch) +
               operations(branch.else_branch);
    }
    case NodeKind::For: {
        const auto& loop = static_cast<const For&>(*stmt);
        return operations(loop.init) + operations(loop.condition) + operations(loop.step) +
               operations(loop.body);
    }
    case NodeKind::While: {
        const auto& loop = static_cast<const While&>(*stmt);
        return operations(loop.condition) + operations(loop.body);
    }
    case NodeKind::DoWhile: {
        const auto& loop = static_cast<const DoWhile&>(*stmt);
        return operations(loop.body) + operations(loop.condition);
    }
    case NodeKind::Return:
        return operations(static_cast<const Return&>(*stmt).value);
    default: // break, continue, push, empty, discard
        return 0;
    }
}

} // namespace

std::size_t element_operations(const KernelDecl& kernel) {
    return operations(kernel.body);
}

} // namespace brcc
