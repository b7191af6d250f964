// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Translates a kernel to a GLSL compute shader for the vulkan backend. The shader holds, in
// order: `#version` and the extensions its element types need; the frame ABI
// (runtime/backends/vulkan/device/frame.glsl); the per-invocation state and the division checks
// (compute_prelude.glsl); the arithmetic prelude every GLSL backend shares; the struct types; per
// stream parameter the functions that load and store its elements; the body and the kernels it
// calls, printed by the GLSL printer shared with the gl backend (codegen/glsl_printer.hpp); and
// `main`, which runs the entry that specialization constant 1 selects. A reduction has a second
// shader, the same but for its workgroups' fold, which folds within subgroups first
// (fold_function); the backend runs it on devices with the subgroup operations it uses.
//
// Memory is reached through buffer device addresses. An element is loaded and stored leaf by
// leaf (each arithmetic field) at the byte offsets the host's C++ layout gives it, so streams
// cross between host and device with a plain copy, whatever padding a struct has. In memory a
// `fixed` is a byte and a `shortfixed` 16 bits, as on the host; in the body both are floats.
//
// A kernel with 8- or 16-bit fields has two forms of each shader: first one that reaches those
// fields in the 32-bit words that hold them (a load shifts; a store changes its bits with
// atomicAnd and atomicOr, since the word's other bytes may be another element's, or with a plain
// read-modify-write where the element's size is a multiple of 4 and its words are its own), which
// runs on any device, then one with 8- and 16-bit storage, which the backend prefers where the
// device has it. The element flags of write masks are bytes reached in words in every shader.

#include "codegen/vulkan/compute_shader_emitter.hpp"

#include "ast/operators.hpp"
#include "brook/detail/glsl_interface.hpp"
#include "codegen/double_use.hpp"
#include "codegen/glsl_printer.hpp"
#include "codegen/param_access.hpp"
#include "sema/reduce_commutes.hpp"
#include "support/diagnostics.hpp"

#include <algorithm>
#include <set>
#include <string_view>
#include <utility>

