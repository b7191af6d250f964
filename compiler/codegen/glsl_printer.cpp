// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// GLSL kernel bodies: the C-like printer's hooks for GLSL 4.30 and the pieces around the body
// that every GLSL backend's shader has (glsl_printer.hpp).

#include "codegen/glsl_printer.hpp"

#include "ast/operators.hpp"
#include "brook/detail/glsl_interface.hpp"
#include "codegen/c_like_printer.hpp"
#include "codegen/double_use.hpp"
#include "sema/builtins.hpp"
#include "support/diagnostics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>
#include <string_view>

namespace brcc::glsl_common {

namespace {

/// The names and numbers brcc's GLSL shares with the GLSL backends.
namespace glsl = brook::detail::glsl;

bool is_glsl_reserved(std::string_view name) {
    static const std::set<std::string_view> reserved = {
        "active",      "asm",         "atomic_uint", "attribute",     "bvec2",
        "bvec3",       "bvec4",       "buffer",      "cast",          "centroid",
        "class",       "coherent",    "common",      "const",         "dmat2",
        "dmat3",       "dmat4",       "double",      "dvec2",         "dvec3",
        "dvec4",       "enum",        "extern",      "external",      "filter",
        "fixed",       "flat",        "fvec2",       "fvec3",         "fvec4",
        "goto",        "half",        "highp",       "hvec2",         "hvec3",
        "hvec4",       "image1D",     "image2D",     "image3D",       "in",
        "inline",      "inout",       "input",       "interface",     "invariant",
        "isampler2D",  "ivec2",       "ivec3",       "ivec4",         "layout",
        "long",        "lowp",        "main",        "mat2",          "mat3",
        "mat4",        "mediump",     "namespace",   "noinline",      "noperspective",
        "out",         "output",      "partition",   "patch",         "precise",
        "precision",   "public",      "readonly",    "resource",      "restrict",
        "sample",      "sampler1D",   "sampler2D",   "sampler3D",     "samplerCube",
        "shared",      "short",       "sizeof",      "smooth",        "static",
        "subroutine",  "superp",      "template",    "this",          "typedef",
        "uniform",     "union",       "using",       "uvec2",         "uvec3",
        "uvec4",       "varying",     "vec2",        "vec3",          "vec4",
        "volatile",    "writeonly",   "texture",     "texelFetch",    "mix",
        "fract",       "inversesqrt", "mod",         "not",           "equal",
        "notEqual",    "lessThan",    "greaterThan", "lessThanEqual", "greaterThanEqual",
        "textureSize", "discard",     "packed"};
    return reserved.count(name) != 0;
}

bool is_float(const Type& type) {
    return type.is_arithmetic() && type.scalar_type() == ScalarType::Float;
}

/// The value of a scalar float expression built only of constants (float literals, int literals
/// made float, unary + and -, and + - * /), computed in float as the C++ and CUDA kernels compute
/// it; nullopt for anything else.
std::optional<float> float_constant(const Expr& expr) {
    if (!expr.type.is_scalar() || !is_float(expr.type))
        return std::nullopt;
    switch (expr.kind) {
    case NodeKind::FloatLiteral:
        return static_cast<float>(static_cast<const FloatLiteral&>(expr).value);
    case NodeKind::ImplicitConvert:
    case NodeKind::Cast: {
        const Expr& operand = expr.kind == NodeKind::Cast
                                  ? *static_cast<const Cast&>(expr).operand
                                  : *static_cast<const ImplicitConvert&>(expr).operand;
        if (operand.kind == NodeKind::IntLiteral)
            return static_cast<float>(static_cast<const IntLiteral&>(operand).value);
        return float_constant(operand);
    }
    case NodeKind::Unary: {
        const auto& unary = static_cast<const Unary&>(expr);
        if (unary.op != UnaryOp::Plus && unary.op != UnaryOp::Minus)
            return std::nullopt;
        const std::optional<float> operand = float_constant(*unary.operand);
        if (!operand || unary.op == UnaryOp::Plus)
            return operand;
        return -*operand;
    }
    case NodeKind::Binary: {
        const auto& binary = static_cast<const Binary&>(expr);
        const std::optional<float> lhs = float_constant(*binary.lhs);
        const std::optional<float> rhs = lhs ? float_constant(*binary.rhs) : std::nullopt;
        if (!rhs)
            return std::nullopt;
        switch (binary.op) {
        case BinaryOp::Add:
            return *lhs + *rhs;
        case BinaryOp::Sub:
            return *lhs - *rhs;
        case BinaryOp::Mul:
            return *lhs * *rhs;
        case BinaryOp::Div:
            return *lhs / *rhs;
        case BinaryOp::Comma:
        case BinaryOp::LogicalAnd:
        case BinaryOp::LogicalOr:
        case BinaryOp::Equal:
        case BinaryOp::NotEqual:
        case BinaryOp::Less:
        case BinaryOp::LessEqual:
        case BinaryOp::Greater:
        case BinaryOp::GreaterEqual:
        case BinaryOp::BitAnd:
        case BinaryOp::BitOr:
        case BinaryOp::BitXor:
        case BinaryOp::Shl:
        case BinaryOp::Shr:
        case BinaryOp::Rem:
            return std::nullopt;
        }
        return std::nullopt;
    }
    case NodeKind::IntLiteral:
    case NodeKind::BoolLiteral:
    case NodeKind::NameRef:
    case NodeKind::Member:
    case NodeKind::Subscript:
    case NodeKind::Indexof:
    case NodeKind::InstanceInGroup:
    case NodeKind::Call:
    case NodeKind::Construct:
    case NodeKind::Conditional:
    case NodeKind::Assign:
    case NodeKind::InitList:
        return std::nullopt;
#include "ast/stmt_kind_cases.def"
        break;
    }
    return std::nullopt;
}

std::string swizzle_letters(const Member& member) {
    static constexpr std::string_view letters = "xyzw";
    std::string text;
    for (int i = 0; i < member.swizzle_length; ++i)
        text += letters[member.swizzle[static_cast<std::size_t>(i)]];
    return text;
}

/// The C-like printer's hooks for GLSL 4.30.
class GlslPrinter final : public CLikePrinter {
protected:
    // Thread groups (BROOKPLUS.md §4.8), for compute shaders: a group is a workgroup, and its
    // shared array a `shared` global of the shader.
    std::string shared_declaration(const LocalDecl&) override { return ""; }
    PrintedExpr shared_element(const Subscript& subscript) override {
        const LocalDecl& array = *subscript.shared;
        return {identifier(array.name) + "[clamp(brt_gidx(" + argument(*subscript.indices.front()) +
                    "), 0, " + std::to_string(array.shared_extent - 1) + ")]",
                PrintedExpr::primary};
    }
    PrintedExpr instance_in_group() override {
        return {"ivec4(int(gl_LocalInvocationID.x), 0, 0, 0)"};
    }
    std::string sync_group() override {
        return "memoryBarrierShared(); memoryBarrierBuffer(); barrier()";
    }

