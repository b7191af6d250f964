// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// CRTP dispatch over expression and statement kinds, generated from ast_nodes.def. A pass
// derives from ExprVisitor<Pass, Result> and defines `Result visit(IntLiteral&)` etc. for every
// expression kind; a missing one is a compile error, not a silent default.

#include "ast/ast.hpp"

#include <utility>

namespace brcc {

template <class Derived, class Result = void> class ExprVisitor {
public:
    Result visit_expr(Expr& expr) {
        switch (expr.kind) {
#define EXPR(name)                                                                               \
    case NodeKind::name:                                                                         \
        return static_cast<Derived*>(this)->visit(static_cast<name&>(expr));
#define STMT(name) case NodeKind::name:
#include "ast/ast_nodes.def"
#undef EXPR
#undef STMT
            break;
        }
        __builtin_unreachable();
    }
};

template <class Derived, class Result = void> class StmtVisitor {
public:
    Result visit_stmt(Stmt& stmt) {
        switch (stmt.kind) {
#define STMT(name)                                                                               \
    case NodeKind::name:                                                                         \
        return static_cast<Derived*>(this)->visit(static_cast<name&>(stmt));
#define EXPR(name) case NodeKind::name:
#include "ast/ast_nodes.def"
#undef EXPR
#undef STMT
            break;
        }
        __builtin_unreachable();
    }
};

} // namespace brcc