namespace brcc {

// The shader sources brcc embeds (vulkan_shader_sources.cpp, made by CMake).
extern const char* const vulkan_frame_glsl;
extern const char* const vulkan_compute_prelude_glsl;
extern const char* const glsl_arithmetic_glsl;
extern const char* const glsl_double_glsl;

namespace {

using namespace glsl_common;
namespace glsl = brook::detail::glsl;

// ---------------------------------------------------------------------------------------------
// Elements in memory: the host's layout

std::size_t component_size(ScalarType scalar) {
    switch (scalar) {
    case ScalarType::Float:
    case ScalarType::Int:
    case ScalarType::UInt:
        return 4;
    case ScalarType::ShortFixed:
    case ScalarType::Short:
    case ScalarType::UShort:
        return 2;
    case ScalarType::Double:
        return 8;
    case ScalarType::Bool:
    case ScalarType::Char:
    case ScalarType::UChar:
    case ScalarType::Fixed:
        return 1;
    }
    return 4;
}

/// A value type's size and alignment in the host's C++ layout (brook/vector.hpp: vectors of N
/// components aligned as one component; structs as C lays them out).
struct HostLayout {
    std::size_t size = 0;
    std::size_t alignment = 1;
};

std::size_t round_up(std::size_t value, std::size_t alignment) {
    return (value + alignment - 1) / alignment * alignment;
}

HostLayout host_layout(const Type& type) {
    if (!type.is_struct()) {
        const std::size_t component = component_size(type.scalar_type());
        return {component * static_cast<std::size_t>(type.width()), component};
    }
    HostLayout layout;
    for (const FieldDecl& field : type.struct_decl()->fields) {
        const HostLayout member = host_layout(field.type);
        layout.size = round_up(layout.size, member.alignment) + member.size;
        layout.alignment = std::max(layout.alignment, member.alignment);
    }
    layout.size = round_up(layout.size, layout.alignment);
    return layout;
}

/// An arithmetic field of an element, at its byte offset in the element.
struct StoredLeaf {
    std::string path; ///< `.o`, `.inner.d`, or "" for an arithmetic element
    Type type;
    std::size_t offset = 0;
};

void collect_stored_leaves(const Type& type, const std::string& path, std::size_t offset,
                           std::vector<StoredLeaf>& leaves) {
    if (!type.is_struct()) {
        leaves.push_back({path, type, offset});
        return;
    }
    for (const FieldDecl& field : type.struct_decl()->fields) {
        const HostLayout member = host_layout(field.type);
        offset = round_up(offset, member.alignment);
        collect_stored_leaves(field.type, path + "." + glsl_identifier(field.name), offset, leaves);
        offset += member.size;
    }
}

std::vector<StoredLeaf> stored_leaves(const Type& type) {
    std::vector<StoredLeaf> leaves;
    collect_stored_leaves(type, "", 0, leaves);
    return leaves;
}

/// The GLSL type a leaf has in memory.
std::string storage_type(const Type& leaf) {
    std::string_view scalar;
    std::string_view vector;
    switch (leaf.scalar_type()) {
    case ScalarType::Float:
        scalar = "float";
        vector = "vec";
        break;
    case ScalarType::Int:
        scalar = "int";
        vector = "ivec";
        break;
    case ScalarType::UInt:
        scalar = "uint";
        vector = "uvec";
        break;
    case ScalarType::Char:
        scalar = "int8_t";
        vector = "i8vec";
        break;
    case ScalarType::Bool:
    case ScalarType::UChar:
    case ScalarType::Fixed:
        scalar = "uint8_t";
        vector = "u8vec";
        break;
    case ScalarType::ShortFixed:
    case ScalarType::UShort:
        scalar = "uint16_t";
        vector = "u16vec";
        break;
    case ScalarType::Short:
        scalar = "int16_t";
        vector = "i16vec";
        break;
    case ScalarType::Double:
        scalar = "double";
        vector = "dvec";
        break;
    }
    if (leaf.width() == 1)
        return std::string(scalar);
    return std::string(vector) + std::to_string(leaf.width());
}

/// Whether a leaf's value type is not its storage type (the value is converted on each load and
/// store).
bool converted_in_memory(const Type& leaf) {
    const ScalarType scalar = leaf.scalar_type();
    return scalar != ScalarType::Float && scalar != ScalarType::Int && scalar != ScalarType::UInt &&
           scalar != ScalarType::Double;
}

/// `stored`, a leaf as memory holds it, as the body's value.
std::string value_of_stored(const Type& leaf, const std::string& stored) {
    switch (leaf.scalar_type()) {
    case ScalarType::Fixed:
    case ScalarType::ShortFixed:
        return "(" + glsl_type_name(leaf) + "(" + stored + ") / " +
               std::to_string(fixed_point_steps(leaf.scalar_type())) + ".0)";
    case ScalarType::Bool:
        return glsl_type_name(leaf) + "(" + stored + " != 0)";
    case ScalarType::Char:
    case ScalarType::UChar:
    case ScalarType::Short:
    case ScalarType::UShort:
        return glsl_type_name(leaf) + "(" + stored + ")";
    case ScalarType::Float:
    case ScalarType::Int:
    case ScalarType::UInt:
    case ScalarType::Double:
        break;
    }
    return stored;
}

/// `value`, a leaf's value, as memory holds it: bytes and shorts keep their low 8 or 16 bits,
/// fixed point saturates and rounds as the host's fixed::encode does.
std::string stored_of_value(const Type& leaf, const std::string& value) {
    const std::string type = storage_type(leaf);
    switch (leaf.scalar_type()) {
    case ScalarType::Fixed:
    case ScalarType::ShortFixed:
        return type + "(brt_encode_fixed(" + value + ", " +
               std::to_string(fixed_point_steps(leaf.scalar_type())) + ".0))";
    case ScalarType::Bool:
    case ScalarType::Char:
    case ScalarType::UChar:
    case ScalarType::Short:
    case ScalarType::UShort:
        return type + "(" + value + ")";
    case ScalarType::Float:
    case ScalarType::Int:
    case ScalarType::UInt:
    case ScalarType::Double:
        break;
    }
    return value;
}

/// The alignment the shader may assume for a leaf at `offset` of elements of `element` bytes:
/// the backend's buffers start 256-byte aligned and a stream (a view, a row block) starts a
/// whole number of elements in, so an element whose size is a power of two up to 16 is aligned
/// to it; otherwise only to its components.
std::size_t leaf_alignment(const Type& leaf, std::size_t offset, const HostLayout& element) {
    std::size_t alignment = component_size(leaf.scalar_type());
    const std::size_t size = element.size;
    if ((size & (size - 1)) == 0 && size <= 16) {
        alignment = size;
        while (alignment > 1 && offset % alignment != 0)
            alignment /= 2;
    }
    return std::max(alignment, component_size(leaf.scalar_type()));
}

/// The buffer reference type through which a leaf of storage type `type` is reached at an
/// address aligned to `alignment`.
std::string reference_name(const std::string& type, std::size_t alignment) {
    return "BrtRef_" + type + "_" + std::to_string(alignment);
}

/// The declarations the shader's leaf accesses need, each once.
class References {
public:
    std::string use(const std::string& type, std::size_t alignment) {
        const std::string name = reference_name(type, alignment);
        if (declared_.insert(name).second)
            text_ += "layout(buffer_reference, scalar, buffer_reference_align = " +
                     std::to_string(alignment) + ") buffer " + name + " {\n    " + type +
                     " v;\n};\n";
        return name;
    }
    const std::string& text() const { return text_; }

private:
    std::set<std::string> declared_;
    std::string text_;
};

/// How a shader reaches the 8- and 16-bit fields of elements.
enum class NarrowFields {
    in_words, ///< in the 32-bit words that hold them: for every device
    native    ///< with 8- and 16-bit storage, where the device has it
};

/// Whether a leaf's components are 8 or 16 bits in memory.
bool is_narrow(const Type& leaf) {
    return component_size(leaf.scalar_type()) < 4;
}

/// A narrow leaf at `address` loaded from its words, as the 32-bit value of its storage type
/// (`uvecN`, or `ivecN` for signed types, which brt_load_narrow_signed extends).
std::string load_narrow_leaf(const Type& leaf, const std::string& address) {
    const std::size_t size = component_size(leaf.scalar_type());
    const bool is_signed =
        leaf.scalar_type() == ScalarType::Char || leaf.scalar_type() == ScalarType::Short;
    const std::string function = is_signed ? "brt_load_narrow_signed(" : "brt_load_narrow(";
    std::string components;
    for (int k = 0; k < leaf.width(); ++k)
        components += std::string(k == 0 ? "" : ", ") + function + address + " + " +
                      std::to_string(static_cast<std::size_t>(k) * size) + "ul, " +
                      std::to_string(size * 8) + "u)";
    if (leaf.width() == 1)
        return components;
    return std::string(is_signed ? "ivec" : "uvec") + std::to_string(leaf.width()) + "(" +
           components + ")";
}

/// `value`, of a narrow scalar or vector of `width` components, as its words hold it and
/// load_narrow_leaf reads it back: the bits a store in its storage type keeps (stored_of_value),
/// zero- or sign-extended to 32 bits.
std::string narrow_bits_of_value(ScalarType scalar, int width, const std::string& value) {
    const std::string suffix = width == 1 ? "" : "vec" + std::to_string(width);
    const std::string unsigned_type = width == 1 ? "uint" : "u" + suffix;
    const std::string signed_type = width == 1 ? "int" : "i" + suffix;
    switch (scalar) {
    case ScalarType::Fixed:
    case ScalarType::ShortFixed:
        return unsigned_type + "(brt_encode_fixed(" + value + ", " +
               std::to_string(fixed_point_steps(scalar)) + ".0))";
    case ScalarType::Bool:
        return unsigned_type + "(" + value + ")";
    case ScalarType::Char:
    case ScalarType::Short:
        return "bitfieldExtract(" + signed_type + "(" + value + "), 0, " +
               std::to_string(component_size(scalar) * 8) + ")";
    case ScalarType::UChar:
    case ScalarType::UShort:
        return "bitfieldExtract(" + unsigned_type + "(" + value + "), 0, " +
               std::to_string(component_size(scalar) * 8) + ")";
    case ScalarType::Float:
    case ScalarType::Int:
    case ScalarType::UInt:
    case ScalarType::Double:
        break;
    }
    internal_error(__FILE__, __LINE__, "a leaf of 32 or 64 bits stored as a narrow one");
}

/// Statements storing the narrow leaf `value` at `address` into its words, a component at a time;
/// `owned`: the element's words are its own (narrow_access_functions).
std::string store_narrow_leaf(const Type& leaf, const std::string& address,
                              const std::string& value, bool owned) {
    const std::size_t size = component_size(leaf.scalar_type());
    std::string text;
    for (int k = 0; k < leaf.width(); ++k) {
        const std::string component =
            leaf.width() == 1 ? value : value + "[" + std::to_string(k) + "]";
        text += std::string(owned ? "    brt_store_narrow_owned(" : "    brt_store_narrow(") +
                address + " + " + std::to_string(static_cast<std::size_t>(k) * size) + "ul, " +
                std::to_string(size * 8) + "u, uint(" +
                narrow_bits_of_value(leaf.scalar_type(), 1, component) + "));\n";
    }
    return text;
}

/// `T brt_load_at_P(uint64_t address)` and `void brt_store_at_P(uint64_t address, T value)`:
/// an element of parameter `param`'s type, leaf by leaf.
std::string element_access_functions(const ParamDecl& param, References& references,
                                     NarrowFields narrow) {
    const std::string index = std::to_string(param.index);
    const std::string type = glsl_type_name(param.type);
    const HostLayout layout = host_layout(param.type);
    const std::vector<StoredLeaf> leaves = stored_leaves(param.type);
    std::string load = type + " brt_load_at_" + index + "(uint64_t address) {\n";
    std::string store = "void brt_store_at_" + index + "(uint64_t address, " + type + " value) {\n";
    if (param.type.is_struct())
        load += "    " + type + " value;\n";
    for (const StoredLeaf& leaf : leaves) {
        const std::string address = "address + " + std::to_string(leaf.offset) + "ul";
        std::string loaded;
        if (narrow == NarrowFields::in_words && is_narrow(leaf.type)) {
            loaded = value_of_stored(leaf.type, load_narrow_leaf(leaf.type, address));
            store +=
                store_narrow_leaf(leaf.type, address, "value" + leaf.path, layout.size % 4 == 0);
        } else {
            const std::string reference = references.use(
                storage_type(leaf.type), leaf_alignment(leaf.type, leaf.offset, layout));
            const std::string at = reference + "(" + address + ").v";
            loaded = value_of_stored(leaf.type, at);
            store += "    " + at + " = " + stored_of_value(leaf.type, "value" + leaf.path) + ";\n";
        }
        if (param.type.is_struct())
            load += "    value" + leaf.path + " = " + loaded + ";\n";
        else
            load += "    return " + loaded + ";\n";
    }
    if (param.type.is_struct())
        load += "    return value;\n";
    return load + "}\n" + store + "}\n";
}

/// Whether any leaf of the kernel's parameters is stored in 8 or 16 bits.
bool uses_small_storage(const KernelDecl& kernel, int bits) {
    for (const ParamDecl* param : kernel.params) {
        for (const StoredLeaf& leaf : stored_leaves(param->type)) {
            const std::size_t size = component_size(leaf.type.scalar_type());
            if (size * 8 == static_cast<std::size_t>(bits))
                return true;
        }
    }
    return false;
}

// ---------------------------------------------------------------------------------------------
// Parameters

bool is_stream(ParamKind kind) {
    return kind == ParamKind::InputStream || kind == ParamKind::ReduceInput ||
           kind == ParamKind::OutputStream || kind == ParamKind::Gather ||
           kind == ParamKind::VariableOutput || kind == ParamKind::ScatterOutput;
}

std::string data_name(const ParamDecl& param) {
    return "brt_data_" + std::to_string(param.index);
}
std::string strides_name(const ParamDecl& param) {
    return "brt_str_" + std::to_string(param.index);
}
std::string constant_name(const ParamDecl& param) {
    return glsl::constant(static_cast<std::size_t>(param.index));
}
std::string local_name(const ParamDecl& param) {
    return "brt_arg_" + std::to_string(param.index);
}

/// The globals `main` fills from the Frame for a stream parameter: its data's address, strides
/// and extents (brt_ext_P, the name the printer reads for indexof), and its element functions.
std::string stream_declarations(const ParamDecl& param, References& references,
                                NarrowFields narrow) {
    const std::string index = std::to_string(param.index);
    const std::string type = glsl_type_name(param.type);
    const std::string size = std::to_string(host_layout(param.type).size);
    const std::string extents = glsl::stream_extents(static_cast<std::size_t>(param.index));
    std::string text = "uint64_t " + data_name(param) + ";\ni64vec4 " + strides_name(param) +
                       ";\nivec4 " + extents + ";\n";
    text += element_access_functions(param, references, narrow);
    // Element `element` of the stream: an offset in elements from its data.
    text += type + " brt_load_" + index + "(int64_t element) {\n    return brt_load_at_" + index +
            "(" + data_name(param) + " + uint64_t(element) * " + size + "ul);\n}\n";
    text += "void brt_store_" + index + "(int64_t element, " + type +
            " value) {\n    brt_store_at_" + index + "(" + data_name(param) +
            " + uint64_t(element) * " + size + "ul, value);\n}\n";
    if (param.param_kind == ParamKind::Gather) {
        text += type + " brt_gather_" + index + "(ivec4 position) {\n    return brt_load_" + index +
                "(brt_offset(brt_gather_clamp(position, " + extents + "), " + strides_name(param) +
                "));\n}\n";
        // One index component: a row-major element offset (COMPAT.md §1.9), clamped to the
        // stream's elements.
        text += type + " brt_gather_offset_" + index + "(int offset) {\n    return brt_load_" +
                index + "(brt_offset(brt_position_of(brt_clamp_offset(offset, " + extents + "), " +
                extents + "), " + strides_name(param) + "));\n}\n";
    }
    if (param.param_kind == ParamKind::ScatterOutput) {
        // `o[p] = v` stores at the position p (.x the last dimension) or the row-major offset,
        // and drops a write outside the stream (BROOKPLUS.md §4.7).
        text += "void brt_scatter_" + index + "(ivec4 position, " + type +
                " value) {\n    if (brt_scatter_inside(position, " + extents +
                ")) {\n        brt_store_" + index + "(brt_offset(position.wzyx, " +
                strides_name(param) + "), value);\n    }\n}\n";
        text += "void brt_scatter_offset_" + index + "(int offset, " + type +
                " value) {\n    if (brt_offset_inside(offset, " + extents +
                ")) {\n        brt_store_" + index +
                "(brt_offset(brt_position_of(uint64_t(offset), " + extents + "), " +
                strides_name(param) + "), value);\n    }\n}\n";
    }
    return text;
}

/// `push(r)` on vout parameter P: the element's pushes counted (count entry) or stored from its
/// first slot on (write entry); those past `vout [N]`'s N are dropped in both.
std::string variable_output_declarations(const ParamDecl& param) {
    const std::string index = std::to_string(param.index);
    const std::string type = glsl_type_name(param.type);
    std::string text = "uint brt_pushes_" + index + ";\nuint64_t brt_first_slot_" + index + ";\n";
    text += "void brt_push_" + index + "(" + type + " value) {\n";
    if (param.push_limit != 0)
        text += "    if (brt_pushes_" + index + " == " + std::to_string(param.push_limit) +
                "u) {\n        return;\n    }\n";
    text += "    if (brt_mode == brt_mode_write) {\n        brt_store_" + index +
            "(int64_t(brt_first_slot_" + index + " + brt_pushes_" + index + "), value);\n    }\n";
    text += "    ++brt_pushes_" + index + ";\n}\n";
    return text;
}

/// `main`'s first statements: each parameter's Frame fields into the globals, each constant's
/// value loaded once.
std::string fetch_arguments(const KernelDecl& kernel) {
    std::string text = "    brt_frame_ext = brt_frame.output_extents;\n"
                       "    brt_frame_count = int(min(brt_frame.element_count, 0x7FFFFFFFul));\n";
    for (const ParamDecl* param : kernel.params) {
        const std::string arg = "brt_frame.args[" + std::to_string(param->index) + "]";
        if (param->param_kind == ParamKind::Constant) {
            text += "    " + constant_name(*param) + " = brt_load_at_" +
                    std::to_string(param->index) + "(" + arg + ".data);\n";
        } else if (is_stream(param->param_kind)) {
            text += "    " + data_name(*param) + " = " + arg + ".data;\n    " +
                    strides_name(*param) + " = " + arg + ".strides;\n    " +
                    glsl::stream_extents(static_cast<std::size_t>(param->index)) + " = " + arg +
                    ".extents;\n";
        }
    }
    return text;
}

// ---------------------------------------------------------------------------------------------
// Stream kernels

/// The call of brt_kernel with each parameter's local or constant (gathers are read, and scatter
/// outputs written, through their functions).
std::string kernel_call(const KernelDecl& kernel) {
    std::string args;
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind == ParamKind::Gather || param->param_kind == ParamKind::ScatterOutput)
            continue;
        args +=
            (args.empty() ? "" : ", ") +
            (param->param_kind == ParamKind::Constant ? constant_name(*param) : local_name(*param));
    }
    if (kernel.discards)
        args += std::string(args.empty() ? "" : ", ") + std::string(discard_flag_name);
    return "brt_kernel(" + args + ");\n";
}

