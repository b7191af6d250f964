// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Semantic analysis, the driver and the statement half. The pass takes the kernels in source
// order and for each one
//  1. checks its signature (argument kinds, stream element types, the shapes of stream kernels,
//     helpers and reduce functions);
//  2. checks its body statement by statement with a stack of block scopes (parameters in the
//     outermost); expressions are typed in sema_expr.cpp, sema_call.cpp and sema_member.cpp,
//     which insert the ImplicitConvert nodes and record each helper call (a helper may be
//     declared after its caller: the parser already gave it its types).
// Then the recorded calls form the call graph (call_graph.cpp): callees, transitive indexof
// use, and recursion, which GPUs cannot run. Last come the Brook constructs of host code
// (sema_host.cpp): iterator declarations and the reduce functions streamGatherOp and
// streamScatterOp name.
// Every error leaves the error type behind, and nothing is reported about an error-typed operand,
// so one mistake gives one diagnostic.

#include "sema/sema.hpp"

#include "sema/builtins.hpp"
#include "sema/sema_impl.hpp"

namespace brcc {

namespace {

/// Brook+'s limit on a group's threads, which every GPU runs in one block or workgroup.
constexpr unsigned long long max_group_threads = 1024;

} // namespace

bool analyze(TranslationUnit& unit, DiagnosticEngine& diags, const KernelCheck& check_kernel) {
    const unsigned errors_before = diags.error_count();
    Sema(unit, diags, check_kernel).run();
    return diags.error_count() == errors_before;
}

std::string count_noun(std::size_t count, std::string_view noun) {
    std::string result = std::to_string(count) + " " + std::string(noun);
    if (count != 1)
        result += 's';
    return result;
}

void Sema::run() {
    // Kernels are checked in source order, so diagnostics come out in line order; a body may
    // still call a helper declared further down, whose parameter and return types the parser
    // already set.
    for (std::size_t i = 0; i < unit_.kernels.size(); ++i) {
        if (diags_.too_many_errors())
            return;
        const auto mistakes = [this] { return diags_.error_count() - diags_.warnings_as_errors(); };
        const unsigned mistakes_before = mistakes();
        check_kernel_name(i);
        check_signature(*unit_.kernels[i]);
        check_body(*unit_.kernels[i]);
        // In a kernel with errors sema did not record every read and write (an assignment it
        // rejected), so warnings about unused parameters would only echo those errors.
        if (mistakes() == mistakes_before) {
            warn_unused_parameters(*unit_.kernels[i]);
            if (check_kernel_)
                check_kernel_(*unit_.kernels[i]);
        }
    }
    analyze_call_graph(unit_.kernels, edges_, diags_);
    for (TopLevelItem& item : unit_.items)
        check_host_item(item);
}

// ---------------------------------------------------------------------------------------------
// Kernels

void Sema::check_kernel_name(std::size_t index) {
    const KernelDecl& kernel = *unit_.kernels[index];
    if (find_builtin(kernel.name)) {
        diags_.report(DiagId::kernel_named_like_builtin, kernel.name_range) << kernel.name;
        return;
    }
    for (std::size_t i = 0; i < index; ++i) {
        if (unit_.kernels[i]->name != kernel.name)
            continue;
        diags_.report(DiagId::redefined_kernel, kernel.name_range) << kernel.name;
        diags_.report(DiagId::previous_declaration, unit_.kernels[i]->name_range) << kernel.name;
        return;
    }
}

namespace {

/// Stream and gather elements: every arithmetic type but bool, or structs of those.
bool is_stream_element_type(Type type) {
    if (type.is_arithmetic())
        return type.scalar_type() != ScalarType::Bool;
    if (!type.is_struct())
        return false;
    for (const FieldDecl& field : type.struct_decl()->fields)
        if (!field.type.is_error() && !is_stream_element_type(field.type))
            return false;
    return true;
}

bool is_stream_kind(ParamKind kind) {
    return kind != ParamKind::Constant;
}

} // namespace

void Sema::check_group_size(const KernelDecl& kernel) {
    if (!kernel.has_group_size())
        return;
    if (kernel.is_reduce || kernel.is_helper()) {
        diags_.report(DiagId::group_size_not_kernel, kernel.group_size_range) << kernel.name;
        return;
    }
    if (kernel.group_size[0] > max_group_threads)
        diags_.report(DiagId::group_size_too_large, kernel.group_size_range)
            << kernel.name << std::to_string(kernel.group_size[0])
            << std::to_string(max_group_threads);
    // Brook+'s rule: a group kernel writes through a scatter output, whose domain it runs over.
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind == ParamKind::OutputStream ||
            param->param_kind == ParamKind::VariableOutput)
            diags_.report(DiagId::group_kernel_output, param->range) << param->name << kernel.name;
    }
}

