// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Kernel bodies in GLSL, shared by the backends whose kernels are GLSL shaders: gl's fragment
// shaders (codegen/gl) and vulkan's compute shaders (codegen/vulkan). The shared C-like printer
// with GLSL's hooks prints `brt_kernel` (the body, outputs as `inout`) and the functions of the
// kernels it calls; the struct types and names they use come from here too.
//
// What the printed code expects the rest of the shader to define, by name (each backend's
// generator writes them for its own way of reaching memory):
//  - the arithmetic prelude (include/brook/detail/glsl_arithmetic.glsl: brt_idiv, brt_fmod,
//    brt_truth, ...), and before it brt_check_division(a, b) and the int brt_frame_count;
//  - for gather parameter P: `T brt_gather_P(ivec4 position)` (.x the slowest dimension) and
//    `T brt_gather_offset_P(int offset)`, and gather_dispatches' functions;
//  - for stream parameter P: its extents `brt_ext_P` and, for indexof, `brt_index` and
//    `brt_frame_ext` (brook/detail/glsl_interface.hpp names them);
//  - for vout parameter P: `void brt_push_P(T value)`.

#include "ast/ast.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

// In a namespace of their own: the C++ printer has functions of the same names.
namespace brcc::glsl_common {

/// A Brook name as a GLSL identifier. GLSL reserves keywords, `gl_` names and any name with
/// `__`; the backend's own names start with `brt_`. Those get the prefix `brt_u_` (with each
/// `__` spelled `_x_`), which no Brook name written as-is can produce.
std::string glsl_identifier(std::string_view name);

/// A value type's GLSL name: bytes are ints (as C promotes them), fixed point is float.
std::string glsl_type_name(const Type& type);

/// A float constant as GLSL spells it, rounded to float as C rounds it (NaN and the infinities
/// as bit patterns).
std::string glsl_float_literal(double value);
/// A double constant as GLSL 4.00 spells it (`0.33333333333333331lf`).
std::string glsl_double_literal(double value);

/// Float, fixed and shortfixed (all GLSL floats), and double.
bool is_floating(const Type& type);

/// The zero of a scalar type, spelled for GLSL.
std::string zero_of(const Type& type);

/// The zero of any value type (structs field by field), as C++'s `T{}` gives the CPU backend.
std::string zero_value(const Type& type);

/// The flag that a kernel's functions set when it discards the element (an `inout` parameter of
/// each that may, a local of `main`).
inline constexpr std::string_view discard_flag_name = "brt_discarded";

/// The parameter by which a called kernel receives which gather of the launched kernel its
/// gather parameter `param` reads (GLSL functions cannot take samplers, so the shader's
/// brt_gather_of_T dispatches on it).
std::string gather_id_name(const ParamDecl& param);

/// The parameter by which a called kernel receives the position of the caller's stream bound to
/// its stream parameter `param`.
std::string position_parameter_name(const ParamDecl& param);

/// The function reading element `position` from the launched kernel's gather `id` of type `type`.
std::string gather_dispatch_name(const Type& type);

/// The function reading the element at row-major offset `offset` (a one-component index,
/// COMPAT.md §1.9) from the launched kernel's gather `id` of type `type`.
std::string gather_offset_dispatch_name(const Type& type);

/// A leaf of an element type: an arithmetic field, by its path from the element.
struct Leaf {
    std::string path; ///< `.o`, `.inner.d`, or "" for an arithmetic element
    Type type;
};

/// The leaves of `type` in field order (one, with an empty path, for an arithmetic type).
std::vector<Leaf> leaves_of(const Type& type);

/// A value of `type` built from the leaf values `names[next...]` (struct constructors nest).
std::string assemble(const Type& type, const std::vector<std::string>& names, std::size_t& next);

/// Kernels the kernel calls, callees before callers (GLSL wants a function defined before use).
void collect_helpers(const KernelDecl& kernel, std::vector<const KernelDecl*>& order);

/// The struct types `kernel` and the kernels it calls (`helpers`, from collect_helpers) use, each
/// after the struct types of its fields.
std::vector<const StructDecl*> struct_types(const KernelDecl& kernel,
                                            const std::vector<const KernelDecl*>& helpers);

/// `struct NAME { T field; ... };` with the fields' value types.
std::string struct_definition(const StructDecl& decl);

/// The flag parameter of a function of a kernel that may discard.
std::string discard_parameter();

/// A kernel parameter as a GLSL function's: written ones `inout`.
std::string function_parameter(const ParamDecl& param);

/// The function through which kernels call `kernel` (COMPAT 1.2): `out` parameters are `inout`
/// (copied in, stored back when it returns), gathers the ids brt_gather_of_T dispatches on, and
/// the positions of the streams whose indexof it uses come last.
std::string callable_definition(const KernelDecl& kernel);

/// For each element type of the launched kernel's gathers, when a called kernel takes a
/// gather: `T brt_gather_of_T(int id, ivec4 position)` and `T brt_gather_offset_of_T(int id,
/// int offset)`, reading the gather whose parameter index is `id`.
std::string gather_dispatches(const KernelDecl& kernel,
                              const std::vector<const KernelDecl*>& callees);

/// `brt_kernel`: the body, with the kernel's parameters except gathers (read through their
/// fetch functions).
std::string body_function(const KernelDecl& kernel);

} // namespace brcc::glsl_common
