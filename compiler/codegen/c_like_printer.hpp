// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The expression and statement printer shared by the C-like code generators (C++ for the CPU
// backend; GLSL and CUDA reuse it). It prints a checked kernel body with C's syntax, adding
// parentheses only where C's precedence needs them, and asks its hooks for everything that
// differs between the target languages: type names, identifiers, literals, swizzles and write
// masks, built-in calls, conversions, gathers, vector conditions and indexof.

#include "ast/ast.hpp"
#include "codegen/code_writer.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace brcc {

/// A printed expression and the precedence of its outermost operator (higher binds tighter;
/// PrintedExpr::primary for names, literals and calls).
struct PrintedExpr {
    static constexpr int primary = 16;
    static constexpr int assignment = 2; ///< `a = b`, C's loosest level but the comma
    std::string text;
    int precedence = primary;
};

class CLikePrinter {
public:
    virtual ~CLikePrinter() = default;
    CLikePrinter() = default;
    CLikePrinter(const CLikePrinter&) = delete;
    CLikePrinter& operator=(const CLikePrinter&) = delete;

    /// From now on each statement printed at the start of a line is preceded by a `#line`
    /// naming its line in `lines` (for C++ targets; null: none).
    void map_lines(const SourceLines* lines) { source_lines_ = lines; }

    /// The text of a whole expression.
    std::string print_expr(const Expr& expr);
    /// Appends `stmt` to `out`, indented by `indent` levels of four spaces, one line per simple
    /// statement.
    void print_stmt(const Stmt& stmt, int indent, std::string& out);
    /// Appends the statements of a compound body (without its braces).
    void print_body(const Compound& body, int indent, std::string& out);
    /// Appends the statements of the body of `kernel` as a function its callers call (COMPAT
    /// 1.2): indexof reads the positions they pass (position_parameter).
    void print_callable_body(const KernelDecl& kernel, int indent, std::string& out);

protected:
    PrintedExpr print(const Expr& expr);
    /// `expr` as an operand that must bind at least as tightly as `precedence`.
    std::string operand(const Expr& expr, int precedence);
    static std::string parenthesize(const PrintedExpr& printed, int precedence);
    /// `expr` as one argument of a call (a comma expression gets parentheses).
    std::string argument(const Expr& expr);
    std::vector<std::string> print_args(const std::vector<Expr*>& args);
    static std::string join(const std::vector<std::string>& parts);

