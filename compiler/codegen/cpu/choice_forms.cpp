// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "codegen/cpu/choice_forms.hpp"

#include "ast/operands.hpp"
#include "ast/stmt_children.hpp"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace brcc {

namespace {

/// The local that `e` names, or null.
const LocalDecl* named_local(const Expr& e) {
    if (e.kind != NodeKind::NameRef)
        return nullptr;
    const ValueDecl* decl = static_cast<const NameRef&>(e).decl;
    return decl != nullptr && decl->decl_kind == ValueDecl::Kind::Local
               ? static_cast<const LocalDecl*>(decl)
               : nullptr;
}

/// The local that assigning to `target` changes (`p`, `p.x`, `s.f.y`), or null.
const LocalDecl* assigned_local(const Expr& target) {
    const Expr* base = &target;
    while (base->kind == NodeKind::Member)
        base = static_cast<const Member*>(base)->base;
    return named_local(*base);
}

/// What the walk of a body finds: the gathers' indices, the values given to each local, and the
/// conditionals whose condition is each local.
struct Flow {
    std::vector<const Expr*> indices;
    std::unordered_map<const LocalDecl*, std::vector<const Expr*>> values;
    std::unordered_map<const LocalDecl*, std::vector<const Conditional*>> conditioned;

    void expr(const Expr* e) {
        if (e->kind == NodeKind::Conditional) {
            const auto* conditional = static_cast<const Conditional*>(e);
            if (const LocalDecl* local = named_local(*conditional->condition))
                conditioned[local].push_back(conditional);
        }
        if (e->kind == NodeKind::Subscript) {
            const auto& subscript = static_cast<const Subscript&>(*e);
            if (subscript.gather != nullptr)
                indices.insert(indices.end(), subscript.indices.begin(), subscript.indices.end());
        } else if (e->kind == NodeKind::Assign) {
            const auto& assign = static_cast<const Assign&>(*e);
            if (const LocalDecl* local = assigned_local(*assign.target))
                values[local].push_back(assign.value);
        }
        for_each_operand(*e, [this](const Expr* operand) { expr(operand); });
    }

    void stmt(const Stmt* s) {
        if (s->kind == NodeKind::DeclStmt) {
            for (const LocalDecl* var : static_cast<const DeclStmt*>(s)->vars) {
                if (var->init != nullptr)
                    values[var].push_back(var->init);
            }
        }
        for_each_child(
            *s, [this](const Stmt* child) { stmt(child); },
            [this](const Expr* child) { expr(child); });
    }
};

/// Adds the conditionals inside `e` to `found` and the locals it reads to `read`.
void collect(const Expr* e, std::unordered_set<const Conditional*>& found,
             std::vector<const LocalDecl*>& read) {
    if (e->kind == NodeKind::Conditional)
        found.insert(static_cast<const Conditional*>(e));
    if (const LocalDecl* local = named_local(*e))
        read.push_back(local);
    for_each_operand(*e, [&](const Expr* operand) { collect(operand, found, read); });
}

} // namespace

std::unordered_set<const Conditional*> componentwise_choices(const Stmt& body) {
    Flow flow;
    flow.stmt(&body);
    std::unordered_set<const Conditional*> found;
    std::unordered_set<const LocalDecl*> addresses;
    std::vector<const LocalDecl*> pending;
    for (const Expr* index : flow.indices)
        collect(index, found, pending);
    while (!pending.empty()) {
        const LocalDecl* local = pending.back();
        pending.pop_back();
        if (!addresses.insert(local).second)
            continue;
        for (const Expr* value : flow.values[local])
            collect(value, found, pending);
    }
    // The choices decided by the condition of an address's: the same branch serves them all.
    for (const auto& [local, conditionals] : flow.conditioned) {
        if (std::ranges::any_of(conditionals,
                                [&](const Conditional* c) { return found.contains(c); }))
            found.insert(conditionals.begin(), conditionals.end());
    }
    return found;
}

} // namespace brcc
