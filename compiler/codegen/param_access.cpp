// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Walks a kernel's body once, classifying every use of a parameter's name: the target of a
// plain `=` writes it; any other use (an operand, a partial or compound assignment, `++`, an
// argument) reads it, and `push(r)`, `++`, compound assignments and helpers' `out` arguments also
// write it. An output is read when the body may see its value from before the call: unless
// every path assigns the whole output before naming it otherwise (assigned_before_use), an
// element keeps its old value where the body leaves it, so that value is needed.

#include "codegen/param_access.hpp"

#include "ast/operands.hpp"
#include "ast/stmt_children.hpp"
#include "support/diagnostics.hpp"

#include <algorithm>

namespace brcc {

namespace {

/// Whether `expr` names `param` anywhere (a read, a write, an argument). `indexof(param)` is not
/// counted: it is the element's position, which needs nothing of the element's value, so an
/// output whose position is taken before it is assigned still needs no old value.
bool mentions(const Expr* expr, const ParamDecl& param) {
    if (expr == nullptr)
        return false;
    if (expr->kind == NodeKind::NameRef)
        return static_cast<const NameRef*>(expr)->decl == &param;
    bool found = false;
    for_each_operand(*expr,
                     [&](const Expr* operand) { found = found || mentions(operand, param); });
    return found;
}

/// Whether `stmt` names `param` or contains a `return` anywhere inside.
bool names_or_returns(const Stmt* stmt, const ParamDecl& param) {
    if (stmt == nullptr)
        return false;
    if (stmt->kind == NodeKind::Return)
        return true;
    bool found = false;
    for_each_child(
        *stmt, [&](const Stmt* child) { found = found || names_or_returns(child, param); },
        [&](const Expr* child) { found = found || mentions(child, param); });
    return found;
}

/// What running a statement does to an output, for assigned_before_use.
enum class Effect {
    untouched, ///< neither names the output nor leaves the body early
    assigned,  ///< assigns the whole output on every path, before naming it otherwise
    unknown,   ///< anything else: the output's current value may be needed
};

Effect effect_on(const Stmt* stmt, const ParamDecl& param) {
    if (stmt == nullptr)
        return Effect::untouched;
    switch (stmt->kind) {
    case NodeKind::Compound:
        for (const Stmt* child : static_cast<const Compound*>(stmt)->body) {
            const Effect effect = effect_on(child, param);
            if (effect != Effect::untouched)
                return effect;
        }
        return Effect::untouched;
    case NodeKind::DeclStmt:
        for (const LocalDecl* var : static_cast<const DeclStmt*>(stmt)->vars) {
            if (mentions(var->init, param))
                return Effect::unknown;
        }
        return Effect::untouched;
    case NodeKind::ExprStmt: {
        const Expr* expr = static_cast<const ExprStmt*>(stmt)->expr;
        if (!mentions(expr, param))
            return Effect::untouched;
        if (expr->kind != NodeKind::Assign) // `r;` or a call: not a store of the whole of r
            return Effect::unknown;
        const auto* assign = static_cast<const Assign*>(expr);
        const bool whole = assign->op == AssignOp::Assign &&
                           assign->target->kind == NodeKind::NameRef &&
                           static_cast<const NameRef*>(assign->target)->decl == &param;
        return whole && !mentions(assign->value, param) ? Effect::assigned : Effect::unknown;
    }
    case NodeKind::If: {
        const auto* branch = static_cast<const If*>(stmt);
        if (mentions(branch->condition, param))
            return Effect::unknown;
        const Effect then_effect = effect_on(branch->then_branch, param);
        const Effect else_effect = effect_on(branch->else_branch, param);
        if (then_effect == else_effect)
            return then_effect;
        return Effect::unknown;
    }
    case NodeKind::For:
    case NodeKind::While:
    case NodeKind::DoWhile:
    case NodeKind::Push:
    case NodeKind::Return:
    case NodeKind::Break:
    case NodeKind::Continue:
    case NodeKind::Empty:
    case NodeKind::Discard:
    case NodeKind::SyncGroup:
        // A loop may run no times, so it never counts as assigning; one that neither names
        // the output nor returns leaves it untouched, as do the other statements that cannot
        // (push names a vout, break and continue stay inside a loop).
        return names_or_returns(stmt, param) ? Effect::unknown : Effect::untouched;
#include "ast/expr_kind_cases.def"
        break;
    }
    return Effect::untouched;
}

/// Conservatively, whether every run of `body` assigns all of output `param` before anything
/// names it otherwise (and before returning): then its current value is never used.
bool assigned_before_use(const Compound& body, const ParamDecl& param) {
    return effect_on(&body, param) == Effect::assigned;
}

class AccessWalker {
public:
    explicit AccessWalker(const KernelDecl& kernel) : access_(kernel.params.size()) {}