    // ----- Hooks: what differs between C++, GLSL and CUDA -----
    /// The target spelling of a value type (float4, a struct's name).
    virtual std::string type_name(const Type& type) = 0;
    /// A user's name, renamed where it would clash with the target language.
    virtual std::string identifier(std::string_view name) = 0;
    /// The name of a parameter or local where it is declared or read; the default is its
    /// identifier (the CPU backend renames the copies of a body it runs for several elements).
    virtual std::string value_name(const ValueDecl& decl) { return identifier(decl.name); }
    virtual std::string float_literal(double value) = 0;
    /// A constant of type double, with all of the value's digits.
    virtual std::string double_literal(double value) = 0;
    /// `base.field`, a field of a struct value; the default prints it so.
    virtual PrintedExpr field(const Member& member);
    /// `base.xy` read with two or more components, or any read of a scalar's swizzle.
    virtual PrintedExpr swizzle(const Member& member) = 0;
    /// `v.xz = value` or `v.xz op= value` (several components of a vector assigned at once).
    virtual PrintedExpr masked_assign(const Assign& assign, const Member& target) = 0;
    virtual PrintedExpr builtin_call(const Call& call) = 0;
    /// Value conversion (ImplicitConvert and user casts) of `operand` to `to`.
    virtual PrintedExpr convert(const Type& to, const Expr& operand) = 0;
    /// Subscript of a gather parameter.
    virtual PrintedExpr gather(const Subscript& subscript) = 0;
    /// `o[i] = value` on a scatter output `o` (sema allows no other use of one): a store of the
    /// value at the element the index names, dropped outside the stream.
    virtual PrintedExpr scatter_store(const Subscript& target, const Expr& value) = 0;
    // Brook+'s thread groups (BROOKPLUS.md §4.8):
    /// `s[i]` of the group-shared array, an lvalue, the index clamped to the array.
    virtual PrintedExpr shared_element(const Subscript& subscript) = 0;
    /// The declaration `shared T s[N];` as a statement of the body, "" where the target declares
    /// the array elsewhere.
    virtual std::string shared_declaration(const LocalDecl& array) = 0;
    /// `instanceInGroup()`: the thread's number in its group, as an int4.
    virtual PrintedExpr instance_in_group() = 0;
    /// The statement `syncGroup();` without its `;`.
    virtual std::string sync_group() = 0;
    /// The keyword of a `return` statement: C's, unless the body is a coroutine.
    virtual std::string_view return_keyword() { return "return"; }
    /// indexof(stream) in the body of a launched kernel: the backend's position of the current
    /// element in stream parameter `stream`.
    virtual PrintedExpr element_position(const ParamDecl& stream) = 0;
    /// The parameter by which a called kernel receives the position of the caller's stream
    /// bound to its stream parameter `stream`.
    virtual std::string position_parameter(const ParamDecl& stream) = 0;
    /// The function that calls of kernel `callee` from other kernels go to.
    virtual std::string callable_name(const KernelDecl& callee) = 0;
    /// The lvalue `arg` bound to a called kernel's `out` parameter; the default prints it.
    virtual std::string out_argument(const Expr& arg) { return argument(arg); }
    /// The flag a body sets when it runs `discard` (a reference parameter of every function of a
    /// kernel that may discard, passed on to the kernels it calls that may).
    virtual std::string discard_flag() = 0;
    /// The statement `discard;` without its `;`: sets discard_flag and returns.
    virtual std::string discard() = 0;
    /// Gather parameter `gather` of the kernel being printed, passed whole to a called kernel;
    /// the default is its value.
    virtual std::string gather_argument(const ParamDecl& gather) { return value_name(gather); }
    /// The test of `if (...)`, loops and `?:` for a scalar or vector condition.
    virtual PrintedExpr condition(const Expr& condition) = 0;
    /// `c ? a : b` with a vector condition: chosen component by component.
    virtual PrintedExpr vector_select(const Conditional& conditional) = 0;
    /// `c ? a : b` with a scalar condition: C's conditional operator, unless a target prints it
    /// otherwise.
    virtual PrintedExpr scalar_conditional(const Conditional& conditional);
    /// `lhs % rhs` on floats (C's fmod).
    virtual PrintedExpr float_remainder(const Expr& lhs, const Expr& rhs) = 0;
    /// `&&`, `||` and `!` on vectors (component-wise in Cg); the C operators serve scalars.
    virtual PrintedExpr vector_logical(const Binary& binary) = 0;
    virtual PrintedExpr vector_not(const Unary& unary) = 0;
    /// The initialiser `{a, b}` of a local of type `type`.
    virtual PrintedExpr init_list(const InitList& list, const Type& type) = 0;
    /// A value constructor `float4(a, b, c, d)`.
    virtual PrintedExpr construct(const Construct& construct) = 0;
    /// The statement `push(r);` on a `vout` parameter, without its `;`.
    virtual std::string push(const Push& push) = 0;
    /// `+`, `-`, `*`, unary `-`, `++`, `--`, `+=`, `-=` and `*=` on `int` (scalar or vector): Brook
    /// wraps around on overflow, as C compilers do in practice. A target where signed overflow is
    /// undefined (C++) returns a wrap-safe form; the default, for targets whose signed arithmetic
    /// wraps (GLSL), is nothing, and the C operator is printed.
    virtual std::optional<PrintedExpr> wrapping_arithmetic(const Expr& expr);
    /// `a < b`, `a == b`, ... with a vector operand (Cg compares component by component). The
    /// default prints the C operator, which brook::vec overloads component-wise.
    virtual PrintedExpr vector_compare(const Binary& binary) { return plain_binary(binary); }
    /// What follows a local's name when it has no initialiser (C++: `{}`; GLSL: nothing).
    virtual std::string default_initializer(const Type& type) {
        (void)type;
        return "{}";
    }
    /// `target op= value` (not plain `=`, not a write mask) where the target language's operator
    /// means something else than C's; nothing (the default) prints the operator.
    virtual std::optional<PrintedExpr> compound_assignment(const Assign& assign) {
        (void)assign;
        return std::nullopt;
    }
    /// `++x`, `x++`, `--x` or `x--` where the target language's operator means something else
    /// than C's; nothing (the default) prints the operator.
    virtual std::optional<PrintedExpr> increment(const Unary& unary) {
        (void)unary;
        return std::nullopt;
    }
    /// A `for` statement in a target's own form (the CPU backend's SIMD loops); false (the
    /// default) prints C's.
    virtual bool target_for(const For& stmt, int indent, std::string& out) {
        (void)stmt;
        (void)indent;
        (void)out;
        return false;
    }
    /// A sub-statement of if/for/while/do: a compound keeps its braces on the header's line.
    void print_branch(const Stmt& stmt, int indent, std::string& out);
    /// `lhs / rhs` and `lhs % rhs` on integers (scalar or vector), which Brook defines for
    /// every operand (docs/language.md: a / 0 is -1, a % 0 is a, MIN / -1 is MIN), where C
    /// leaves division by zero undefined and x86 stops the program. Every target overrides it.
    virtual PrintedExpr integer_division(const Binary& binary) = 0;
    /// `lhs op rhs` printed as its value, for a target whose compiler would fold it otherwise
    /// than C does; nullopt prints it as an expression.
    virtual std::optional<PrintedExpr> folded_constant(const Binary& binary) {
        (void)binary;
        return std::nullopt;
    }
    /// `lhs / rhs` on floats; the default prints C's operator.
    virtual PrintedExpr float_division(const Binary& binary) { return plain_binary(binary); }
    /// `lhs op rhs` with C's operator and precedence; a `divisor_wrapper` (a function's name)
    /// is called on the right operand.
    PrintedExpr plain_binary(const Binary& binary, std::string_view divisor_wrapper = {});
    /// indexof(stream): the element's position, or in a called kernel's body the one passed in.
    PrintedExpr position(const ParamDecl& stream);

