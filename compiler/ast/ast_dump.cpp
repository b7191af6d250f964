// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "ast/ast_dump.hpp"

// One node per line, indented two spaces per level: the node's kind and its key data (operator,
// name, literal value, parameter kind). Expressions show ": type" once sema has typed them, and
// names, calls, members and subscripts show what sema resolved them to. Host items show their
// source position so that golden tests see the top-level split.

#include "ast/operators.hpp"
#include "ast/visitor.hpp"

#include <ostream>

namespace brcc {

namespace {

/// The operator's spelling, with prefix/postfix told apart for ++ and --.
std::string unary_name(UnaryOp op) {
    std::string name(spelling(op));
    if (op == UnaryOp::PreInc || op == UnaryOp::PreDec)
        name += " (prefix)";
    else if (op == UnaryOp::PostInc || op == UnaryOp::PostDec)
        name += " (postfix)";
    return name;
}

std::string_view param_kind_name(ParamKind kind) {
    switch (kind) {
    case ParamKind::Constant:
        return "constant";
    case ParamKind::InputStream:
    case ParamKind::ReduceInput:
        return "input stream";
    case ParamKind::OutputStream:
        return "output stream";
    case ParamKind::Gather:
        return "gather";
    case ParamKind::ReduceAccumulator:
        return "reduce";
    case ParamKind::VariableOutput:
        return "variable output";
    case ParamKind::ScatterOutput:
        return "scatter output";
    }
    return "?";
}

class Dumper : public ExprVisitor<Dumper>, public StmtVisitor<Dumper> {
public:
    Dumper(const SourceManager& sources, std::ostream& out) : sources_(sources), out_(out) {}

    void dump(const TranslationUnit& unit) {
        out_ << "TranslationUnit\n";
        for (const TopLevelItem& item : unit.items) {
            const Indent indent(*this);
            std::visit([this](const auto& value) { dump_item(value); }, item);
        }
    }

    void visit(IntLiteral& node) {
        line("IntLiteral ") << node.value << (node.is_unsigned ? "u" : "") << type(node) << '\n';
    }
    void visit(FloatLiteral& node) { line("FloatLiteral ") << node.value << type(node) << '\n'; }
    void visit(BoolLiteral& node) {
        line("BoolLiteral ") << (node.value ? "true" : "false") << type(node) << '\n';
    }
    void visit(NameRef& node) {
        line("NameRef ") << node.name << type(node);
        if (node.decl)
            out_ << " -> " << (node.decl->decl_kind == ValueDecl::Kind::Param ? "param" : "local");
        out_ << '\n';
    }
    void visit(Unary& node) {
        line("Unary ") << unary_name(node.op) << type(node) << '\n';
        child(node.operand);
    }
    void visit(Binary& node) {
        line("Binary ") << spelling(node.op) << type(node) << '\n';
        child(node.lhs);
        child(node.rhs);
    }
    void visit(Assign& node) {
        line("Assign ") << spelling(node.op) << type(node) << '\n';
        child(node.target);
        child(node.value);
    }
    void visit(Conditional& node) {
        line("Conditional") << type(node) << '\n';
        child(node.condition);
        child(node.then_value);
        child(node.else_value);
    }
    void visit(Call& node) {
        line("Call ") << node.callee << type(node);
        if (node.builtin)
            out_ << " (built-in)";
        else if (node.helper)
            out_ << " (helper)";
        out_ << '\n';
        for (Expr* arg : node.args)
            child(arg);
    }
    void visit(Construct& node) {
        line("Construct ") << node.constructed.name() << type(node) << '\n';
        for (Expr* arg : node.args)
            child(arg);
    }
    void visit(Cast& node) {
        line("Cast ") << node.target.name() << type(node) << '\n';
        child(node.operand);
    }
    void visit(ImplicitConvert& node) {
        line("ImplicitConvert") << type(node) << '\n';
        child(node.operand);
    }
    void visit(Member& node) {
        line("Member .") << node.member << type(node);
        if (node.is_swizzle)
            out_ << " (swizzle)";
        else if (node.field_index >= 0)
            out_ << " (field " << node.field_index << ')';
        out_ << '\n';
        child(node.base);
    }
    void visit(Subscript& node) {
        line("Subscript") << type(node)
                          << (node.gather    ? " (gather)"
                              : node.scatter ? " (scatter)"
                                             : "")
                          << '\n';
        child(node.base);
        for (Expr* index : node.indices)
            child(index);
    }
    void visit(InitList& node) {
        line("InitList") << type(node) << '\n';
        for (Expr* element : node.elements)
            child(element);
    }
    void visit(Indexof& node) {
        line("Indexof") << type(node) << '\n';
        child(node.stream);
    }