void Sema::check_signature(KernelDecl& kernel) {
    // A reduce function's `T a<>` is the stream it folds, not an input of a stream kernel.
    for (ParamDecl* param : kernel.params) {
        if (kernel.is_reduce && param->param_kind == ParamKind::InputStream)
            param->param_kind = ParamKind::ReduceInput;
    }
    // Parameter names share one scope; a duplicate is reported here, once.
    for (std::size_t i = 0; i < kernel.params.size(); ++i) {
        const ParamDecl& param = *kernel.params[i];
        for (std::size_t j = 0; j < i; ++j) {
            if (kernel.params[j]->name != param.name)
                continue;
            diags_.report(DiagId::redeclared_name, param.name_range) << param.name;
            diags_.report(DiagId::previous_declaration, kernel.params[j]->name_range) << param.name;
            break;
        }
        if (is_stream_kind(param.param_kind) && !param.type.is_error() &&
            !is_stream_element_type(param.type))
            diags_.report(DiagId::bad_stream_element_type, param.range)
                << param.name << param.type.name();
        if (param.is_iter)
            check_iterator_parameter(param);
    }
    if (kernel.is_reduce)
        check_reduce(kernel);
    else if (kernel.is_helper())
        check_helper(kernel);
    else
        check_stream_kernel(kernel);
    check_group_size(kernel);
}

void Sema::check_stream_kernel(const KernelDecl& kernel) {
    bool has_output = false;
    const ParamDecl* vout = nullptr;
    const ParamDecl* scatter = nullptr;
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind == ParamKind::ScatterOutput) {
            has_output = true;
            if (scatter != nullptr)
                diags_.report(DiagId::scatter_twice, param->range)
                    << kernel.name << scatter->name << param->name;
            else
                scatter = param;
            if (param->type.is_struct())
                diags_.report(DiagId::scatter_of_struct, param->range)
                    << param->name << param->type.name();
            continue;
        }
        if (param->param_kind == ParamKind::VariableOutput) {
            has_output = true;
            if (!param->is_stream_syntax)
                diags_.report(DiagId::vout_not_stream, param->range)
                    << param->name << param->type.name();
            else if (vout == nullptr)
                vout = param;
            continue;
        }
        if (param->param_kind != ParamKind::OutputStream)
            continue;
        has_output = true;
        if (!param->is_stream_syntax)
            diags_.report(DiagId::out_not_stream, param->range)
                << param->name << param->type.name();
    }
    if (!has_output)
        diags_.report(DiagId::kernel_without_output, kernel.name_range) << kernel.name;
    if (vout != nullptr)
        check_variable_output(kernel, *vout);
    if (scatter == nullptr)
        return;
    // Brook+'s rule: the scatter output is the kernel's only one, so the call's domain is its
    // execution domain (the stream's extents unless the call gives one).
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind == ParamKind::OutputStream ||
            param->param_kind == ParamKind::VariableOutput)
            diags_.report(DiagId::out_beside_scatter, param->range)
                << param->name << kernel.name << scatter->name;
    }
}

