// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Spelling rules for generated C++: vector types are named through the brook namespace (host
// code's unqualified `float4` could be shadowed by a user's name, `::brook::vec<float, 4>`
// cannot), C++ keywords that Brook allows as names get a prefix, and float literals are printed
// with enough digits (%.9g) to round-trip every float.

#include "codegen/cpp_spelling.hpp"

#include "ast/ast.hpp"
#include "support/diagnostics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>

namespace brcc {

std::string cpp_type_name(const Type& type) {
    switch (type.kind()) {
    case Type::Kind::Error:
        internal_error(__FILE__, __LINE__, "error type reached code generation");
    case Type::Kind::Void:
        return "void";
    case Type::Kind::Struct:
        return cpp_identifier(type.struct_decl()->name);
    case Type::Kind::Arithmetic:
        break;
    }
    std::string_view scalar;
    switch (type.scalar_type()) {
    case ScalarType::Bool:
        scalar = "bool";
        break;
    case ScalarType::Int:
        scalar = "int";
        break;
    case ScalarType::UInt:
        scalar = "unsigned";
        break;
    case ScalarType::Char:
        scalar = "signed char";
        break;
    case ScalarType::UChar:
        scalar = "unsigned char";
        break;
    case ScalarType::Short:
        scalar = "short";
        break;
    case ScalarType::UShort:
        scalar = "unsigned short";
        break;
    case ScalarType::Double:
        scalar = "double";
        break;
    case ScalarType::Float:
    case ScalarType::Fixed:
    case ScalarType::ShortFixed:
        scalar = "float";
        break;
    }
    if (type.width() == 1)
        return std::string(scalar);
    // bool2..4 alias their vec; float4 and the other named vectors are classes of host code
    // deriving from theirs (brook/vector.hpp), which kernels need not see.
    if (scalar == "bool")
        return "::brook::" + std::string(scalar) + std::to_string(type.width());
    return "::brook::vec<" + std::string(scalar) + ", " + std::to_string(type.width()) + ">";
}

bool is_fixed(const Type& type) {
    return type.is_arithmetic() && is_fixed_point(type.scalar_type());
}

std::string cpp_storage_type_name(const Type& type) {
    if (!is_fixed(type))
        return cpp_type_name(type);
    const std::string scalar = "::brook::" + std::string(scalar_type_name(type.scalar_type()));
    if (type.width() == 1)
        return scalar;
    return "::brook::vec<" + scalar + ", " + std::to_string(type.width()) + ">";
}

std::string cpp_host_type_name(const Type& type) {
    if (type.is_arithmetic() && type.width() > 1 && type.scalar_type() != ScalarType::Bool)
        return "::brook::" + type.name();
    return cpp_storage_type_name(type);
}

std::string cpp_identifier(std::string_view name) {
    // C++ keywords and alternative tokens that are not also Brook keywords or types.
    static constexpr std::string_view keywords[] = {
        "alignas",       "alignof",      "and",       "and_eq",
        "asm",           "auto",         "bitand",    "bitor",
        "case",          "catch",        "char",      "char8_t",
        "char16_t",      "char32_t",     "class",     "compl",
        "concept",       "consteval",    "constexpr", "constinit",
        "const_cast",    "co_await",     "co_return", "co_yield",
        "decltype",      "default",      "delete",    "double",
        "dynamic_cast",  "enum",         "explicit",  "export",
        "extern",        "false",        "friend",    "goto",
        "long",          "mutable",      "namespace", "new",
        "noexcept",      "not",          "not_eq",    "nullptr",
        "operator",      "or",           "or_eq",     "private",
        "protected",     "public",       "register",  "reinterpret_cast",
        "requires",      "short",        "signed",    "sizeof",
        "static_assert", "static_cast",  "switch",    "template",
        "this",          "thread_local", "throw",     "true",
        "try",           "typeid",       "typename",  "union",
        "using",         "virtual",      "volatile",  "wchar_t",
        "xor",           "xor_eq"};
    if (std::find(std::begin(keywords), std::end(keywords), name) != std::end(keywords))
        return "brook_kw_" + std::string(name);
    return std::string(name);
}

std::string cpp_float_literal(double value) {
    const auto single = static_cast<float>(value);
    // The bits of infinity and of the quiet NaN, for GCC, Clang and NVRTC alike: NVRTC has no
    // __builtin_inff or __builtin_nanf, and neither 1.0f / 0.0f nor a CUDA intrinsic would do
    // where a constant expression is needed (GCC rejects the one, NVRTC's device globals the
    // other).
    if (std::isinf(single))
        return single > 0 ? "__builtin_bit_cast(float, 0x7f800000u)"
                          : "__builtin_bit_cast(float, 0xff800000u)";
    if (std::isnan(single))
        return "__builtin_bit_cast(float, 0x7fc00000u)";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.9g", static_cast<double>(single));
    // %.9g is exact but long; use the shortest spelling that reads back as the same float.
    for (int digits = 1; digits < 9; ++digits) {
        char shorter[32];
        std::snprintf(shorter, sizeof shorter, "%.*g", digits, static_cast<double>(single));
        if (std::strtof(shorter, nullptr) == single) {
            std::snprintf(buffer, sizeof buffer, "%s", shorter);
            break;
        }
    }
    std::string text = buffer;
    if (text.find_first_of(".e") == std::string::npos)
        text += ".0";
    return text + "f";
}

std::string cpp_double_literal(double value) {
    // As cpp_float_literal, for the same compilers.
    if (std::isinf(value))
        return value > 0 ? "__builtin_bit_cast(double, 0x7ff0000000000000ull)"
                         : "__builtin_bit_cast(double, 0xfff0000000000000ull)";
    if (std::isnan(value))
        return "__builtin_bit_cast(double, 0x7ff8000000000000ull)";
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    std::string text = buffer;
    if (text.find_first_of(".e") == std::string::npos)
        text += ".0";
    return text;
}

} // namespace brcc
