// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Translates kernels to GLSL fragment shaders for the gl backend, the way the paper compiled
// kernels to fragment programs. One shader invocation computes one output element:
//  - `main` finds its element from gl_FragCoord (brt_locate, in the runtime's prelude), fetches
//    every input (resized to the output's shape), the outputs' current values and the constants
//    (uniforms), calls `brt_kernel` (the body, outputs as `inout`) and writes each output field
//    to its render target when the pass's `BRT_OUT_<param>_<field>` define selects it, so that
//    the runtime can split a kernel with many outputs into passes over the same source;
//  - a stream parameter is read through `brt_fetch_<param>(linear element)`: one texture per
//    leaf field of the element type, the linear element address turned into a texel by exact
//    integer arithmetic (brt_texel); gathers clamp DESIGN.md's rounded index first;
//  - `push(r)` on a vout parameter counts the element's pushes; the runtime's count pass writes
//    the counts, and its write pass of r, drawn over r's values, runs the element each value
//    comes from (found by a binary search over the prefix sums of the counts) and keeps the
//    value of the push it stands for: fragment shaders cannot scatter, so they gather instead;
//  - a reduce function's `main` instead folds up to 8 adjacent input elements along one
//    dimension, in order; the runtime repeats such passes until each target element is done.
// Expressions use the shared C-like printer; this file supplies its GLSL hooks.

#include "codegen/gl/glsl_kernel_emitter.hpp"

#include "ast/operators.hpp"
#include "brook/detail/glsl_interface.hpp"
#include "codegen/c_like_printer.hpp"
#include "codegen/param_access.hpp"
#include "sema/builtins.hpp"
#include "support/diagnostics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>
#include <string_view>

namespace brcc {

namespace {

/// The names and numbers brcc's GLSL shares with the gl backend.
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

/// A Brook name as a GLSL identifier. GLSL reserves keywords, `gl_` names and any name with
/// `__`; the backend's own names start with `brt_`. Those get the prefix `brt_u_` (with each
/// `__` spelled `_x_`), which no Brook name written as-is can produce.
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
    // Bytes compute in int, as C promotes them; conversions to them wrap (GlslPrinter::convert).
    case ScalarType::Int:
    case ScalarType::Char:
    case ScalarType::UChar:
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

/// Float, fixed and shortfixed: all are GLSL floats.
bool is_floating(const Type& type) {
    return is_float(type) || (type.is_arithmetic() && is_fixed_point(type.scalar_type()));
}

/// The zero of a scalar type, spelled for GLSL.
std::string zero_of(const Type& type) {
    if (is_floating(type))
        return "0.0";
    if (type.scalar_type() == ScalarType::UInt)
        return "0u";
    if (type.scalar_type() == ScalarType::Bool)
        return "false";
    return "0";
}

/// The zero of any value type (structs field by field), as C++'s `T{}` gives the CPU backend.
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

std::string swizzle_letters(const Member& member) {
    static constexpr std::string_view letters = "xyzw";
    std::string text;
    for (int i = 0; i < member.swizzle_length; ++i)
        text += letters[member.swizzle[static_cast<std::size_t>(i)]];
    return text;
}

/// The flag that a kernel's functions set when it discards the element (an `inout` parameter of
/// each that may, a local of `main`).
constexpr std::string_view discard_flag_name = "brt_discarded";

/// The parameter by which a called kernel receives which gather of the launched kernel its
/// gather parameter `param` reads (GLSL functions cannot take samplers, so the shader's
/// brt_gather_of_T dispatches on it).
std::string gather_id_name(const ParamDecl& param) {
    return "brt_gather_id_" + glsl_identifier(param.name);
}

/// The parameter by which a called kernel receives the position of the caller's stream bound to
/// its stream parameter `param`.
std::string position_parameter_name(const ParamDecl& param) {
    return "brt_position_" + glsl_identifier(param.name);
}

/// The function reading element `position` from the launched kernel's gather `id` of type `type`.
std::string gather_dispatch_name(const Type& type) {
    return "brt_gather_of_" + glsl_type_name(type);
}

/// The function reading the element at row-major offset `offset` (a one-component index,
/// COMPAT.md §1.9) from the launched kernel's gather `id` of type `type`.
std::string gather_offset_dispatch_name(const Type& type) {
    return "brt_gather_offset_of_" + glsl_type_name(type);
}

/// The C-like printer's hooks for GLSL 4.30.
class GlslPrinter final : public CLikePrinter {
protected:
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
        if (scalar != ScalarType::Char && scalar != ScalarType::UChar && !is_fixed_point(scalar))
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
               target == ScalarType::Char || target == ScalarType::UChar || is_fixed_point(target);
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