void Sema::check_variable_output(const KernelDecl& kernel, const ParamDecl& vout) {
    // Each vout collects its own pushes, but their element counts are known only after the
    // kernel ran (a count pass and a prefix sum give each element its places), so an `out`
    // stream beside them would have no shape, and the elements are the input streams'.
    bool has_input = false;
    for (const ParamDecl* param : kernel.params) {
        switch (param->param_kind) {
        case ParamKind::OutputStream:
            diags_.report(DiagId::out_beside_vout, param->range)
                << param->name << kernel.name << vout.name;
            break;
        case ParamKind::InputStream:
            has_input = true;
            break;
        case ParamKind::Constant:
        case ParamKind::Gather:
        case ParamKind::ReduceInput:
        case ParamKind::ReduceAccumulator:
        case ParamKind::VariableOutput:
        case ParamKind::ScatterOutput: // reported by check_stream_kernel
            break;
        }
    }
    if (!has_input)
        diags_.report(DiagId::vout_without_input, kernel.name_range) << kernel.name << vout.name;
}

void Sema::check_iterator_parameter(const ParamDecl& param) {
    const char* written = nullptr;
    switch (param.param_kind) {
    case ParamKind::OutputStream:
        written = "an out stream";
        break;
    case ParamKind::VariableOutput:
        written = "a vout stream";
        break;
    case ParamKind::ReduceAccumulator:
        written = "a reduce target";
        break;
    case ParamKind::ScatterOutput:
        written = "a scatter output";
        break;
    case ParamKind::Constant:
    case ParamKind::Gather:
    case ParamKind::InputStream:
    case ParamKind::ReduceInput:
        break;
    }
    if (written != nullptr)
        diags_.report(DiagId::iter_written, param.range)
            << param.name << written << param.type.name();
    else if (!param.is_stream_syntax)
        diags_.report(DiagId::iter_not_stream, param.range) << param.name << param.type.name();
}

void Sema::check_helper(const KernelDecl& kernel) {
    // A helper runs only when called, so its streams are the caller's values (copied in, and
    // out ones copied back) and its gathers the caller's; vout pushes and reductions need a
    // launch of their own.
    for (const ParamDecl* param : kernel.params) {
        switch (param->param_kind) {
        case ParamKind::Constant:
        case ParamKind::InputStream:
        case ParamKind::OutputStream:
        case ParamKind::Gather:
            break;
        case ParamKind::VariableOutput:
        case ParamKind::ReduceInput:
        case ParamKind::ReduceAccumulator:
            diags_.report(DiagId::helper_parameter_not_value, param->range)
                << param->name << kernel.name;
            break;
        case ParamKind::ScatterOutput:
            diags_.report(DiagId::helper_scatter_parameter, param->range)
                << param->name << kernel.name;
            break;
        }
    }
}

void Sema::check_reduce(const KernelDecl& kernel) {
    const unsigned errors_before = diags_.error_count();
    check_reduce_signature(kernel);
    if (kernel.has_reduce_keyword || diags_.error_count() == errors_before)
        return;
    // Written as a kernel (Brook+): say what made it a reduce function.
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind != ParamKind::ReduceAccumulator)
            continue;
        diags_.report(DiagId::reduce_by_argument, param->range) << kernel.name << param->name;
        return;
    }
}

