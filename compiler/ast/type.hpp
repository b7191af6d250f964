// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The types of Brook kernel code: void, arithmetic scalars and 2-4 vectors (Cg's float4, int2,
// bool3, ...) and typedef'd structs. A Type is a small value; structs point at their declaration.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace brcc {

struct StructDecl;

/// Short, UShort and Double come last so that the older kinds keep their values.
enum class ScalarType : std::uint8_t {
    Bool,
    Int,
    UInt,
    Char,
    UChar,
    Float,
    Fixed,
    ShortFixed,
    Short,
    UShort,
    Double
};

class Type {
public:
    enum class Kind : std::uint8_t { Error, Void, Arithmetic, Struct };

    Type() = default; // the error type: used after a diagnostic so checks do not cascade
    static Type error() { return {}; }
    static Type void_type() { return Type(Kind::Void, ScalarType::Float, 1, nullptr); }
    static Type scalar(ScalarType scalar) { return Type(Kind::Arithmetic, scalar, 1, nullptr); }
    static Type vector(ScalarType scalar, int width) {
        return Type(Kind::Arithmetic, scalar, static_cast<std::uint8_t>(width), nullptr);
    }
    static Type structure(const StructDecl* decl) {
        return Type(Kind::Struct, ScalarType::Float, 1, decl);
    }
    /// `float`, `float2`..`float4`, `int`..`int4`, `bool`..`bool4` (and the integer and byte
    /// types of issue 3); nullopt for any other name.
    static std::optional<Type> builtin_named(std::string_view name);

    Kind kind() const { return kind_; }
    bool is_error() const { return kind_ == Kind::Error; }
    bool is_void() const { return kind_ == Kind::Void; }
    bool is_arithmetic() const { return kind_ == Kind::Arithmetic; }
    bool is_struct() const { return kind_ == Kind::Struct; }
    bool is_scalar() const { return is_arithmetic() && width_ == 1; }
    bool is_vector() const { return is_arithmetic() && width_ > 1; }

    /// Scalar type of an arithmetic type (its components' type for vectors).
    ScalarType scalar_type() const { return scalar_; }
    /// Number of components: 1 for scalars, 2-4 for vectors.
    int width() const { return width_; }
    const StructDecl* struct_decl() const { return struct_; }
    /// Same scalar type, other width.
    Type with_width(int width) const { return vector(scalar_, width); }

    /// Spelling in Brook source: "float4", "int", or the struct's typedef name.
    std::string name() const;

    friend bool operator==(const Type&, const Type&) = default;

private:
    Type(Kind kind, ScalarType scalar, std::uint8_t width, const StructDecl* decl)
        : kind_(kind), scalar_(scalar), width_(width), struct_(decl) {}

    Kind kind_ = Kind::Error;
    ScalarType scalar_ = ScalarType::Float;
    std::uint8_t width_ = 1;
    const StructDecl* struct_ = nullptr;
};

std::string_view scalar_type_name(ScalarType scalar);

/// Whether `scalar` is one of the integer types: int, uint, char, uchar, short and ushort.
bool is_integer(ScalarType scalar);
/// Whether `type` is a scalar or vector of an integer type.
bool is_integer(const Type& type);

/// `fixed` and `shortfixed`: raw unsigned integers that kernels compute with as floats in [0, 1].
bool is_fixed_point(ScalarType scalar);
/// float and double, the IEEE types (not fixed point, which is stored as integers).
bool is_floating_point(ScalarType scalar);
/// char, uchar, short and ushort: stored narrower than int, computed in int, wrapped when stored.
bool is_small_integer(ScalarType scalar);
/// The bits of a small integer type (8 or 16); 32 for the others.
int integer_bits(ScalarType scalar);
/// The raw value of a fixed-point type that reads as 1: 255 (fixed) or 65535 (shortfixed).
int fixed_point_steps(ScalarType scalar);

} // namespace brcc