    /// An int or float result as C stores it into `to`: bytes keep their low 8 bits (sign
    /// extended for char), fixed (shortfixed) saturates to [0, 1] and rounds to a step of 1/255
    /// (1/65535).
    static std::string store_back(const Type& to, const std::string& value) {
        switch (to.scalar_type()) {
        case ScalarType::UChar:
            return "(" + value + " & 0xFF)";
        case ScalarType::Char:
            return "((" + value + " << 24) >> 24)";
        case ScalarType::Fixed:
        case ScalarType::ShortFixed: {
            const std::string steps = std::to_string(fixed_point_steps(to.scalar_type())) + ".0";
            return "(floor(clamp(" + value + ", 0.0, 1.0) * " + steps + " + 0.5) / " + steps + ")";
        }
        case ScalarType::Bool:
        case ScalarType::Int:
        case ScalarType::UInt:
        case ScalarType::Float:
            break;
        }
        return value;
    }

    PrintedExpr builtin_call(const Call& call) override {
        const std::vector<std::string> args = print_args(call.args);
        const BuiltinId id = *call.builtin;
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
        std::string position;
        if (subscript.indices.size() == 1 && subscript.indices.front()->type.is_scalar()) {
            const std::string offset = "brt_gidx(" + argument(*subscript.indices.front()) + ")";
            if (callable_ != nullptr)
                return {gather_offset_dispatch_name(param.type) + "(" + gather_id_name(param) +
                        ", " + offset + ")"};
            return {"brt_gather_offset_" + index + "(" + offset + ")"};
        }
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
        if (callable_ != nullptr)
            return {gather_dispatch_name(param.type) + "(" + gather_id_name(param) + ", " +
                    position + ")"};
        return {"brt_gather_" + index + "(" + position + ")"};
    }