    std::string position_parameter(const ParamDecl& stream) override {
        return position_parameter_name(stream);
    }
    std::string callable_name(const KernelDecl& callee) override {
        return glsl_identifier(callee.name);
    }
    std::string discard_flag() override { return std::string(discard_flag_name); }
    std::string discard() override {
        // A helper's caller never sees the value it returns: the element ends.
        if (callable_ != nullptr && callable_->is_helper())
            return discard_flag() + " = true; return " + zero_value(callable_->return_type);
        return discard_flag() + " = true; return";
    }
    std::string gather_argument(const ParamDecl& gather) override {
        return callable_ != nullptr ? gather_id_name(gather) : std::to_string(gather.index);
    }

    std::string type_name(const Type& type) override { return glsl_type_name(type); }
    std::string identifier(std::string_view name) override { return glsl_identifier(name); }
    std::string float_literal(double value) override { return glsl_float_literal(value); }
    std::string double_literal(double value) override { return glsl_double_literal(value); }

    /// Constant float arithmetic is brcc's to evaluate: a driver may fold it otherwise than
    /// IEEE-754 does (NVIDIA's GLSL compiler makes 0.0 / 0.0 zero, not NaN), and every
    /// backend's kernels must agree with C's float arithmetic.
    /// A negative value is parenthesised, so that it reads as one operand anywhere (`- -2.0`
    /// would otherwise print as the decrement `--2.0`).
    std::optional<PrintedExpr> folded_constant(const Binary& binary) override {
        const std::optional<float> value = float_constant(binary);
        if (!value)
            return std::nullopt;
        const std::string text = float_literal(*value);
        return PrintedExpr{text.front() == '-' ? "(" + text + ")" : text};
    }

    PrintedExpr swizzle(const Member& member) override {
        if (member.base->type.is_scalar())
            return {type_name(member.type) + "(" + argument(*member.base) + ")"};
        return {operand(*member.base, PrintedExpr::primary) + "." + swizzle_letters(member),
                PrintedExpr::primary};
    }

    PrintedExpr masked_assign(const Assign& assign, const Member& target) override {
        const std::string lvalue =
            operand(*target.base, PrintedExpr::primary) + "." + swizzle_letters(target);
        if (assign.op != AssignOp::Assign && differs_from_c(assign))
            return c_compound(lvalue, assign);
        return {lvalue + " " + std::string(spelling(assign.op)) + " " + argument(*assign.value), 2};
    }

    std::optional<PrintedExpr> compound_assignment(const Assign& assign) override {
        if (!differs_from_c(assign))
            return std::nullopt;
        return c_compound(operand(*assign.target, PrintedExpr::primary), assign);
    }

