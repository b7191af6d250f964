// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Semantic analysis of calls, constructors and casts. A call names a Cg built-in (checked
// against its signature in builtins.cpp: every argument converted to the call's one common
// type, so scalars broadcast explicitly) or a kernel other than a reduction or one with a vout
// (COMPAT 1.2): values and input streams take any expression converted to the parameter's
// type, `out` parameters an lvalue of their type (copied in, stored back after the call),
// gathers a gather of the caller passed whole; the call is recorded for the call graph, which
// checks what indexof needs of the arguments. Constructors fill a vector from the
// components of their arguments, each converted to the vector's scalar type.

#include "sema/builtins.hpp"
#include "sema/sema_impl.hpp"

#include <algorithm>

namespace brcc {

namespace {

const ParamDecl* find_vout(const KernelDecl& kernel) {
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind == ParamKind::VariableOutput)
            return param;
    }
    return nullptr;
}

} // namespace

void Sema::visit(Call& expr) {
    expr.type = Type::error();
    const auto builtin = find_builtin(expr.callee);
    KernelDecl* callee = nullptr;
    if (!builtin) {
        const auto found =
            std::find_if(unit_.kernels.begin(), unit_.kernels.end(),
                         [&](const KernelDecl* k) { return k->name == expr.callee; });
        callee = found == unit_.kernels.end() ? nullptr : *found;
    }
    bool arguments_ok = true;
    for (std::size_t i = 0; i < expr.args.size(); ++i) {
        // A gather passes whole, unindexed (COMPAT 1.8): its name is not read as a value.
        const bool whole_gather = callee != nullptr && i < callee->params.size() &&
                                  callee->params[i]->param_kind == ParamKind::Gather &&
                                  expr.args[i]->kind == NodeKind::NameRef;
        if (whole_gather)
            resolve_name(static_cast<NameRef&>(*expr.args[i]));
        else
            check(expr.args[i]);
        arguments_ok = !expr.args[i]->type.is_error() && arguments_ok;
    }
    if (builtin) {
        expr.builtin = builtin;
        if (arguments_ok)
            check_builtin_call(expr, *builtin);
        return;
    }
    if (callee == nullptr) {
        diags_.report(DiagId::undeclared_function, expr.callee_range) << expr.callee;
        return;
    }
    expr.helper = callee;
    if (callee->is_reduce) {
        diags_.report(DiagId::call_of_reduce, expr.callee_range) << expr.callee;
        return;
    }
    if (const ParamDecl* vout = find_vout(*callee)) {
        diags_.report(DiagId::call_of_vout_kernel, expr.callee_range) << expr.callee << vout->name;
        return;
    }
    edges_.push_back({kernel_, callee, &expr});
    if (expr.args.size() != callee->params.size()) {
        diags_.report(DiagId::call_arity, expr.range)
            << expr.callee << count_noun(callee->params.size(), "argument") << expr.args.size();
        return;
    }
    if (arguments_ok)
        check_kernel_arguments(expr, *callee);
    expr.type = callee->return_type;
}

void Sema::check_kernel_arguments(Call& call, const KernelDecl& callee) {
    for (std::size_t i = 0; i < call.args.size(); ++i) {
        const ParamDecl& param = *callee.params[i];
        Expr*& arg = call.args[i];
        switch (param.param_kind) {
        case ParamKind::Constant:
        case ParamKind::InputStream:
            // A value: any expression of the type (an input stream's element is one).
            convert(arg, param.type);
            break;
        case ParamKind::OutputStream:
            // An lvalue, copied in and stored back after the call: of the parameter's type, so
            // that every backend copies it unchanged both ways.
            if (!check_assignable(*arg))
                break;
            if (arg->type != param.type)
                diags_.report(DiagId::out_argument_type, arg->range)
                    << param.name << callee.name << param.type.name() << arg->type.name();
            break;
        case ParamKind::Gather: {
            const ParamDecl* gather =
                arg->kind == NodeKind::NameRef ? bound_parameter(*arg) : nullptr;
            // Any brackets: the stream bound at run time gives every index its meaning (§1.9).
            if (gather == nullptr || gather->param_kind != ParamKind::Gather ||
                gather->type != param.type)
                diags_.report(DiagId::gather_argument_mismatch, arg->range)
                    << param.name << callee.name << param.type.name();
            break;
        }
        case ParamKind::ReduceInput:
        case ParamKind::ReduceAccumulator:
        case ParamKind::VariableOutput:
        case ParamKind::ScatterOutput:
            break; // such kernels are not callable, reported above or with the signature
        }
    }
}

