// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "ast/type.hpp"

#include "ast/ast.hpp"

namespace brcc {

std::string_view scalar_type_name(ScalarType scalar) {
    switch (scalar) {
    case ScalarType::Bool:
        return "bool";
    case ScalarType::Int:
        return "int";
    case ScalarType::UInt:
        return "uint";
    case ScalarType::Char:
        return "char";
    case ScalarType::UChar:
        return "uchar";
    case ScalarType::Float:
        return "float";
    case ScalarType::Fixed:
        return "fixed";
    case ScalarType::ShortFixed:
        return "shortfixed";
    case ScalarType::Short:
        return "short";
    case ScalarType::UShort:
        return "ushort";
    case ScalarType::Double:
        return "double";
    }
    return "?";
}

bool is_integer(ScalarType scalar) {
    return scalar == ScalarType::Int || scalar == ScalarType::UInt || is_small_integer(scalar);
}

bool is_floating_point(ScalarType scalar) {
    return scalar == ScalarType::Float || scalar == ScalarType::Double;
}

bool is_small_integer(ScalarType scalar) {
    return scalar == ScalarType::Char || scalar == ScalarType::UChar ||
           scalar == ScalarType::Short || scalar == ScalarType::UShort;
}

int integer_bits(ScalarType scalar) {
    if (scalar == ScalarType::Char || scalar == ScalarType::UChar)
        return 8;
    if (scalar == ScalarType::Short || scalar == ScalarType::UShort)
        return 16;
    return 32;
}

bool is_integer(const Type& type) {
    return type.is_arithmetic() && is_integer(type.scalar_type());
}

bool is_fixed_point(ScalarType scalar) {
    return scalar == ScalarType::Fixed || scalar == ScalarType::ShortFixed;
}

int fixed_point_steps(ScalarType scalar) {
    return scalar == ScalarType::ShortFixed ? 65535 : 255;
}

std::optional<Type> Type::builtin_named(std::string_view name) {
    // A spelling that is a prefix of another ("short" of "shortfixed") leaves a rest that is no
    // width, so the first match that gives a type is the only one.
    static constexpr std::pair<std::string_view, ScalarType> scalars[] = {
        {"float", ScalarType::Float},  {"int", ScalarType::Int},
        {"uint", ScalarType::UInt},    {"char", ScalarType::Char},
        {"uchar", ScalarType::UChar},  {"fixed", ScalarType::Fixed},
        {"bool", ScalarType::Bool},    {"shortfixed", ScalarType::ShortFixed},
        {"short", ScalarType::Short},  {"ushort", ScalarType::UShort},
        {"double", ScalarType::Double}};
    for (const auto& [spelling, scalar] : scalars) {
        if (!name.starts_with(spelling))
            continue;
        const std::string_view rest = name.substr(spelling.size());
        if (rest.empty())
            return Type::scalar(scalar);
        if (rest.size() == 1 && rest[0] >= '2' && rest[0] <= '4')
            return Type::vector(scalar, rest[0] - '0');
    }
    return std::nullopt;
}

std::string Type::name() const {
    switch (kind_) {
    case Kind::Error:
        return "<error>";
    case Kind::Void:
        return "void";
    case Kind::Struct:
        return struct_->name;
    case Kind::Arithmetic: {
        std::string result(scalar_type_name(scalar_));
        if (width_ > 1)
            result += static_cast<char>('0' + width_);
        return result;
    }
    }
    return "<error>";
}

} // namespace brcc
