// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The direct children of a statement, for passes that treat a few kinds specially and only walk
// into the rest (ast/operands.hpp is the same for expressions). The one place that knows them:
// its switch names every kind, so a new statement kind is a compile error here (-Wswitch), not
// children that such walks silently skip.

#include "ast/ast.hpp"

#include <type_traits>

namespace brcc {

/// Calls `visit_stmt(const Stmt*)` on each direct sub-statement of `stmt` and
/// `visit_expr(const Expr*)` on each of its outermost expressions (conditions, a `for`'s step,
/// locals' initialisers, a `return`'s value, a `push`'s stream), in source order, skipping those
/// that are absent (an `if` without `else`, the parts of `for (;;)`, a local without a value).
template <class VisitStmt, class VisitExpr>
void for_each_child(const Stmt& stmt, VisitStmt&& visit_stmt, VisitExpr&& visit_expr) {
    const auto each = [&](const auto*... children) {
        const auto one = [&](const auto* child) {
            if (child == nullptr)
                return;
            if constexpr (std::is_convertible_v<decltype(child), const Stmt*>)
                visit_stmt(child);
            else
                visit_expr(child);
        };
        (one(children), ...);
    };
    switch (stmt.kind) {
    case NodeKind::Compound:
        for (const Stmt* child : static_cast<const Compound&>(stmt).body)
            each(child);
        return;
    case NodeKind::ExprStmt:
        return each(static_cast<const ExprStmt&>(stmt).expr);
    case NodeKind::DeclStmt:
        for (const LocalDecl* var : static_cast<const DeclStmt&>(stmt).vars)
            each(var->init);
        return;
    case NodeKind::If: {
        const auto& branch = static_cast<const If&>(stmt);
        return each(branch.condition, branch.then_branch, branch.else_branch);
    }
    case NodeKind::For: {
        const auto& loop = static_cast<const For&>(stmt);
        return each(loop.init, loop.condition, loop.step, loop.body);
    }
    case NodeKind::While: {
        const auto& loop = static_cast<const While&>(stmt);
        return each(loop.condition, loop.body);
    }
    case NodeKind::Return:
        return each(static_cast<const Return&>(stmt).value);
    case NodeKind::DoWhile: {
        const auto& loop = static_cast<const DoWhile&>(stmt);
        return each(loop.body, loop.condition);
    }
    case NodeKind::Push:
        return each(static_cast<const Push&>(stmt).stream);
    case NodeKind::Empty:
    case NodeKind::Break:
    case NodeKind::Continue:
    case NodeKind::Discard:
    case NodeKind::SyncGroup:
#include "ast/expr_kind_cases.def"
        return; // no children (and no statement is an expression)
    }
}

} // namespace brcc