    std::vector<ParamAccess> take() { return std::move(access_); }

    void stmt(const Stmt* node) {
        if (node == nullptr)
            return;
        switch (node->kind) {
        case NodeKind::Compound:
            for (const Stmt* child : static_cast<const Compound*>(node)->body)
                stmt(child);
            return;
        case NodeKind::DeclStmt:
            for (const LocalDecl* var : static_cast<const DeclStmt*>(node)->vars)
                expr(var->init);
            return;
        case NodeKind::ExprStmt:
            expr(static_cast<const ExprStmt*>(node)->expr);
            return;
        case NodeKind::If: {
            const auto* branch = static_cast<const If*>(node);
            expr(branch->condition);
            stmt(branch->then_branch);
            stmt(branch->else_branch);
            return;
        }
        case NodeKind::For: {
            const auto* loop = static_cast<const For*>(node);
            stmt(loop->init);
            expr(loop->condition);
            expr(loop->step);
            stmt(loop->body);
            return;
        }
        case NodeKind::While:
            expr(static_cast<const While*>(node)->condition);
            stmt(static_cast<const While*>(node)->body);
            return;
        case NodeKind::DoWhile:
            stmt(static_cast<const DoWhile*>(node)->body);
            expr(static_cast<const DoWhile*>(node)->condition);
            return;
        case NodeKind::Return:
            expr(static_cast<const Return*>(node)->value);
            return;
        case NodeKind::Push:
            use(static_cast<const Push*>(node)->stream, Use::ReadWrite);
            return;
        case NodeKind::Break:
        case NodeKind::Continue:
        case NodeKind::Empty:
        case NodeKind::Discard:
        case NodeKind::SyncGroup:
            return;
#include "ast/expr_kind_cases.def"
            return;
        }
    }

private:
    enum class Use { Read, Write, ReadWrite };