    PrintedExpr element_position(const ParamDecl& stream) override {
        if (stream.param_kind == ParamKind::OutputStream)
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

// ---------------------------------------------------------------------------------------------
// Element types: one texture per leaf field

struct Leaf {
    std::string path; ///< `.o`, `.inner.d`, or "" for an arithmetic element
    Type type;
};

void collect_leaves(const Type& type, const std::string& path, std::vector<Leaf>& leaves) {
    if (!type.is_struct()) {
        leaves.push_back({path, type});
        return;
    }
    for (const FieldDecl& field : type.struct_decl()->fields)
        collect_leaves(field.type, path + "." + glsl_identifier(field.name), leaves);
}

std::vector<Leaf> leaves_of(const Type& type) {
    std::vector<Leaf> leaves;
    collect_leaves(type, "", leaves);
    return leaves;
}

/// "" for float leaves, "i" for int and byte leaves, "u" for uint: the prefix of the sampler
/// and vector types their textures use.
std::string leaf_prefix(const Type& type) {
    if (is_floating(type))
        return "";
    return type.scalar_type() == ScalarType::UInt ? "u" : "i";
}

/// A value of `type` built from the leaf values `names[next...]` (struct constructors nest).
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

/// `.x`, `.xy`, `.xyz` or "" picking a leaf's components out of a texel.
std::string texel_components(const Type& leaf) {
    static constexpr std::string_view masks[] = {"", ".x", ".xy", ".xyz", ""};
    return std::string(masks[leaf.width()]);
}

/// A leaf value widened to the vec4/ivec4 a render target takes.
std::string widen(const Type& leaf, const std::string& value) {
    const std::string zero = zero_of(leaf.with_width(1));
    std::string text = leaf_prefix(leaf) + "vec4(" + value;
    for (int i = leaf.width(); i < 4; ++i)
        text += ", " + zero;
    return text + ")";
}

// ---------------------------------------------------------------------------------------------
// Shader pieces

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

void collect_type(const Type& type, std::vector<const StructDecl*>& order) {
    if (type.is_struct())
        collect_struct(type.struct_decl(), order);
}

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
    case NodeKind::Break:
    case NodeKind::Continue:
        return;
#include "ast/expr_kind_cases.def"
        return;
    }
}

/// Kernels the kernel calls, callees before callers (GLSL wants a function defined before use).
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

std::string struct_definition(const StructDecl& decl) {
    std::string text = "struct " + glsl_identifier(decl.name) + " {\n";
    for (const FieldDecl& field : decl.fields)
        text += "    " + glsl_type_name(field.type) + " " + glsl_identifier(field.name) + ";\n";
    return text + "};\n";
}

bool is_stream(ParamKind kind) {
    return kind == ParamKind::InputStream || kind == ParamKind::ReduceInput ||
           kind == ParamKind::OutputStream || kind == ParamKind::Gather;
}

/// Uniforms and the fetch function of stream parameter `param`.
std::string stream_declarations(const ParamDecl& param) {
    const std::string index = std::to_string(param.index);
    const std::string extents = glsl::stream_extents(param.index);
    const std::string strides = glsl::stream_strides(param.index);
    const std::string offset = glsl::stream_offset(param.index);
    const std::vector<Leaf> leaves = leaves_of(param.type);
    std::string text = "uniform ivec4 " + extents + ";\nuniform ivec4 " + strides +
                       ";\nuniform int " + offset + ";\n";
    for (std::size_t f = 0; f < leaves.size(); ++f) {
        text += "uniform " + leaf_prefix(leaves[f].type) + "sampler2D " +
                glsl::stream_texture(param.index, f) + ";\n";
    }
    const std::string type = glsl_type_name(param.type);
    text += type + " brt_fetch_at_" + index + "(ivec2 texel) {\n";
    std::vector<std::string> names;
    for (std::size_t f = 0; f < leaves.size(); ++f) {
        const std::string name = "brt_leaf" + std::to_string(f);
        text += "    " + glsl_type_name(leaves[f].type) + " " + name + " = " +
                glsl_type_name(leaves[f].type) + "(texelFetch(" +
                glsl::stream_texture(param.index, f) + ", texel, 0)" +
                texel_components(leaves[f].type) + ");\n";
        names.push_back(name);
    }
    std::size_t next = 0;
    text += "    return " + assemble(param.type, names, next) + ";\n}\n";
    // Every field's texture has the stream's layout, so the first one's width serves all.
    text += type + " brt_fetch_" + index + "(int element) {\n    return brt_fetch_at_" + index +
            "(brt_texel(element, textureSize(" + glsl::stream_texture(param.index, 0) +
            ", 0).x));\n}\n";
    if (param.param_kind == ParamKind::Gather) {
        text += type + " brt_gather_" + index + "(ivec4 position) {\n";
        text += "    return brt_fetch_" + index + "(brt_element(brt_gather_clamp(position, " +
                extents + "), " + strides + ", " + offset + "));\n}\n";
        // One index component: a row-major element offset (COMPAT.md §1.9), which is the
        // position itself on a 1-D stream.
        text += type + " brt_gather_offset_" + index + "(int offset) {\n";
        text += "    return brt_fetch_" + index + "(brt_offset_element(offset, " + extents + ", " +
                strides + ", " + offset + "));\n}\n";
    }
    return text;
}

/// A constant parameter's uniforms (one per leaf field of a struct) and its value as GLSL.
std::string constant_uniforms(const ParamDecl& param) {
    if (!param.type.is_struct())
        return "uniform " + glsl_type_name(param.type) + " " + glsl::constant(param.index) + ";\n";
    std::string text;
    const std::vector<Leaf> leaves = leaves_of(param.type);
    for (std::size_t f = 0; f < leaves.size(); ++f)
        text += "uniform " + glsl_type_name(leaves[f].type) + " " + glsl::constant(param.index, f) +
                ";\n";
    return text;
}

std::string constant_value(const ParamDecl& param) {
    if (!param.type.is_struct())
        return glsl::constant(param.index);
    std::vector<std::string> names;
    const std::vector<Leaf> leaves = leaves_of(param.type);
    for (std::size_t f = 0; f < leaves.size(); ++f)
        names.push_back(glsl::constant(param.index, f));
    std::size_t next = 0;
    return assemble(param.type, names, next);
}

/// The flag parameter of a function of a kernel that may discard.
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

/// The function through which kernels call `kernel` (COMPAT 1.2): `out` parameters are `inout`
/// (copied in, stored back when it returns), gathers the ids brt_gather_of_T dispatches on, and
/// the positions of the streams whose indexof it uses come last.
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

/// For each element type of the launched kernel's gathers, when a called kernel takes a
/// gather: `T brt_gather_of_T(int id, ivec4 position)` and `T brt_gather_offset_of_T(int id,
/// int offset)`, reading the gather whose parameter index is `id`.
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

/// `brt_kernel`: the body, with the kernel's parameters except gathers (read through their
/// fetch functions).
std::string body_function(const KernelDecl& kernel) {
    std::string parameters;
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind != ParamKind::Gather)
            parameters += (parameters.empty() ? "" : ", ") + function_parameter(*param);
    }
    if (kernel.discards)
        parameters += std::string(parameters.empty() ? "" : ", ") + discard_parameter();
    std::string text = "void brt_kernel(" + parameters + ") {\n";
    GlslPrinter printer;
    printer.print_body(*kernel.body, 1, text);
    return text + "}\n";
}