/// How an entry finds a stream's element for output element `brt_element`.
enum class Addressing {
    dense,  ///< at the same offset: every stream has the domain's shape and is contiguous
    general ///< by position: inputs resized, any strides
};

std::string element_offset(const ParamDecl& param, Addressing addressing) {
    if (addressing == Addressing::dense)
        return "int64_t(brt_element)";
    const std::string extents = glsl::stream_extents(static_cast<std::size_t>(param.index));
    const std::string position = param.param_kind == ParamKind::InputStream
                                     ? "brt_resize(brt_index, " + extents + ", brt_frame_ext)"
                                     : "brt_index";
    return "brt_offset(" + position + ", " + strides_name(param) + ")";
}

/// One output element of a stream kernel: brt_element is set; loads the inputs and the outputs
/// the body reads, runs the body and stores what it writes. `counting`: the count entry, which
/// stores no output and adds the element's pushes to each vout's counter.
std::string element_function(const KernelDecl& kernel, const std::string& name,
                             Addressing addressing, bool counting, bool tracks_elements) {
    const std::vector<ParamAccess> access = param_access(kernel);
    std::string text = "void " + name + "() {\n";
    if (addressing == Addressing::general || kernel.uses_indexof)
        text += "    brt_index = brt_position_of(brt_element, brt_frame_ext);\n";
    if (tracks_elements) {
        // A write mask or query: an element whose flag is set is skipped (its outputs keep their
        // values) and its flag becomes 0; every other one ends with 1 unless it discards.
        text += "    const uint64_t brt_flag = brt_frame.element_flags + brt_element;\n";
        text += "    if (brt_frame.element_flags != 0ul && brt_load_narrow(brt_flag, 8u) != 0u) {\n"
                "        brt_store_narrow(brt_flag, 8u, 0u);\n        return;\n    }\n";
    }
    std::string stores;
    for (const ParamDecl* param : kernel.params) {
        const ParamAccess& used = access[static_cast<std::size_t>(param->index)];
        const std::string index = std::to_string(param->index);
        const std::string declaration =
            "    " + glsl_type_name(param->type) + " " + local_name(*param) + " = ";
        switch (param->param_kind) {
        case ParamKind::InputStream:
            text += declaration + "brt_load_" + index + "(" + element_offset(*param, addressing) +
                    ");\n";
            break;
        case ParamKind::OutputStream:
            if (used.read && !counting)
                text += declaration + "brt_load_" + index + "(" +
                        element_offset(*param, addressing) + ");\n";
            else
                text += declaration + zero_value(param->type) + ";\n";
            if (used.written && !counting)
                stores += "        brt_store_" + index + "(" + element_offset(*param, addressing) +
                          ", " + local_name(*param) + ");\n";
            break;
        case ParamKind::VariableOutput:
            text += declaration + zero_value(param->type) + ";\n";
            text += "    brt_pushes_" + index + " = 0u;\n";
            if (!counting)
                text += "    brt_first_slot_" + index + " = BrtRef_uint64_t_8(brt_frame.args[" +
                        index + "].push_offsets + brt_element * 8ul).v;\n";
            break;
        case ParamKind::Constant:
        case ParamKind::Gather:
        case ParamKind::ScatterOutput: // written through brt_scatter_P
            break;
        case ParamKind::ReduceInput:
        case ParamKind::ReduceAccumulator:
            internal_error(__FILE__, __LINE__, "reduce parameter in a stream kernel");
        }
    }
    if (kernel.discards)
        text += "    bool " + std::string(discard_flag_name) + " = false;\n";
    text += "    " + kernel_call(kernel);
    if (counting) {
        for (const ParamDecl* param : kernel.params) {
            if (param->param_kind != ParamKind::VariableOutput)
                continue;
            const std::string index = std::to_string(param->index);
            text += "    BrtRef_uint64_t_8(brt_frame.args[" + index +
                    "].push_counts + brt_element * 8ul).v += uint64_t(brt_pushes_" + index + ");\n";
        }
    }
    // A discarded element stores nothing: its outputs keep their values.
    const std::string kept = kernel.discards ? "!" + std::string(discard_flag_name) : "true";
    if (!stores.empty())
        text += "    if (" + kept + ") {\n" + stores + "    }\n";
    if (tracks_elements)
        text +=
            "    if (brt_frame.element_flags != 0ul) {\n        brt_store_narrow(brt_flag, 8u, " +
            kept + " ? 1u : 0u);\n    }\n";
    return text + "}\n";
}