    /// `++x` and friends on bytes and fixed: GLSL would step the int or float without storing
    /// it back as C does. A byte's old value is the new one stepped back (wrap-around is a
    /// bijection); a fixed's is not (1.0 + 1 saturates), so its postfix forms call the prelude.
    std::optional<PrintedExpr> increment(const Unary& unary) override {
        const ScalarType scalar = unary.type.scalar_type();
        if (!is_small_integer(scalar) && !is_fixed_point(scalar))
            return std::nullopt;
        const std::string lvalue = operand(*unary.operand, PrintedExpr::primary);
        const bool up = unary.op == UnaryOp::PreInc || unary.op == UnaryOp::PostInc;
        const bool post = unary.op == UnaryOp::PostInc || unary.op == UnaryOp::PostDec;
        if (is_fixed_point(scalar)) {
            const std::string step = up ? "1.0" : "-1.0";
            if (post)
                return PrintedExpr{"brt_fixed_post_step(" + lvalue + ", " + step + ", " +
                                   std::to_string(fixed_point_steps(scalar)) + ".0)"};
            return PrintedExpr{"(" + lvalue + " = " +
                               store_back(unary.type, "(" + lvalue + " + " + step + ")") + ")"};
        }
        const std::string stepped =
            "(" + lvalue + " = " +
            store_back(unary.type, "(" + lvalue + (up ? " + 1" : " - 1") + ")") + ")";
        if (!post)
            return PrintedExpr{stepped};
        return PrintedExpr{store_back(unary.type, "(" + stepped + (up ? " - 1" : " + 1") + ")")};
    }

    /// `x op= y` whose GLSL operator would not give C's result: `%` (GLSL leaves negative
    /// integer operands undefined and has no float `%`), `/` (Brook defines integer division
    /// by zero, GLSL does not; a float one by a divisor the compiler may know, see
    /// float_division), and byte or fixed targets, which C stores back wrapped around or
    /// saturated while GLSL computes them in int or float.
    static bool differs_from_c(const Assign& assign) {
        const ScalarType target = assign.type.scalar_type();
        return assign.op == AssignOp::Rem ||
               (assign.op == AssignOp::Div &&
                (is_integer(target) || !nonzero_constant(*assign.value))) ||
               is_small_integer(target) || is_fixed_point(target);
    }

    /// `lvalue = x op y` with C's meaning of op and of storing back (the lvalue, a name, member
    /// or swizzle, has no side effects, so naming it twice is safe).
    PrintedExpr c_compound(const std::string& lvalue, const Assign& assign) {
        const std::string value = argument(*assign.value);
        std::string result;
        if (assign.op == AssignOp::Rem && is_floating(assign.type)) {
            result = "brt_fmod(" + lvalue + ", " + value + ")";
        } else if (assign.op == AssignOp::Rem ||
                   (assign.op == AssignOp::Div && is_integer(assign.type))) {
            const std::string type = type_name(assign.type);
            result = std::string(assign.op == AssignOp::Div ? "brt_idiv(" : "brt_imod(") + type +
                     "(" + lvalue + "), " + type + "(" + value + "))";
        } else if (assign.op == AssignOp::Div && !nonzero_constant(*assign.value)) {
            result = "(" + lvalue + " / brt_opaque(" + value + "))";
        } else {
            result = "(" + lvalue + " " + std::string(operation_spelling(assign.op)) + " (" +
                     value + "))";
        }
        return {lvalue + " = " + store_back(assign.type, result), 2};
    }

    /// An int or float result as C stores it into `to`: bytes and shorts keep their low 8 or 16
    /// bits (sign extended for char and short), fixed (shortfixed) saturates to [0, 1] and
    /// rounds to a step of 1/255 (1/65535).
    static std::string store_back(const Type& to, const std::string& value) {
        const std::string unused_bits = std::to_string(32 - integer_bits(to.scalar_type()));
        switch (to.scalar_type()) {
        case ScalarType::UChar:
            return "(" + value + " & 0xFF)";
        case ScalarType::UShort:
            return "(" + value + " & 0xFFFF)";
        case ScalarType::Char:
        case ScalarType::Short:
            return "((" + value + " << " + unused_bits + ") >> " + unused_bits + ")";
        case ScalarType::Fixed:
        case ScalarType::ShortFixed: {
            const std::string steps = std::to_string(fixed_point_steps(to.scalar_type())) + ".0";
            return "(floor(clamp(" + value + ", 0.0, 1.0) * " + steps + " + 0.5) / " + steps + ")";
        }
        case ScalarType::Bool:
        case ScalarType::Int:
        case ScalarType::UInt:
        case ScalarType::Float:
        case ScalarType::Double:
            break;
        }
        return value;
    }