/// The render-target declarations of a written parameter, each behind its pass define.
std::string output_declarations(const ParamDecl& param) {
    std::string text;
    const std::vector<Leaf> leaves = leaves_of(param.type);
    for (std::size_t f = 0; f < leaves.size(); ++f) {
        const std::string define = glsl::output_target(param.index, f);
        text += "#ifdef " + define + "\nlayout(location = " + define + ") out " +
                leaf_prefix(leaves[f].type) + "vec4 brt_out_" + std::to_string(param.index) + "_" +
                std::to_string(f) + ";\n#endif\n";
    }
    return text;
}

std::string output_writes(const ParamDecl& param, const std::string& value) {
    std::string text;
    const std::vector<Leaf> leaves = leaves_of(param.type);
    for (std::size_t f = 0; f < leaves.size(); ++f) {
        const std::string suffix = std::to_string(param.index) + "_" + std::to_string(f);
        text += "#ifdef " + glsl::output_target(param.index, f) + "\n    brt_out_" + suffix +
                " = " + widen(leaves[f].type, value + leaves[f].path) + ";\n#endif\n";
    }
    return text;
}

std::string local_name(const ParamDecl& param) {
    return "brt_arg_" + std::to_string(param.index);
}

/// The copy of an output's old value that a discarded element writes back.
std::string old_value_name(const ParamDecl& param) {
    return "brt_old_" + std::to_string(param.index);
}