void Sema::check_reduce_signature(const KernelDecl& kernel) {
    if (!kernel.return_type.is_void())
        diags_.report(DiagId::reduce_returns_value, kernel.name_range) << kernel.name;
    const ParamDecl* accumulator = nullptr;
    const ParamDecl* input = nullptr;
    int accumulators = 0;
    int inputs = 0;
    for (const ParamDecl* param : kernel.params) {
        switch (param->param_kind) {
        case ParamKind::ReduceAccumulator:
            accumulator = param;
            ++accumulators;
            break;
        case ParamKind::ReduceInput:
            input = param;
            ++inputs;
            break;
        case ParamKind::OutputStream:
        case ParamKind::VariableOutput:
        case ParamKind::ScatterOutput:
            diags_.report(DiagId::reduce_with_output, param->range) << kernel.name << param->name;
            break;
        case ParamKind::Constant:
        case ParamKind::Gather:
        case ParamKind::InputStream: // check_signature made it ReduceInput
            break;
        }
    }
    if (accumulators != 1 || inputs != 1) {
        diags_.report(DiagId::reduce_signature, kernel.name_range) << kernel.name;
        return;
    }
    if (accumulator->type != input->type && !accumulator->type.is_error() &&
        !input->type.is_error())
        diags_.report(DiagId::reduce_type_mismatch, accumulator->range)
            << accumulator->name << accumulator->type.name() << input->name << input->type.name();
}

namespace {

bool is_true_constant(const Expr* expr) {
    if (expr == nullptr)
        return true; // `for (;;)`
    if (expr->kind == NodeKind::BoolLiteral)
        return static_cast<const BoolLiteral*>(expr)->value;
    if (expr->kind == NodeKind::IntLiteral)
        return static_cast<const IntLiteral*>(expr)->value != 0;
    if (expr->kind == NodeKind::ImplicitConvert)
        return is_true_constant(static_cast<const ImplicitConvert*>(expr)->operand);
    return false;
}

bool contains_break(const Stmt* stmt);

bool contains_break_in(const std::vector<Stmt*>& stmts) {
    for (const Stmt* stmt : stmts)
        if (contains_break(stmt))
            return true;
    return false;
}

/// Whether `stmt` has a `break` that leaves the loop `stmt` is the body of (so not counting
/// breaks of nested loops).
bool contains_break(const Stmt* stmt) {
    if (stmt == nullptr)
        return false;
    switch (stmt->kind) {
    case NodeKind::Break:
        return true;
    case NodeKind::Compound:
        return contains_break_in(static_cast<const Compound*>(stmt)->body);
    case NodeKind::If: {
        const auto* if_stmt = static_cast<const If*>(stmt);
        return contains_break(if_stmt->then_branch) || contains_break(if_stmt->else_branch);
    }
    case NodeKind::For:
    case NodeKind::While:
    case NodeKind::DoWhile:
    case NodeKind::DeclStmt:
    case NodeKind::ExprStmt:
    case NodeKind::Continue:
    case NodeKind::Return:
    case NodeKind::Push:
    case NodeKind::Empty:
    case NodeKind::Discard:
    case NodeKind::SyncGroup:
        return false;
#include "ast/expr_kind_cases.def"
        break;
    }
    return false;
}

/// Whether control cannot run off the end of `stmt`: a conservative answer that counts returns
/// (and discards) on every branch and endless loops without a break.
bool always_returns(const Stmt* stmt) {
    if (stmt == nullptr)
        return false;
    switch (stmt->kind) {
    case NodeKind::Return:
    case NodeKind::Discard: // ends the element
        return true;
    case NodeKind::Compound:
        for (const Stmt* inner : static_cast<const Compound*>(stmt)->body)
            if (always_returns(inner))
                return true;
        return false;
    case NodeKind::If: {
        const auto* if_stmt = static_cast<const If*>(stmt);
        return always_returns(if_stmt->then_branch) && always_returns(if_stmt->else_branch);
    }
    case NodeKind::For: {
        const auto* loop = static_cast<const For*>(stmt);
        return is_true_constant(loop->condition) && !contains_break(loop->body);
    }
    case NodeKind::While: {
        const auto* loop = static_cast<const While*>(stmt);
        return is_true_constant(loop->condition) && !contains_break(loop->body);
    }
    case NodeKind::DoWhile: {
        const auto* loop = static_cast<const DoWhile*>(stmt);
        return always_returns(loop->body) ||
               (is_true_constant(loop->condition) && !contains_break(loop->body));
    }
    case NodeKind::DeclStmt:
    case NodeKind::ExprStmt:
    case NodeKind::Break:
    case NodeKind::Continue:
    case NodeKind::Push:
    case NodeKind::Empty:
    case NodeKind::SyncGroup:
        return false;
#include "ast/expr_kind_cases.def"
        break;
    }
    return false;
}

} // namespace