    PrintedExpr builtin_call(const Call& call) override {
        const std::vector<std::string> args = print_args(call.args);
        const BuiltinId id = *call.builtin;
        // GLSL's own have no double versions: glsl_double.glsl's, in double.
        if (glsl_lacks_double(id) && has_double(call.args.front()->type))
            return {"brt_" + std::string(builtin_name(id)) + "(" + join(args) + ")"};
        switch (id) {
        case BuiltinId::all:
        case BuiltinId::any: {
            const std::string truth = "brt_truth(" + args[0] + ")";
            if (call.args[0]->type.is_scalar())
                return {truth};
            return {std::string(builtin_name(id)) + "(" + truth + ")"};
        }
        case BuiltinId::atan2:
            return {"atan(" + join(args) + ")"};
        case BuiltinId::frac:
            return {"fract(" + join(args) + ")"};
        case BuiltinId::lerp:
            return {"mix(" + join(args) + ")"};
        case BuiltinId::rsqrt:
            return {"inversesqrt(" + join(args) + ")"};
        case BuiltinId::saturate:
            return {"brt_clamp(" + args[0] + ", 0.0, 1.0)"};
        case BuiltinId::clamp:
        case BuiltinId::max:
        case BuiltinId::min:
            // On floats, the prelude's selects, which keep a NaN as the CPU does; integers have
            // none, and GLSL's own serve them.
            if (is_floating(call.type))
                return {"brt_" + std::string(builtin_name(id)) + "(" + join(args) + ")"};
            break;
        case BuiltinId::asin:
        case BuiltinId::acos:
        case BuiltinId::fmod:
        case BuiltinId::round:
        case BuiltinId::log10:
        case BuiltinId::isfinite:
        case BuiltinId::ldexp:
        case BuiltinId::pack_4ubyte:
        case BuiltinId::unpack_4ubyte:
            // Cg's definitions, which GLSL spells differently or lacks: in the prelude.
            return {"brt_" + std::string(builtin_name(id)) + "(" + join(args) + ")"};
        case BuiltinId::abs:
        case BuiltinId::atan:
        case BuiltinId::ceil:
        case BuiltinId::cos:
        case BuiltinId::cosh:
        case BuiltinId::cross:
        case BuiltinId::degrees:
        case BuiltinId::distance:
        case BuiltinId::dot:
        case BuiltinId::exp:
        case BuiltinId::exp2:
        case BuiltinId::floor:
        case BuiltinId::isinf:
        case BuiltinId::isnan:
        case BuiltinId::length:
        case BuiltinId::log:
        case BuiltinId::log2:
        case BuiltinId::normalize:
        case BuiltinId::pow:
        case BuiltinId::radians:
        case BuiltinId::reflect:
        case BuiltinId::sign:
        case BuiltinId::sin:
        case BuiltinId::sinh:
        case BuiltinId::smoothstep:
        case BuiltinId::sqrt:
        case BuiltinId::step:
        case BuiltinId::tan:
        case BuiltinId::tanh:
            break;
        }
        return {std::string(builtin_name(id)) + "(" + join(args) + ")"};
    }

    PrintedExpr convert(const Type& to, const Expr& operand) override {
        const Type& from = operand.type;
        if (from == to)
            return print(operand);
        if (to.is_scalar() && is_float(to)) {
            if (operand.kind == NodeKind::IntLiteral)
                return {float_literal(
                    static_cast<double>(static_cast<const IntLiteral&>(operand).value))};
            if (operand.kind == NodeKind::FloatLiteral)
                return {float_literal(static_cast<const FloatLiteral&>(operand).value)};
        }
        // A float constant widened to double is the float's value, computed as C does:
        // `double(1.0 / 3.0)` would keep more digits, as GLSL compilers fold float constants in
        // double.
        if (to == Type::scalar(ScalarType::Double))
            if (const std::optional<float> value = float_constant(operand))
                return {double_literal(*value)};
        // GLSL constructors broadcast a scalar, convert component types and, for a narrower
        // target, keep the leading components: Cg's conversions.
        const std::string converted = type_name(to) + "(" + argument(operand) + ")";
        if (to.is_arithmetic())
            return {store_back(to, converted)};
        return {converted};
    }

    PrintedExpr gather(const Subscript& subscript) override {
        const ParamDecl& param = *subscript.gather;
        const std::string index = std::to_string(param.index);
        if (is_offset(subscript)) {
            const std::string offset = array_position(subscript);
            if (callable_ != nullptr)
                return {gather_offset_dispatch_name(param.type) + "(" + gather_id_name(param) +
                        ", " + offset + ")"};
            return {"brt_gather_offset_" + index + "(" + offset + ")"};
        }
        const std::string position = array_position(subscript);
        if (callable_ != nullptr)
            return {gather_dispatch_name(param.type) + "(" + gather_id_name(param) + ", " +
                    position + ")"};
        return {"brt_gather_" + index + "(" + position + ")"};
    }

    // Only a launched kernel scatters (sema), so there is no callable form.
    PrintedExpr scatter_store(const Subscript& target, const Expr& value) override {
        const std::string index = std::to_string(target.scatter->index);
        const std::string function = is_offset(target) ? "brt_scatter_offset_" : "brt_scatter_";
        return {function + index + "(" + array_position(target) + ", " + argument(value) + ")"};
    }

