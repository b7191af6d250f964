// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The C++ hooks of the C-like printer, shared by the CPU and CUDA generators: Brook's vector
// forms map onto brook::vec and the kernel language (brook::lang), which both targets compile.

#include "codegen/cpp_kernel_printer.hpp"

#include "ast/operators.hpp"
#include "codegen/cpp_spelling.hpp"
#include "sema/builtins.hpp"
#include "support/diagnostics.hpp"

#include <algorithm>

namespace brcc {

namespace {

constexpr std::string_view lang = "::brook::lang::";
/// The `bool&` parameter that a body which may discard sets when it does.
constexpr std::string_view discard_flag_name = "brook_discarded";

// The helpers of kernel_language.hpp that do signed int arithmetic with wrap-around.
std::string_view wrapping_name(BinaryOp op) {
    return op == BinaryOp::Add   ? "wrapping_add"
           : op == BinaryOp::Sub ? "wrapping_sub"
                                 : "wrapping_mul";
}
std::string_view wrapping_name(AssignOp op) {
    return op == AssignOp::Add   ? "wrapping_add_assign"
           : op == AssignOp::Sub ? "wrapping_sub_assign"
                                 : "wrapping_mul_assign";
}
std::string_view wrapping_name(UnaryOp op) {
    switch (op) {
    case UnaryOp::Minus:
        return "wrapping_neg";
    case UnaryOp::PreInc:
        return "wrapping_pre_increment";
    case UnaryOp::PreDec:
        return "wrapping_pre_decrement";
    case UnaryOp::PostInc:
        return "wrapping_post_increment";
    case UnaryOp::PostDec:
        return "wrapping_post_decrement";
    case UnaryOp::Plus:
    case UnaryOp::Not:
    case UnaryOp::BitNot:
        break;
    }
    internal_error(__FILE__, __LINE__, "operator without overflow printed as wrapping");
}

bool is_signed_int(const Type& type) {
    return type.is_arithmetic() && type.scalar_type() == ScalarType::Int;
}

BinaryOp binary_of(AssignOp op) {
    return op == AssignOp::Add   ? BinaryOp::Add
           : op == AssignOp::Sub ? BinaryOp::Sub
                                 : BinaryOp::Mul;
}

std::string component_list(const Member& member) {
    std::string list;
    for (int i = 0; i < member.swizzle_length; ++i) {
        if (i != 0)
            list += ", ";
        list += std::to_string(member.swizzle[static_cast<std::size_t>(i)]);
    }
    return list;
}

} // namespace

std::string push_target_name(std::string_view name) {
    return cpp_identifier(name) + "__vout";
}

namespace {

std::string position_parameter_name(const ParamDecl& stream) {
    return cpp_identifier(stream.name) + "__position";
}

std::string callable_function_name(const KernelDecl& kernel) {
    return cpp_identifier(kernel.name) + "__call";
}

} // namespace

std::string CppKernelPrinter::position_parameter(const ParamDecl& stream) {
    return position_parameter_name(stream);
}

std::string CppKernelPrinter::callable_name(const KernelDecl& callee) {
    return callable_function_name(callee);
}

std::string CppKernelPrinter::out_argument(const Expr& arg) {
    if (arg.kind == NodeKind::Member) {
        const auto& member = static_cast<const Member&>(arg);
        if (member.is_swizzle && member.swizzle_length > 1)
            return std::string(lang) + "masked<" + component_list(member) + ">(" +
                   argument(*member.base) + ")";
    }
    return argument(arg);
}

std::string CppKernelPrinter::discard_flag() {
    return std::string(discard_flag_name);
}

std::string CppKernelPrinter::discard() {
    // A helper's caller never sees the value it returns: the element ends.
    const bool returns_value = callable_ != nullptr && callable_->is_helper();
    return std::string(discard_flag_name) + " = true; return" + (returns_value ? " {}" : "");
}

std::string CppKernelPrinter::type_name(const Type& type) {
    return cpp_type_name(type);
}

std::string CppKernelPrinter::identifier(std::string_view name) {
    return cpp_identifier(name);
}

std::string CppKernelPrinter::float_literal(double value) {
    return cpp_float_literal(value);
}

std::string CppKernelPrinter::double_literal(double value) {
    return cpp_double_literal(value);
}

PrintedExpr CppKernelPrinter::field(const Member& member) {
    PrintedExpr printed = CLikePrinter::field(member);
    // A struct's vector fields are host code's named classes (the struct is the user's own
    // text, `float3 o;`); the kernel computes with the vec each derives from, so that a field
    // and a local are one type to the built-ins' templates.
    const Type& type = member.type;
    if (type.is_vector() && type.scalar_type() != ScalarType::Bool && !is_fixed(type))
        return {std::string(lang) + "field(" + printed.text + ")"};
    return printed;
}

PrintedExpr CppKernelPrinter::swizzle(const Member& member) {
    return {std::string(lang) + "swizzle<" + component_list(member) + ">(" +
            argument(*member.base) + ")"};
}

PrintedExpr CppKernelPrinter::masked_assign(const Assign& assign, const Member& target) {
    const std::string vector = argument(*target.base);
    std::string value = argument(*assign.value);
    if (assign.op != AssignOp::Assign) {
        // `v.xy op= e` is `v.xy = v.xy op e`.
        const std::string current =
            std::string(lang) + "swizzle<" + component_list(target) + ">(" + vector + ")";
        if (assign.op == AssignOp::Rem && is_floating_point(assign.type.scalar_type()))
            value = std::string(lang) + "fmod(" + current + ", " + value + ")";
        else if (is_signed_int(assign.type) &&
                 (assign.op == AssignOp::Add || assign.op == AssignOp::Sub ||
                  assign.op == AssignOp::Mul))
            value = std::string(lang) + std::string(wrapping_name(binary_of(assign.op))) + "(" +
                    current + ", " + value + ")";
        else
            value = current + " " + std::string(operation_spelling(assign.op)) + " (" + value + ")";
    }
    return {std::string(lang) + "assign_mask<" + component_list(target) + ">(" + vector + ", " +
            value + ")"};
}

PrintedExpr CppKernelPrinter::builtin_call(const Call& call) {
    return {std::string(lang) + std::string(builtin_name(*call.builtin)) + "(" +
            join(print_args(call.args)) + ")"};
}

PrintedExpr CppKernelPrinter::convert(const Type& to, const Expr& operand) {
    const Type& from = operand.type;
    if (from == to)
        return print(operand);
    // fixed values are floats in kernels; becoming one saturates and rounds to a byte step.
    if (is_fixed(to) && !is_fixed(from))
        return {std::string(lang) + "to_fixed<" + cpp_storage_type_name(to.with_width(1)) + ", " +
                type_name(to) + ">(" + argument(operand) + ")"};
    // Reading one as float..float4 of its width changes nothing.
    if (is_fixed(from) && type_name(from) == type_name(to))
        return print(operand);
    // Literals are written in the target type directly: `2.0f`, not `static_cast<float>(2)`.
    if (to.is_scalar() && to.scalar_type() == ScalarType::Float) {
        if (operand.kind == NodeKind::IntLiteral)
            return {
                float_literal(static_cast<double>(static_cast<const IntLiteral&>(operand).value))};
        if (operand.kind == NodeKind::FloatLiteral)
            return {float_literal(static_cast<const FloatLiteral&>(operand).value)};
    }
    if (to.is_scalar() && from.is_scalar())
        return {"static_cast<" + type_name(to) + ">(" + argument(operand) + ")"};
    // brook::vec's explicit constructors broadcast a scalar and convert component types.
    if (to.is_vector() && (from.is_scalar() || from.width() == to.width()))
        return {type_name(to) + "(" + argument(operand) + ")"};
    return {std::string(lang) + "convert<" + type_name(to) + ">(" + argument(operand) + ")"};
}

/// `base.at(i0, i1)` or `base.at_vector(p)`: the element of a gather or scatter output that
/// `subscript` names, by lang::Gather's or lang::Scatter's members.
std::string CppKernelPrinter::array_element(const Subscript& subscript) {
    const std::string base = operand(*subscript.base, PrintedExpr::primary);
    if (subscript.indices.size() == 1 && subscript.indices.front()->type.is_vector())
        return base + ".at_vector(" + argument(*subscript.indices.front()) + ")";
    return base + ".at(" + join(print_args(subscript.indices)) + ")";
}

PrintedExpr CppKernelPrinter::scatter_store(const Subscript& target, const Expr& value) {
    // A fixed element is stored in its storage type, as an out stream's is.
    const std::string stored = is_fixed(target.type) ? std::string(lang) + "convert<" +
                                                           cpp_storage_type_name(target.type) +
                                                           ">(" + argument(value) + ")"
                                                     : operand(value, PrintedExpr::assignment);
    return {array_element(target) + " = " + stored, PrintedExpr::assignment};
}

PrintedExpr CppKernelPrinter::shared_element(const Subscript& subscript) {
    return {value_name(*subscript.shared) + ".at(" + argument(*subscript.indices.front()) + ")",
            PrintedExpr::primary};
}

PrintedExpr CppKernelPrinter::gather(const Subscript& subscript) {
    const std::string base = operand(*subscript.base, PrintedExpr::primary);
    std::string element;
    if (subscript.indices.size() == 1 && subscript.indices.front()->type.is_vector())
        element = array_element(subscript);
    else if (const unsigned in_range = in_range_dimensions(subscript); in_range != 0)
        element = base + ".at_in_range<" + std::to_string(in_range) + "u>(" +
                  join(print_args(subscript.indices)) + ")";
    else
        element = array_element(subscript);
    if (is_fixed(subscript.type))
        return {std::string(lang) + "convert<" + type_name(subscript.type) + ">(" + element + ")"};
    return {element};
}

PrintedExpr CppKernelPrinter::condition(const Expr& expr) {
    if (expr.type.is_scalar() && expr.type.scalar_type() == ScalarType::Bool)
        return print(expr);
    return {std::string(lang) + "truth(" + argument(expr) + ")"};
}

PrintedExpr CppKernelPrinter::vector_select(const Conditional& conditional) {
    return {std::string(lang) + "select(" + argument(*conditional.condition) + ", " +
            argument(*conditional.then_value) + ", " + argument(*conditional.else_value) + ")"};
}

PrintedExpr CppKernelPrinter::float_remainder(const Expr& lhs, const Expr& rhs) {
    return {std::string(lang) + "fmod(" + argument(lhs) + ", " + argument(rhs) + ")"};
}

PrintedExpr CppKernelPrinter::vector_logical(const Binary& binary) {
    const char* name = binary.op == BinaryOp::LogicalAnd ? "logical_and(" : "logical_or(";
    return {std::string(lang) + name + argument(*binary.lhs) + ", " + argument(*binary.rhs) + ")"};
}

PrintedExpr CppKernelPrinter::vector_not(const Unary& unary) {
    return {std::string(lang) + "logical_not(" + argument(*unary.operand) + ")"};
}

PrintedExpr CppKernelPrinter::init_list(const InitList& list, const Type& type) {
    std::vector<std::string> elements;
    for (std::size_t i = 0; i < list.elements.size(); ++i) {
        const Expr& element = *list.elements[i];
        if (element.kind == NodeKind::InitList && type.is_struct() &&
            i < type.struct_decl()->fields.size()) {
            elements.push_back(
                init_list(static_cast<const InitList&>(element), type.struct_decl()->fields[i].type)
                    .text);
        } else {
            elements.push_back(operand(element, 2));
        }
    }
    if (type.is_struct())
        return {type_name(type) + "{" + join(elements) + "}"};
    // C fills the components a brace list leaves out with zeros.
    while (type.is_vector() && elements.size() < static_cast<std::size_t>(type.width()))
        elements.push_back(type_name(type.with_width(1)) + "{}");
    if (type.is_scalar())
        return {"static_cast<" + type_name(type) + ">(" + join(elements) + ")"};
    return {type_name(type) + "(" + join(elements) + ")"};
}

std::optional<PrintedExpr> CppKernelPrinter::wrapping_arithmetic(const Expr& expr) {
    if (expr.kind == NodeKind::Binary) {
        const auto& binary = static_cast<const Binary&>(expr);
        return PrintedExpr{wrapping_call(wrapping_name(binary.op), *binary.lhs, *binary.rhs)};
    }
    if (expr.kind == NodeKind::Assign) {
        const auto& assign = static_cast<const Assign&>(expr);
        return PrintedExpr{wrapping_call(wrapping_name(assign.op), *assign.target, *assign.value)};
    }
    const auto& unary = static_cast<const Unary&>(expr);
    return PrintedExpr{std::string(lang) + std::string(wrapping_name(unary.op)) + "(" +
                       argument(*unary.operand) + ")"};
}

PrintedExpr CppKernelPrinter::integer_division(const Binary& binary) {
    return {wrapping_call(binary.op == BinaryOp::Div ? "divide" : "remainder", *binary.lhs,
                          *binary.rhs)};
}

std::optional<PrintedExpr> CppKernelPrinter::compound_assignment(const Assign& assign) {
    if ((assign.op != AssignOp::Div && assign.op != AssignOp::Rem) || !is_integer(assign.type))
        return std::nullopt;
    return PrintedExpr{
        wrapping_call(assign.op == AssignOp::Div ? "divide_assign" : "remainder_assign",
                      *assign.target, *assign.value)};
}

std::string CppKernelPrinter::wrapping_call(std::string_view name, const Expr& lhs,
                                            const Expr& rhs) {
    return std::string(lang) + std::string(name) + "(" + argument(lhs) + ", " + argument(rhs) + ")";
}

std::string CppKernelPrinter::push(const Push& push) {
    const std::string value = identifier(push.stream->name);
    if (!is_fixed(push.stream->type))
        return push_target_name(push.stream->name) + ".push(" + value + ")";
    return push_target_name(push.stream->name) + ".push(" + std::string(lang) + "convert<" +
           cpp_storage_type_name(push.stream->type) + ">(" + value + "))";
}

PrintedExpr CppKernelPrinter::construct(const Construct& construct) {
    const std::vector<std::string> args = print_args(construct.args);
    const Type& type = construct.constructed;
    // `fixed4(a, b, c, d)` saturates and rounds its components like any conversion to fixed.
    if (is_fixed(type))
        return {std::string(lang) + "to_fixed<" + cpp_storage_type_name(type.with_width(1)) + ", " +
                type_name(type) + ">(" + type_name(type) + "(" + join(args) + "))"};
    if (type.is_scalar())
        return {"static_cast<" + type_name(type) + ">(" + join(args) + ")"};
    return {type_name(type) + "(" + join(args) + ")"};
}

// ----- What both C++ generators print around a body -----

std::string maybe_unused(const std::string& declaration) {
    return "[[maybe_unused]] " + declaration;
}

std::string body_name(const KernelDecl& kernel) {
    return cpp_identifier(kernel.name) + "__body";
}

std::string body_parameter(const ParamDecl& param, std::string_view variable_output,
                           const std::string& suffix) {
    const std::string type = cpp_type_name(param.type);
    const std::string name = cpp_identifier(param.name) + suffix;
    switch (param.param_kind) {
    case ParamKind::Constant:
        return maybe_unused("const " + type + "& " + name);
    case ParamKind::InputStream:
    case ParamKind::ReduceInput:
        return maybe_unused("const " + type + " " + name);
    case ParamKind::OutputStream:
    case ParamKind::ReduceAccumulator:
        return maybe_unused(type + "& " + name);
    // By value: a copy is a local the compiler knows nothing else writes, so the gather's
    // pointer and extents stay in registers across a loop (through a reference, they are
    // reloaded and a CPU SIMD loop's reads become vector gathers).
    case ParamKind::Gather:
        return maybe_unused("const ::brook::lang::Gather<" + cpp_storage_type_name(param.type) +
                            ", " + std::to_string(param.gather_view_rank()) + "> " + name);
    case ParamKind::ScatterOutput:
        return maybe_unused("const ::brook::lang::Scatter<" + cpp_storage_type_name(param.type) +
                            ", " + std::to_string(param.gather_view_rank()) + "> " + name);
    case ParamKind::VariableOutput:
        return maybe_unused(type + "& " + name) + ",\n        " +
               maybe_unused(std::string(variable_output) + "<" + cpp_storage_type_name(param.type) +
                            ">& " + push_target_name(param.name));
    }
    return "";
}

std::string discard_parameter() {
    return "bool& " + std::string(discard_flag_name);
}

std::string discarded_test() {
    return "!" + std::string(discard_flag_name);
}

std::string discard_flag_declaration() {
    return "bool " + std::string(discard_flag_name) + " = false;\n";
}

std::string discard_argument() {
    return std::string(discard_flag_name);
}

std::string skip_element_statement(std::string_view runtime, const std::string& pad) {
    return pad + "if (" + std::string(runtime) + "skips_element(frame, i)) {\n" + pad +
           "    continue;\n" + pad + "}\n";
}

std::string mark_written_statement(const KernelDecl& kernel, std::string_view runtime,
                                   const std::string& pad) {
    const std::string mark = std::string(runtime) + "mark_written(frame, i);\n";
    if (!kernel.discards)
        return pad + mark;
    return pad + "if (" + discarded_test() + ") {\n" + pad + "    " + mark + pad + "}\n";
}

namespace {

/// The reference through which a called kernel stores `out` parameter `param` back.
std::string out_reference_name(const ParamDecl& param) {
    return cpp_identifier(param.name) + "__out";
}

/// The type of the reference through which `out` parameter `param` is stored back.
std::string out_reference_type(const ParamDecl& param) {
    return "Out" + std::to_string(param.index);
}

std::string callable_signature(const KernelDecl& kernel, std::string_view specifiers) {
    std::vector<std::string> templates;
    std::vector<std::string> parameters;
    for (const ParamDecl* param : kernel.params) {
        const std::string type = cpp_type_name(param->type);
        switch (param->param_kind) {
        case ParamKind::Constant:
        case ParamKind::InputStream:
            parameters.push_back(maybe_unused(type + " " + cpp_identifier(param->name)));
            break;
        case ParamKind::OutputStream:
            templates.push_back("class " + out_reference_type(*param));
            parameters.push_back(out_reference_type(*param) + "&& " + out_reference_name(*param));
            break;
        case ParamKind::Gather:
            parameters.push_back(body_parameter(*param, ""));
            break;
        case ParamKind::ReduceInput:
        case ParamKind::ReduceAccumulator:
        case ParamKind::VariableOutput:
        case ParamKind::ScatterOutput:
            internal_error(__FILE__, __LINE__,
                           "a reduction, vout or scatter kernel called from a kernel");
        }
    }
    for (const ParamDecl* param : kernel.params) {
        if (param->needs_position)
            parameters.push_back(
                maybe_unused("const ::brook::vec<float, 4> " + position_parameter_name(*param)));
    }
    if (kernel.discards)
        parameters.push_back(discard_parameter());
    std::string text;
    for (const std::string& parameter : parameters)
        text += (text.empty() ? "" : ", ") + parameter;
    std::string prefix;
    for (const std::string& parameter : templates)
        prefix += (prefix.empty() ? "template <" : ", ") + parameter;
    if (!prefix.empty())
        prefix += ">\n";
    return prefix + std::string(specifiers) + " " + cpp_type_name(kernel.return_type) + " " +
           callable_function_name(kernel) + "(" + text + ")";
}

} // namespace

std::string callable_prototype(const KernelDecl& kernel, std::string_view specifiers) {
    return callable_signature(kernel, specifiers) + ";\n";
}

std::string callable_definition(const KernelDecl& kernel, CppKernelPrinter& printer,
                                std::string_view specifiers) {
    std::string text = callable_signature(kernel, specifiers) + " {\n";
    if (!has_out_parameters(kernel)) {
        printer.print_callable_body(kernel, 1, text);
        return text + "}\n";
    }
    // The body runs in a lambda, so that a `return` anywhere in it still reaches the stores.
    std::string stores;
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind != ParamKind::OutputStream)
            continue;
        text += "    " + cpp_type_name(param->type) + " " + cpp_identifier(param->name) + " = " +
                out_reference_name(*param) + ";\n";
        stores += "    " + out_reference_name(*param) + " = " + cpp_identifier(param->name) + ";\n";
    }
    const std::string type = cpp_type_name(kernel.return_type);
    text += kernel.is_helper() ? "    const " + type + " brook_result = [&]() -> " + type + " {\n"
                               : "    [&] {\n";
    printer.print_callable_body(kernel, 2, text);
    text += "    }();\n" + stores;
    if (kernel.is_helper())
        text += "    return brook_result;\n";
    return text + "}\n";
}

