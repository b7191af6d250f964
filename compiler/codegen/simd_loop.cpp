// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The check behind find_simd_loop: one walk over the loop body that gives up at the first thing
// a SIMD loop cannot run (a nested loop, a jump, a push, an assignment to anything but the
// body's own locals or a sum, a called kernel with `out` parameters or that may discard),
// recording the locals the body declares, the outer locals it reads, the sums it adds to and the
// gathers indexed by the loop counter. The conditions that need the whole walk (a sum is never
// read, the bounds do not change) are checked after it.

#include "codegen/simd_loop.hpp"

#include "codegen/cpp_kernel_printer.hpp"

#include <algorithm>
#include <set>

namespace brcc {

namespace {

bool is_scalar_of(const Type& type, ScalarType scalar) {
    return type.is_scalar() && type.scalar_type() == scalar;
}

const LocalDecl* local_of(const Expr& expr) {
    if (expr.kind != NodeKind::NameRef)
        return nullptr;
    const ValueDecl* decl = static_cast<const NameRef&>(expr).decl;
    if (decl == nullptr || decl->decl_kind != ValueDecl::Kind::Local)
        return nullptr;
    return static_cast<const LocalDecl*>(decl);
}

/// Whether `expr` is `counter`, possibly converted (`g[j]` on a float gather index).
bool is_counter(const Expr& expr, const LocalDecl* counter) {
    if (expr.kind == NodeKind::ImplicitConvert)
        return is_counter(*static_cast<const ImplicitConvert&>(expr).operand, counter);
    return local_of(expr) == counter;
}

class BodyChecker {
public:
    explicit BodyChecker(const LocalDecl* counter) : counter_(counter) {}

    bool stmt(const Stmt& stmt) {
        switch (stmt.kind) {
        case NodeKind::Compound: {
            const auto& compound = static_cast<const Compound&>(stmt);
            return std::all_of(compound.body.begin(), compound.body.end(),
                               [this](const Stmt* s) { return this->stmt(*s); });
        }
        case NodeKind::DeclStmt:
            for (const LocalDecl* var : static_cast<const DeclStmt&>(stmt).vars) {
                if (var->init != nullptr && !expr(*var->init))
                    return false;
                own_.insert(var);
            }
            return true;
        case NodeKind::ExprStmt: {
            const Expr& e = *static_cast<const ExprStmt&>(stmt).expr;
            return sum_update(e) || expr(e);
        }
        case NodeKind::If: {
            const auto& branch = static_cast<const If&>(stmt);
            return expr(*branch.condition) && this->stmt(*branch.then_branch) &&
                   (branch.else_branch == nullptr || this->stmt(*branch.else_branch));
        }
        case NodeKind::Empty:
            return true;
        case NodeKind::For:
        case NodeKind::While:
        case NodeKind::DoWhile:
        case NodeKind::Break:
        case NodeKind::Continue:
        case NodeKind::Return:
        case NodeKind::Push:
        case NodeKind::Discard:
        case NodeKind::SyncGroup:
            return false;
#include "ast/expr_kind_cases.def"
            break;
        }
        return false;
    }