/// The grid-stride loop over [run_begin, run_end) calling `element` for each.
std::string element_loop(const std::string& element) {
    return "        const uint64_t brt_step = uint64_t(gl_NumWorkGroups.x) * "
           "gl_WorkGroupSize.x;\n"
           "        for (brt_element = brt_frame.run_begin + gl_GlobalInvocationID.x; "
           "brt_element < brt_frame.run_end; brt_element += brt_step) {\n            " +
           element + "();\n        }\n";
}

std::string stream_kernel_main(const KernelDecl& kernel) {
    std::string text;
    std::string entries;
    if (has_variable_output(kernel)) {
        text += element_function(kernel, "brt_count_element", Addressing::general, true, false);
        text += element_function(kernel, "brt_write_element", Addressing::general, false, false);
        entries += "    if (brt_mode == brt_mode_count) {\n" + element_loop("brt_count_element") +
                   "    } else if (brt_mode == brt_mode_write) {\n" +
                   element_loop("brt_write_element") + "    }\n";
    } else {
        text += element_function(kernel, "brt_dense_element", Addressing::dense, false, false);
        text += element_function(kernel, "brt_general_element", Addressing::general, false, true);
        entries += "    if (brt_mode == brt_mode_dense) {\n" + element_loop("brt_dense_element") +
                   "    } else if (brt_mode == brt_mode_general) {\n" +
                   element_loop("brt_general_element") + "    }\n";
    }
    return text + "void main() {\n" + fetch_arguments(kernel) + entries + "}\n";
}

