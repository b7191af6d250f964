// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Evaluates each gather index symbolically, a component at a time: a component is a whole-number
// constant, indexof(s).c plus a whole-number constant (a "position"), or unknown; a constant or a
// position may also add one component of a constant argument (`a[indexof(r).y + origin.y]`), whose
// value the backend reads at the launch. Literals, indexof, constant arguments, swizzles, + and -
// of such terms, unary minus of a whole number, casts and conversions between int and float
// (exact on whole numbers; an argument's fraction moves its row by at most one, which the
// backend's floor and ceiling of it cover), vector constructors and locals that are initialised
// and never changed afterwards are followed; anything else is unknown, and one unknown row
// component leaves the gather unbounded. The row component of an index of K components is the first
// subscript of `g[r][c]`, or the last component (.y of a float2: .x is the last dimension) of
// one vector subscript.
#include "codegen/gather_rows.hpp"

#include "ast/operands.hpp"
#include "ast/stmt_children.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <set>

namespace brcc {

namespace {

struct Term {
    /// In the order plus() keeps them on the left of a sum.
    enum class Kind { Unknown, Constant, Argument, Position };
    Kind kind = Kind::Unknown;
    int stream = -1;   ///< Position: the parameter in indexof
    int component = 0; ///< Position: x = 0 .. w = 3
    long long offset = 0;
    /// Argument, and a Position that adds one: the constant parameter and its component.
    int argument = -1;
    int argument_component = 0;
};

using Terms = std::array<Term, 4>;

/// Bounded whole numbers only: an offset past this is not a neighbour worth fetching by rows.
constexpr long long max_offset = 1 << 20;

Term constant(double value) {
    Term term;
    if (std::floor(value) == value && std::fabs(value) <= static_cast<double>(max_offset)) {
        term.kind = Term::Kind::Constant;
        term.offset = static_cast<long long>(value);
    }
    return term;
}

Term plus(const Term& a, const Term& b, int sign) {
    if (a.kind == Term::Kind::Unknown || b.kind == Term::Kind::Unknown)
        return Term{};
    if (sign > 0 && b.kind > a.kind)
        return plus(b, a, 1);
    // A position is never subtracted, nor added to another; an argument is only added, once.
    if (b.kind == Term::Kind::Position ||
        (b.kind == Term::Kind::Argument &&
         (sign < 0 || a.kind == Term::Kind::Argument || a.argument >= 0)))
        return Term{};
    Term sum = a;
    if (b.kind == Term::Kind::Argument) {
        if (a.kind == Term::Kind::Constant)
            sum.kind = Term::Kind::Argument;
        sum.argument = b.argument;
        sum.argument_component = b.argument_component;
    }
    sum.offset = a.offset + sign * b.offset;
    if (std::llabs(sum.offset) > max_offset)
        return Term{};
    return sum;
}

/// The locals assigned after their declaration (or incremented, or passed to a kernel that may
/// write its argument back): their initialiser does not say their value.
class Mutations {
public:
    explicit Mutations(const KernelDecl& kernel);
    bool changed(const ValueDecl* decl) const { return changed_.count(decl) != 0; }

    static const ValueDecl* root(const Expr* expr) {
        while (expr != nullptr) {
            if (expr->kind == NodeKind::NameRef)
                return static_cast<const NameRef*>(expr)->decl;
            if (expr->kind == NodeKind::Member)
                expr = static_cast<const Member*>(expr)->base;
            else if (expr->kind == NodeKind::Subscript)
                expr = static_cast<const Subscript*>(expr)->base;
            else
                return nullptr;
        }
        return nullptr;
    }

    void expression(const Expr* expr) {
        if (expr == nullptr)
            return;
        if (expr->kind == NodeKind::Unary) {
            const auto* unary = static_cast<const Unary*>(expr);
            if (unary->op != UnaryOp::Plus && unary->op != UnaryOp::Minus &&
                unary->op != UnaryOp::Not && unary->op != UnaryOp::BitNot)
                changed_.insert(root(unary->operand));
        } else if (expr->kind == NodeKind::Assign) {
            changed_.insert(root(static_cast<const Assign*>(expr)->target));
        } else if (expr->kind == NodeKind::Call &&
                   static_cast<const Call*>(expr)->helper != nullptr) {
            for (const Expr* arg : static_cast<const Call*>(expr)->args)
                changed_.insert(root(arg));
        }
        for_each_operand(*expr, [this](const Expr* operand) { expression(operand); });
    }

private:
    std::set<const ValueDecl*> changed_;
};

/// Calls visitor.expression(e) for every outermost expression of `stmt` (locals' initialisers
/// included).
template <class Visitor> void walk(const Stmt* stmt, Visitor& visitor) {
    if (stmt == nullptr)
        return;
    for_each_child(
        *stmt, [&visitor](const Stmt* child) { walk(child, visitor); },
        [&visitor](const Expr* child) { visitor.expression(child); });
}

Mutations::Mutations(const KernelDecl& kernel) {
    walk(kernel.body, *this);
}

/// The parameter `expr` names, if it names one.
const ParamDecl* named_param(const Expr* expr) {
    if (expr == nullptr || expr->kind != NodeKind::NameRef)
        return nullptr;
    const ValueDecl* decl = static_cast<const NameRef*>(expr)->decl;
    return decl != nullptr && decl->decl_kind == ValueDecl::Kind::Param
               ? static_cast<const ParamDecl*>(decl)
               : nullptr;
}

/// The symbolic value of expressions, component by component.
class Evaluator {
public:
    explicit Evaluator(const Mutations& mutations) : mutations_(&mutations) {}