    /// Whether a gather's or scatter output's subscript is a row-major element offset (one
    /// scalar index, COMPAT.md §1.9).
    static bool is_offset(const Subscript& subscript) {
        return subscript.indices.size() == 1 && subscript.indices.front()->type.is_scalar();
    }

    /// The index of a gather's or scatter output's subscript by the gather rule: an int offset
    /// (is_offset), else an ivec4 position with .x the last dimension.
    std::string array_position(const Subscript& subscript) {
        if (is_offset(subscript))
            return "brt_gidx(" + argument(*subscript.indices.front()) + ")";
        std::string position;
        if (subscript.indices.size() == 1) {
            const int width = subscript.indices.front()->type.width();
            position = "ivec4(brt_gidx(" + argument(*subscript.indices.front()) + ")";
            for (int i = width; i < 4; ++i)
                position += ", 0";
            position += ")";
        } else {
            // `g[y][x]` in C order; the position vector has .x first (the last dimension).
            position = "ivec4(";
            for (auto it = subscript.indices.rbegin(); it != subscript.indices.rend(); ++it)
                position += (it == subscript.indices.rbegin() ? "brt_gidx(" : ", brt_gidx(") +
                            argument(**it) + ")";
            for (std::size_t i = subscript.indices.size(); i < 4; ++i)
                position += ", 0";
            position += ")";
        }
        return position;
    }

    PrintedExpr element_position(const ParamDecl& stream) override {
        // A scatter output's position is the domain's (BROOKPLUS.md §4.6).
        if (stream.param_kind == ParamKind::OutputStream ||
            stream.param_kind == ParamKind::ScatterOutput)
            return {"brt_xlast(brt_index)"};
        return {"brt_xlast(brt_resize(brt_index, " + glsl::stream_extents(stream.index) + ", " +
                glsl::frame_extents + "))"};
    }

    PrintedExpr condition(const Expr& expr) override {
        if (expr.type.is_scalar() && expr.type.scalar_type() == ScalarType::Bool)
            return print(expr);
        if (expr.type.is_scalar())
            return {"brt_truth(" + argument(expr) + ")"};
        return {"any(brt_truth(" + argument(expr) + "))"};
    }

    PrintedExpr vector_select(const Conditional& conditional) override {
        const std::string type = type_name(conditional.type);
        return {"mix(" + type + "(" + argument(*conditional.else_value) + "), " + type + "(" +
                argument(*conditional.then_value) + "), brt_truth(" +
                argument(*conditional.condition) + "))"};
    }

    /// A float division whose divisor the shader compiler could know to be zero divides by
    /// brt_opaque(divisor) (the prelude's): Mesa's compiler folds a division by a known zero
    /// into 0 (`a / 0.0`) or garbage (`a / z` after `float z = 0.0;` gave 3.5e-18 for a = 1e30)
    /// where C and IEEE-754 give an infinity or NaN. A non-zero finite constant divisor is
    /// printed as it is, so that drivers still multiply by its reciprocal.
    PrintedExpr float_division(const Binary& binary) override {
        return plain_binary(binary, nonzero_constant(*binary.rhs) ? "" : "brt_opaque");
    }

    static bool nonzero_constant(const Expr& divisor) {
        const std::optional<float> value = float_constant(divisor);
        return value && *value != 0.0f && std::isfinite(*value);
    }

    PrintedExpr float_remainder(const Expr& lhs, const Expr& rhs) override {
        return {"brt_fmod(" + argument(lhs) + ", " + argument(rhs) + ")"};
    }

    PrintedExpr vector_logical(const Binary& binary) override {
        const int width = std::max(binary.lhs->type.width(), binary.rhs->type.width());
        const auto side = [&](const Expr& e) {
            const std::string truth = "brt_truth(" + argument(e) + ")";
            return e.type.is_scalar() ? "bvec" + std::to_string(width) + "(" + truth + ")" : truth;
        };
        const char* name = binary.op == BinaryOp::LogicalAnd ? "brt_and(" : "brt_or(";
        return {name + side(*binary.lhs) + ", " + side(*binary.rhs) + ")"};
    }

    PrintedExpr vector_not(const Unary& unary) override {
        return {"not(brt_truth(" + argument(*unary.operand) + "))"};
    }

    PrintedExpr vector_compare(const Binary& binary) override {
        const Type& vector_type =
            binary.lhs->type.is_vector() ? binary.lhs->type : binary.rhs->type;
        const auto side = [&](const Expr& e) {
            if (e.type.is_vector())
                return argument(e);
            return type_name(vector_type) + "(" + argument(e) + ")";
        };
        std::string_view name;
        switch (binary.op) {
        case BinaryOp::Less:
            name = "lessThan";
            break;
        case BinaryOp::Greater:
            name = "greaterThan";
            break;
        case BinaryOp::LessEqual:
            name = "lessThanEqual";
            break;
        case BinaryOp::GreaterEqual:
            name = "greaterThanEqual";
            break;
        case BinaryOp::Equal:
            name = "equal";
            break;
        case BinaryOp::NotEqual:
            name = "notEqual";
            break;
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
            internal_error(__FILE__, __LINE__, "vector_compare on a non-comparison");
        }
        return {std::string(name) + "(" + side(*binary.lhs) + ", " + side(*binary.rhs) + ")"};
    }