// ---------------------------------------------------------------------------------------------
// Reductions

/// `T brt_op(T left, T right)`: the accumulated `left` folded with the next `right` by the body,
/// stored back as memory holds it after each step, as the CPU's accumulator is.
std::string reduce_operator(const KernelDecl& kernel, const ParamDecl& input) {
    const std::string type = glsl_type_name(input.type);
    std::string args;
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind == ParamKind::Gather)
            continue;
        args += args.empty() ? "" : ", ";
        if (param->param_kind == ParamKind::ReduceInput)
            args += "right";
        else if (param->param_kind == ParamKind::ReduceAccumulator)
            args += "left";
        else
            args += constant_name(*param);
    }
    const std::vector<StoredLeaf> leaves = stored_leaves(input.type);
    const bool converted = std::any_of(leaves.begin(), leaves.end(), [](const StoredLeaf& leaf) {
        return converted_in_memory(leaf.type);
    });
    const std::string index = std::to_string(input.index);
    std::string text = type + " brt_op(" + type + " left, " + type + " right) {\n";
    if (kernel.discards)
        text += "    bool " + std::string(discard_flag_name) + " = false;\n";
    text += "    brt_kernel(" + args +
            (kernel.discards ? ", " + std::string(discard_flag_name) : std::string()) + ");\n";
    if (converted) {
        // Through the partials' scratch word: the store rounds as memory holds the value.
        text += "    return brt_stored_round_" + index + "(left);\n";
    } else {
        text += "    return left;\n";
    }
    return text + "}\n";
}

