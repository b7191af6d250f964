// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "sema/reduce_commutes.hpp"

#include "ast/operators.hpp"

namespace brcc {

namespace {

bool names(const Expr* expr, const ParamDecl& param) {
    return expr != nullptr && expr->kind == NodeKind::NameRef &&
           static_cast<const NameRef*>(expr)->decl == &param;
}

/// `lhs` and `rhs` are the accumulator and the input, in either order.
bool both_operands(const Expr* lhs, const Expr* rhs, const ParamDecl& accumulator,
                   const ParamDecl& input) {
    return (names(lhs, accumulator) && names(rhs, input)) ||
           (names(lhs, input) && names(rhs, accumulator));
}

/// `op` commutes (and associates) on operands of a float type, or of an integer one.
bool commuting_binary(BinaryOp op, bool integer) {
    switch (op) {
    case BinaryOp::Add:
    case BinaryOp::Mul:
        return true;
    case BinaryOp::BitAnd:
    case BinaryOp::BitOr:
    case BinaryOp::BitXor:
        return integer;
    case BinaryOp::Sub:
    case BinaryOp::Div:
    case BinaryOp::Rem:
    case BinaryOp::Shl:
    case BinaryOp::Shr:
    case BinaryOp::Comma:
    case BinaryOp::Less:
    case BinaryOp::LessEqual:
    case BinaryOp::Greater:
    case BinaryOp::GreaterEqual:
    case BinaryOp::Equal:
    case BinaryOp::NotEqual:
    case BinaryOp::LogicalAnd:
    case BinaryOp::LogicalOr:
        return false;
    }
    return false;
}

/// The value assigned in `r = value`: a commuting operator applied to `r` and `a`.
bool commuting_combination(const Expr* value, const ParamDecl& accumulator, const ParamDecl& input,
                           bool integer) {
    if (value->kind == NodeKind::Binary) {
        const auto* binary = static_cast<const Binary*>(value);
        return commuting_binary(binary->op, integer) &&
               both_operands(binary->lhs, binary->rhs, accumulator, input);
    }
    if (value->kind == NodeKind::Call) {
        const auto* call = static_cast<const Call*>(value);
        return call->builtin.has_value() &&
               (*call->builtin == BuiltinId::min || *call->builtin == BuiltinId::max) &&
               call->args.size() == 2 &&
               both_operands(call->args[0], call->args[1], accumulator, input);
    }
    return false;
}

} // namespace

bool reduce_commutes(const KernelDecl& reduce) {
    const ParamDecl* input = nullptr;
    const ParamDecl* accumulator = nullptr;
    for (const ParamDecl* param : reduce.params) {
        if (param->param_kind == ParamKind::ReduceInput)
            input = param;
        else if (param->param_kind == ParamKind::ReduceAccumulator)
            accumulator = param;
    }
    if (!reduce.is_reduce || input == nullptr || accumulator == nullptr ||
        !(input->type == accumulator->type) || !input->type.is_arithmetic())
        return false;
    const ScalarType scalar = input->type.scalar_type();
    if (scalar != ScalarType::Float && scalar != ScalarType::Int && scalar != ScalarType::UInt)
        return false;
    const bool integer = scalar != ScalarType::Float;
    if (reduce.body == nullptr || reduce.body->body.size() != 1 ||
        reduce.body->body[0]->kind != NodeKind::ExprStmt)
        return false;
    const Expr* expr = static_cast<const ExprStmt*>(reduce.body->body[0])->expr;
    if (expr == nullptr || expr->kind != NodeKind::Assign)
        return false;
    const auto* assign = static_cast<const Assign*>(expr);
    if (!names(assign->target, *accumulator))
        return false;
    if (assign->op == AssignOp::Assign)
        return commuting_combination(assign->value, *accumulator, *input, integer);
    return commuting_binary(compound_operator(assign->op), integer) && names(assign->value, *input);
}

} // namespace brcc