    /// A read of `e` (and the assignments inside it, which must target the body's locals).
    bool expr(const Expr& e) {
        switch (e.kind) {
        case NodeKind::IntLiteral:
        case NodeKind::FloatLiteral:
        case NodeKind::BoolLiteral:
        case NodeKind::Indexof:
        case NodeKind::InstanceInGroup:
            return true;
        case NodeKind::NameRef:
            if (const LocalDecl* local = local_of(e); local != nullptr && !own_.contains(local))
                outer_reads_.insert(local);
            return true;
        case NodeKind::Unary: {
            const auto& unary = static_cast<const Unary&>(e);
            const bool changes = unary.op == UnaryOp::PreInc || unary.op == UnaryOp::PreDec ||
                                 unary.op == UnaryOp::PostInc || unary.op == UnaryOp::PostDec;
            return changes ? own_target(*unary.operand) : expr(*unary.operand);
        }
        case NodeKind::Binary: {
            const auto& binary = static_cast<const Binary&>(e);
            return expr(*binary.lhs) && expr(*binary.rhs);
        }
        case NodeKind::Assign: {
            const auto& assign = static_cast<const Assign&>(e);
            return own_target(*assign.target) && expr(*assign.value);
        }
        case NodeKind::Conditional: {
            const auto& conditional = static_cast<const Conditional&>(e);
            return expr(*conditional.condition) && expr(*conditional.then_value) &&
                   expr(*conditional.else_value);
        }
        case NodeKind::Call: {
            const auto& call = static_cast<const Call&>(e);
            if (call.helper != nullptr &&
                (call.helper->discards || has_out_parameters(*call.helper)))
                return false;
            return all(call.args);
        }
        case NodeKind::Construct:
            return all(static_cast<const Construct&>(e).args);
        case NodeKind::Cast:
            return expr(*static_cast<const Cast&>(e).operand);
        case NodeKind::ImplicitConvert:
            return expr(*static_cast<const ImplicitConvert&>(e).operand);
        case NodeKind::Member:
            return expr(*static_cast<const Member&>(e).base);
        case NodeKind::Subscript: {
            const auto& subscript = static_cast<const Subscript&>(e);
            // Only a subscript per dimension of the gather's view names dimension d with its
            // d-th index (one index of a wider view is an element offset).
            if (subscript.gather != nullptr && static_cast<int>(subscript.indices.size()) ==
                                                   subscript.gather->gather_view_rank()) {
                for (std::size_t d = 0; d < subscript.indices.size(); ++d) {
                    if (is_counter(*subscript.indices[d], counter_))
                        counter_indices_.emplace_back(&subscript, static_cast<int>(d));
                }
            }
            return expr(*subscript.base) && all(subscript.indices);
        }
        case NodeKind::InitList:
            return all(static_cast<const InitList&>(e).elements);
#include "ast/stmt_kind_cases.def"
            break;
        }
        return false;
    }

    const std::set<const LocalDecl*>& outer_reads() const {
        return outer_reads_;
    }
    const std::vector<const LocalDecl*>& sums() const {
        return sums_;
    }
    std::vector<std::pair<const Subscript*, int>> counter_indices() const {
        return counter_indices_;
    }

private:
    bool all(const std::vector<Expr*>& exprs) {
        return std::all_of(exprs.begin(), exprs.end(), [this](const Expr* e) { return expr(*e); });
    }

    /// `sum += e;` or `sum -= e;` as a whole statement, on a scalar float of the enclosing code.
    bool sum_update(const Expr& e) {
        if (e.kind != NodeKind::Assign)
            return false;
        const auto& assign = static_cast<const Assign&>(e);
        const LocalDecl* target = local_of(*assign.target);
        if ((assign.op != AssignOp::Add && assign.op != AssignOp::Sub) || target == nullptr ||
            own_.contains(target) || target == counter_ ||
            !is_scalar_of(target->type, ScalarType::Float))
            return false;
        if (!expr(*assign.value))
            return false;
        if (std::find(sums_.begin(), sums_.end(), target) == sums_.end())
            sums_.push_back(target);
        return true;
    }

    /// An assignment's target: one of the body's own locals, or a component or field of one.
    bool own_target(const Expr& target) {
        if (target.kind == NodeKind::Member)
            return own_target(*static_cast<const Member&>(target).base);
        if (target.kind == NodeKind::Subscript) {
            const auto& subscript = static_cast<const Subscript&>(target);
            return subscript.gather == nullptr && own_target(*subscript.base) &&
                   all(subscript.indices);
        }
        const LocalDecl* local = local_of(target);
        return local != nullptr && own_.contains(local);
    }