/// For a reduce input whose leaves memory converts: its value stored and loaded again, leaf by
/// leaf, without memory (the conversions of stored_of_value, or narrow_bits_of_value where the
/// shader has no narrow types, and value_of_stored).
std::string stored_round_function(const ParamDecl& input, NarrowFields narrow) {
    const std::string type = glsl_type_name(input.type);
    std::string text =
        type + " brt_stored_round_" + std::to_string(input.index) + "(" + type + " value) {\n";
    for (const StoredLeaf& leaf : stored_leaves(input.type)) {
        if (!converted_in_memory(leaf.type))
            continue;
        const std::string value = "value" + leaf.path;
        const std::string stored =
            narrow == NarrowFields::in_words && is_narrow(leaf.type)
                ? narrow_bits_of_value(leaf.type.scalar_type(), leaf.type.width(), value)
                : stored_of_value(leaf.type, value);
        text += "    " + value + " = " + value_of_stored(leaf.type, stored) + ";\n";
    }
    return text + "    return value;\n}\n";
}

/// How a reduction's workgroups fold their invocations' parts before shared memory.
enum class SubgroupFold {
    none,    ///< not at all: the module for every device
    shuffle, ///< a shuffle-down tree over the lanes with the kernel's operator
    add      ///< a plain sum: the subgroup's own addition
};

/// Whether the reduction is a plain sum, `r += a`, `r = r + a` or `r = a + r` of a float or
/// integer scalar or vector (reduce_commutes accepts these among its commuting bodies), which
/// subgroupAdd may fold: it adds as the body does, in an order of its own.
bool plain_sum(const KernelDecl& kernel) {
    if (!reduce_commutes(kernel))
        return false;
    const auto* assign =
        static_cast<const Assign*>(static_cast<const ExprStmt*>(kernel.body->body[0])->expr);
    if (assign->op != AssignOp::Assign)
        return compound_operator(assign->op) == BinaryOp::Add;
    return assign->value->kind == NodeKind::Binary &&
           static_cast<const Binary*>(assign->value)->op == BinaryOp::Add;
}

/// `T brt_shuffle_down(T value, uint delta)`: subgroupShuffleDown of a value of the reduce
/// input's type, leaf by leaf for a struct (every leaf is a bool, int, uint, float or double
/// scalar or vector, which the operation takes).
std::string shuffle_down_function(const ParamDecl& input) {
    const std::string type = glsl_type_name(input.type);
    std::string text = type + " brt_shuffle_down(" + type + " value, uint delta) {\n";
    for (const StoredLeaf& leaf : stored_leaves(input.type))
        text +=
            "    value" + leaf.path + " = subgroupShuffleDown(value" + leaf.path + ", delta);\n";
    return text + "    return value;\n}\n";
}

/// Folds `value` (where `has`) over the lanes of a subgroup into lane 0: `has` ends true there
/// when any lane had a value.
std::string subgroup_fold(SubgroupFold fold, const ParamDecl& input) {
    const std::string type = glsl_type_name(input.type);
    std::string text;
    if (fold == SubgroupFold::shuffle) {
        // After the step of distance `step`, a lane l that is a multiple of 2 * step holds the
        // fold of lanes [l, l + 2 * step) in order: a tree that keeps the lanes' order, whether
        // the operator commutes or not.
        text += "        const uint lane = gl_SubgroupInvocationID;\n";
        text += "        for (uint step = 1u; step < gl_SubgroupSize; step *= 2u) {\n";
        text += "            const " + type + " next = brt_shuffle_down(value, step);\n";
        text += "            const bool next_has = subgroupShuffleDown(has, step);\n";
        text += "            if (lane % (2u * step) == 0u && lane + step < gl_SubgroupSize &&\n"
                "                next_has) {\n";
        text += "                value = has ? brt_op(value, next) : next;\n";
        text += "                has = true;\n            }\n        }\n";
        return text;
    }
    if (input.type.scalar_type() == ScalarType::Float) {
        // Lanes without a part add -0.0, which changes no sum. A sum of negative zeros alone is
        // -0.0, as the body's additions give it, which an addition starting from SPIR-V's
        // identity, +0.0, would lose.
        const std::string width = std::to_string(input.type.width());
        const std::string negative_zero =
            input.type.width() == 1 ? "floatBitsToUint(own) == 0x80000000u"
                                    : "equal(floatBitsToUint(own), uvec" + width + "(0x80000000u))";
        text += "        const " + type + " own = has ? value : " + type +
                "(uintBitsToFloat(0x80000000u));\n";
        text += "        value = mix(subgroupAdd(own), own, subgroupAnd(" + negative_zero + "));\n";
    } else {
        text += "        value = subgroupAdd(has ? value : " + type + "(0));\n";
    }
    text += "        has = subgroupOr(has);\n";
    return text;
}

