// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Greedy one-at-a-time delta debugging: candidates are numbered in a fixed walk of the tree, and
// after a successful change the walk resumes at the same number, which now names the next
// candidate.
#include "reducer.hpp"

namespace brook_fuzz {
namespace {

// Calls `visit` on every statement list of the program, depth first.
void for_each_body(Program& program, const std::function<void(std::vector<Stmt>&)>& visit) {
    std::function<void(std::vector<Stmt>&)> walk = [&](std::vector<Stmt>& body) {
        visit(body);
        for (Stmt& stmt : body) {
            for (std::vector<Stmt>& inner : stmt.bodies) {
                walk(inner);
            }
        }
    };
    for (Unit& unit : program.units) {
        for (Kernel& kernel : unit.kernels) {
            walk(kernel.body);
        }
    }
}

// Removes the n-th removable statement; false when there are fewer.
bool remove_statement(Program& program, int n) {
    bool removed = false;
    for_each_body(program, [&](std::vector<Stmt>& body) {
        for (auto it = body.begin(); it != body.end() && !removed; ++it) {
            if (it->removable && n-- == 0) {
                body.erase(it);
                removed = true;
                return;
            }
        }
    });
    return removed;
}

bool replace_in(Expr& expr, int& n) {
    if (!expr.fallback.empty() && n-- == 0) {
        expr = Expr{expr.fallback, {}, {}};
        return true;
    }
    for (Expr& child : expr.children) {
        if (replace_in(child, n)) {
            return true;
        }
    }
    return false;
}

// Replaces the n-th expression that has a fallback (outermost first); false when there are fewer.
bool replace_expression(Program& program, int n) {
    bool replaced = false;
    for_each_body(program, [&](std::vector<Stmt>& body) {
        for (Stmt& stmt : body) {
            for (Expr& expr : stmt.exprs) {
                if (!replaced && replace_in(expr, n)) {
                    replaced = true;
                }
            }
        }
    });
    return replaced;
}

} // namespace

Program reduce(Program program, const std::function<bool(const Program&)>& still_fails,
               int budget) {
    auto attempt = [&](const Program& candidate) { return budget-- > 0 && still_fails(candidate); };
    for (std::size_t i = program.units.size(); i-- > 0 && program.units.size() > 1;) {
        Program candidate = program;
        candidate.units.erase(candidate.units.begin() + static_cast<long>(i));
        if (attempt(candidate)) {
            program = std::move(candidate);
        }
    }
    for (const auto& change : {remove_statement, replace_expression}) {
        for (int n = 0; budget > 0;) {
            Program candidate = program;
            if (!change(candidate, n)) {
                break;
            }
            if (attempt(candidate)) {
                program = std::move(candidate);
            } else {
                ++n;
            }
        }
    }
    return program;
}

} // namespace brook_fuzz