    void visit(InstanceInGroup& node) { line("InstanceInGroup") << type(node) << '\n'; }

    void visit(Compound& node) {
        line("Compound\n");
        for (Stmt* stmt : node.body)
            child(stmt);
    }
    void visit(DeclStmt& node) {
        line("DeclStmt\n");
        const Indent indent(*this);
        for (const LocalDecl* var : node.vars) {
            line("Local ") << (var->is_const ? "const " : "") << var->name << " : "
                           << var->type.name() << '\n';
            if (var->init)
                child(var->init);
        }
    }
    void visit(ExprStmt& node) {
        line("ExprStmt\n");
        child(node.expr);
    }
    void visit(If& node) {
        line("If\n");
        child(node.condition);
        child(node.then_branch);
        if (node.else_branch) {
            const Indent indent(*this);
            line("Else\n");
            child(node.else_branch);
        }
    }
    void visit(For& node) {
        line("For\n");
        const Indent indent(*this);
        labelled("Init", node.init);
        labelled("Condition", node.condition);
        labelled("Step", node.step);
        labelled("Body", node.body);
    }
    void visit(While& node) {
        line("While\n");
        child(node.condition);
        child(node.body);
    }
    void visit(DoWhile& node) {
        line("DoWhile\n");
        child(node.body);
        child(node.condition);
    }
    void visit(Break&) { line("Break\n"); }
    void visit(Continue&) { line("Continue\n"); }
    void visit(Return& node) {
        line("Return\n");
        if (node.value)
            child(node.value);
    }
    void visit(Push& node) {
        line("Push\n");
        child(node.stream);
    }
    void visit(Empty&) { line("Empty\n"); }
    void visit(Discard&) { line("Discard\n"); }
    void visit(SyncGroup&) { line("SyncGroup\n"); }

private:
    class Indent {
    public:
        explicit Indent(Dumper& dumper) : dumper_(dumper) { ++dumper_.depth_; }
        ~Indent() { --dumper_.depth_; }
        Indent(const Indent&) = delete;
        Indent& operator=(const Indent&) = delete;

    private:
        Dumper& dumper_;
    };

    std::ostream& line(std::string_view text) {
        for (int i = 0; i < depth_; ++i)
            out_ << "  ";
        return out_ << text;
    }
    static std::string type(const Expr& expr) {
        return expr.type.is_error() ? std::string() : " : " + expr.type.name();
    }
    std::string position(SourceLocation loc) const {
        const LineColumn lc = sources_.line_column(loc);
        return std::to_string(lc.line) + ":" + std::to_string(lc.column);
    }
    void child(Expr* expr) {
        const Indent indent(*this);
        if (expr)
            visit_expr(*expr);
        else
            line("<null>\n");
    }
    void child(Stmt* stmt) {
        const Indent indent(*this);
        if (stmt)
            visit_stmt(*stmt);
        else
            line("<null>\n");
    }
    template <class T> void labelled(std::string_view label, T* node) {
        if (!node)
            return;
        line(label) << '\n';
        child(node);
    }

