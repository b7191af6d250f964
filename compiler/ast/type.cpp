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
    }
    return "?";
}

bool is_integer(ScalarType scalar) {
    return scalar == ScalarType::Int || scalar == ScalarType::UInt || scalar == ScalarType::Char ||
           scalar == ScalarType::UChar;
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
    // No spelling is a prefix of another ("uint" does not start with "int"), so the first
    // match is the only one.
    static constexpr std::pair<std::string_view, ScalarType> scalars[] = {
        {"float", ScalarType::Float}, {"int", ScalarType::Int},
        {"uint", ScalarType::UInt},   {"char", ScalarType::Char},
        {"uchar", ScalarType::UChar}, {"fixed", ScalarType::Fixed},
        {"bool", ScalarType::Bool},   {"shortfixed", ScalarType::ShortFixed}};
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