    std::string default_initializer(const Type&) override { return ""; }

    PrintedExpr integer_division(const Binary& binary) override {
        const std::string type = type_name(binary.type);
        return {std::string(binary.op == BinaryOp::Div ? "brt_idiv(" : "brt_imod(") + type + "(" +
                argument(*binary.lhs) + "), " + type + "(" + argument(*binary.rhs) + "))"};
    }

    PrintedExpr init_list(const InitList& list, const Type& type) override {
        std::vector<std::string> elements;
        for (std::size_t i = 0; i < list.elements.size(); ++i) {
            const Expr& element = *list.elements[i];
            if (type.is_struct() && i < type.struct_decl()->fields.size()) {
                const Type& field = type.struct_decl()->fields[i].type;
                if (element.kind == NodeKind::InitList)
                    elements.push_back(
                        init_list(static_cast<const InitList&>(element), field).text);
                else
                    elements.push_back(type_name(field) + "(" + argument(element) + ")");
            } else {
                elements.push_back(argument(element));
            }
        }
        // C fills the components a brace list leaves out with zeros.
        while (type.is_vector() && elements.size() < static_cast<std::size_t>(type.width()))
            elements.push_back(zero_of(type));
        return {type_name(type) + "(" + join(elements) + ")"};
    }

    PrintedExpr construct(const Construct& construct) override {
        return {type_name(construct.constructed) + "(" + join(print_args(construct.args)) + ")"};
    }

    std::string push(const Push& push) override {
        const auto* param = static_cast<const ParamDecl*>(push.stream->decl);
        return "brt_push_" + std::to_string(param->index) + "(" + identifier(push.stream->name) +
               ")";
    }
};

void collect_leaves(const Type& type, const std::string& path, std::vector<Leaf>& leaves) {
    if (!type.is_struct()) {
        leaves.push_back({path, type});
        return;
    }
    for (const FieldDecl& field : type.struct_decl()->fields)
        collect_leaves(field.type, path + "." + glsl_identifier(field.name), leaves);
}

void collect_struct(const StructDecl* decl, std::vector<const StructDecl*>& order) {
    for (const StructDecl* seen : order) {
        if (seen == decl)
            return;
    }
    for (const FieldDecl& field : decl->fields) {
        if (field.type.is_struct())
            collect_struct(field.type.struct_decl(), order);
    }
    order.push_back(decl);
}

/// One dispatch function `T NAME(int id, ARGUMENT_TYPE VALUE)` calling FETCH + index of the
/// launched kernel's gather of type `type` whose parameter index is `id`.
std::string gather_dispatch(const KernelDecl& kernel, const Type& type, const std::string& name,
                            const std::string& fetch, const std::string& argument_type,
                            const std::string& value) {
    std::string text =
        glsl_type_name(type) + " " + name + "(int id, " + argument_type + " " + value + ") {\n";
    const ParamDecl* last = nullptr;
    for (const ParamDecl* other : kernel.params) {
        if (other->param_kind != ParamKind::Gather || other->type != type)
            continue;
        text += "    if (id == " + std::to_string(other->index) + ") {\n        return " + fetch +
                std::to_string(other->index) + "(" + value + ");\n    }\n";
        last = other;
    }
    text += "    return " + fetch + std::to_string(last->index) + "(" + value + ");\n}\n";
    return text;
}

void collect_type(const Type& type, std::vector<const StructDecl*>& order) {
    if (type.is_struct())
        collect_struct(type.struct_decl(), order);
}

/// collect_type for the types of the locals `stmt` declares.
void collect_stmt_types(const Stmt* stmt, std::vector<const StructDecl*>& order) {
    if (stmt == nullptr)
        return;
    switch (stmt->kind) {
    case NodeKind::Compound:
        for (const Stmt* child : static_cast<const Compound*>(stmt)->body)
            collect_stmt_types(child, order);
        return;
    case NodeKind::DeclStmt:
        for (const LocalDecl* var : static_cast<const DeclStmt*>(stmt)->vars)
            collect_type(var->type, order);
        return;
    case NodeKind::If:
        collect_stmt_types(static_cast<const If*>(stmt)->then_branch, order);
        collect_stmt_types(static_cast<const If*>(stmt)->else_branch, order);
        return;
    case NodeKind::For:
        collect_stmt_types(static_cast<const For*>(stmt)->init, order);
        collect_stmt_types(static_cast<const For*>(stmt)->body, order);
        return;
    case NodeKind::While:
        collect_stmt_types(static_cast<const While*>(stmt)->body, order);
        return;
    case NodeKind::DoWhile:
        collect_stmt_types(static_cast<const DoWhile*>(stmt)->body, order);
        return;
    case NodeKind::ExprStmt:
    case NodeKind::Return:
    case NodeKind::Push:
    case NodeKind::Empty:
    case NodeKind::Discard:
    case NodeKind::SyncGroup:
    case NodeKind::Break:
    case NodeKind::Continue:
        return;
#include "ast/expr_kind_cases.def"
        return;
    }
}

} // namespace

std::string glsl_identifier(std::string_view name) {
    const bool clash = is_glsl_reserved(name) || name.substr(0, 3) == "gl_" ||
                       name.substr(0, 4) == "brt_" || name.find("__") != std::string_view::npos;
    if (!clash)
        return std::string(name);
    std::string renamed = "brt_u_";
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (name[i] == '_' && i + 1 < name.size() && name[i + 1] == '_') {
            renamed += "_x_";
            ++i;
        } else {
            renamed += name[i];
        }
    }
    return renamed;
}