/// The workgroup's fold of the values `load(r)` for r in [begin, end) into `target` (an address),
/// in row-major order unless the operator commutes: each invocation folds its part, then the
/// parts are combined pairwise, neighbours first, in shared memory; with `subgroups`, each
/// subgroup's lanes are folded first, where the subgroups tile the workgroup (all full: Vulkan
/// does not promise it), invocations ranked by subgroup and lane, so that a subgroup's lanes
/// hold consecutive parts.
std::string fold_function(const std::string& name, const ParamDecl& input, bool commutes,
                          SubgroupFold subgroups, const std::string& load,
                          const std::string& store) {
    const std::string type = glsl_type_name(input.type);
    std::string text = "void " + name + "(uint64_t begin, uint64_t end, uint64_t target) {\n";
    text += "    const uint size = gl_WorkGroupSize.x;\n";
    if (subgroups == SubgroupFold::none) {
        text += "    const uint t = gl_LocalInvocationID.x;\n";
    } else {
        text += "    const bool tiled = gl_NumSubgroups * gl_SubgroupSize == size;\n";
        text += "    const uint t = tiled ? gl_SubgroupID * gl_SubgroupSize + "
                "gl_SubgroupInvocationID : gl_LocalInvocationID.x;\n";
    }
    text += "    bool has = false;\n    " + type + " value;\n";
    if (commutes) {
        // Neighbouring invocations read neighbouring elements.
        text += "    for (uint64_t r = begin + t; r < end; r += size) {\n";
    } else {
        // Each invocation its own contiguous run, in order.
        text += "    const uint64_t part = (end - begin + size - 1) / size;\n";
        text += "    const uint64_t first = begin + part * t;\n";
        text += "    for (uint64_t r = first; r < min(first + part, end); ++r) {\n";
    }
    text += "        " + type + " next = " + load + ";\n";
    text += "        value = has ? brt_op(value, next) : next;\n        has = true;\n    }\n";
    if (subgroups == SubgroupFold::none) {
        text += "    const uint parts = size;\n";
        text += "    brt_partial[t] = value;\n    brt_has[t] = has;\n";
    } else {
        text += "    uint parts = size;\n    if (tiled) {\n" + subgroup_fold(subgroups, input);
        text += "        parts = gl_NumSubgroups;\n";
        text += "        if (gl_SubgroupInvocationID == 0u) {\n"
                "            brt_partial[gl_SubgroupID] = value;\n"
                "            brt_has[gl_SubgroupID] = has;\n        }\n";
        text += "    } else {\n        brt_partial[t] = value;\n        brt_has[t] = has;\n    }\n";
    }
    text += "    barrier();\n";
    text += "    const uint u = gl_LocalInvocationID.x;\n";
    text += "    for (uint step = 1u; step < parts; step *= 2u) {\n";
    text += "        if (u % (2u * step) == 0u && u + step < parts && brt_has[u + step]) {\n";
    text += "            brt_partial[u] = brt_has[u] ? brt_op(brt_partial[u], brt_partial[u + "
            "step]) : brt_partial[u + step];\n";
    text += "            brt_has[u] = true;\n        }\n        barrier();\n    }\n";
    text += "    if (u == 0u) {\n        " + store + "\n    }\n";
    // The next box's fold reuses the shared memory.
    text += "    barrier();\n}\n";
    return text;
}

std::string reduce_main(const KernelDecl& kernel, bool subgroups, NarrowFields narrow) {
    BRCC_ASSERT(!kernel.uses_indexof,
                "indexof in reduce function '" + kernel.name + "' reached code generation");
    const ParamDecl& input = reduce_input(kernel);
    const std::string index = std::to_string(input.index);
    const std::string type = glsl_type_name(input.type);
    const std::string size = std::to_string(host_layout(input.type).size);
    const bool commutes = reduce_commutes(kernel);
    const SubgroupFold fold = !subgroups          ? SubgroupFold::none
                              : plain_sum(kernel) ? SubgroupFold::add
                                                  : SubgroupFold::shuffle;
    std::string text;
    const std::vector<StoredLeaf> leaves = stored_leaves(input.type);
    if (std::any_of(leaves.begin(), leaves.end(),
                    [](const StoredLeaf& leaf) { return converted_in_memory(leaf.type); }))
        text += stored_round_function(input, narrow);
    text += reduce_operator(kernel, input);
    if (fold == SubgroupFold::shuffle)
        text += shuffle_down_function(input);
    text += "shared " + type + " brt_partial[gl_WorkGroupSize.x];\n";
    text += "shared bool brt_has[gl_WorkGroupSize.x];\n";
    text += "ivec4 brt_box_origin;\n";
    // Element r of the current box of the input (its elements in row-major order).
    text += fold_function("brt_fold_input", input, commutes, fold,
                          "brt_load_" + index +
                              "(brt_offset(brt_box_origin + brt_position_of(r, "
                              "brt_frame.output_extents), " +
                              strides_name(input) + "))",
                          "brt_store_at_" + index + "(target, brt_partial[0]);");
    text += fold_function("brt_fold_partials", input, commutes, fold,
                          "brt_load_at_" + index + "(brt_frame.partials + r * " + size + "ul)",
                          "brt_store_at_" + index + "(target, brt_partial[0]);");
    text += "void main() {\n" + fetch_arguments(kernel);
    text += "    const ivec4 targets = brt_frame.reduce_targets;\n";
    text += "    const uint64_t boxes = uint64_t(targets.x) * uint64_t(targets.y) * "
            "uint64_t(targets.z) * uint64_t(targets.w);\n";
    text += "    for (uint64_t box = gl_WorkGroupID.y; box < boxes; box += gl_NumWorkGroups.y) {\n";
    text += "        if (brt_mode == brt_mode_reduce_chunks) {\n";
    text += "            brt_box_origin = brt_position_of(box, targets) * "
            "brt_frame.output_extents;\n";
    text += "            const uint64_t chunks = gl_NumWorkGroups.x;\n";
    text += "            const uint64_t begin = gl_WorkGroupID.x * brt_frame.reduce_chunk;\n";
    text += "            const uint64_t end = min(begin + brt_frame.reduce_chunk, "
            "brt_frame.element_count);\n";
    text += "            brt_fold_input(begin, end, brt_frame.partials + (box * chunks + "
            "gl_WorkGroupID.x) * " +
            size + "ul);\n";
    text += "        } else if (brt_mode == brt_mode_reduce_partials) {\n";
    text += "            const uint64_t blocks = brt_frame.reduce_blocks;\n";
    text += "            brt_fold_partials(box * blocks, (box + 1ul) * blocks, brt_frame.results + "
            "box * " +
            size + "ul);\n";
    text += "        }\n    }\n}\n";
    return text;
}

// ---------------------------------------------------------------------------------------------
// The shader

