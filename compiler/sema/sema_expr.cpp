// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Semantic analysis of expressions: every expression gets its type by Cg's rules, and every
// change of type becomes an explicit ImplicitConvert node, so that the code generators never
// have to work out a conversion themselves. The rules:
//  - C's usual arithmetic conversions: char, uchar, short and ushort promote to int, and `fixed`
//    (a byte read as a value in [0, 1]) computes as float; then the lower of two scalar types
//    converts to the higher (int < uint < float < double); bool takes its partner's type, two bools
//    give int. A scalar next to a vector keeps its width, since every backend's operators broadcast
//    it; of two vectors of different widths M < N, the wider one's first M components take part
//    (Cg). A shift has its promoted left operand's type;
//  - `&&`, `||` and `!` with a vector operand work per component like comparisons, giving a
//    bool vector; on scalars they keep C's short circuit;
//  - assignments, initialisers, arguments and returns convert the value to the target's type,
//    broadcasting a scalar to a vector and narrowing a vector to its first components (Cg),
//    never widening one; the conversion to an integer type wraps around and the one to fixed
//    saturates (the code generators' part);
//  - `x op= y` computes in the type `x op y` would have and converts the result back to x's
//    type, as C does: a float result going into an integer x, or a result wider than x, makes
//    it `x = (type of x)(x op y)`, so that every backend truncates (or narrows) the same way;
//  - the built-ins take their arguments at one common type (scalars broadcast explicitly).
// A visit leaves the error type after reporting, and reports nothing about error-typed operands.

#include "ast/operators.hpp"
#include "sema/builtins.hpp"
#include "sema/sema_impl.hpp"

#include <algorithm>