std::string glsl_type_name(const Type& type) {
    switch (type.kind()) {
    case Type::Kind::Error:
        internal_error(__FILE__, __LINE__, "error type reached GLSL generation");
    case Type::Kind::Void:
        return "void";
    case Type::Kind::Struct:
        return glsl_identifier(type.struct_decl()->name);
    case Type::Kind::Arithmetic:
        break;
    }
    std::string_view scalar;
    std::string_view vector_prefix;
    switch (type.scalar_type()) {
    case ScalarType::Bool:
        scalar = "bool";
        vector_prefix = "bvec";
        break;
    // Bytes and shorts compute in int, as C promotes them; conversions to them wrap
    // (GlslPrinter::convert).
    case ScalarType::Int:
    case ScalarType::Char:
    case ScalarType::UChar:
    case ScalarType::Short:
    case ScalarType::UShort:
        scalar = "int";
        vector_prefix = "ivec";
        break;
    case ScalarType::UInt:
        scalar = "uint";
        vector_prefix = "uvec";
        break;
    case ScalarType::Float:
    case ScalarType::Fixed:
    case ScalarType::ShortFixed:
        scalar = "float";
        vector_prefix = "vec";
        break;
    case ScalarType::Double:
        scalar = "double";
        vector_prefix = "dvec";
        break;
    }
    if (type.width() == 1)
        return std::string(scalar);
    return std::string(vector_prefix) + std::to_string(type.width());
}

std::string glsl_float_literal(double value) {
    // A constant beyond float's range (1e40) rounds to an infinity, as C rounds it to float.
    const auto single = static_cast<float>(value);
    if (std::isnan(single))
        return "uintBitsToFloat(0x7fc00000u)";
    if (std::isinf(single))
        return single > 0 ? "uintBitsToFloat(0x7f800000u)" : "uintBitsToFloat(0xff800000u)";
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.9g", static_cast<double>(single));
    std::string text = buffer;
    if (text.find_first_of(".e") == std::string::npos)
        text += ".0";
    return text;
}

std::string glsl_double_literal(double value) {
    // GLSL has no double bit casts but packDouble2x32 (low word first).
    if (std::isnan(value))
        return "packDouble2x32(uvec2(0u, 0x7ff80000u))";
    if (std::isinf(value))
        return value > 0 ? "packDouble2x32(uvec2(0u, 0x7ff00000u))"
                         : "packDouble2x32(uvec2(0u, 0xfff00000u))";
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    std::string text = buffer;
    if (text.find_first_of(".e") == std::string::npos)
        text += ".0";
    return text + "lf";
}

bool is_floating(const Type& type) {
    return type.is_arithmetic() &&
           (is_floating_point(type.scalar_type()) || is_fixed_point(type.scalar_type()));
}

std::string zero_of(const Type& type) {
    if (is_floating(type))
        return "0.0";
    if (type.scalar_type() == ScalarType::UInt)
        return "0u";
    if (type.scalar_type() == ScalarType::Bool)
        return "false";
    return "0";
}

std::string zero_value(const Type& type) {
    if (!type.is_struct())
        return glsl_type_name(type) + "(" + zero_of(type.with_width(1)) + ")";
    std::string text = glsl_type_name(type) + "(";
    bool first = true;
    for (const FieldDecl& field : type.struct_decl()->fields) {
        text += (first ? "" : ", ") + zero_value(field.type);
        first = false;
    }
    return text + ")";
}

std::string gather_id_name(const ParamDecl& param) {
    return "brt_gather_id_" + glsl_identifier(param.name);
}

std::string position_parameter_name(const ParamDecl& param) {
    return "brt_position_" + glsl_identifier(param.name);
}

std::string gather_dispatch_name(const Type& type) {
    return "brt_gather_of_" + glsl_type_name(type);
}