/// What `push(r)` on vout parameter P needs. Every pass counts the element's pushes; the count
/// pass writes the count to the render target BRT_COUNT_P, and the write pass of P (BRT_PUSH_P,
/// drawn over P's values: brt_locate_push found the element and which of its pushes this
/// invocation stores) keeps the value of that push for the render targets BRT_OUT_P_<field>.
std::string variable_output_declarations(const ParamDecl& param) {
    const std::string index = std::to_string(param.index);
    const std::string type = glsl_type_name(param.type);
    std::string text = "int brt_pushes_" + index + " = 0;\n";
    text += "#ifdef " + glsl::push_write_of(param.index) + "\n" + type + " brt_pushed_" + index +
            ";\n#endif\n";
    text += "void brt_push_" + index + "(" + type + " value) {\n";
    // vout [N]: the element's pushes after its first N are dropped, in every pass alike.
    if (param.push_limit != 0)
        text += "    if (brt_pushes_" + index + " == " + std::to_string(param.push_limit) +
                ") {\n        return;\n    }\n";
    text += "#ifdef " + glsl::push_write_of(param.index) + "\n    if (brt_pushes_" + index +
            " == brt_push_wanted) {\n        brt_pushed_" + index + " = value;\n    }\n#endif\n";
    text += "    ++brt_pushes_" + index + ";\n}\n";
    const std::string count_target = glsl::push_count_target(param.index);
    text += "#ifdef " + count_target + "\nlayout(location = " + count_target +
            ") out ivec4 brt_count_" + index + ";\n#endif\n";
    return text + output_declarations(param);
}

// ---------------------------------------------------------------------------------------------
// Definite assignment of outputs

/// The call of brt_kernel with each parameter's local (or constant).
std::string kernel_call(const KernelDecl& kernel) {
    std::string args;
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind == ParamKind::Gather)
            continue;
        args += (args.empty() ? "" : ", ") + (param->param_kind == ParamKind::Constant
                                                  ? constant_value(*param)
                                                  : local_name(*param));
    }
    if (kernel.discards)
        args += std::string(args.empty() ? "" : ", ") + std::string(discard_flag_name);
    return "brt_kernel(" + args + ");\n";
}

bool has_variable_outputs(const KernelDecl& kernel) {
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind == ParamKind::VariableOutput)
            return true;
    }
    return false;
}

/// What a call whose elements a write mask or write query tracks draws with (the runtime's
/// Launch::element_flags): under BRT_FLAGS, brt_flags holds a flag per element, stored as the
/// frame is drawn, and an element whose flag is set skips the kernel, keeping its outputs' values;
/// the render target BRT_WRITTEN (in one pass of a call split in several) gets 1 for each
/// element written, 0 for one skipped or discarded.
std::string element_flag_declarations() {
    return "#ifdef " + std::string(glsl::element_flags) + "\nuniform isampler2D " +
           glsl::element_flags_sampler + ";\n#endif\n#ifdef " + glsl::written_target +
           "\nlayout(location = " + glsl::written_target + ") out ivec4 brt_written;\n#endif\n";
}

/// The end of `main`: a texel that stands for no element writes nothing (prelude.glsl,
/// brt_outside, says why this is not done where brt_locate finds it).
std::string discard_outside() {
    return "    if (brt_outside) {\n        discard;\n    }\n";
}