    void dump_item(const HostText& text) {
        line("HostText ") << position(text.range.begin) << '-' << position(text.range.end) << '\n';
    }
    void dump_item(const HostStreamDecl& decl) {
        line("HostStreamDecl ") << decl.element_type.name()
                                << (decl.is_parameter ? " (parameter)" : "") << ' '
                                << position(decl.range.begin) << '\n';
        const Indent indent(*this);
        for (const StreamDeclarator& declarator : decl.declarators)
            dump_declarator(declarator);
    }
    void dump_declarator(const StreamDeclarator& declarator) {
        if (declarator.plain) {
            line("Plain ") << sources_.text(declarator.range) << '\n';
            return;
        }
        line("Stream ") << declarator.name << '<';
        for (std::size_t i = 0; i < declarator.extents.size(); ++i)
            out_ << (i ? ", " : "") << sources_.text(declarator.extents[i]);
        out_ << ">\n";
    }
    void dump_item(const HostIteratorDecl& decl) {
        line("HostIteratorDecl ") << decl.element_type.name() << ' ' << position(decl.range.begin)
                                  << '\n';
        const Indent indent(*this);
        dump_declarator(decl.declarator);
        line("Begin ") << sources_.text(decl.begin_value) << '\n';
        line("End ") << sources_.text(decl.end_value) << '\n';
    }
    void dump_item(const HostReduceOperator& op) {
        line("HostReduceOperator ") << op.name << ' ' << position(op.range.begin)
                                    << (op.reduce ? " -> reduce" : "") << '\n';
    }
    void dump_item(const HostKernelDomain& domain) {
        line("HostKernelDomain ") << domain.kernel
                                  << (domain.size ? ".domainSize " : ".domainOffset ")
                                  << position(domain.range.begin)
                                  << (domain.decl ? " -> kernel" : "") << '\n';
    }
    void dump_item(const HostRewrite& rewrite) {
        line("HostRewrite ") << rewrite.text << ' ' << position(rewrite.range.begin) << '\n';
    }
    void dump_item(const HostVoidMain& main) {
        line("HostVoidMain ") << position(main.void_range.begin) << '\n';
    }
    void dump_item(const StructDecl* decl) {
        line("Struct ") << decl->name << '\n';
        const Indent indent(*this);
        for (const FieldDecl& field : decl->fields)
            line("Field ") << field.name << " : " << field.type.name() << '\n';
    }
    void dump_item(KernelDecl* kernel) {
        line(kernel->is_reduce ? "Reduce " : "Kernel ")
            << kernel->name << " : " << kernel->return_type.name() << '\n';
        const Indent indent(*this);
        dump_params(*kernel);
        visit_stmt(*kernel->body);
    }
    void dump_item(const KernelPrototype& prototype) {
        line(prototype.decl->is_reduce ? "ReducePrototype " : "KernelPrototype ")
            << prototype.decl->name << " : " << prototype.decl->return_type.name() << '\n';
        const Indent indent(*this);
        dump_params(*prototype.decl);
    }
    void dump_item(const HostInclude& include) {
        line("HostInclude \"") << include.header << "\" " << position(include.range.begin) << '\n';
    }
    void dump_item(const HeaderStructTraits& traits) {
        line("HeaderStructTraits ") << traits.decl->name << '\n';
    }
    void dump_params(const KernelDecl& kernel) {
        for (const ParamDecl* param : kernel.params) {
            line("Param ") << param->name << " : " << param->type.name() << ' '
                           << param_kind_name(param->param_kind);
            if (param->param_kind == ParamKind::Gather)
                out_ << ' ' << param->gather_rank << "-D";
            if (param->param_kind == ParamKind::OutputStream && !param->is_stream_syntax)
                out_ << " (no <>)";
            if (param->is_iter)
                out_ << " iter";
            if (param->push_limit != 0)
                out_ << " [" << param->push_limit << ']';
            out_ << '\n';
        }
    }

    const SourceManager& sources_;
    std::ostream& out_;
    int depth_ = 0;
};

} // namespace

void dump_ast(const TranslationUnit& unit, const SourceManager& sources, std::ostream& out) {
    Dumper(sources, out).dump(unit);
}

} // namespace brcc