/// Whether the kernel has the general entry, whose element flags are bytes.
bool has_element_flags(const KernelDecl& kernel) {
    return !kernel.is_reduce && !has_variable_output(kernel);
}

/// Whether any leaf of the kernel's parameters is stored in 8 or 16 bits.
bool uses_narrow_fields(const KernelDecl& kernel) {
    return uses_small_storage(kernel, 8) || uses_small_storage(kernel, 16);
}

/// The functions that reach bytes and halves of 32-bit words: the element flags, and the narrow
/// fields of a shader that has no 8- and 16-bit storage. A store into a word that other elements
/// share changes only its own bits, with atomics, since other invocations may store the word's
/// other bits at the same time; a field of an element whose size is a multiple of 4 bytes (and so
/// starts a word, buffers being 256-byte aligned) owns its words, which a plain read-modify-write
/// then changes (no other invocation stores into them).
std::string narrow_access_functions(References& references) {
    std::string text = R"(uint brt_load_narrow(uint64_t address, uint bits) {
    return bitfieldExtract(WORD(address & ~3ul).v, int(address & 3ul) * 8, int(bits));
}
int brt_load_narrow_signed(uint64_t address, uint bits) {
    return bitfieldExtract(int(WORD(address & ~3ul).v), int(address & 3ul) * 8, int(bits));
}
void brt_store_narrow(uint64_t address, uint bits, uint value) {
    const int shift = int(address & 3ul) * 8;
    const uint mask = bitfieldInsert(0u, 0xFFFFFFFFu, shift, int(bits));
    WORD at = WORD(address & ~3ul);
    atomicAnd(at.v, ~mask);
    atomicOr(at.v, (value << shift) & mask);
}
void brt_store_narrow_owned(uint64_t address, uint bits, uint value) {
    WORD at = WORD(address & ~3ul);
    at.v = bitfieldInsert(at.v, value, int(address & 3ul) * 8, int(bits));
}
)";
    const std::string word = references.use("uint", 4);
    for (std::size_t at = text.find("WORD"); at != std::string::npos; at = text.find("WORD", at))
        text.replace(at, 4, word);
    return text;
}

/// The extensions the kernel's element types and its reduction's subgroup fold need beyond the
/// frame's, before any declaration.
std::string extensions(const KernelDecl& kernel, bool subgroups, NarrowFields narrow) {
    std::string text;
    if (subgroups)
        text += "#extension GL_KHR_shader_subgroup_basic : require\n" +
                std::string(plain_sum(kernel)
                                ? "#extension GL_KHR_shader_subgroup_arithmetic : require\n"
                                : "#extension GL_KHR_shader_subgroup_shuffle_relative : require\n");
    if (narrow == NarrowFields::in_words)
        return text;
    if (uses_small_storage(kernel, 8))
        text += "#extension GL_EXT_shader_8bit_storage : require\n"
                "#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require\n";
    if (uses_small_storage(kernel, 16))
        text += "#extension GL_EXT_shader_16bit_storage : require\n"
                "#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require\n";
    return text;
}

/// The shader, with subgroup operations in a reduction's fold when `subgroups`.
std::string compute_shader(const KernelDecl& kernel, bool subgroups, NarrowFields narrow) {
    std::vector<const KernelDecl*> helpers;
    collect_helpers(kernel, helpers);

    std::string text =
        "#version 460\n// kernel " + kernel.name + "\n" + extensions(kernel, subgroups, narrow);
    text += vulkan_frame_glsl;
    text += vulkan_compute_prelude_glsl;
    text += glsl_arithmetic_glsl;
    if (uses_double(kernel))
        text += glsl_double_glsl;
    for (const StructDecl* decl : struct_types(kernel, helpers))
        text += struct_definition(*decl);
    References references;
    // The vout counters and slots (element_function).
    references.use("uint64_t", 8);
    std::string parameters;
    if (has_element_flags(kernel) ||
        (narrow == NarrowFields::in_words && uses_narrow_fields(kernel)))
        parameters += narrow_access_functions(references);
    for (const ParamDecl* param : kernel.params) {
        if (is_stream(param->param_kind)) {
            parameters += stream_declarations(*param, references, narrow);
        } else if (param->param_kind == ParamKind::Constant) {
            parameters += glsl_type_name(param->type) + " " + constant_name(*param) + ";\n";
            parameters += element_access_functions(*param, references, narrow);
        }
        if (param->param_kind == ParamKind::VariableOutput)
            parameters += variable_output_declarations(*param);
    }
    text += references.text() + parameters;
    // A kernel with thread groups (BROOKPLUS.md §4.8) runs a group per workgroup (its size is
    // the pipeline's), the group's array in the workgroup's shared memory.
    if (const LocalDecl* shared = shared_array(kernel))
        text += "shared " + glsl_type_name(shared->type) + " " + glsl_identifier(shared->name) +
                "[" + std::to_string(shared->shared_extent) + "];\n";
    text += gather_dispatches(kernel, helpers);
    for (const KernelDecl* helper : helpers)
        text += callable_definition(*helper);
    text += body_function(kernel);
    text += kernel.is_reduce ? reduce_main(kernel, subgroups, narrow) : stream_kernel_main(kernel);
    return text;
}

} // namespace

std::vector<std::string> vulkan_compute_shaders(const KernelDecl& kernel) {
    std::vector<std::string> shaders;
    // Later shaders use more of the device; the backend runs the last one the device has.
    std::vector<NarrowFields> forms{NarrowFields::in_words};
    if (uses_narrow_fields(kernel))
        forms.push_back(NarrowFields::native);
    for (const NarrowFields narrow : forms) {
        shaders.push_back(compute_shader(kernel, false, narrow));
        if (kernel.is_reduce)
            shaders.push_back(compute_shader(kernel, true, narrow));
    }
    return shaders;
}

} // namespace brcc
