// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Builds kernels node by node for the sema tests, so that they do not depend on the parser.
// Ranges are left empty; the tests check what sema records and the messages it reports.

#include "ast/ast.hpp"
#include "sema/sema.hpp"

#include <sstream>
#include <string>
#include <vector>

namespace brcc::test {

inline Type float_type(int width = 1) {
    return Type::vector(ScalarType::Float, width);
}
inline Type int_type(int width = 1) {
    return Type::vector(ScalarType::Int, width);
}
inline Type bool_type(int width = 1) {
    return Type::vector(ScalarType::Bool, width);
}

class AstBuilder {
public:
    AstBuilder() : diags_(sources_, out_, false) {}

    TranslationUnit unit;

    // Expressions
    IntLiteral* lit(unsigned long long value) {
        auto* node = make<IntLiteral>();
        node->value = value;
        return node;
    }
    FloatLiteral* flt(double value) {
        auto* node = make<FloatLiteral>();
        node->value = value;
        return node;
    }
    BoolLiteral* boolean(bool value) {
        auto* node = make<BoolLiteral>();
        node->value = value;
        return node;
    }
    NameRef* ref(std::string name) {
        auto* node = make<NameRef>();
        node->name = std::move(name);
        return node;
    }
    Unary* unary(UnaryOp op, Expr* operand) {
        auto* node = make<Unary>();
        node->op = op;
        node->operand = operand;
        return node;
    }
    Binary* binary(BinaryOp op, Expr* lhs, Expr* rhs) {
        auto* node = make<Binary>();
        node->op = op;
        node->lhs = lhs;
        node->rhs = rhs;
        return node;
    }
    Assign* assign(Expr* target, Expr* value, AssignOp op = AssignOp::Assign) {
        auto* node = make<Assign>();
        node->op = op;
        node->target = target;
        node->value = value;
        return node;
    }
    Conditional* conditional(Expr* condition, Expr* then_value, Expr* else_value) {
        auto* node = make<Conditional>();
        node->condition = condition;
        node->then_value = then_value;
        node->else_value = else_value;
        return node;
    }
    Call* call(std::string callee, std::vector<Expr*> args) {
        auto* node = make<Call>();
        node->callee = std::move(callee);
        node->args = std::move(args);
        return node;
    }
    Construct* construct(Type type, std::vector<Expr*> args) {
        auto* node = make<Construct>();
        node->constructed = type;
        node->args = std::move(args);
        return node;
    }
    Cast* cast(Type type, Expr* operand) {
        auto* node = make<Cast>();
        node->target = type;
        node->operand = operand;
        return node;
    }
    Member* member(Expr* base, std::string name) {
        auto* node = make<Member>();
        node->base = base;
        node->member = std::move(name);
        return node;
    }
    Subscript* subscript(Expr* base, std::vector<Expr*> indices) {
        auto* node = make<Subscript>();
        node->base = base;
        node->indices = std::move(indices);
        return node;
    }
    InitList* init_list(std::vector<Expr*> elements) {
        auto* node = make<InitList>();
        node->elements = std::move(elements);
        return node;
    }
    Indexof* indexof(std::string stream) {
        auto* node = make<Indexof>();
        node->stream = ref(std::move(stream));
        return node;
    }

    // Statements
    ExprStmt* stmt(Expr* expr) {
        auto* node = make<ExprStmt>();
        node->expr = expr;
        return node;
    }
    DeclStmt* decl(Type type, std::string name, Expr* init = nullptr, bool is_const = false) {
        auto* node = make<DeclStmt>();
        auto* var = unit.context.make<LocalDecl>();
        var->name = std::move(name);
        var->type = type;
        var->init = init;
        var->is_const = is_const;
        node->vars.push_back(var);
        return node;
    }
    Compound* block(std::vector<Stmt*> body) {
        auto* node = make<Compound>();
        node->body = std::move(body);
        return node;
    }
    If* if_stmt(Expr* condition, Stmt* then_branch, Stmt* else_branch = nullptr) {
        auto* node = make<If>();
        node->condition = condition;
        node->then_branch = then_branch;
        node->else_branch = else_branch;
        return node;
    }
    While* while_stmt(Expr* condition, Stmt* body) {
        auto* node = make<While>();
        node->condition = condition;
        node->body = body;
        return node;
    }
    For* for_stmt(Stmt* init, Expr* condition, Expr* step, Stmt* body) {
        auto* node = make<For>();
        node->init = init;
        node->condition = condition;
        node->step = step;
        node->body = body;
        return node;
    }
    Return* ret(Expr* value = nullptr) {
        auto* node = make<Return>();
        node->value = value;
        return node;
    }
    Break* break_stmt() { return make<Break>(); }

    // Declarations
    ParamDecl* param(ParamKind kind, Type type, std::string name, int gather_rank = 0) {
        auto* node = unit.context.make<ParamDecl>();
        node->param_kind = kind;
        node->type = type;
        node->name = std::move(name);
        node->gather_rank = gather_rank;
        node->is_stream_syntax = kind == ParamKind::InputStream ||
                                 kind == ParamKind::OutputStream ||
                                 kind == ParamKind::ReduceAccumulator;
        return node;
    }
    ParamDecl* constant(Type type, std::string name) {
        return param(ParamKind::Constant, type, std::move(name));
    }
    ParamDecl* in(Type type, std::string name) {
        return param(ParamKind::InputStream, type, std::move(name));
    }
    ParamDecl* out(Type type, std::string name) {
        return param(ParamKind::OutputStream, type, std::move(name));
    }
    ParamDecl* gather(Type type, std::string name, int rank) {
        return param(ParamKind::Gather, type, std::move(name), rank);
    }
    KernelDecl* kernel(std::string name, Type return_type, std::vector<ParamDecl*> params,
                       std::vector<Stmt*> body, bool is_reduce = false) {
        auto* node = unit.context.make<KernelDecl>();
        node->name = std::move(name);
        node->return_type = return_type;
        node->is_reduce = is_reduce;
        node->has_reduce_keyword = is_reduce;
        for (std::size_t i = 0; i < params.size(); ++i)
            params[i]->index = static_cast<int>(i);
        node->params = std::move(params);
        node->body = block(std::move(body));
        unit.kernels.push_back(node);
        unit.items.emplace_back(node);
        return node;
    }
    /// A stream kernel `kernel void k(float4 x<>, out float4 result<>, <extra>) { body }`.
    KernelDecl* stream_kernel(std::vector<Stmt*> body, std::vector<ParamDecl*> extra = {}) {
        std::vector<ParamDecl*> params = {in(float_type(4), "x"), out(float_type(4), "result")};
        params.insert(params.end(), extra.begin(), extra.end());
        return kernel("k", Type::void_type(), std::move(params), std::move(body));
    }
    StructDecl* structure(std::string name, std::vector<FieldDecl> fields) {
        auto* decl = unit.context.make<StructDecl>();
        decl->name = std::move(name);
        decl->fields = std::move(fields);
        unit.structs.push_back(decl);
        return decl;
    }

    /// Runs sema; true when it reported no error.
    bool analyze() { return brcc::analyze(unit, diags_); }
    std::string diagnostics() const { return out_.str(); }
    unsigned error_count() const { return diags_.error_count(); }

private:
    template <class T> T* make() { return unit.context.make<T>(SourceRange{}); }

    SourceManager sources_;
    std::ostringstream out_;
    DiagnosticEngine diags_;
};

} // namespace brcc::test