std::string shared_array_type(const LocalDecl& array) {
    return "::brook::lang::GroupShared<" + cpp_type_name(array.type) + ", " +
           std::to_string(array.shared_extent) + ">";
}

std::string position_param_index(const ParamDecl& stream) {
    return stream.param_kind == ParamKind::ScatterOutput ? "-1" : std::to_string(stream.index);
}

std::string local_name(const ParamDecl& param) {
    return "p" + std::to_string(param.index) + "_" + param.name;
}

std::string converted_from_storage(const Type& type, const std::string& element) {
    if (!is_fixed(type))
        return element;
    return "::brook::lang::convert<" + cpp_type_name(type) + ">(" + element + ")";
}

std::string element_storage_type(const ParamDecl& param) {
    const std::string storage = cpp_storage_type_name(param.type);
    return param.param_kind == ParamKind::InputStream ? "const " + storage : storage;
}

bool has_out_parameters(const KernelDecl& kernel) {
    return std::any_of(kernel.params.begin(), kernel.params.end(), [](const ParamDecl* param) {
        return param->param_kind == ParamKind::OutputStream;
    });
}

std::string reduce_body_call(const KernelDecl& kernel, const std::string& input,
                             const std::string& accumulator) {
    std::string args;
    for (const ParamDecl* param : kernel.params) {
        if (!args.empty())
            args += ", ";
        switch (param->param_kind) {
        case ParamKind::Constant:
        case ParamKind::Gather:
            args += local_name(*param);
            break;
        case ParamKind::ReduceInput:
            args += input;
            break;
        case ParamKind::ReduceAccumulator:
            args += accumulator;
            break;
        case ParamKind::InputStream:
        case ParamKind::OutputStream:
        case ParamKind::VariableOutput:
        case ParamKind::ScatterOutput:
            internal_error(__FILE__, __LINE__, "stream parameter in a reduction");
        }
    }
    return body_name(kernel) + "(" + args + ")";
}

} // namespace brcc