namespace brcc {

namespace {

/// The rank of a promoted scalar type in the usual arithmetic conversions.
int scalar_rank(ScalarType scalar) {
    switch (scalar) {
    case ScalarType::Bool:
        return 0;
    case ScalarType::Char:
    case ScalarType::UChar:
    case ScalarType::Short:
    case ScalarType::UShort:
    case ScalarType::Int:
        return 1;
    case ScalarType::UInt:
        return 2;
    case ScalarType::Fixed:
    case ScalarType::ShortFixed:
    case ScalarType::Float:
        return 3;
    case ScalarType::Double:
        return 4;
    }
    return 0;
}

/// The scalar type two operands meet at. Two bools stay bool only where `keep_bool` (==, !=, ?:);
/// in arithmetic they give int.
ScalarType common_scalar(ScalarType a, ScalarType b, bool keep_bool) {
    if (a == ScalarType::Bool && b == ScalarType::Bool)
        return keep_bool ? ScalarType::Bool : ScalarType::Int;
    const ScalarType lhs = promoted(a == ScalarType::Bool ? b : a);
    const ScalarType rhs = promoted(b == ScalarType::Bool ? a : b);
    return scalar_rank(lhs) >= scalar_rank(rhs) ? lhs : rhs;
}
/// A swizzle naming the first `width` components, for the advice in messages.
std::string_view first_components(int width) {
    return std::string_view("xyzw").substr(0, static_cast<std::size_t>(std::clamp(width, 1, 4)));
}

enum class OperatorClass { Arithmetic, Integer, Comparison, Equality, Logical, Comma };

OperatorClass operator_class(BinaryOp op) {
    switch (op) {
    case BinaryOp::Add:
    case BinaryOp::Sub:
    case BinaryOp::Mul:
    case BinaryOp::Div:
    case BinaryOp::Rem:
        return OperatorClass::Arithmetic;
    case BinaryOp::Shl:
    case BinaryOp::Shr:
    case BinaryOp::BitAnd:
    case BinaryOp::BitOr:
    case BinaryOp::BitXor:
        return OperatorClass::Integer;
    case BinaryOp::Less:
    case BinaryOp::Greater:
    case BinaryOp::LessEqual:
    case BinaryOp::GreaterEqual:
        return OperatorClass::Comparison;
    case BinaryOp::Equal:
    case BinaryOp::NotEqual:
        return OperatorClass::Equality;
    case BinaryOp::LogicalAnd:
    case BinaryOp::LogicalOr:
        return OperatorClass::Logical;
    case BinaryOp::Comma:
        return OperatorClass::Comma;
    }
    return OperatorClass::Arithmetic;
}

/// The types of an arithmetic, integer, comparison or equality operation: `operands` is the
/// scalar type both operands convert to (each keeps its width), `result` the operation's type.
struct OperationTypes {
    ScalarType operands;
    Type result;
};

} // namespace

ScalarType promoted(ScalarType scalar) {
    switch (scalar) {
    case ScalarType::Char:
    case ScalarType::UChar:
    case ScalarType::Short:
    case ScalarType::UShort:
        return ScalarType::Int;
    case ScalarType::Fixed:
    case ScalarType::ShortFixed:
        return ScalarType::Float;
    case ScalarType::Bool:
    case ScalarType::Int:
    case ScalarType::UInt:
    case ScalarType::Float:
    case ScalarType::Double:
        break;
    }
    return scalar;
}

int common_width(int a, int b) {
    if (a == 1)
        return b;
    if (b == 1 || a == b)
        return a;
    return 0;
}

int conversion_rank(ScalarType scalar) {
    switch (scalar) {
    case ScalarType::Bool:
        return 0;
    case ScalarType::Char:
        return 1;
    case ScalarType::UChar:
        return 2;
    case ScalarType::Short:
        return 3;
    case ScalarType::UShort:
        return 4;
    case ScalarType::Int:
        return 5;
    case ScalarType::UInt:
        return 6;
    case ScalarType::Float:
    case ScalarType::Fixed:
    case ScalarType::ShortFixed:
        return 7;
    case ScalarType::Double:
        break;
    }
    return 8;
}

int operator_width(Type lhs, Type rhs) {
    if (lhs.width() == 1 || rhs.width() == 1)
        return std::max(lhs.width(), rhs.width());
    const int lhs_rank = conversion_rank(lhs.scalar_type());
    const int rhs_rank = conversion_rank(rhs.scalar_type());
    if (lhs_rank == rhs_rank)
        return std::max(lhs.width(), rhs.width());
    return lhs_rank > rhs_rank ? lhs.width() : rhs.width();
}

const char* param_description(const ParamDecl& param, bool in_reduce) {
    switch (param.param_kind) {
    case ParamKind::Constant:
        return "constant argument";
    case ParamKind::InputStream:
        return in_reduce ? "reduce input stream" : "input stream";
    case ParamKind::ReduceInput:
        return "reduce input stream";
    case ParamKind::OutputStream:
        return "out stream";
    case ParamKind::Gather:
        return "gather argument";
    case ParamKind::ReduceAccumulator:
        return "reduce argument";
    case ParamKind::VariableOutput:
        return "vout stream";
    case ParamKind::ScatterOutput:
        return "scatter output";
    }
    return "argument";
}

// ---------------------------------------------------------------------------------------------
// Conversions

Type Sema::check(Expr*& slot) {
    if (slot->kind == NodeKind::Call && is_instance_call(static_cast<const Call&>(*slot)))
        return check_instance(slot);
    // Brook+'s instanceInGroup() (BROOKPLUS.md §4.8), unless a kernel has that name.
    if (slot->kind == NodeKind::Call) {
        const auto& call = static_cast<const Call&>(*slot);
        if (call.callee == "instanceInGroup" && call.args.empty() &&
            unit_.find_kernel(call.callee) == nullptr)
            slot = unit_.context.make<InstanceInGroup>(slot->range);
    }
    visit_expr(*slot);
    return slot->type;
}

bool Sema::is_instance_call(const Call& call) const {
    return call.callee == "instance" && call.args.empty() &&
           unit_.find_kernel(call.callee) == nullptr;
}

Type Sema::check_instance(Expr*& slot) {
    // AMD Brook+'s instance() (COMPAT 1.19): the int4 position of the current output element,
    // so `(int4)indexof(out)` of the kernel's first out argument, through calls like indexof;
    // for a scatter output, the position in the execution domain (BROOKPLUS.md §4.6).
    const SourceRange range = slot->range;
    const auto output =
        std::find_if(kernel_->params.begin(), kernel_->params.end(), [](const ParamDecl* param) {
            return param->param_kind == ParamKind::OutputStream ||
                   param->param_kind == ParamKind::ScatterOutput;
        });
    if (output == kernel_->params.end()) {
        diags_.report(DiagId::instance_without_output, range) << kernel_->name;
        slot->type = Type::error();
        return slot->type;
    }
    auto* stream = unit_.context.make<NameRef>(range);
    stream->name = (*output)->name;
    auto* position = unit_.context.make<Indexof>(range);
    position->stream = stream;
    auto* cast = unit_.context.make<Cast>(range);
    cast->target = Type::vector(ScalarType::Int, 4);
    cast->operand = position;
    slot = cast;
    return check(slot);
}

namespace {

/// An unsuffixed float literal, possibly signed (`3.0`, `-0.1`): C types it double, Brook float
/// (Cg's rule), so it is float until it meets a double, where it keeps its exact double value.
FloatLiteral* unsuffixed_literal(Expr& expr) {
    if (expr.kind == NodeKind::Unary) {
        auto& unary = static_cast<Unary&>(expr);
        if (unary.op != UnaryOp::Plus && unary.op != UnaryOp::Minus)
            return nullptr;
        return unsuffixed_literal(*unary.operand);
    }
    if (expr.kind != NodeKind::FloatLiteral)
        return nullptr;
    auto& literal = static_cast<FloatLiteral&>(expr);
    return literal.is_float_suffixed ? nullptr : &literal;
}

} // namespace

void Sema::wrap(Expr*& slot, Type target) {
    if (slot->type == target)
        return;
    if (target == Type::scalar(ScalarType::Double) && slot->type == Type::scalar(ScalarType::Float))
        if (FloatLiteral* literal = unsuffixed_literal(*slot)) {
            literal->type = target;
            slot->type = target;
            return;
        }
    auto* conversion = unit_.context.make<ImplicitConvert>(slot->range);
    conversion->operand = slot;
    conversion->type = target;
    slot = conversion;
}

void Sema::narrow(Expr*& slot, int width) {
    if (slot->type.is_vector() && slot->type.width() > width)
        wrap(slot, slot->type.with_width(width));
}

void Sema::widen(Expr*& slot, int width) {
    const Type source = slot->type;
    if (!source.is_vector() || source.width() >= width)
        return;
    static constexpr char components[] = "xyzw";
    auto* swizzle = unit_.context.make<Member>(slot->range);
    swizzle->base = slot;
    swizzle->member_range = slot->range;
    swizzle->is_swizzle = true;
    swizzle->swizzle_length = width;
    for (int i = 0; i < width; ++i) {
        const int component = std::min(i, source.width() - 1);
        swizzle->swizzle[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(component);
        swizzle->member += components[component];
    }
    swizzle->type = source.with_width(width);
    swizzle->is_implicit_widening = true;
    slot = swizzle;
}

void Sema::fit_width(Expr*& slot, int width) {
    narrow(slot, width);
    widen(slot, width);
}

void Sema::convert_scalar(Expr*& slot, ScalarType scalar) {
    if (slot->type.is_arithmetic())
        wrap(slot, Type::vector(scalar, slot->type.width()));
}

void Sema::convert(Expr*& slot, Type target) {
    const Type source = slot->type;
    if (source.is_error() || target.is_error() || source == target)
        return;
    if (source.is_arithmetic() && target.is_arithmetic()) {
        if (source.is_vector() && source.width() < target.width()) {
            // Brook+ widens to a base type of the same rank or above (BROOKPLUS.md §4.9).
            if (conversion_rank(target.scalar_type()) < conversion_rank(source.scalar_type())) {
                diags_.report(DiagId::cannot_convert_width, slot->range)
                    << source.name() << target.name() << first_components(target.width());
                return;
            }
            widen(slot, target.width());
        }
        warn_float_to_int(*slot, target);
        wrap(slot, target);
        return;
    }
    diags_.report(DiagId::cannot_convert, slot->range) << source.name() << target.name();
}

// ---------------------------------------------------------------------------------------------
// Leaves

void Sema::visit(IntLiteral& expr) {
    // Every backend computes a kernel's int in 32 bits; a wider constant would be a long in the
    // C++ and CUDA code and no GLSL at all.
    if (expr.value > 0xFFFF'FFFFull) {
        diags_.report(DiagId::integer_literal_too_large, expr.range) << std::to_string(expr.value);
        expr.type = Type::error();
        return;
    }
    expr.type = Type::scalar(expr.is_unsigned ? ScalarType::UInt : ScalarType::Int);
}

void Sema::visit(FloatLiteral& expr) {
    expr.type = Type::scalar(ScalarType::Float);
}

void Sema::visit(BoolLiteral& expr) {
    expr.type = Type::scalar(ScalarType::Bool);
}

void Sema::report_undeclared(const NameRef& ref) {
    for (const HostVariable& variable : unit_.host_variables) {
        if (variable.name != ref.name)
            continue;
        diags_.report(DiagId::host_variable_in_kernel, ref.range) << ref.name;
        diags_.report(DiagId::previous_declaration, variable.name_range) << ref.name;
        return;
    }
    diags_.report(DiagId::undeclared_identifier, ref.range) << ref.name;
}

void Sema::resolve_name(NameRef& ref) {
    ref.decl = lookup(ref.name);
    if (ref.decl == nullptr) {
        report_undeclared(ref);
        ref.type = Type::error();
        return;
    }
    used_.insert(ref.decl);
    ref.type = ref.decl->type;
}

void Sema::visit(NameRef& expr) {
    resolve_name(expr);
    if (expr.decl != nullptr && expr.decl->decl_kind == ValueDecl::Kind::Local &&
        static_cast<const LocalDecl*>(expr.decl)->shared_extent != 0) {
        diags_.report(DiagId::shared_not_indexed, expr.range) << expr.name;
        expr.type = Type::error();
        return;
    }
    if (expr.decl == nullptr || expr.decl->decl_kind != ValueDecl::Kind::Param)
        return;
    // A gather is only ever read through a subscript, and a scatter output written through
    // one, which resolves its name itself.
    const ParamKind kind = static_cast<const ParamDecl*>(expr.decl)->param_kind;
    if (kind == ParamKind::Gather || kind == ParamKind::ScatterOutput) {
        diags_.report(kind == ParamKind::Gather ? DiagId::gather_not_indexed
                                                : DiagId::scatter_not_indexed,
                      expr.range)
            << expr.name;
        expr.type = Type::error();
    }
}

void Sema::visit(Indexof& expr) {
    expr.type = Type::vector(ScalarType::Float, 4);
    NameRef& stream = *expr.stream;
    resolve_name(stream);
    if (stream.decl == nullptr) {
        expr.type = Type::error();
        return;
    }
    const char* what = "local variable";
    if (stream.decl->decl_kind == ValueDecl::Kind::Param) {
        const auto& param = static_cast<const ParamDecl&>(*stream.decl);
        if (kernel_->is_reduce) {
            diags_.report(DiagId::indexof_in_reduce, expr.range) << kernel_->name;
            expr.type = Type::error();
            return;
        }
        if (param.param_kind == ParamKind::VariableOutput) {
            diags_.report(DiagId::indexof_of_vout, stream.range) << stream.name;
            expr.type = Type::error();
            return;
        }
        // A scatter output's position is the execution domain's (BROOKPLUS.md §4.6).
        if (param.param_kind == ParamKind::InputStream ||
            param.param_kind == ParamKind::OutputStream ||
            param.param_kind == ParamKind::ScatterOutput) {
            kernel_->params[static_cast<std::size_t>(param.index)]->needs_position = true;
            kernel_->uses_indexof = true;
            return;
        }
        what = param_description(param, kernel_->is_reduce);
    }
    diags_.report(DiagId::indexof_not_stream, stream.range) << stream.name << what;
    expr.type = Type::error();
}

// ---------------------------------------------------------------------------------------------
// Operators

void Sema::visit(Unary& expr) {
    const Type type = check(expr.operand);
    expr.type = Type::error();
    if (type.is_error())
        return;
    const std::string_view op = spelling(expr.op);
    if (!type.is_arithmetic()) {
        diags_.report(DiagId::operand_not_arithmetic, expr.operand->range) << op << type.name();
        return;
    }
    switch (expr.op) {
    case UnaryOp::Not:
        // On a vector, per component (Cg).
        convert_scalar(expr.operand, ScalarType::Bool);
        expr.type = expr.operand->type;
        return;
    case UnaryOp::BitNot:
        if (!is_integer(type.scalar_type())) {
            diags_.report(DiagId::operand_needs_int, expr.operand->range) << op << type.name();
            return;
        }
        convert_scalar(expr.operand, promoted(type.scalar_type()));
        expr.type = expr.operand->type;
        return;
    case UnaryOp::Plus:
    case UnaryOp::Minus:
        if (type.scalar_type() == ScalarType::Bool) {
            diags_.report(DiagId::operand_is_bool, expr.operand->range) << op << type.name();
            return;
        }
        convert_scalar(expr.operand, promoted(type.scalar_type()));
        expr.type = expr.operand->type;
        return;
    case UnaryOp::PreInc:
    case UnaryOp::PreDec:
    case UnaryOp::PostInc:
    case UnaryOp::PostDec:
        if (type.scalar_type() == ScalarType::Bool) {
            diags_.report(DiagId::operand_is_bool, expr.operand->range) << op << type.name();
            return;
        }
        if (check_assignable(*expr.operand))
            expr.type = type;
        return;
    }
}

namespace {

/// Types an arithmetic, integer, comparison or equality operation on `lhs` and `rhs` (neither an
/// error type), reporting what does not fit; nullopt after a report.
std::optional<OperationTypes> operation_types(BinaryOp op, Type lhs, Type rhs, const Expr& lhs_expr,
                                              const Expr& rhs_expr, DiagnosticEngine& diags) {
    const std::string_view op_spelling = spelling(op);
    const OperatorClass kind = operator_class(op);
    for (const auto& [type, expr] : {std::pair{lhs, &lhs_expr}, std::pair{rhs, &rhs_expr}}) {
        if (!type.is_arithmetic()) {
            diags.report(DiagId::operand_not_arithmetic, expr->range) << op_spelling << type.name();
            return std::nullopt;
        }
        if (kind == OperatorClass::Integer && !is_integer(type.scalar_type())) {
            diags.report(DiagId::operand_needs_int, expr->range) << op_spelling << type.name();
            return std::nullopt;
        }
    }
    const int width = operator_width(lhs, rhs);
    // C gives a shift its promoted left operand's type; the count converts to it too, which
    // keeps one operand type per operation and changes no count a shift may use.
    const bool shift = op == BinaryOp::Shl || op == BinaryOp::Shr;
    const ScalarType operands = shift ? promoted(lhs.scalar_type())
                                      : common_scalar(lhs.scalar_type(), rhs.scalar_type(),
                                                      kind == OperatorClass::Equality);
    switch (kind) {
    case OperatorClass::Comparison:
    case OperatorClass::Equality:
        return OperationTypes{operands, Type::vector(ScalarType::Bool, width)};
    case OperatorClass::Arithmetic:
    case OperatorClass::Integer:
    case OperatorClass::Logical:
    case OperatorClass::Comma:
        break;
    }
    return OperationTypes{operands, Type::vector(operands, width)};
}

} // namespace

void Sema::visit(Binary& expr) {
    const Type lhs = check(expr.lhs);
    const Type rhs = check(expr.rhs);
    expr.type = Type::error();
    const OperatorClass kind = operator_class(expr.op);
    if (kind == OperatorClass::Comma) {
        expr.type = rhs;
        return;
    }
    if (lhs.is_error() || rhs.is_error())
        return;
    if (kind == OperatorClass::Logical) {
        const std::string_view op_spelling = spelling(expr.op);
        for (Expr** operand : {&expr.lhs, &expr.rhs}) {
            const Type type = (*operand)->type;
            if (!type.is_arithmetic()) {
                diags_.report(DiagId::operand_not_arithmetic, (*operand)->range)
                    << op_spelling << type.name();
                return;
            }
        }
        // With a vector operand: per component, both operands evaluated (the printers' hook).
        const int width = operator_width(lhs, rhs);
        for (Expr** operand : {&expr.lhs, &expr.rhs}) {
            fit_width(*operand, width);
            convert_scalar(*operand, ScalarType::Bool);
        }
        expr.type = Type::vector(ScalarType::Bool, width);
        return;
    }
    const auto types = operation_types(expr.op, lhs, rhs, *expr.lhs, *expr.rhs, diags_);
    if (!types)
        return;
    fit_width(expr.lhs, types->result.width());
    fit_width(expr.rhs, types->result.width());
    convert_scalar(expr.lhs, types->operands);
    convert_scalar(expr.rhs, types->operands);
    expr.type = types->result;
}

void Sema::visit(Assign& expr) {
    // `o[i] = v` writes a scatter output, which nothing else may use (check_array_subscript).
    const Type target = expr.op == AssignOp::Assign && expr.target->kind == NodeKind::Subscript
                            ? check_subscript(static_cast<Subscript&>(*expr.target), true)
                            : check(expr.target);
    const Type value = check(expr.value);
    expr.type = Type::error();
    if (target.is_error() || !check_assignable(*expr.target))
        return;
    if (value.is_error())
        return;
    if (expr.op == AssignOp::Assign) {
        convert(expr.value, target);
        expr.type = target;
        return;
    }
    // `x op= y` computes `x op y` (in the operands' type, which the value converts to) and
    // stores it back into x as an assignment would. A result of x's kind and width stays a
    // compound assignment; a float going into an integer x, or a result wider than x, becomes
    // `x = (type of x)(x op y)`, truncating (or keeping the first components) as C and Cg do.
    // A result narrower than x (x int4, y float2: the float2 counts) would leave components
    // unassigned; a narrower y of x's rank widens (BROOKPLUS.md §4.9).
    const BinaryOp op = compound_operator(expr.op);
    const auto types = operation_types(op, target, value, *expr.target, *expr.value, diags_);
    if (!types)
        return;
    const ScalarType result = types->result.scalar_type();
    const bool same_kind = is_integer(target.scalar_type())
                               ? is_integer(result)
                               : promoted(target.scalar_type()) == result;
    const bool truncates = is_integer(target.scalar_type()) && result == ScalarType::Float;
    if (types->result.width() < target.width() || (!same_kind && !truncates)) {
        diags_.report(DiagId::compound_assign_narrows, expr.range)
            << spelling(expr.op) << types->result.name() << target.name();
        return;
    }
    expr.type = target;
    if (truncates)
        warn_float_to_int(*expr.value, target);
    if (same_kind && types->result.width() == target.width()) {
        fit_width(expr.value, target.width());
        convert_scalar(expr.value, types->operands);
        return;
    }
    auto* operation = unit_.context.make<Binary>(expr.range);
    operation->op = op;
    operation->lhs = expr.target; // read and written: a name, field or component, without effects
    operation->rhs = expr.value;
    for (Expr** operand : {&operation->lhs, &operation->rhs}) {
        fit_width(*operand, types->result.width());
        convert_scalar(*operand, types->operands);
    }
    operation->type = types->result;
    expr.op = AssignOp::Assign;
    expr.value = operation;
    wrap(expr.value, target);
}

bool Sema::check_assignable(const Expr& target) {
    switch (target.kind) {
    case NodeKind::NameRef: {
        const auto& ref = static_cast<const NameRef&>(target);
        if (ref.decl == nullptr)
            return false;
        if (ref.decl->decl_kind == ValueDecl::Kind::Local) {
            if (!static_cast<const LocalDecl*>(ref.decl)->is_const)
                return true;
            diags_.report(DiagId::assign_to_const_local, target.range) << ref.name;
            return false;
        }
        const auto& param = static_cast<const ParamDecl&>(*ref.decl);
        switch (param.param_kind) {
        case ParamKind::OutputStream:
        case ParamKind::ReduceAccumulator:
        case ParamKind::VariableOutput:
            written_.insert(&param);
            return true;
        case ParamKind::InputStream:
            diags_.report(DiagId::assign_to_input_stream, target.range) << ref.name;
            return false;
        case ParamKind::ReduceInput:
            diags_.report(DiagId::assign_to_reduce_input, target.range) << ref.name;
            return false;
        case ParamKind::Constant:
            diags_.report(DiagId::assign_to_constant, target.range) << ref.name;
            return false;
        case ParamKind::Gather:
            diags_.report(DiagId::assign_to_gather, target.range) << ref.name;
            return false;
        case ParamKind::ScatterOutput: // reported by visit(NameRef)
            return false;
        }
        return false;
    }
    case NodeKind::Member: {
        const auto& member = static_cast<const Member&>(target);
        if (member.is_swizzle) {
            for (int i = 0; i < member.swizzle_length; ++i) {
                for (int j = 0; j < i; ++j) {
                    if (member.swizzle[static_cast<std::size_t>(i)] !=
                        member.swizzle[static_cast<std::size_t>(j)])
                        continue;
                    diags_.report(DiagId::write_mask_repeats, member.member_range) << member.member;
                    return false;
                }
            }
        }
        return check_assignable(*member.base);
    }
    case NodeKind::Subscript: {
        const auto& subscript = static_cast<const Subscript&>(target);
        if (subscript.gather != nullptr) {
            diags_.report(DiagId::assign_to_gather, subscript.base->range)
                << subscript.gather->name;
            return false;
        }
        if (subscript.scatter != nullptr) {
            written_.insert(subscript.scatter);
            return true;
        }
        if (subscript.shared != nullptr)
            return true;
        return check_assignable(*subscript.base);
    }
    case NodeKind::IntLiteral:
    case NodeKind::FloatLiteral:
    case NodeKind::BoolLiteral:
    case NodeKind::Unary:
    case NodeKind::Binary:
    case NodeKind::Assign:
    case NodeKind::Conditional:
    case NodeKind::Call:
    case NodeKind::Construct:
    case NodeKind::Cast:
    case NodeKind::ImplicitConvert:
    case NodeKind::InitList:
    case NodeKind::Indexof:
    case NodeKind::InstanceInGroup:
        diags_.report(DiagId::not_assignable, target.range);
        return false;
#include "ast/stmt_kind_cases.def"
        break;
    }
    return false;
}

void Sema::visit(Conditional& expr) {
    const Type condition = check(expr.condition);
    const Type then_type = check(expr.then_value);
    const Type else_type = check(expr.else_value);
    expr.type = Type::error();
    if (condition.is_error() || then_type.is_error() || else_type.is_error())
        return;
    if (!condition.is_arithmetic()) {
        diags_.report(DiagId::bad_condition_type, expr.condition->range) << condition.name();
        return;
    }
    if (!then_type.is_arithmetic() || !else_type.is_arithmetic()) {
        if (then_type != else_type) {
            diags_.report(DiagId::incompatible_arms, expr.range)
                << then_type.name() << else_type.name();
            return;
        }
        if (condition.is_vector()) {
            diags_.report(DiagId::operand_not_arithmetic, expr.then_value->range)
                << "?:" << then_type.name();
            return;
        }
        convert_scalar(expr.condition, ScalarType::Bool);
        expr.type = then_type;
        return;
    }
    // A vector condition selects component by component, so its width joins the arms'.
    const int arms_width = common_width(then_type.width(), else_type.width());
    const int width = arms_width == 0 ? 0 : common_width(condition.width(), arms_width);
    if (width == 0) {
        const Type wide = arms_width == 0 ? else_type : condition;
        diags_.report(DiagId::width_mismatch, expr.range)
            << "?:" << then_type.name() << wide.name()
            << first_components(std::min(then_type.width(), wide.width()));
        return;
    }
    const ScalarType scalar = common_scalar(then_type.scalar_type(), else_type.scalar_type(), true);
    expr.type = Type::vector(scalar, width);
    convert_scalar(expr.condition, ScalarType::Bool);
    wrap(expr.then_value, expr.type);
    wrap(expr.else_value, expr.type);
}

} // namespace brcc