std::string gather_offset_dispatch_name(const Type& type) {
    return "brt_gather_offset_of_" + glsl_type_name(type);
}

std::vector<Leaf> leaves_of(const Type& type) {
    std::vector<Leaf> leaves;
    collect_leaves(type, "", leaves);
    return leaves;
}

std::string assemble(const Type& type, const std::vector<std::string>& names, std::size_t& next) {
    if (!type.is_struct())
        return names[next++];
    std::string text = glsl_type_name(type) + "(";
    bool first = true;
    for (const FieldDecl& field : type.struct_decl()->fields) {
        text += (first ? "" : ", ") + assemble(field.type, names, next);
        first = false;
    }
    return text + ")";
}

void collect_helpers(const KernelDecl& kernel, std::vector<const KernelDecl*>& order) {
    for (const KernelDecl* callee : kernel.callees) {
        bool seen = false;
        for (const KernelDecl* done : order)
            seen = seen || done == callee;
        if (seen)
            continue;
        collect_helpers(*callee, order);
        order.push_back(callee);
    }
}

std::vector<const StructDecl*> struct_types(const KernelDecl& kernel,
                                            const std::vector<const KernelDecl*>& helpers) {
    std::vector<const StructDecl*> structs;
    for (const ParamDecl* param : kernel.params)
        collect_type(param->type, structs);
    collect_stmt_types(kernel.body, structs);
    for (const KernelDecl* helper : helpers) {
        collect_type(helper->return_type, structs);
        for (const ParamDecl* param : helper->params)
            collect_type(param->type, structs);
        collect_stmt_types(helper->body, structs);
    }
    return structs;
}

std::string struct_definition(const StructDecl& decl) {
    std::string text = "struct " + glsl_identifier(decl.name) + " {\n";
    for (const FieldDecl& field : decl.fields)
        text += "    " + glsl_type_name(field.type) + " " + glsl_identifier(field.name) + ";\n";
    return text + "};\n";
}

std::string discard_parameter() {
    return "inout bool " + std::string(discard_flag_name);
}

std::string function_parameter(const ParamDecl& param) {
    const bool writes = param.param_kind == ParamKind::OutputStream ||
                        param.param_kind == ParamKind::ReduceAccumulator ||
                        param.param_kind == ParamKind::VariableOutput;
    return std::string(writes ? "inout " : "") + glsl_type_name(param.type) + " " +
           glsl_identifier(param.name);
}

std::string callable_definition(const KernelDecl& kernel) {
    std::string parameters;
    for (const ParamDecl* param : kernel.params) {
        parameters += parameters.empty() ? "" : ", ";
        parameters += param->param_kind == ParamKind::Gather ? "int " + gather_id_name(*param)
                                                             : function_parameter(*param);
    }
    for (const ParamDecl* param : kernel.params) {
        if (param->needs_position)
            parameters += std::string(parameters.empty() ? "" : ", ") + "vec4 " +
                          position_parameter_name(*param);
    }
    if (kernel.discards)
        parameters += std::string(parameters.empty() ? "" : ", ") + discard_parameter();
    std::string text = glsl_type_name(kernel.return_type) + " " + glsl_identifier(kernel.name) +
                       "(" + parameters + ") {\n";
    GlslPrinter printer;
    printer.print_callable_body(kernel, 1, text);
    return text + "}\n";
}

std::string gather_dispatches(const KernelDecl& kernel,
                              const std::vector<const KernelDecl*>& callees) {
    const bool passed = std::any_of(callees.begin(), callees.end(), [](const KernelDecl* callee) {
        return std::any_of(callee->params.begin(), callee->params.end(),
                           [](const ParamDecl* p) { return p->param_kind == ParamKind::Gather; });
    });
    if (!passed)
        return "";
    std::set<std::string> done;
    std::string text;
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind != ParamKind::Gather ||
            !done.insert(glsl_type_name(param->type)).second)
            continue;
        text += gather_dispatch(kernel, param->type, gather_dispatch_name(param->type),
                                "brt_gather_", "ivec4", "position");
        text += gather_dispatch(kernel, param->type, gather_offset_dispatch_name(param->type),
                                "brt_gather_offset_", "int", "offset");
    }
    return text;
}

std::string body_function(const KernelDecl& kernel) {
    std::string parameters;
    for (const ParamDecl* param : kernel.params) {
        // Gathers are read, and a scatter output written, through functions of their own.
        if (param->param_kind != ParamKind::Gather && param->param_kind != ParamKind::ScatterOutput)
            parameters += (parameters.empty() ? "" : ", ") + function_parameter(*param);
    }
    if (kernel.discards)
        parameters += std::string(parameters.empty() ? "" : ", ") + discard_parameter();
    std::string text = "void brt_kernel(" + parameters + ") {\n";
    GlslPrinter printer;
    printer.print_body(*kernel.body, 1, text);
    return text + "}\n";
}

} // namespace brcc::glsl_common