    /// The terms of `expr`'s components (as many as its type's width).
    Terms terms(const Expr* expr, int depth = 0) const {
        Terms unknown{};
        if (expr == nullptr || depth > 32)
            return unknown;
        switch (expr->kind) {
        case NodeKind::IntLiteral: {
            const auto value = static_cast<const IntLiteral*>(expr)->value;
            return broadcast(value <= static_cast<unsigned long long>(max_offset)
                                 ? constant(static_cast<double>(value))
                                 : Term{});
        }
        case NodeKind::FloatLiteral:
            return broadcast(constant(static_cast<const FloatLiteral*>(expr)->value));
        case NodeKind::Indexof: {
            const auto* indexof = static_cast<const Indexof*>(expr);
            const ParamDecl* param = named_param(indexof->stream);
            if (param == nullptr)
                return unknown;
            Terms position;
            for (int c = 0; c < 4; ++c) {
                position[static_cast<std::size_t>(c)] = {Term::Kind::Position, param->index, c, 0};
            }
            return position;
        }
        case NodeKind::Member: {
            const auto* member = static_cast<const Member*>(expr);
            if (!member->is_swizzle)
                return unknown;
            const Terms base = terms(member->base, depth + 1);
            Terms picked;
            for (int c = 0; c < member->swizzle_length; ++c) {
                picked[static_cast<std::size_t>(c)] =
                    base[member->swizzle[static_cast<std::size_t>(c)]];
            }
            return picked;
        }
        case NodeKind::Binary: {
            const auto* binary = static_cast<const Binary*>(expr);
            if (binary->op != BinaryOp::Add && binary->op != BinaryOp::Sub)
                return unknown;
            const Terms lhs = terms(binary->lhs, depth + 1);
            const Terms rhs = terms(binary->rhs, depth + 1);
            Terms sum;
            for (std::size_t c = 0; c < 4; ++c) {
                sum[c] = plus(lhs[c], rhs[c], binary->op == BinaryOp::Add ? 1 : -1);
            }
            return sum;
        }
        case NodeKind::Unary: {
            const auto* unary = static_cast<const Unary*>(expr);
            if (unary->op == UnaryOp::Plus)
                return terms(unary->operand, depth + 1);
            if (unary->op != UnaryOp::Minus)
                return unknown;
            Terms negated = terms(unary->operand, depth + 1);
            for (Term& term : negated) {
                term = term.kind == Term::Kind::Constant
                           ? constant(-static_cast<double>(term.offset))
                           : Term{};
            }
            return negated;
        }
        case NodeKind::Cast:
            return converted(static_cast<const Cast*>(expr)->operand, expr->type, depth);
        case NodeKind::ImplicitConvert:
            return converted(static_cast<const ImplicitConvert*>(expr)->operand, expr->type, depth);
        case NodeKind::Construct: {
            Terms built;
            std::size_t at = 0;
            for (const Expr* arg : static_cast<const Construct*>(expr)->args) {
                const Terms part = terms(arg, depth + 1);
                for (int c = 0; c < arg->type.width() && at < 4; ++c) {
                    built[at++] = part[static_cast<std::size_t>(c)];
                }
            }
            return built;
        }
        case NodeKind::NameRef: {
            if (const ParamDecl* param = named_param(expr))
                return argument(*param);
            const ValueDecl* decl = static_cast<const NameRef*>(expr)->decl;
            if (decl == nullptr || decl->decl_kind != ValueDecl::Kind::Local)
                return unknown;
            const auto* local = static_cast<const LocalDecl*>(decl);
            if (local->init == nullptr || mutations_->changed(local) ||
                local->init->kind == NodeKind::InitList)
                return unknown;
            return converted(local->init, local->type, depth);
        }
        case NodeKind::Subscript:
        case NodeKind::Call:
        case NodeKind::Conditional:
        case NodeKind::Assign:
        case NodeKind::InitList:
        case NodeKind::InstanceInGroup:
        case NodeKind::BoolLiteral:
            return unknown;
#include "ast/stmt_kind_cases.def"
            break;
        }
        return unknown;
    }

private:
    static Terms broadcast(const Term& term) {
        return {term, term, term, term};
    }