void Sema::check_body(KernelDecl& kernel) {
    if (kernel.body == nullptr)
        return;
    kernel_ = &kernel;
    loop_depth_ = 0;
    shared_array_ = nullptr;
    scopes_.clear();
    push_scope();
    for (const ParamDecl* param : kernel.params)
        scopes_.back().emplace(param->name, param); // duplicates were reported with the signature
    // The body's own block shares the parameters' scope, as in C: `float a` in the body of a
    // kernel with an argument `a` is a redefinition.
    for (Stmt* stmt : kernel.body->body)
        check_stmt(stmt);
    pop_scope();
    for (ParamDecl* param : kernel.params)
        param->named_in_body = used_.contains(param);
    if (kernel.is_helper() && !kernel.return_type.is_error() && !always_returns(kernel.body))
        diags_.report(DiagId::helper_missing_return, kernel.name_range) << kernel.name;
    kernel_ = nullptr;
}

void Sema::declare(const ValueDecl& decl) {
    auto& scope = scopes_.back();
    const auto [it, inserted] = scope.emplace(decl.name, &decl);
    if (inserted)
        return;
    diags_.report(DiagId::redeclared_name, decl.name_range) << decl.name;
    diags_.report(DiagId::previous_declaration, it->second->name_range) << decl.name;
}

const ValueDecl* Sema::lookup(const std::string& name) const {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope)
        if (const auto it = scope->find(name); it != scope->end())
            return it->second;
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// Statements

void Sema::check_stmt(Stmt* stmt) {
    if (stmt != nullptr && !diags_.too_many_errors())
        visit_stmt(*stmt);
}

void Sema::visit(Compound& stmt) {
    push_scope();
    for (Stmt* inner : stmt.body)
        check_stmt(inner);
    pop_scope();
}

void Sema::visit(DeclStmt& stmt) {
    for (LocalDecl* var : stmt.vars) {
        if (var->shared_extent != 0)
            check_shared_array(*var);
        if (var->init != nullptr && var->shared_extent != 0)
            diags_.report(DiagId::shared_initialized, var->init->range) << var->name;
        else if (var->init != nullptr)
            check_initializer(var->init, var->type);
        else if (var->is_const)
            diags_.report(DiagId::const_without_initializer, var->name_range) << var->name;
        declare(*var);
    }
}

void Sema::check_initializer(Expr*& slot, Type target) {
    if (slot->kind == NodeKind::InitList) {
        check_init_list(static_cast<InitList&>(*slot), target);
        return;
    }
    check(slot);
    convert(slot, target);
}

void Sema::visit(ExprStmt& stmt) {
    if (stmt.expr != nullptr)
        check(stmt.expr);
}

void Sema::check_condition(Expr*& slot) {
    const Type type = check(slot);
    if (type.is_error())
        return;
    if (!type.is_arithmetic()) {
        diags_.report(DiagId::bad_condition_type, slot->range) << type.name();
        slot->type = Type::error();
        return;
    }
    convert_scalar(slot, ScalarType::Bool);
    if (type.is_scalar())
        return;
    auto* any = unit_.context.make<Call>(slot->range);
    any->callee = "any";
    any->callee_range = slot->range;
    any->builtin = BuiltinId::any;
    any->args.push_back(slot);
    any->type = Type::scalar(ScalarType::Bool);
    slot = any;
}

void Sema::visit(If& stmt) {
    check_condition(stmt.condition);
    check_stmt(stmt.then_branch);
    check_stmt(stmt.else_branch);
}

void Sema::visit(For& stmt) {
    push_scope();
    check_stmt(stmt.init);
    if (stmt.condition != nullptr)
        check_condition(stmt.condition);
    if (stmt.step != nullptr)
        check(stmt.step);
    ++loop_depth_;
    check_stmt(stmt.body);
    --loop_depth_;
    pop_scope();
}