    const LocalDecl* counter_;
    std::set<const LocalDecl*> own_;
    std::set<const LocalDecl*> outer_reads_;
    std::vector<const LocalDecl*> sums_;
    std::vector<std::pair<const Subscript*, int>> counter_indices_;
};

/// What a loop's bounds read: locals, and whether anything that differs between elements.
struct BoundReads {
    std::set<const LocalDecl*> locals;
    bool per_element = false;
};

/// A loop bound: literals, names, arithmetic and conversions, without side effects.
bool pure_bound(const Expr& e, BoundReads& reads) {
    if (e.kind == NodeKind::IntLiteral)
        return true;
    if (e.kind == NodeKind::NameRef) {
        const ValueDecl* decl = static_cast<const NameRef&>(e).decl;
        if (const LocalDecl* local = local_of(e))
            reads.locals.insert(local);
        if (decl == nullptr || decl->decl_kind != ValueDecl::Kind::Param ||
            static_cast<const ParamDecl*>(decl)->param_kind != ParamKind::Constant)
            reads.per_element = true;
        return true;
    }
    if (e.kind == NodeKind::Binary) {
        const auto& binary = static_cast<const Binary&>(e);
        return (binary.op == BinaryOp::Add || binary.op == BinaryOp::Sub ||
                binary.op == BinaryOp::Mul) &&
               pure_bound(*binary.lhs, reads) && pure_bound(*binary.rhs, reads);
    }
    if (e.kind == NodeKind::ImplicitConvert)
        return pure_bound(*static_cast<const ImplicitConvert&>(e).operand, reads);
    if (e.kind == NodeKind::Cast)
        return pure_bound(*static_cast<const Cast&>(e).operand, reads);
    if (e.kind == NodeKind::Member)
        return pure_bound(*static_cast<const Member&>(e).base, reads);
    return false;
}

/// `++i`, `i++` or `i += 1`.
bool steps_by_one(const Expr& step, const LocalDecl* counter) {
    if (step.kind == NodeKind::Unary) {
        const auto& unary = static_cast<const Unary&>(step);
        return (unary.op == UnaryOp::PreInc || unary.op == UnaryOp::PostInc) &&
               local_of(*unary.operand) == counter;
    }
    if (step.kind == NodeKind::Assign) {
        const auto& assign = static_cast<const Assign&>(step);
        return assign.op == AssignOp::Add && local_of(*assign.target) == counter &&
               assign.value->kind == NodeKind::IntLiteral &&
               static_cast<const IntLiteral&>(*assign.value).value == 1;
    }
    return false;
}

} // namespace

std::optional<SimdLoop> find_simd_loop(const For& loop) {
    if (loop.init == nullptr || loop.init->kind != NodeKind::DeclStmt ||
        loop.condition == nullptr || loop.step == nullptr)
        return std::nullopt;
    const auto& init = static_cast<const DeclStmt&>(*loop.init);
    if (init.vars.size() != 1 || init.vars.front()->init == nullptr ||
        !is_scalar_of(init.vars.front()->type, ScalarType::Int))
        return std::nullopt;
    SimdLoop simd;
    simd.counter = init.vars.front();
    simd.lower = simd.counter->init;
    if (loop.condition->kind != NodeKind::Binary)
        return std::nullopt;
    const auto& condition = static_cast<const Binary&>(*loop.condition);
    if ((condition.op != BinaryOp::Less && condition.op != BinaryOp::LessEqual) ||
        local_of(*condition.lhs) != simd.counter || !steps_by_one(*loop.step, simd.counter))
        return std::nullopt;
    simd.upper = condition.rhs;
    simd.inclusive = condition.op == BinaryOp::LessEqual;

    BoundReads bound_reads;
    if (!pure_bound(*simd.lower, bound_reads) || !pure_bound(*simd.upper, bound_reads) ||
        bound_reads.locals.contains(simd.counter))
        return std::nullopt;
    simd.uniform_bounds = !bound_reads.per_element;
    BodyChecker body(simd.counter);
    if (!body.stmt(*loop.body))
        return std::nullopt;
    for (const LocalDecl* sum : body.sums()) {
        if (body.outer_reads().contains(sum) || bound_reads.locals.contains(sum))
            return std::nullopt;
    }
    simd.sums = body.sums();
    simd.counter_indices = body.counter_indices();
    return simd;
}

} // namespace brcc