    /// The kernel whose body print_callable_body is printing, else null.
    const KernelDecl* callable_ = nullptr;

private:
    const SourceLines* source_lines_ = nullptr;
    PrintedExpr visit(const IntLiteral& expr);
    PrintedExpr visit(const FloatLiteral& expr);
    PrintedExpr visit(const BoolLiteral& expr);
    PrintedExpr visit(const NameRef& expr);
    PrintedExpr visit(const Unary& expr);
    PrintedExpr visit(const Binary& expr);
    PrintedExpr visit(const Assign& expr);
    PrintedExpr visit(const Conditional& expr);
    PrintedExpr visit(const Call& expr);
    PrintedExpr visit(const Construct& expr);
    PrintedExpr visit(const Cast& expr);
    PrintedExpr visit(const ImplicitConvert& expr);
    PrintedExpr visit(const Member& expr);
    PrintedExpr visit(const Subscript& expr);
    PrintedExpr visit(const InitList& expr);
    PrintedExpr visit(const Indexof& expr);
    PrintedExpr visit(const InstanceInGroup& expr);

    void visit(const Compound& stmt, int indent, std::string& out);
    void visit(const DeclStmt& stmt, int indent, std::string& out);
    void visit(const ExprStmt& stmt, int indent, std::string& out);
    void visit(const If& stmt, int indent, std::string& out);
    void visit(const For& stmt, int indent, std::string& out);
    void visit(const While& stmt, int indent, std::string& out);
    void visit(const DoWhile& stmt, int indent, std::string& out);
    void visit(const Break& stmt, int indent, std::string& out);
    void visit(const Continue& stmt, int indent, std::string& out);
    void visit(const Return& stmt, int indent, std::string& out);
    void visit(const Push& stmt, int indent, std::string& out);
    void visit(const Empty& stmt, int indent, std::string& out);
    void visit(const Discard& stmt, int indent, std::string& out);
    void visit(const SyncGroup& stmt, int indent, std::string& out);

    /// `T a = x, b{}` without the `;` (also the init-statement of a `for`).
    std::string declaration(const DeclStmt& stmt);
};

} // namespace brcc