void Sema::visit(While& stmt) {
    check_condition(stmt.condition);
    ++loop_depth_;
    check_stmt(stmt.body);
    --loop_depth_;
}

void Sema::visit(DoWhile& stmt) {
    ++loop_depth_;
    check_stmt(stmt.body);
    --loop_depth_;
    check_condition(stmt.condition);
}

void Sema::visit(Break& stmt) {
    if (loop_depth_ == 0)
        diags_.report(DiagId::break_outside_loop, stmt.range) << "break";
}

void Sema::visit(Continue& stmt) {
    if (loop_depth_ == 0)
        diags_.report(DiagId::break_outside_loop, stmt.range) << "continue";
}

void Sema::visit(Return& stmt) {
    if (!kernel_->is_helper()) {
        if (stmt.value != nullptr) {
            check(stmt.value);
            diags_.report(DiagId::return_value_in_void_kernel, stmt.value->range)
                << (kernel_->is_reduce ? "reduce function" : "kernel") << kernel_->name;
        }
        return;
    }
    if (stmt.value == nullptr) {
        diags_.report(DiagId::return_without_value, stmt.range)
            << kernel_->name << kernel_->return_type.name();
        return;
    }
    check(stmt.value);
    convert(stmt.value, kernel_->return_type);
}

void Sema::visit(Push& stmt) {
    NameRef& stream = *stmt.stream;
    resolve_name(stream);
    if (stream.decl == nullptr)
        return;
    const char* what = "local variable";
    if (stream.decl->decl_kind == ValueDecl::Kind::Param) {
        const auto& param = static_cast<const ParamDecl&>(*stream.decl);
        if (param.param_kind == ParamKind::VariableOutput)
            return;
        what = param_description(param, kernel_->is_reduce);
    }
    diags_.report(DiagId::push_not_vout, stream.range) << stream.name << what;
}

void Sema::visit(Empty&) {}

const char* cannot_discard(const KernelDecl& kernel) {
    // A reduction folds every element and a vout kernel's pushes are counted before they are
    // stored, so neither has an element's outputs to leave alone.
    if (kernel.is_reduce)
        return "reduce function";
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind == ParamKind::VariableOutput)
            return "vout kernel";
    }
    return nullptr;
}

bool Sema::check_group_construct(const SourceRange& range, std::string_view construct) {
    if (kernel_->has_group_size() && !kernel_->is_reduce && !kernel_->is_helper())
        return true;
    diags_.report(DiagId::group_construct_outside_group, range) << construct << kernel_->name;
    return false;
}

void Sema::check_shared_array(const LocalDecl& var) {
    if (!check_group_construct(var.range, "a shared array"))
        return;
    if (shared_array_ != nullptr && shared_array_ != &var) {
        diags_.report(DiagId::shared_twice, var.name_range) << kernel_->name << var.name;
        diags_.report(DiagId::previous_declaration, shared_array_->name_range)
            << shared_array_->name;
        return;
    }
    shared_array_ = &var;
    if (!var.type.is_error() && (!is_stream_element_type(var.type) || var.type.is_struct()))
        diags_.report(DiagId::shared_element_type, var.name_range) << var.name << var.type.name();
}

void Sema::visit(SyncGroup& stmt) {
    check_group_construct(stmt.range, "syncGroup()");
}

void Sema::visit(InstanceInGroup& expr) {
    expr.type = check_group_construct(expr.range, "instanceInGroup()")
                    ? Type::vector(ScalarType::Int, 4)
                    : Type::error();
}

void Sema::visit(Discard& stmt) {
    if (const char* what = cannot_discard(*kernel_)) {
        diags_.report(DiagId::discard_outside_map_kernel, stmt.range) << what << kernel_->name;
        return;
    }
    kernel_->discards = true;
}

} // namespace brcc
