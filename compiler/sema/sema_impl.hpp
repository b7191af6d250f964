// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Internal to the sema stage: the pass object shared by sema.cpp (kernels, scopes, statements),
// sema_expr.cpp (expressions, Cg's vector rules, conversions), sema_call.cpp, sema_member.cpp,
// sema_host.cpp (Brook constructs in host code), sema_warnings.cpp (brcc's warnings) and
// call_graph.cpp (recursion).

#include "ast/ast.hpp"
#include "ast/visitor.hpp"
#include "sema/sema.hpp"
#include "support/diagnostics.hpp"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace brcc {

/// One call of a kernel from a kernel, recorded while checking bodies for the call graph.
struct CallEdge {
    KernelDecl* caller;
    KernelDecl* callee;
    const Call* call;
};

/// Fills KernelDecl::callees, and ParamDecl::needs_position and uses_indexof through the calls
/// (reporting an argument that has no position to give); reports each recursive cycle once, at
/// the call that closes it.
void analyze_call_graph(const std::vector<KernelDecl*>& kernels, const std::vector<CallEdge>& edges,
                        DiagnosticEngine& diags);

class Sema : public ExprVisitor<Sema>, public StmtVisitor<Sema> {
public:
    Sema(TranslationUnit& unit, DiagnosticEngine& diags, const KernelCheck& check_kernel)
        : unit_(unit), diags_(diags), check_kernel_(check_kernel) {}
    void run();

private:
    friend class ExprVisitor<Sema>;
    friend class StmtVisitor<Sema>;

    // Kernels and scopes (sema.cpp)
    /// Reports a kernel named like a built-in or like an earlier kernel.
    void check_kernel_name(std::size_t index);
    void check_signature(KernelDecl& kernel);
    void check_stream_kernel(const KernelDecl& kernel);
    void check_helper(const KernelDecl& kernel);
    /// check_reduce_signature, then a note on what made the kernel a reduce function when it is
    /// one by its `reduce` argument alone (Brook+) and broke a rule.
    void check_reduce(const KernelDecl& kernel);
    /// One input stream, one reduce argument of its type, no outputs, void.
    void check_reduce_signature(const KernelDecl& kernel);
    /// The rules of `vout` arguments in a stream kernel (no `out` beside them, an input stream
    /// to give the element domain); `vout` is the first.
    void check_variable_output(const KernelDecl& kernel, const ParamDecl& vout);
    /// `iter` marks an input stream: not a constant, gather or written argument.
    void check_iterator_parameter(const ParamDecl& param);
    void check_body(KernelDecl& kernel);
    void push_scope() { scopes_.emplace_back(); }
    void pop_scope() { scopes_.pop_back(); }
    void declare(const ValueDecl& decl);
    const ValueDecl* lookup(const std::string& name) const;

    // Statements (sema.cpp)
    void check_stmt(Stmt* stmt);
    void visit(Compound& stmt);
    void visit(DeclStmt& stmt);
    void visit(ExprStmt& stmt);
    void visit(If& stmt);
    void visit(For& stmt);
    void visit(While& stmt);
    void visit(DoWhile& stmt);
    void visit(Break& stmt);
    void visit(Continue& stmt);
    void visit(Return& stmt);
    void visit(Push& stmt);
    void visit(Empty& stmt);
    void visit(Discard& stmt);
    void visit(SyncGroup& stmt);
    /// Checks a statement condition and leaves a scalar bool in `slot`: a scalar converts, a
    /// vector becomes `any(vector as boolN)`.
    void check_condition(Expr*& slot);
    void check_initializer(Expr*& slot, Type target);

    // Host code (sema_host.cpp)
    void check_host_item(TopLevelItem& item);
    void check_iterator(const HostIteratorDecl& decl);
    void resolve_reduce_operator(HostReduceOperator& op);
    void check_prototype(const KernelPrototype& prototype);

    // Expressions (sema_expr.cpp)
    /// Checks the expression in `slot` (which a visit may not replace) and returns its type.
    Type check(Expr*& slot);
    void visit(IntLiteral& expr);
    void visit(FloatLiteral& expr);
    void visit(BoolLiteral& expr);
    void visit(NameRef& expr);
    void visit(Unary& expr);
    void visit(Binary& expr);
    void visit(Assign& expr);
    void visit(Conditional& expr);
    void visit(Call& expr);
    void visit(Construct& expr);
    void visit(Cast& expr);
    void visit(ImplicitConvert& expr);
    void visit(Member& expr);
    void visit(Subscript& expr);
    void visit(InitList& expr);
    void visit(Indexof& expr);
    void visit(InstanceInGroup& expr);
    /// Brook+'s thread groups (BROOKPLUS.md §4.8): `Attribute[GroupSize]`'s rules, and whether
    /// `construct` (a shared array, syncGroup(), instanceInGroup()) stands in a kernel that
    /// has one, reporting it where not.
    void check_group_size(const KernelDecl& kernel);
    bool check_group_construct(const SourceRange& range, std::string_view construct);
    void check_shared_array(const LocalDecl& var);
    /// `s[i]` of the group-shared array `array`.
    void check_shared_subscript(Subscript& expr, const LocalDecl& array);