    /// The components of a float or int constant parameter (ParamInfo::row_shift's kinds).
    static Terms argument(const ParamDecl& param) {
        const Type& type = param.type;
        if (param.param_kind != ParamKind::Constant || !type.is_arithmetic() ||
            (type.scalar_type() != ScalarType::Float && type.scalar_type() != ScalarType::Int))
            return Terms{};
        Terms components;
        for (int c = 0; c < type.width(); ++c) {
            Term& term = components[static_cast<std::size_t>(c)];
            term.kind = Term::Kind::Argument;
            term.argument = param.index;
            term.argument_component = c;
        }
        return components;
    }

    /// `operand` as `type`: whole numbers and positions stay what they are between int and
    /// float; a scalar becomes every component of a vector.
    Terms converted(const Expr* operand, const Type& type, int depth) const {
        if (!type.is_arithmetic() ||
            (type.scalar_type() != ScalarType::Float && !is_integer(type.scalar_type())))
            return Terms{};
        const Terms value = terms(operand, depth + 1);
        if (operand->type.width() == 1 && type.width() > 1)
            return broadcast(value[0]);
        return value;
    }

    const Mutations* mutations_;
};

/// Collects the row terms of each gather's indices, and the gathers used otherwise.
struct GatherUses {
    const Evaluator* evaluator = nullptr;
    std::vector<GatherRows>* rows = nullptr;
    std::vector<bool>* seen = nullptr;

    void unbound(int param) {
        (*rows)[static_cast<std::size_t>(param)].from = -1;
        (*seen)[static_cast<std::size_t>(param)] = true;
    }

    /// Adds the row term of one index of `gather`.
    void index(const Subscript& subscript, const ParamDecl& gather) {
        const auto param = static_cast<std::size_t>(gather.index);
        const bool first = !(*seen)[param];
        GatherRows& bound = (*rows)[param];
        if (!first && bound.from < 0)
            return;
        (*seen)[param] = true;
        Term row;
        if (subscript.indices.size() == 1) {
            const Expr* vector = subscript.indices[0];
            row = evaluator->terms(vector)[static_cast<std::size_t>(vector->type.width() - 1)];
        } else {
            row = evaluator->terms(subscript.indices[0])[0];
        }
        if (row.kind != Term::Kind::Position ||
            (!first && (row.stream != bound.stream || row.component != bound.from ||
                        row.argument != bound.argument ||
                        row.argument_component != bound.argument_component))) {
            bound.from = -1;
            return;
        }
        if (first) {
            bound = {row.component, row.stream,   row.offset,
                     row.offset,    row.argument, row.argument_component};
            return;
        }
        bound.reach_low = std::min(bound.reach_low, row.offset);
        bound.reach_high = std::max(bound.reach_high, row.offset);
    }

    void expression(const Expr* expr) {
        if (expr == nullptr)
            return;
        switch (expr->kind) {
        case NodeKind::NameRef: {
            const ParamDecl* param = named_param(expr);
            if (param != nullptr && param->param_kind == ParamKind::Gather)
                unbound(param->index);
            break;
        }
        case NodeKind::Subscript: {
            const auto* subscript = static_cast<const Subscript*>(expr);
            if (subscript->gather != nullptr)
                index(*subscript, *subscript->gather);
            else
                expression(subscript->base);
            for (const Expr* index_expr : subscript->indices)
                expression(index_expr);
            break;
        }
        case NodeKind::Assign:
        case NodeKind::Binary:
        case NodeKind::BoolLiteral:
        case NodeKind::Call:
        case NodeKind::Cast:
        case NodeKind::Conditional:
        case NodeKind::Construct:
        case NodeKind::FloatLiteral:
        case NodeKind::ImplicitConvert:
        case NodeKind::Indexof:
        case NodeKind::InstanceInGroup:
        case NodeKind::InitList:
        case NodeKind::IntLiteral:
        case NodeKind::Member:
        case NodeKind::Unary:
            for_each_operand(*expr, [this](const Expr* operand) { expression(operand); });
            break;
#include "ast/stmt_kind_cases.def"
            break;
        }
    }
};

} // namespace

std::vector<GatherRows> gather_rows(const KernelDecl& kernel) {
    std::vector<GatherRows> rows(kernel.params.size());
    if (kernel.body == nullptr || kernel.is_reduce)
        return rows;
    const Mutations mutations(kernel);
    const Evaluator evaluator(mutations);
    std::vector<bool> seen(kernel.params.size(), false);
    GatherUses uses{&evaluator, &rows, &seen};
    walk(kernel.body, uses);
    for (const ParamDecl* param : kernel.params) {
        GatherRows& bound = rows[static_cast<std::size_t>(param->index)];
        const bool one_width = std::popcount(param->gather_index_widths) == 1;
        const ParamDecl* stream =
            bound.from >= 0 ? kernel.params[static_cast<std::size_t>(bound.stream)] : nullptr;
        // The position must be the element's own: indexof an input or output stream.
        if (param->param_kind != ParamKind::Gather ||
            !seen[static_cast<std::size_t>(param->index)] || !one_width || stream == nullptr ||
            (stream->param_kind != ParamKind::InputStream &&
             stream->param_kind != ParamKind::OutputStream))
            bound = GatherRows{};
    }
    return rows;
}

} // namespace brcc
