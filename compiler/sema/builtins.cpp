// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "sema/builtins.hpp"

#include <iterator>

namespace brcc {

namespace {

constexpr std::string_view names[] = {
#define BUILTIN(name) #name,
#include "ast/builtins.def"
#undef BUILTIN
};

constexpr std::size_t builtin_count = std::size(names);

} // namespace

std::optional<BuiltinId> find_builtin(std::string_view name) {
    for (std::size_t i = 0; i < builtin_count; ++i)
        if (names[i] == name)
            return static_cast<BuiltinId>(i);
    return std::nullopt;
}

std::string_view builtin_name(BuiltinId id) {
    return names[static_cast<std::size_t>(id)];
}

int required_width(BuiltinArgs args) {
    switch (args) {
    case BuiltinArgs::Float3:
        return 3;
    case BuiltinArgs::Float4:
        return 4;
    case BuiltinArgs::FloatOne:
        return 1;
    case BuiltinArgs::Float:
    case BuiltinArgs::Numeric:
    case BuiltinArgs::Logical:
        break;
    }
    return 0;
}

BuiltinSignature builtin_signature(BuiltinId id) {
    using A = BuiltinArgs;
    using R = BuiltinResult;
    switch (id) {
    case BuiltinId::abs:
    case BuiltinId::sign:
        return {1, A::Numeric, R::Same};
    case BuiltinId::min:
    case BuiltinId::max:
        return {2, A::Numeric, R::Same};
    case BuiltinId::clamp:
        return {3, A::Numeric, R::Same};
    case BuiltinId::all:
    case BuiltinId::any:
        return {1, A::Logical, R::Bool};
    case BuiltinId::isfinite:
    case BuiltinId::isinf:
    case BuiltinId::isnan:
        return {1, A::Float, R::BoolWidth};
    case BuiltinId::length:
        return {1, A::Float, R::Scalar};
    case BuiltinId::dot:
    case BuiltinId::distance:
        return {2, A::Float, R::Scalar};
    case BuiltinId::cross:
        return {2, A::Float3, R::Same};
    // Cg's: pack_4ubyte(float4) is a float holding four bytes, unpack_4ubyte reads them back.
    case BuiltinId::pack_4ubyte:
        return {1, A::Float4, R::Scalar};
    case BuiltinId::unpack_4ubyte:
        return {1, A::FloatOne, R::Float4};
    case BuiltinId::atan2:
    case BuiltinId::fmod:
    case BuiltinId::ldexp:
    case BuiltinId::pow:
    case BuiltinId::reflect:
    case BuiltinId::step:
        return {2, A::Float, R::Same};
    case BuiltinId::lerp:
    case BuiltinId::smoothstep:
        return {3, A::Float, R::Same};
    case BuiltinId::acos:
    case BuiltinId::asin:
    case BuiltinId::atan:
    case BuiltinId::ceil:
    case BuiltinId::cos:
    case BuiltinId::cosh:
    case BuiltinId::degrees:
    case BuiltinId::exp:
    case BuiltinId::exp2:
    case BuiltinId::floor:
    case BuiltinId::frac:
    case BuiltinId::log:
    case BuiltinId::log10:
    case BuiltinId::log2:
    case BuiltinId::normalize:
    case BuiltinId::radians:
    case BuiltinId::round:
    case BuiltinId::rsqrt:
    case BuiltinId::saturate:
    case BuiltinId::sin:
    case BuiltinId::sinh:
    case BuiltinId::sqrt:
    case BuiltinId::tan:
    case BuiltinId::tanh:
        return {1, A::Float, R::Same};
    }
    return {1, A::Float, R::Same};
}

} // namespace brcc
