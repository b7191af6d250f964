// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The direct operands of an expression, for passes that treat a few kinds specially and only
// walk into the rest: each calls `visit(const Expr*)` on the operands and recurses itself. The
// switch names every kind, so a new expression kind is a compile error here (-Wswitch), not an
// operand that such walks silently skip; ast/stmt_children.hpp does the same for statements.

#include "ast/ast.hpp"

namespace brcc {

/// Calls `visit` on each direct sub-expression of `expr`, in source order (none for literals,
/// names and indexof).
template <class Visit> void for_each_operand(const Expr& expr, Visit&& visit) {
    switch (expr.kind) {
    case NodeKind::Unary:
        visit(static_cast<const Unary&>(expr).operand);
        break;
    case NodeKind::Binary:
        visit(static_cast<const Binary&>(expr).lhs);
        visit(static_cast<const Binary&>(expr).rhs);
        break;
    case NodeKind::Assign:
        visit(static_cast<const Assign&>(expr).target);
        visit(static_cast<const Assign&>(expr).value);
        break;
    case NodeKind::Conditional: {
        const auto& conditional = static_cast<const Conditional&>(expr);
        visit(conditional.condition);
        visit(conditional.then_value);
        visit(conditional.else_value);
        break;
    }
    case NodeKind::Call:
        for (const Expr* arg : static_cast<const Call&>(expr).args)
            visit(arg);
        break;
    case NodeKind::Construct:
        for (const Expr* arg : static_cast<const Construct&>(expr).args)
            visit(arg);
        break;
    case NodeKind::Cast:
        visit(static_cast<const Cast&>(expr).operand);
        break;
    case NodeKind::ImplicitConvert:
        visit(static_cast<const ImplicitConvert&>(expr).operand);
        break;
    case NodeKind::Member:
        visit(static_cast<const Member&>(expr).base);
        break;
    case NodeKind::Subscript:
        visit(static_cast<const Subscript&>(expr).base);
        for (const Expr* index : static_cast<const Subscript&>(expr).indices)
            visit(index);
        break;
    case NodeKind::InitList:
        for (const Expr* element : static_cast<const InitList&>(expr).elements)
            visit(element);
        break;
    case NodeKind::NameRef:
    case NodeKind::Indexof: // its stream is a name, not a value
    case NodeKind::InstanceInGroup:
    case NodeKind::IntLiteral:
    case NodeKind::FloatLiteral:
    case NodeKind::BoolLiteral:
#include "ast/stmt_kind_cases.def"
        break; // no operands (and no expression is a statement)
    }
}

} // namespace brcc
