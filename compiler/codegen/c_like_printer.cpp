// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Prints checked kernel bodies as C-like source. Every expression is printed bottom-up into a
// PrintedExpr (text plus the precedence of its outermost operator); a parent wraps a child in
// parentheses only when the child binds less tightly than the parent's operand position needs,
// so the output reads like hand-written code. Target-specific forms go through the hooks.

#include "codegen/c_like_printer.hpp"

#include "ast/operators.hpp"
#include "support/diagnostics.hpp"

namespace brcc {

namespace {

// C's precedence levels (higher binds tighter).
constexpr int comma_level = 1;
constexpr int assign_level = PrintedExpr::assignment;
constexpr int conditional_level = 3;
constexpr int unary_level = 14;
constexpr int postfix_level = 15;

int binary_level(BinaryOp op) {
    switch (op) {
    case BinaryOp::Mul:
    case BinaryOp::Div:
    case BinaryOp::Rem:
        return 13;
    case BinaryOp::Add:
    case BinaryOp::Sub:
        return 12;
    case BinaryOp::Shl:
    case BinaryOp::Shr:
        return 11;
    case BinaryOp::Less:
    case BinaryOp::Greater:
    case BinaryOp::LessEqual:
    case BinaryOp::GreaterEqual:
        return 10;
    case BinaryOp::Equal:
    case BinaryOp::NotEqual:
        return 9;
    case BinaryOp::BitAnd:
        return 8;
    case BinaryOp::BitXor:
        return 7;
    case BinaryOp::BitOr:
        return 6;
    case BinaryOp::LogicalAnd:
        return 5;
    case BinaryOp::LogicalOr:
        return 4;
    case BinaryOp::Comma:
        return comma_level;
    }
    return comma_level;
}

bool is_comparison(BinaryOp op) {
    switch (op) {
    case BinaryOp::Less:
    case BinaryOp::Greater:
    case BinaryOp::LessEqual:
    case BinaryOp::GreaterEqual:
    case BinaryOp::Equal:
    case BinaryOp::NotEqual:
        return true;
    case BinaryOp::Add:
    case BinaryOp::Sub:
    case BinaryOp::Mul:
    case BinaryOp::Div:
    case BinaryOp::Rem:
    case BinaryOp::Shl:
    case BinaryOp::Shr:
    case BinaryOp::BitAnd:
    case BinaryOp::BitOr:
    case BinaryOp::BitXor:
    case BinaryOp::LogicalAnd:
    case BinaryOp::LogicalOr:
    case BinaryOp::Comma:
        break;
    }
    return false;
}

/// Whether `expr` is signed `int` arithmetic that can overflow (see wrapping_arithmetic).
bool may_overflow(const Expr& expr) {
    if (!expr.type.is_arithmetic() || expr.type.scalar_type() != ScalarType::Int)
        return false;
    if (expr.kind == NodeKind::Binary) {
        const BinaryOp op = static_cast<const Binary&>(expr).op;
        return op == BinaryOp::Add || op == BinaryOp::Sub || op == BinaryOp::Mul;
    }
    if (expr.kind == NodeKind::Unary) {
        const UnaryOp op = static_cast<const Unary&>(expr).op;
        return op != UnaryOp::Plus && op != UnaryOp::Not && op != UnaryOp::BitNot;
    }
    if (expr.kind == NodeKind::Assign) {
        const AssignOp op = static_cast<const Assign&>(expr).op;
        return op == AssignOp::Add || op == AssignOp::Sub || op == AssignOp::Mul;
    }
    return false;
}

std::string indentation(int indent) {
    return std::string(static_cast<std::size_t>(indent) * 4, ' ');
}

} // namespace

std::string CLikePrinter::parenthesize(const PrintedExpr& printed, int precedence) {
    if (printed.precedence >= precedence)
        return printed.text;
    return "(" + printed.text + ")";
}

std::string CLikePrinter::operand(const Expr& expr, int precedence) {
    return parenthesize(print(expr), precedence);
}

std::string CLikePrinter::argument(const Expr& expr) {
    return operand(expr, assign_level);
}

std::string CLikePrinter::join(const std::vector<std::string>& parts) {
    std::string result;
    for (const std::string& part : parts) {
        if (!result.empty())
            result += ", ";
        result += part;
    }
    return result;
}

std::vector<std::string> CLikePrinter::print_args(const std::vector<Expr*>& args) {
    std::vector<std::string> printed;
    printed.reserve(args.size());
    for (const Expr* arg : args)
        printed.push_back(argument(*arg));
    return printed;
}

std::optional<PrintedExpr> CLikePrinter::wrapping_arithmetic(const Expr&) {
    return std::nullopt;
}

std::string CLikePrinter::print_expr(const Expr& expr) {
    return print(expr).text;
}

PrintedExpr CLikePrinter::print(const Expr& expr) {
    switch (expr.kind) {
#define EXPR(name)                                                                                 \
    case NodeKind::name:                                                                           \
        return visit(static_cast<const name&>(expr));
#define STMT(name) case NodeKind::name:
#include "ast/ast_nodes.def"
#undef EXPR
#undef STMT
        break;
    }
    internal_error(__FILE__, __LINE__, "statement node printed as an expression");
}

// ---------------------------------------------------------------------------------------------
// Expressions

PrintedExpr CLikePrinter::visit(const IntLiteral& expr) {
    std::string text = std::to_string(expr.value);
    if (expr.is_unsigned)
        text += 'u';
    return {text};
}

PrintedExpr CLikePrinter::visit(const FloatLiteral& expr) {
    // Sema types an unsuffixed literal that meets a double as a double (`a / 3.0`).
    if (expr.type.is_arithmetic() && expr.type.scalar_type() == ScalarType::Double)
        return {double_literal(expr.value)};
    return {float_literal(expr.value)};
}

PrintedExpr CLikePrinter::visit(const BoolLiteral& expr) {
    return {expr.value ? "true" : "false"};
}

PrintedExpr CLikePrinter::visit(const NameRef& expr) {
    return {expr.decl != nullptr ? value_name(*expr.decl) : identifier(expr.name)};
}

PrintedExpr CLikePrinter::visit(const Unary& expr) {
    if (expr.op == UnaryOp::Not && expr.operand->type.is_vector())
        return vector_not(expr);
    const bool steps = expr.op == UnaryOp::PreInc || expr.op == UnaryOp::PreDec ||
                       expr.op == UnaryOp::PostInc || expr.op == UnaryOp::PostDec;
    if (steps) {
        if (std::optional<PrintedExpr> stepped = increment(expr))
            return *stepped;
    }
    if (may_overflow(expr)) {
        if (std::optional<PrintedExpr> wrapping = wrapping_arithmetic(expr))
            return *wrapping;
    }
    const std::string operand_text = operand(*expr.operand, unary_level);
    switch (expr.op) {
    case UnaryOp::PostInc:
        return {operand(*expr.operand, postfix_level) + "++", postfix_level};
    case UnaryOp::PostDec:
        return {operand(*expr.operand, postfix_level) + "--", postfix_level};
    case UnaryOp::Plus:
    case UnaryOp::Minus: {
        const char sign = expr.op == UnaryOp::Plus ? '+' : '-';
        // `- -x` must not become the decrement `--x`.
        if (!operand_text.empty() && operand_text.front() == sign)
            return {std::string(1, sign) + "(" + operand_text + ")", unary_level};
        return {std::string(1, sign) + operand_text, unary_level};
    }
    case UnaryOp::Not:
        return {"!" + operand_text, unary_level};
    case UnaryOp::BitNot:
        return {"~" + operand_text, unary_level};
    case UnaryOp::PreInc:
        return {"++" + operand_text, unary_level};
    case UnaryOp::PreDec:
        return {"--" + operand_text, unary_level};
    }
    return {operand_text};
}

PrintedExpr CLikePrinter::visit(const Binary& expr) {
    if (std::optional<PrintedExpr> folded = folded_constant(expr))
        return *folded;
    if (expr.op == BinaryOp::Rem && expr.type.is_arithmetic() &&
        is_floating_point(expr.type.scalar_type()))
        return float_remainder(*expr.lhs, *expr.rhs);
    if (expr.op == BinaryOp::Rem || (expr.op == BinaryOp::Div && is_integer(expr.type)))
        return integer_division(expr);
    if (expr.op == BinaryOp::Div)
        return float_division(expr);
    if ((expr.op == BinaryOp::LogicalAnd || expr.op == BinaryOp::LogicalOr) &&
        (expr.lhs->type.is_vector() || expr.rhs->type.is_vector()))
        return vector_logical(expr);
    if (is_comparison(expr.op) && (expr.lhs->type.is_vector() || expr.rhs->type.is_vector()))
        return vector_compare(expr);
    if (may_overflow(expr)) {
        if (std::optional<PrintedExpr> wrapping = wrapping_arithmetic(expr))
            return *wrapping;
    }
    return plain_binary(expr);
}

PrintedExpr CLikePrinter::plain_binary(const Binary& expr, std::string_view divisor_wrapper) {
    const int level = binary_level(expr.op);
    // Shifts, bitwise operators and || read ambiguously next to other binary operators (GCC's
    // -Wparentheses flags `a << b + c` and `a | b & c`), so such operands get parentheses even
    // where precedence alone does not need them.
    // A comparison whose operand is a comparison (`((i & d) == 0) == ascending`) reads as a
    // chain, which draws the same warning, so it keeps those parentheses too.
    const bool clarify = expr.op == BinaryOp::Shl || expr.op == BinaryOp::Shr ||
                         expr.op == BinaryOp::BitAnd || expr.op == BinaryOp::BitXor ||
                         expr.op == BinaryOp::BitOr || expr.op == BinaryOp::LogicalOr;
    const bool comparison = is_comparison(expr.op);
    const auto side = [&](const Expr& child, int precedence) {
        const PrintedExpr printed = print(child);
        const bool other_binary = printed.precedence > conditional_level &&
                                  printed.precedence < unary_level && printed.precedence != level;
        const bool chained = comparison && (printed.precedence == binary_level(BinaryOp::Less) ||
                                            printed.precedence == binary_level(BinaryOp::Equal));
        return (clarify && other_binary) || chained ? "(" + printed.text + ")"
                                                    : parenthesize(printed, precedence);
    };
    std::string text = side(*expr.lhs, level);
    // Appended piece by piece: GCC 12 reports a false -Wrestrict on `" " + std::string`.
    if (expr.op == BinaryOp::Comma) {
        text += ", ";
    } else {
        text += ' ';
        text += spelling(expr.op);
        text += ' ';
    }
    if (divisor_wrapper.empty()) {
        text += side(*expr.rhs, level + 1);
    } else {
        text += divisor_wrapper;
        text += '(' + argument(*expr.rhs) + ')';
    }
    return {text, level};
}

PrintedExpr CLikePrinter::visit(const Assign& expr) {
    if (expr.target->kind == NodeKind::Subscript) {
        const auto& subscript = static_cast<const Subscript&>(*expr.target);
        if (subscript.scatter != nullptr)
            return scatter_store(subscript, *expr.value);
    }
    if (expr.target->kind == NodeKind::Member) {
        const auto& member = static_cast<const Member&>(*expr.target);
        if (member.is_swizzle && member.swizzle_length > 1)
            return masked_assign(expr, member);
    }
    if (expr.op != AssignOp::Assign) {
        if (std::optional<PrintedExpr> compound = compound_assignment(expr))
            return *compound;
    }
    if (may_overflow(expr)) {
        if (std::optional<PrintedExpr> wrapping = wrapping_arithmetic(expr))
            return *wrapping;
    }
    const bool float_remainder_assign = expr.op == AssignOp::Rem && expr.type.is_arithmetic() &&
                                        is_floating_point(expr.type.scalar_type());
    const std::string target = operand(*expr.target, unary_level);
    if (float_remainder_assign) {
        // C has no `%=` on floats: `a %= b` becomes `a = fmod(a, b)`.
        return {target + " = " + float_remainder(*expr.target, *expr.value).text, assign_level};
    }
    return {target + " " + std::string(spelling(expr.op)) + " " +
                operand(*expr.value, assign_level),
            assign_level};
}

PrintedExpr CLikePrinter::visit(const Conditional& expr) {
    if (expr.condition->type.is_vector())
        return vector_select(expr);
    return scalar_conditional(expr);
}

PrintedExpr CLikePrinter::scalar_conditional(const Conditional& expr) {
    return {parenthesize(condition(*expr.condition), conditional_level + 1) + " ? " +
                operand(*expr.then_value, assign_level) + " : " +
                operand(*expr.else_value, conditional_level),
            conditional_level};
}

PrintedExpr CLikePrinter::visit(const Call& expr) {
    if (expr.builtin)
        return builtin_call(expr);
    // A kernel: its arguments, gathers passed whole, then the positions of the streams bound to
    // the parameters whose indexof it uses (sema checked that each is a stream parameter).
    const KernelDecl& callee = *expr.helper;
    std::vector<std::string> args;
    std::vector<std::string> positions;
    for (std::size_t i = 0; i < expr.args.size(); ++i) {
        const ParamDecl& param = *callee.params[i];
        const ParamDecl* bound = bound_parameter(*expr.args[i]);
        if (param.param_kind == ParamKind::Gather)
            args.push_back(gather_argument(*bound));
        else if (param.param_kind == ParamKind::OutputStream)
            args.push_back(out_argument(*expr.args[i]));
        else
            args.push_back(argument(*expr.args[i]));
        if (param.needs_position)
            positions.push_back(position(*bound).text);
    }
    args.insert(args.end(), positions.begin(), positions.end());
    if (callee.discards)
        args.push_back(discard_flag());
    return {callable_name(callee) + "(" + join(args) + ")"};
}

PrintedExpr CLikePrinter::position(const ParamDecl& stream) {
    if (callable_ != nullptr)
        return {position_parameter(stream)};
    return element_position(stream);
}

PrintedExpr CLikePrinter::visit(const Construct& expr) {
    return construct(expr);
}

PrintedExpr CLikePrinter::visit(const Cast& expr) {
    return convert(expr.target, *expr.operand);
}

PrintedExpr CLikePrinter::visit(const ImplicitConvert& expr) {
    return convert(expr.type, *expr.operand);
}

PrintedExpr CLikePrinter::field(const Member& member) {
    return {operand(*member.base, postfix_level) + "." + identifier(member.member), postfix_level};
}

PrintedExpr CLikePrinter::visit(const Member& expr) {
    if (!expr.is_swizzle)
        return field(expr);
    if (expr.swizzle_length == 1 && expr.base->type.is_scalar())
        return print(*expr.base); // `f.x` on a scalar is the scalar (and stays assignable)
    if (expr.swizzle_length == 1 && expr.base->type.is_vector()) {
        static constexpr std::string_view components[] = {"x", "y", "z", "w"};
        return {operand(*expr.base, postfix_level) + "." + std::string(components[expr.swizzle[0]]),
                postfix_level};
    }
    return swizzle(expr);
}

PrintedExpr CLikePrinter::visit(const Subscript& expr) {
    if (expr.gather)
        return gather(expr);
    if (expr.shared != nullptr)
        return shared_element(expr);
    BRCC_ASSERT(expr.scatter == nullptr, "a scatter output's subscript outside `o[i] = v`");
    // A component of a vector (sema allows exactly one index there).
    std::string text = operand(*expr.base, postfix_level);
    for (const Expr* index : expr.indices) {
        text += '[';
        text += print_expr(*index);
        text += ']';
    }
    return {text, postfix_level};
}

PrintedExpr CLikePrinter::visit(const InitList& expr) {
    return init_list(expr, expr.type);
}

PrintedExpr CLikePrinter::visit(const InstanceInGroup&) {
    return instance_in_group();
}

PrintedExpr CLikePrinter::visit(const Indexof& expr) {
    const ValueDecl* decl = expr.stream->decl;
    BRCC_ASSERT(decl != nullptr && decl->decl_kind == ValueDecl::Kind::Param,
                "indexof of something that is not a stream parameter");
    return position(static_cast<const ParamDecl&>(*decl));
}

// ---------------------------------------------------------------------------------------------
// Statements

void CLikePrinter::print_stmt(const Stmt& stmt, int indent, std::string& out) {
    // A directive needs a line of its own; a statement printed into an empty string is spliced
    // into a line later (else if).
    if (source_lines_ != nullptr && stmt.range.begin.valid() && !out.empty() && out.back() == '\n')
        out += source_lines_->directive(stmt.range.begin);
    switch (stmt.kind) {
#define STMT(name)                                                                                 \
    case NodeKind::name:                                                                           \
        visit(static_cast<const name&>(stmt), indent, out);                                        \
        return;
#define EXPR(name) case NodeKind::name:
#include "ast/ast_nodes.def"
#undef EXPR
#undef STMT
        break;
    }
    internal_error(__FILE__, __LINE__, "expression node printed as a statement");
}

void CLikePrinter::print_body(const Compound& body, int indent, std::string& out) {
    for (const Stmt* stmt : body.body)
        print_stmt(*stmt, indent, out);
}

void CLikePrinter::print_callable_body(const KernelDecl& kernel, int indent, std::string& out) {
    callable_ = &kernel;
    print_body(*kernel.body, indent, out);
    callable_ = nullptr;
}

void CLikePrinter::print_branch(const Stmt& stmt, int indent, std::string& out) {
    // Branches always get braces: the output stays unambiguous and uniformly laid out.
    out += " {\n";
    if (stmt.kind == NodeKind::Compound)
        print_body(static_cast<const Compound&>(stmt), indent + 1, out);
    else
        print_stmt(stmt, indent + 1, out);
    out += indentation(indent) + "}";
}

void CLikePrinter::visit(const Compound& stmt, int indent, std::string& out) {
    out += indentation(indent) + "{\n";
    print_body(stmt, indent + 1, out);
    out += indentation(indent) + "}\n";
}

std::string CLikePrinter::declaration(const DeclStmt& stmt) {
    BRCC_ASSERT(!stmt.vars.empty(), "declaration without variables");
    const LocalDecl& first = *stmt.vars.front();
    std::string text = first.is_const ? "const " : "";
    text += type_name(first.type) + " ";
    bool first_var = true;
    for (const LocalDecl* var : stmt.vars) {
        if (!first_var)
            text += ", ";
        first_var = false;
        text += value_name(*var);
        if (var->init == nullptr) {
            // Brook leaves the value undefined; C++ value-initialises it (it would warn).
            text += default_initializer(var->type);
        } else if (var->init->kind == NodeKind::InitList) {
            text += " = " + init_list(static_cast<const InitList&>(*var->init), var->type).text;
        } else {
            text += " = " + operand(*var->init, assign_level);
        }
    }
    return text;
}

void CLikePrinter::visit(const DeclStmt& stmt, int indent, std::string& out) {
    // A shared array is declared alone (sema allows one per kernel).
    if (stmt.vars.front()->shared_extent != 0) {
        if (const std::string shared = shared_declaration(*stmt.vars.front()); !shared.empty())
            out += indentation(indent) + shared + ";\n";
        return;
    }
    out += indentation(indent) + declaration(stmt) + ";\n";
}

void CLikePrinter::visit(const ExprStmt& stmt, int indent, std::string& out) {
    out += indentation(indent) + print_expr(*stmt.expr) + ";\n";
}

void CLikePrinter::visit(const If& stmt, int indent, std::string& out) {
    out += indentation(indent) + "if (" + condition(*stmt.condition).text + ")";
    print_branch(*stmt.then_branch, indent, out);
    if (stmt.else_branch == nullptr) {
        out += "\n";
        return;
    }
    out += " else";
    if (stmt.else_branch->kind == NodeKind::If) {
        // `else if` chains stay flat.
        std::string nested;
        print_stmt(*stmt.else_branch, indent, nested);
        out += ' ';
        out += nested.substr(static_cast<std::size_t>(indent) * 4);
        return;
    }
    print_branch(*stmt.else_branch, indent, out);
    out += "\n";
}

void CLikePrinter::visit(const For& stmt, int indent, std::string& out) {
    if (target_for(stmt, indent, out))
        return;
    std::string init;
    if (stmt.init != nullptr && stmt.init->kind == NodeKind::DeclStmt)
        init = declaration(static_cast<const DeclStmt&>(*stmt.init));
    else if (stmt.init != nullptr && stmt.init->kind == NodeKind::ExprStmt)
        init = print_expr(*static_cast<const ExprStmt&>(*stmt.init).expr);
    out += indentation(indent) + "for (" + init + ";";
    if (stmt.condition != nullptr) {
        out += ' ';
        out += condition(*stmt.condition).text;
    }
    out += ";";
    if (stmt.step != nullptr) {
        out += ' ';
        out += print_expr(*stmt.step);
    }
    out += ")";
    print_branch(*stmt.body, indent, out);
    out += "\n";
}

void CLikePrinter::visit(const While& stmt, int indent, std::string& out) {
    out += indentation(indent) + "while (" + condition(*stmt.condition).text + ")";
    print_branch(*stmt.body, indent, out);
    out += "\n";
}

void CLikePrinter::visit(const DoWhile& stmt, int indent, std::string& out) {
    out += indentation(indent) + "do";
    print_branch(*stmt.body, indent, out);
    out += " while (" + condition(*stmt.condition).text + ");\n";
}

void CLikePrinter::visit(const Break&, int indent, std::string& out) {
    out += indentation(indent) + "break;\n";
}

void CLikePrinter::visit(const Continue&, int indent, std::string& out) {
    out += indentation(indent) + "continue;\n";
}

void CLikePrinter::visit(const Return& stmt, int indent, std::string& out) {
    if (stmt.value == nullptr) {
        out += indentation(indent) + std::string(return_keyword()) + ";\n";
        return;
    }
    out += indentation(indent) + "return " + print_expr(*stmt.value) + ";\n";
}

void CLikePrinter::visit(const Push& stmt, int indent, std::string& out) {
    out += indentation(indent) + push(stmt) + ";\n";
}

void CLikePrinter::visit(const Empty&, int indent, std::string& out) {
    out += indentation(indent) + ";\n";
}

void CLikePrinter::visit(const Discard&, int indent, std::string& out) {
    out += indentation(indent) + discard() + ";\n";
}

void CLikePrinter::visit(const SyncGroup&, int indent, std::string& out) {
    out += indentation(indent) + sync_group() + ";\n";
}

} // namespace brcc