std::string kernel_main(const KernelDecl& kernel) {
    const std::vector<ParamAccess> access = param_access(kernel);
    const bool tracked = !has_variable_outputs(kernel);
    std::string text = tracked ? element_flag_declarations() : "";
    text += "void main() {\n";
    // The write pass of a variable output is drawn over its values, not over the elements.
    if (has_variable_outputs(kernel))
        text += "#ifdef " + std::string(glsl::push_write_pass) +
                "\n    brt_locate_push();\n#else\n    brt_locate();\n#endif\n";
    else
        text += "    brt_locate();\n";
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind == ParamKind::VariableOutput) {
            text += "    " + glsl_type_name(param->type) + " " + local_name(*param) + " = " +
                    zero_value(param->type) + ";\n";
        }
        const std::string index = std::to_string(param->index);
        const std::string declaration =
            "    " + glsl_type_name(param->type) + " " + local_name(*param) + " = ";
        const auto fetch_at = [&](const std::string& position) {
            return declaration + "brt_fetch_" + index + "(brt_element(" + position + ", " +
                   glsl::stream_strides(param->index) + ", " + glsl::stream_offset(param->index) +
                   "));\n";
        };
        // An output starts as the stream's current value, as on the CPU, so an element the
        // body does not assign keeps it. BRT_DIRECT_P: the runtime found the stream stored
        // exactly as the frame is drawn, so the element is the texel being drawn (no address
        // arithmetic, which integer division makes costly). BRT_UNRESIZED_P: an input of the
        // frame's extents, read at the frame's position without resizing it.
        std::string fetch = "#ifdef " + glsl::direct_read(param->index) + "\n" + declaration +
                            "brt_fetch_at_" + index + "(ivec2(gl_FragCoord.xy));\n";
        if (param->param_kind == ParamKind::InputStream) {
            fetch += "#elif defined(" + glsl::unresized_read(param->index) + ")\n" +
                     fetch_at("brt_index") + "#else\n" +
                     fetch_at("brt_resize(brt_index, " + glsl::stream_extents(param->index) + ", " +
                              glsl::frame_extents + ")");
        } else {
            fetch += "#else\n" + fetch_at("brt_index");
        }
        fetch += "#endif\n";
        if (param->param_kind == ParamKind::OutputStream &&
            !access[static_cast<std::size_t>(param->index)].read) {
            // Every element assigns the output before anything could read it: its current
            // value is never needed, and the runtime sees that it is not sampled (so it may
            // render into the stream's own textures). Unless a write mask may skip the element.
            const std::string zero = declaration + zero_value(param->type) + ";\n";
            text += tracked ? "#ifdef " + std::string(glsl::element_flags) + "\n" + fetch +
                                  "#else\n" + zero + "#endif\n"
                            : zero;
        } else if (param->param_kind == ParamKind::InputStream ||
                   param->param_kind == ParamKind::OutputStream) {
            text += fetch;
        }
    }
    // A discarded element writes its outputs' old values (param_access made them read): the
    // runtime may render into other textures than the streams', where GLSL's own discard would
    // leave undefined texels.
    std::string restores;
    if (kernel.discards) {
        text += "    bool " + std::string(discard_flag_name) + " = false;\n";
        for (const ParamDecl* param : kernel.params) {
            if (param->param_kind != ParamKind::OutputStream)
                continue;
            text += "    " + glsl_type_name(param->type) + " " + old_value_name(*param) + " = " +
                    local_name(*param) + ";\n";
            restores +=
                "            " + local_name(*param) + " = " + old_value_name(*param) + ";\n";
        }
    }
    // A texel that stands for no element (brt_outside) runs nothing, and is discarded at the end.
    std::string runs = "!brt_outside";
    if (tracked) {
        text += "#ifdef " + std::string(glsl::element_flags) +
                "\n    bool brt_skipped = texelFetch(" + glsl::element_flags_sampler +
                ", ivec2(gl_FragCoord.xy), 0).r != 0;\n#else\n    const bool brt_skipped = false;\n"
                "#endif\n";
        runs += " && !brt_skipped";
    }
    text += "    if (" + runs + ") {\n        " + kernel_call(kernel);
    if (!restores.empty())
        text += "        if (" + std::string(discard_flag_name) + ") {\n" + restores + "        }\n";
    text += "    }\n";
    if (tracked)
        text += "#ifdef " + std::string(glsl::written_target) +
                "\n    brt_written = ivec4(brt_skipped" +
                (kernel.discards ? " || " + std::string(discard_flag_name) : std::string()) +
                " ? 0 : 1, 0, 0, 0);\n#endif\n";
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind == ParamKind::OutputStream)
            text += output_writes(*param, local_name(*param));
        if (param->param_kind == ParamKind::VariableOutput) {
            const std::string index = std::to_string(param->index);
            text += "#ifdef " + glsl::push_count_target(param->index) + "\n    brt_count_" + index +
                    " = ivec4(brt_pushes_" + index + ", 0, 0, 0);\n#endif\n";
            text += "#ifdef " + glsl::push_write_of(param->index) + "\n" +
                    output_writes(*param, "brt_pushed_" + index) + "#endif\n";
        }
    }
    return text + discard_outside() + "}\n";
}