    void check_builtin_call(Call& call, BuiltinId id);
    /// Whether `call` is Brook+'s `instance()` (no kernel of that name is declared).
    bool is_instance_call(const Call& call) const;
    /// Replaces the `instance()` call in `slot` by `(int4)indexof(output)` and checks that.
    Type check_instance(Expr*& slot);
    /// The arguments of a call of kernel `callee`, one per parameter, by the parameter's kind.
    void check_kernel_arguments(Call& call, const KernelDecl& callee);
    /// `t[i]` of a gather, or `o[i]` of a scatter output (the target of `o[i] = v`).
    void check_array_subscript(Subscript& expr, const ParamDecl& array);
    /// A subscript's type; `assigned` when it is the target of a plain `=`, the one place a
    /// scatter output's subscript may stand.
    Type check_subscript(Subscript& expr, bool assigned);
    void check_init_list(InitList& list, Type target);
    /// Reports and returns false unless `target` may be assigned to (`op` names the operator).
    bool check_assignable(const Expr& target);
    void resolve_name(NameRef& ref);
    /// A name no scope declares: a host variable's gets an error of its own.
    void report_undeclared(const NameRef& ref);

    /// Converts the value in `slot` to `target` as an assignment does (int<->float, scalar to
    /// vector broadcast, a vector narrowed to its first components, or widened to a base type
    /// of its rank or above), reporting what cannot convert.
    void convert(Expr*& slot, Type target);
    /// Keeps the first `width` components of a wider vector value (Cg's implicit narrowing).
    void narrow(Expr*& slot, int width);
    /// Widens a narrower vector value to `width` components, repeating its last one (Brook+'s
    /// implicit widening, BROOKPLUS.md §4.9): a swizzle such as `.xyzz`.
    void widen(Expr*& slot, int width);
    /// Narrows or widens a vector value to `width` components; a scalar stays one.
    void fit_width(Expr*& slot, int width);
    /// Changes the scalar type of an arithmetic value, keeping its width.
    void convert_scalar(Expr*& slot, ScalarType scalar);
    /// Wraps `slot` in an ImplicitConvert to `target` unless it already has that type.
    void wrap(Expr*& slot, Type target);

    // Warnings (sema_warnings.cpp)
    /// An argument of built-in `name`, which combines its argument's components, computed by an
    /// operator that widened one operand (`length(v4 + v2)`): Cg computed it narrower.
    void warn_widened_operand(const Expr& arg, std::string_view name);
    /// A parameter the body never names, an output it never writes (after check_body).
    void warn_unused_parameters(const KernelDecl& kernel);
    /// A literal index outside the gather: below 0, or past the size its `[]` declares.
    void warn_gather_index_outside(const Subscript& expr, const ParamDecl& gather);
    /// A float `value` implicitly converted to an integer `target` type.
    void warn_float_to_int(const Expr& value, Type target);

    TranslationUnit& unit_;
    DiagnosticEngine& diags_;
    const KernelCheck& check_kernel_;
    std::vector<std::unordered_map<std::string, const ValueDecl*>> scopes_;
    KernelDecl* kernel_ = nullptr; ///< the kernel whose body is being checked
    int loop_depth_ = 0;
    const LocalDecl* shared_array_ = nullptr; ///< the kernel's `shared` array, once declared
    std::vector<CallEdge> edges_;
    /// Named somewhere in a body; check_body gives its parameters ParamDecl::named_in_body.
    std::unordered_set<const ValueDecl*> used_;
    std::unordered_set<const ValueDecl*> written_; ///< assigned, or passed as an out argument
};

/// "1 argument", "3 arguments".
std::string count_noun(std::size_t count, std::string_view noun);
/// The type a `scalar` operand computes in: char and uchar promote to int (as in C), fixed to
/// float; the others stay.
ScalarType promoted(ScalarType scalar);
/// The width of an operation on widths `a` and `b` (a scalar broadcasts); 0 when two vectors
/// differ.
int common_width(int a, int b);
/// C99's conversion rank of a base type (bool < char < uchar < short < ushort < int < uint <
/// float < double; the fixed types compute as float).
int conversion_rank(ScalarType scalar);
/// The width of an operator's result on operands of types `lhs` and `rhs` (BROOKPLUS.md §4.9,
/// amending COMPAT §1.13): a scalar broadcasts; of two vectors, the one of the lower-ranked base
/// type converts to the other's width, and of one base type the shorter widens.
int operator_width(Type lhs, Type rhs);
/// What a kernel that cannot discard is, for messages ("reduce function", "vout kernel"), or
/// null for one that can.
const char* cannot_discard(const KernelDecl& kernel);
/// What a parameter is, for messages: "input stream", "gather argument", ...
const char* param_description(const ParamDecl& param, bool in_reduce);

} // namespace brcc