void Sema::check_builtin_call(Call& call, BuiltinId id) {
    const BuiltinSignature signature = builtin_signature(id);
    const std::string_view name = builtin_name(id);
    if (call.args.size() != static_cast<std::size_t>(signature.arity)) {
        diags_.report(DiagId::builtin_arity, call.range)
            << name << count_noun(static_cast<std::size_t>(signature.arity), "argument")
            << call.args.size();
        return;
    }
    const char* expected = "a scalar or a vector";
    switch (signature.args) {
    case BuiltinArgs::Float:
        expected = "a float scalar or vector";
        break;
    case BuiltinArgs::Numeric:
        expected = "an int or float scalar or vector";
        break;
    case BuiltinArgs::Logical:
        break;
    case BuiltinArgs::Float3:
        expected = "a float3";
        break;
    case BuiltinArgs::Float4:
        expected = "a float4";
        break;
    case BuiltinArgs::FloatOne:
        expected = "a float";
        break;
    }
    int width = 1;
    bool all_integer = true;
    bool any_double = false;
    ScalarType integer = ScalarType::Int; // the integer arguments' common type
    for (std::size_t i = 0; i < call.args.size(); ++i) {
        const Type type = call.args[i]->type;
        const bool bool_in_math = type.is_arithmetic() && type.scalar_type() == ScalarType::Bool &&
                                  signature.args != BuiltinArgs::Logical;
        const int width_needed = required_width(signature.args);
        if (!type.is_arithmetic() || bool_in_math ||
            (width_needed != 0 && type.width() != width_needed)) {
            diags_.report(DiagId::builtin_argument_type, call.args[i]->range)
                << i + 1 << name << type.name() << expected;
            return;
        }
        const int combined = common_width(width, type.width());
        if (combined == 0) {
            diags_.report(DiagId::builtin_width_mismatch, call.range)
                << name << call.args[0]->type.name() << type.name();
            return;
        }
        width = combined;
        all_integer = all_integer && is_integer(type.scalar_type());
        any_double = any_double || type.scalar_type() == ScalarType::Double;
        if (promoted(type.scalar_type()) == ScalarType::UInt)
            integer = ScalarType::UInt;
    }
    ScalarType scalar = ScalarType::Float;
    if (signature.args == BuiltinArgs::Logical)
        scalar = ScalarType::Bool;
    else if (signature.args == BuiltinArgs::Numeric && all_integer)
        scalar = integer;
    else if (any_double) // as C's usual conversions: computing in float would lose precision
        scalar = ScalarType::Double;
    // One that combines its argument's components sees every component a widening made.
    if (signature.result == BuiltinResult::Scalar || signature.result == BuiltinResult::Bool ||
        id == BuiltinId::normalize) {
        for (const Expr* arg : call.args)
            warn_widened_operand(*arg, name);
    }
    // Every argument takes the call's one type, so each backend maps the built-in onto a
    // function of uniform argument types.
    const Type common = Type::vector(scalar, width);
    for (Expr*& arg : call.args) {
        if (signature.args == BuiltinArgs::Logical)
            convert_scalar(arg, ScalarType::Bool);
        else
            wrap(arg, common);
    }
    switch (signature.result) {
    case BuiltinResult::Same:
        call.type = common;
        break;
    case BuiltinResult::Scalar:
        call.type = Type::scalar(scalar);
        break;
    case BuiltinResult::Bool:
        call.type = Type::scalar(ScalarType::Bool);
        break;
    case BuiltinResult::BoolWidth:
        call.type = Type::vector(ScalarType::Bool, width);
        break;
    case BuiltinResult::Float4:
        call.type = Type::vector(ScalarType::Float, 4);
        break;
    }
}

void Sema::visit(Construct& expr) {
    expr.type = Type::error();
    int components = 0;
    bool ok = true;
    for (Expr*& arg : expr.args) {
        const Type type = check(arg);
        if (type.is_error()) {
            ok = false;
            continue;
        }
        if (!type.is_arithmetic()) {
            diags_.report(DiagId::constructor_argument, arg->range)
                << expr.constructed.name() << type.name();
            ok = false;
            continue;
        }
        components += type.width();
    }
    if (!ok || !expr.constructed.is_arithmetic())
        return;
    if (components != expr.constructed.width()) {
        diags_.report(DiagId::constructor_components, expr.range)
            << expr.constructed.name() << expr.constructed.width() << components;
        return;
    }
    for (Expr*& arg : expr.args)
        convert_scalar(arg, expr.constructed.scalar_type());
    expr.type = expr.constructed;
}

void Sema::visit(Cast& expr) {
    const Type source = check(expr.operand);
    const Type target = expr.target;
    expr.type = Type::error();
    if (source.is_error() || target.is_error())
        return;
    // Explicit casts may also narrow a vector (keeping its first components); they may not
    // widen one, nor touch structs other than to their own type.
    const bool ok = source == target || (source.is_arithmetic() && target.is_arithmetic() &&
                                         (source.is_scalar() || source.width() >= target.width()));
    if (!ok) {
        diags_.report(DiagId::bad_cast, expr.range) << source.name() << target.name();
        return;
    }
    expr.type = target;
}

void Sema::visit(ImplicitConvert& expr) {
    // Only sema inserts these, around operands it has already checked.
    if (expr.operand->type.is_error())
        expr.type = Type::error();
}

} // namespace brcc