    void expr(const Expr* node, Use how = Use::Read) {
        if (node == nullptr)
            return;
        switch (node->kind) {
        case NodeKind::IntLiteral:
        case NodeKind::FloatLiteral:
        case NodeKind::BoolLiteral:
        case NodeKind::Indexof: // a position, not the stream's elements
        case NodeKind::InstanceInGroup:
            return;
        case NodeKind::NameRef:
            use(static_cast<const NameRef*>(node), how);
            return;
        case NodeKind::Unary: {
            const auto* unary = static_cast<const Unary*>(node);
            const bool steps = unary->op == UnaryOp::PreInc || unary->op == UnaryOp::PreDec ||
                               unary->op == UnaryOp::PostInc || unary->op == UnaryOp::PostDec;
            expr(unary->operand, steps ? Use::ReadWrite : Use::Read);
            return;
        }
        case NodeKind::Binary:
            expr(static_cast<const Binary*>(node)->lhs);
            expr(static_cast<const Binary*>(node)->rhs);
            return;
        case NodeKind::Assign: {
            const auto* assign = static_cast<const Assign*>(node);
            const bool whole =
                assign->op == AssignOp::Assign && assign->target->kind == NodeKind::NameRef;
            expr(assign->target, whole ? Use::Write : Use::ReadWrite);
            expr(assign->value);
            return;
        }
        case NodeKind::Conditional: {
            const auto* conditional = static_cast<const Conditional*>(node);
            expr(conditional->condition);
            expr(conditional->then_value);
            expr(conditional->else_value);
            return;
        }
        case NodeKind::Call: {
            const auto* call = static_cast<const Call*>(node);
            for (std::size_t i = 0; i < call->args.size(); ++i) {
                const bool out = call->helper != nullptr && i < call->helper->params.size() &&
                                 call->helper->params[i]->param_kind == ParamKind::OutputStream;
                expr(call->args[i], out ? Use::ReadWrite : Use::Read);
            }
            return;
        }
        case NodeKind::Construct:
            for (const Expr* arg : static_cast<const Construct*>(node)->args)
                expr(arg);
            return;
        case NodeKind::Cast:
            expr(static_cast<const Cast*>(node)->operand);
            return;
        case NodeKind::ImplicitConvert:
            expr(static_cast<const ImplicitConvert*>(node)->operand);
            return;
        case NodeKind::Member:
            // A field or components of the base: writing them leaves the rest as it was.
            expr(static_cast<const Member*>(node)->base, how == Use::Read ? how : Use::ReadWrite);
            return;
        case NodeKind::Subscript: {
            const auto* subscript = static_cast<const Subscript*>(node);
            // `o[i] = v` on a scatter output writes an element whole (and nothing reads one).
            const Use base_use = subscript->scatter != nullptr ? Use::Write
                                 : how == Use::Read            ? how
                                                               : Use::ReadWrite;
            expr(subscript->base, base_use);
            for (const Expr* index : subscript->indices)
                expr(index);
            return;
        }
        case NodeKind::InitList:
            for (const Expr* element : static_cast<const InitList*>(node)->elements)
                expr(element);
            return;
#include "ast/stmt_kind_cases.def"
            return;
        }
    }

    void use(const NameRef* name, Use how) {
        if (name->decl == nullptr || name->decl->decl_kind != ValueDecl::Kind::Param)
            return;
        ParamAccess& access =
            access_[static_cast<std::size_t>(static_cast<const ParamDecl*>(name->decl)->index)];
        access.read = access.read || how != Use::Write;
        access.written = access.written || how != Use::Read;
    }

    std::vector<ParamAccess> access_;
};

} // namespace

std::vector<ParamAccess> param_access(const KernelDecl& kernel) {
    AccessWalker walker(kernel);
    walker.stmt(kernel.body);
    std::vector<ParamAccess> access = walker.take();
    // A discarded element keeps every output's old value, so a kernel that may discard reads
    // them all.
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind == ParamKind::OutputStream)
            access[static_cast<std::size_t>(param->index)].read =
                kernel.discards || !assigned_before_use(*kernel.body, *param);
    }
    return access;
}

bool has_variable_output(const KernelDecl& kernel) {
    return std::any_of(kernel.params.begin(), kernel.params.end(), [](const ParamDecl* param) {
        return param->param_kind == ParamKind::VariableOutput;
    });
}

namespace {

const LocalDecl* shared_array_in(const Stmt& stmt) {
    if (stmt.kind == NodeKind::DeclStmt) {
        for (const LocalDecl* var : static_cast<const DeclStmt&>(stmt).vars) {
            if (var->shared_extent != 0)
                return var;
        }
    }
    const LocalDecl* found = nullptr;
    for_each_child(
        stmt,
        [&](const Stmt* child) {
            if (found == nullptr)
                found = shared_array_in(*child);
        },
        [](const Expr*) {});
    return found;
}

} // namespace

const LocalDecl* shared_array(const KernelDecl& kernel) {
    return kernel.body != nullptr ? shared_array_in(*kernel.body) : nullptr;
}

bool has_scatter_output(const KernelDecl& kernel) {
    return std::any_of(kernel.params.begin(), kernel.params.end(), [](const ParamDecl* param) {
        return param->param_kind == ParamKind::ScatterOutput;
    });
}

const ParamDecl& reduce_input(const KernelDecl& kernel) {
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind == ParamKind::ReduceInput)
            return *param;
    }
    internal_error(__FILE__, __LINE__, "reduction without an input stream");
}

} // namespace brcc