std::string reduce_main(const KernelDecl& kernel) {
    const ParamDecl* input = nullptr;
    const ParamDecl* accumulator = nullptr;
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind == ParamKind::ReduceInput)
            input = param;
        if (param->param_kind == ParamKind::ReduceAccumulator)
            accumulator = param;
    }
    BRCC_ASSERT(input != nullptr && accumulator != nullptr,
                "reduce function '" + kernel.name + "' without input or accumulator");
    const std::string in = std::to_string(input->index);
    const std::string fetch = "brt_fetch_" + in + "(brt_element(brt_position, " +
                              glsl::stream_strides(input->index) + ", " +
                              glsl::stream_offset(input->index) + "))";
    const std::string type = glsl_type_name(input->type);
    const std::string dimension = glsl::reduce_dimension;
    const std::string factor = glsl::reduce_factor;
    const std::string chunks = glsl::reduce_chunks;
    const std::string fan_in = std::to_string(glsl::reduce_fan_in);
    std::string text = "uniform int " + dimension + ";\nuniform int " + factor + ";\nuniform int " +
                       chunks + ";\n";
    text += "void main() {\n    brt_locate();\n";
    text += "    ivec4 brt_position = brt_index;\n";
    text += "    int brt_j = brt_index[" + dimension + "];\n";
    text += "    int brt_chunk = brt_j % " + chunks + ";\n";
    text += "    int brt_start = (brt_j / " + chunks + ") * " + factor + " + brt_chunk * " +
            fan_in + ";\n";
    text += "    int brt_count = brt_outside ? 0 : min(" + fan_in + ", " + factor +
            " - brt_chunk * " + fan_in + ");\n";
    text += "    brt_position[" + dimension + "] = brt_start;\n";
    text += "    " + type + " " + local_name(*accumulator) + " = " + fetch + ";\n";
    text += "    for (int brt_k = 1; brt_k < brt_count; ++brt_k) {\n";
    text += "        brt_position[" + dimension + "] = brt_start + brt_k;\n";
    text += "        " + type + " " + local_name(*input) + " = " + fetch + ";\n";
    text += "        " + kernel_call(kernel);
    text += "    }\n";
    text += output_writes(*accumulator, local_name(*accumulator));
    return text + discard_outside() + "}\n";
}

} // namespace

std::string glsl_kernel_source(const KernelDecl& kernel) {
    std::vector<const KernelDecl*> helpers;
    collect_helpers(kernel, helpers);

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

    std::string text = "// kernel " + kernel.name + "\n";
    for (const StructDecl* decl : structs)
        text += struct_definition(*decl);
    for (const ParamDecl* param : kernel.params) {
        if (is_stream(param->param_kind))
            text += stream_declarations(*param);
        else if (param->param_kind == ParamKind::Constant)
            text += constant_uniforms(*param);
        if (param->param_kind == ParamKind::OutputStream ||
            param->param_kind == ParamKind::ReduceAccumulator)
            text += output_declarations(*param);
        if (param->param_kind == ParamKind::VariableOutput)
            text += variable_output_declarations(*param);
    }
    text += gather_dispatches(kernel, helpers);
    for (const KernelDecl* helper : helpers)
        text += callable_definition(*helper);
    text += body_function(kernel);
    text += kernel.is_reduce ? reduce_main(kernel) : kernel_main(kernel);
    return text;
}

} // namespace brcc
