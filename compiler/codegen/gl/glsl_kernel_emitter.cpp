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
// Bodies, the kernels they call and struct types print through codegen/glsl_printer.

#include "codegen/gl/glsl_kernel_emitter.hpp"

#include "brook/detail/glsl_interface.hpp"
#include "codegen/double_use.hpp"
#include "codegen/glsl_printer.hpp"
#include "codegen/param_access.hpp"
#include "support/diagnostics.hpp"

namespace brcc {

// The GLSL helpers of doubles (glsl_double_source.cpp, made by CMake).
extern const char* const glsl_double_glsl;

namespace {

/// The names and numbers brcc's GLSL shares with the gl backend.
namespace glsl = brook::detail::glsl;
using namespace glsl_common;

// ---------------------------------------------------------------------------------------------
// Element types: one texture per leaf field

/// double and double2 leaves are stored as their 32-bit words, two per component, in 32UI
/// textures (runtime/backends/gl/field_format.hpp) and passed as uvec2 and uvec4 uniforms.
bool is_double(const Type& leaf) {
    return leaf.scalar_type() == ScalarType::Double;
}

/// "" for float leaves, "i" for int and byte leaves, "u" for uint and double: the prefix of the
/// sampler and vector types their textures use.
std::string leaf_prefix(const Type& type) {
    if (is_double(type) || type.scalar_type() == ScalarType::UInt)
        return "u";
    return is_floating(type) ? "" : "i";
}

/// `.x`, `.xy`, `.xyz` or "" picking a leaf's components (a double's words) out of a texel.
std::string texel_components(const Type& leaf) {
    static constexpr std::string_view masks[] = {"", ".x", ".xy", ".xyz", ""};
    return std::string(masks[is_double(leaf) ? 2 * leaf.width() : leaf.width()]);
}

/// A leaf's value from what its texture or uniform holds (a double from its words).
std::string leaf_value(const Type& leaf, const std::string& stored) {
    if (is_double(leaf))
        return "brt_double_of(" + stored + ")";
    return glsl_type_name(leaf) + "(" + stored + ")";
}

/// The GLSL type of a leaf's uniform: a double's words, else its value type.
std::string uniform_type(const Type& leaf) {
    if (is_double(leaf))
        return leaf.width() == 1 ? "uvec2" : "uvec4";
    return glsl_type_name(leaf);
}

/// A leaf value widened to the vec4/ivec4 a render target takes.
std::string widen(const Type& leaf, const std::string& value) {
    if (is_double(leaf))
        return "brt_words_of(" + value + ")";
    const std::string zero = zero_of(leaf.with_width(1));
    std::string text = leaf_prefix(leaf) + "vec4(" + value;
    for (int i = leaf.width(); i < 4; ++i)
        text += ", " + zero;
    return text + ")";
}

// ---------------------------------------------------------------------------------------------
// Shader pieces

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
                leaf_value(leaves[f].type, "texelFetch(" + glsl::stream_texture(param.index, f) +
                                               ", texel, 0)" + texel_components(leaves[f].type)) +
                ";\n";
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
        return "uniform " + uniform_type(param.type) + " " + glsl::constant(param.index) + ";\n";
    std::string text;
    const std::vector<Leaf> leaves = leaves_of(param.type);
    for (std::size_t f = 0; f < leaves.size(); ++f)
        text += "uniform " + uniform_type(leaves[f].type) + " " + glsl::constant(param.index, f) +
                ";\n";
    return text;
}

std::string constant_value(const ParamDecl& param) {
    if (!param.type.is_struct()) {
        if (is_double(param.type))
            return leaf_value(param.type, glsl::constant(param.index));
        return glsl::constant(param.index);
    }
    std::vector<std::string> names;
    const std::vector<Leaf> leaves = leaves_of(param.type);
    for (std::size_t f = 0; f < leaves.size(); ++f)
        names.push_back(is_double(leaves[f].type)
                            ? leaf_value(leaves[f].type, glsl::constant(param.index, f))
                            : glsl::constant(param.index, f));
    std::size_t next = 0;
    return assemble(param.type, names, next);
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
    const bool tracked = !has_variable_output(kernel);
    std::string text = tracked ? element_flag_declarations() : "";
    text += "void main() {\n";
    // The write pass of a variable output is drawn over its values, not over the elements.
    if (has_variable_output(kernel))
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
        text +=
            "        if (" + std::string(discard_flag_name) + ") {\n" + restores + "        }\n";
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
    // A fragment program cannot store at another element: the gl backend runs a scatter
    // kernel's calls on the host (BROOKPLUS.md's rule 2), with the cpu backend's code.
    if (has_scatter_output(kernel))
        return "";
    std::vector<const KernelDecl*> helpers;
    collect_helpers(kernel, helpers);

    std::string text = "// kernel " + kernel.name + "\n";
    if (uses_double(kernel))
        text += glsl_double_glsl;
    for (const StructDecl* decl : struct_types(kernel, helpers))
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
