// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Translates a kernel to one CUDA C++ program for NVRTC (the device ABI is documented in
// runtime/backends/cuda/device/kernel_frame.hpp). The program holds, in order:
//  - the includes: the kernel language, the Frame, and for a reduction the ordered reductions;
//  - the struct types the kernel and its helpers use (dependencies first), then the helpers it
//    calls (callees first);
//  - `NAME__body`, the body printed by the C++ printer shared with the CPU backend
//    (cpp_kernel_printer.hpp): inputs by value, constants by const reference, gathers as
//    brook::lang::Gather values, outputs by reference;
//  - the entry points: `NAME__cuda` (a grid-stride loop calling the body for each output element;
//    `NAME__cuda_warps`, a warp per element, when the body has loops to spread: warp_loop.hpp),
//    `NAME__cuda_count` and `NAME__cuda_write` for a kernel with vout parameters,
//    `NAME__cuda_group` for one with thread groups, or `NAME__cuda_reduce_chunks` and
//    `NAME__cuda_reduce_partials` for a reduction.
// An output is a local of the body's value type, initialised from the stream only when the body
// reads it (param_access) and stored after the body when it writes it. `fixed` values are bytes
// in memory and floats in the body, converted as the CPU backend does.

#include "codegen/cuda/cuda_kernel_emitter.hpp"

#include "codegen/cpp_kernel_printer.hpp"
#include "codegen/cpp_spelling.hpp"
#include "codegen/cuda/warp_loop.hpp"
#include "codegen/param_access.hpp"
#include "sema/reduce_commutes.hpp"
#include "support/diagnostics.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace brcc {

namespace {

constexpr std::string_view device = "::brook::cuda::device::";
/// The class template a CUDA body's `push` goes through (kernel_frame.hpp).
constexpr std::string_view cuda_variable_output = "::brook::cuda::device::VariableOutput";
// The body's extra parameters when the kernel uses indexof: the call's Frame and the element.
constexpr std::string_view frame_param = "brook_frame";
constexpr std::string_view index_param = "brook_index";

/// The CUDA printer: the C++ printer with indexof read from the Frame, and the loops of
/// warp_loops spread over the lanes of a warp.
class CudaKernelPrinter final : public CppKernelPrinter {
public:
    CudaKernelPrinter() = default;
    explicit CudaKernelPrinter(std::map<const For*, SimdLoop> spread)
        : spread_(std::move(spread)) {}

protected:
    // Thread groups (BROOKPLUS.md §4.8): a group is a block of the launch.
    std::string shared_declaration(const LocalDecl& array) override {
        return "__shared__ " + shared_array_type(array) + " " + value_name(array);
    }
    PrintedExpr instance_in_group() override {
        return {"::brook::int4(static_cast<int>(threadIdx.x), 0, 0, 0)"};
    }
    std::string sync_group() override { return "__syncthreads()"; }

    PrintedExpr element_position(const ParamDecl& stream) override {
        return {std::string(device) + "indexof(" + std::string(frame_param) + ", " +
                position_param_index(stream) + ", " + std::string(index_param) + ")"};
    }

    /// A loop to spread: each lane runs the iterations from its own on, a warp apart (counted in
    /// 64 bits, so that the step cannot overflow below the bound), adding to its own sums from
    /// zero; the warp's total then joins what each sum held before the loop.
    bool target_for(const For& stmt, int indent, std::string& out) override {
        const auto spread = spread_.find(&stmt);
        if (spread == spread_.end())
            return false;
        const SimdLoop& loop = spread->second;
        const std::string pad(static_cast<std::size_t>(indent) * 4, ' ');
        const std::string inner = pad + "    ";
        out += pad + "{\n";
        for (const LocalDecl* sum : loop.sums)
            out += inner + "const float " + sum_before(*sum) + " = " + value_name(*sum) + ";\n" +
                   inner + value_name(*sum) + " = 0.0f;\n";
        const std::string counter = value_name(*loop.counter);
        const std::string lane_counter = "brook_lane_" + counter;
        out += inner + "for (long long " + lane_counter + " = static_cast<long long>(" +
               print_expr(*loop.lower) + ") + " + std::string(device) + "warp_lane();\n" + inner +
               "     " + lane_counter + (loop.inclusive ? " <= " : " < ") +
               "static_cast<long long>(" + print_expr(*loop.upper) + "); " + lane_counter +
               " += " + std::string(device) + "warp_lanes) {\n";
        const std::string counter_type = type_name(loop.counter->type);
        out += inner + "    const " + counter_type + " " + counter + " = static_cast<" +
               counter_type + ">(" + lane_counter + ");\n";
        print_stmt(*stmt.body, indent + 2, out);
        out += inner + "}\n";
        for (const LocalDecl* sum : loop.sums)
            out += inner + value_name(*sum) + " = " + sum_before(*sum) + " + " +
                   std::string(device) + "warp_sum(" + value_name(*sum) + ");\n";
        out += pad + "}\n";
        return true;
    }

private:
    std::string sum_before(const LocalDecl& sum) { return "brook_before_" + value_name(sum); }

    std::map<const For*, SimdLoop> spread_;
};

// ----- Struct types and helpers -----

void add_struct(const Type& type, std::vector<const StructDecl*>& order,
                std::set<const StructDecl*>& seen) {
    if (!type.is_struct() || !seen.insert(type.struct_decl()).second)
        return;
    for (const FieldDecl& field : type.struct_decl()->fields)
        add_struct(field.type, order, seen);
    order.push_back(type.struct_decl());
}

void add_statement_structs(const Stmt* stmt, std::vector<const StructDecl*>& order,
                           std::set<const StructDecl*>& seen) {
    if (stmt == nullptr)
        return;
    // Only the statements that declare locals or hold other statements matter.
    if (stmt->kind == NodeKind::Compound) {
        for (const Stmt* s : static_cast<const Compound*>(stmt)->body)
            add_statement_structs(s, order, seen);
    } else if (stmt->kind == NodeKind::DeclStmt) {
        for (const LocalDecl* local : static_cast<const DeclStmt*>(stmt)->vars)
            add_struct(local->type, order, seen);
    } else if (stmt->kind == NodeKind::If) {
        add_statement_structs(static_cast<const If*>(stmt)->then_branch, order, seen);
        add_statement_structs(static_cast<const If*>(stmt)->else_branch, order, seen);
    } else if (stmt->kind == NodeKind::For) {
        add_statement_structs(static_cast<const For*>(stmt)->init, order, seen);
        add_statement_structs(static_cast<const For*>(stmt)->body, order, seen);
    } else if (stmt->kind == NodeKind::While) {
        add_statement_structs(static_cast<const While*>(stmt)->body, order, seen);
    } else if (stmt->kind == NodeKind::DoWhile) {
        add_statement_structs(static_cast<const DoWhile*>(stmt)->body, order, seen);
    }
}

/// The helpers `kernel` calls, directly or not, each after the helpers it calls.
void add_helpers(const KernelDecl& kernel, std::vector<const KernelDecl*>& order,
                 std::set<const KernelDecl*>& seen) {
    for (const KernelDecl* callee : kernel.callees) {
        if (!seen.insert(callee).second)
            continue;
        add_helpers(*callee, order, seen);
        order.push_back(callee);
    }
}

/// `struct NAME { T field; ... };` for every struct type the kernel or its helpers use, with
/// host code's field types, so that the elements have the bytes host code gave them (a fixed
/// field is one byte).
std::string struct_definitions(const KernelDecl& kernel,
                               const std::vector<const KernelDecl*>& helpers) {
    std::vector<const StructDecl*> order;
    std::set<const StructDecl*> seen;
    std::vector<const KernelDecl*> all = helpers;
    all.push_back(&kernel);
    for (const KernelDecl* decl : all) {
        add_struct(decl->return_type, order, seen);
        for (const ParamDecl* param : decl->params)
            add_struct(param->type, order, seen);
        add_statement_structs(decl->body, order, seen);
    }
    std::string text;
    for (const StructDecl* decl : order) {
        text += "struct " + cpp_identifier(decl->name) + " {\n";
        for (const FieldDecl& field : decl->fields)
            text +=
                "    " + cpp_host_type_name(field.type) + " " + cpp_identifier(field.name) + ";\n";
        text += "};\n\n";
    }
    return text;
}

std::string helper_definition(const KernelDecl& helper) {
    CudaKernelPrinter printer;
    return callable_definition(helper, printer) + "\n";
}

// ----- The body -----

std::string body_function(const KernelDecl& kernel, const std::map<const For*, SimdLoop>& spread) {
    std::string parameters;
    for (const ParamDecl* param : kernel.params)
        parameters += (parameters.empty() ? "" : ",\n        ") +
                      body_parameter(*param, cuda_variable_output);
    if (kernel.discards)
        parameters += ",\n        " + discard_parameter();
    if (kernel.uses_indexof)
        parameters +=
            ",\n        " +
            maybe_unused("const " + std::string(device) + "Frame& " + std::string(frame_param)) +
            ",\n        " + maybe_unused(std::string(device) + "Index " + std::string(index_param));
    std::string text =
        "__forceinline__ void " + body_name(kernel) + "(\n        " + parameters + ") {\n";
    CudaKernelPrinter printer(spread);
    printer.print_body(*kernel.body, 1, text);
    return text + "}\n\n";
}

// ----- Entry points -----

/// The pointer to stream parameter `param`'s elements that a dense call's loop indexes.
std::string dense_pointer_name(const ParamDecl& param) {
    return local_name(param) + "_data";
}

/// Element i of stream parameter `param`, in its storage type: of its array in a dense call,
/// else resized to the output.
std::string stream_element(const ParamDecl& param, bool dense) {
    if (dense)
        return dense_pointer_name(param) + "[i]";
    return std::string(device) + "resized_element<" + element_storage_type(param) + ">(frame, " +
           std::to_string(param.index) + ", i)";
}

/// A dense call's element pointers, read from the Frame once: in registers, the loop loads no
/// argument again (the compiler could not know that an output store leaves the Frame alone); and
/// aligned (element_data), so that vectors load whole.
std::string dense_pointers(const KernelDecl& kernel) {
    std::string text;
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind != ParamKind::InputStream &&
            param->param_kind != ParamKind::OutputStream)
            continue;
        const std::string type = element_storage_type(*param);
        text += "    " + type + "* const " + dense_pointer_name(*param) + " = " +
                std::string(device) + "element_data<" + type + ">(frame, " +
                std::to_string(param->index) + ");\n";
    }
    return text;
}

std::string entry_header(const std::string& name, const std::string& extra_parameters = "") {
    return "extern \"C\" __global__ void " + name + "(const " + std::string(device) +
           "Frame* brook_frame_pointer" + extra_parameters + ") {\n    [[maybe_unused]] const " +
           std::string(device) + "Frame& frame = *brook_frame_pointer;\n";
}

/// Declarations of the constants and gathers, fetched once per thread.
std::string fetch_uniform_arguments(const KernelDecl& kernel) {
    std::string text;
    for (const ParamDecl* param : kernel.params) {
        const std::string storage = cpp_storage_type_name(param->type);
        const std::string index = std::to_string(param->index);
        if (param->param_kind == ParamKind::Constant) {
            text += "    const " + cpp_type_name(param->type) + " " + local_name(*param) + " = " +
                    converted_from_storage(param->type, std::string(device) + "constant<" +
                                                            storage + ">(frame, " + index + ")") +
                    ";\n";
        } else if (param->param_kind == ParamKind::Gather) {
            const std::string rank = std::to_string(param->gather_view_rank());
            text += "    const ::brook::lang::Gather<" + storage + ", " + rank + "> " +
                    local_name(*param) + " = " + std::string(device) + "gather<" + storage + ", " +
                    rank + ">(frame, " + index + ");\n";
        } else if (param->param_kind == ParamKind::ScatterOutput) {
            // Each thread's own, and so its sink (lang::Scatter).
            const std::string rank = std::to_string(param->gather_view_rank());
            text += "    const ::brook::lang::Scatter<" + storage + ", " + rank + "> " +
                    local_name(*param) + " = " + std::string(device) + "scatter<" + storage + ", " +
                    rank + ">(frame, " + index + ");\n";
        }
    }
    return text;
}

/// `text` with each line indented one level more.
std::string indented(const std::string& text) {
    std::string result;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        result += "    " + text.substr(start, end - start + 1);
        start = end == std::string::npos ? text.size() : end + 1;
    }
    return result;
}

/// The statements of one element of a stream kernel: the outputs' locals, the body call and the
/// stores. `dense`: the call is dense (see stream_element); `counting`: a vout kernel's count
/// pass, which stores no output; `per_warp`: a warp runs the element, and its lane 0 stores.
std::string element_statements(const KernelDecl& kernel, bool dense, bool counting,
                               const std::string& pad, bool per_warp = false) {
    const std::vector<ParamAccess> access = param_access(kernel);
    std::string before;
    std::string after;
    std::string args;
    for (const ParamDecl* param : kernel.params) {
        const ParamAccess& used = access[static_cast<std::size_t>(param->index)];
        const std::string type = cpp_type_name(param->type);
        const std::string name = local_name(*param);
        if (!args.empty())
            args += ", ";
        switch (param->param_kind) {
        case ParamKind::Constant:
        case ParamKind::Gather:
        case ParamKind::ScatterOutput:
            args += name;
            break;
        case ParamKind::InputStream:
            args += converted_from_storage(param->type, stream_element(*param, dense));
            break;
        case ParamKind::OutputStream:
            if (used.read && !counting)
                before += pad + type + " " + name + " = " +
                          converted_from_storage(param->type, stream_element(*param, dense)) +
                          ";\n";
            else
                before += pad + type + " " + name + "{};\n";
            if (used.written && !counting)
                after += pad + stream_element(*param, dense) + " = " +
                         (is_fixed(param->type)
                              ? "::brook::lang::convert<" + cpp_storage_type_name(param->type) +
                                    ">(" + name + ")"
                              : name) +
                         ";\n";
            args += name;
            break;
        case ParamKind::VariableOutput:
            before += pad + type + " " + name + "{};\n";
            before += pad + std::string(device) + "VariableOutput<" +
                      cpp_storage_type_name(param->type) + "> " + push_target_name(name) +
                      "(frame, " + std::to_string(param->index) + ", i, " +
                      std::to_string(param->push_limit) + ", counting);\n";
            after += pad + push_target_name(name) + ".finish();\n";
            args += name + ", " + push_target_name(name);
            break;
        case ParamKind::ReduceInput:
        case ParamKind::ReduceAccumulator:
            internal_error(__FILE__, __LINE__, "reduce parameter in a stream kernel");
        }
    }
    if (kernel.discards) {
        // A discarded element keeps its outputs' old values (param_access made them read).
        before += pad + discard_flag_declaration();
        args += ", " + discard_argument();
        if (!after.empty())
            after = pad + "if (" + discarded_test() + ") {\n" + after + pad + "}\n";
    }
    if (kernel.uses_indexof)
        args += ", frame, i";
    if (!dense && !counting && !has_variable_output(kernel)) {
        // The loop a call whose elements a write mask or query tracks takes (never dense).
        before = skip_element_statement(device, pad) + before;
        after += mark_written_statement(kernel, device, pad);
    }
    if (per_warp && !after.empty())
        after = pad + "if (" + std::string(device) + "warp_lane() == 0) {\n" + indented(after) +
                pad + "}\n";
    return before + pad + body_name(kernel) + "(" + args + ");\n" + after;
}

/// The loop over the output elements a launch runs: a thread per element, or a warp per element
/// (`per_warp`).
std::string grid_stride_loop(const std::string& statements, int indent, bool per_warp = false) {
    const std::string pad(static_cast<std::size_t>(indent) * 4, ' ');
    const std::string per_thread = per_warp ? " / " + std::string(device) + "warp_lanes" : "";
    // The end in a local: the compiler cannot know that the loop's stores leave the Frame alone.
    // check_element: the element that BRT_CHECK=1 reports a division fault at (nothing unless
    // the runtime compiled the program for it).
    return pad + "for (" + std::string(device) + "Index i = frame.run_begin + " +
           std::string(device) + "first_element()" + per_thread +
           ", brook_end = frame.run_end; i < brook_end;\n" + pad +
           "     i += " + std::string(device) + "grid_threads()" + per_thread + ") {\n" + pad +
           "    " + std::string(device) + "check_element(frame, i);\n" + statements + pad + "}\n";
}

std::string stream_entry_points(const KernelDecl& kernel, bool per_warp) {
    const std::string name = cpp_identifier(kernel.name);
    // A kernel with thread groups (BROOKPLUS.md §4.8) runs in blocks of a group each, whose
    // threads meet at __syncthreads.
    if (kernel.has_group_size())
        return entry_header(name + "__cuda_group") + fetch_uniform_arguments(kernel) +
               grid_stride_loop(element_statements(kernel, false, false, "        "), 1) + "}\n";
    if (!has_variable_output(kernel)) {
        // Two entry points, so that a dense call's kernel does without the registers that
        // resizing's divisions take.
        const std::string entry = name + (per_warp ? "__cuda_warps" : "__cuda");
        return entry_header(entry) + fetch_uniform_arguments(kernel) + dense_pointers(kernel) +
               grid_stride_loop(element_statements(kernel, true, false, "        ", per_warp), 1,
                                per_warp) +
               "}\n\n" + entry_header(entry + "_resized") + fetch_uniform_arguments(kernel) +
               grid_stride_loop(element_statements(kernel, false, false, "        ", per_warp), 1,
                                per_warp) +
               "}\n";
    }
    // Both passes share one function; `counting` is the same for every thread of a launch.
    std::string text = "__forceinline__ void " + name + "__run(const " + std::string(device) +
                       "Frame& frame, bool counting) {\n";
    text += fetch_uniform_arguments(kernel);
    text += "    if (counting) {\n";
    text += grid_stride_loop(element_statements(kernel, false, true, "            "), 2);
    text += "        return;\n    }\n";
    text += grid_stride_loop(element_statements(kernel, false, false, "        "), 1);
    text += "}\n\n";
    text += "extern \"C\" __global__ void " + name + "__cuda_count(const " + std::string(device) +
            "Frame* brook_frame_pointer) {\n    " + name +
            "__run(*brook_frame_pointer, true);\n}\n\n";
    text += "extern \"C\" __global__ void " + name + "__cuda_write(const " + std::string(device) +
            "Frame* brook_frame_pointer) {\n    " + name +
            "__run(*brook_frame_pointer, false);\n}\n";
    return text;
}

/// The reduction's operator on storage values, `left ⊕ right`, as a lambda; a fixed
/// accumulator is a float in the body and saturates back to bytes after each step, as on the CPU.
std::string reduce_operator(const KernelDecl& kernel, const ParamDecl& input) {
    const std::string storage = cpp_storage_type_name(input.type);
    std::string text =
        "    const auto op = [&](" + storage + " left, const " + storage + "& right) {\n";
    if (!is_fixed(input.type)) {
        text += "        " + reduce_body_call(kernel, "right", "left") + ";\n";
    } else {
        text += "        " + cpp_type_name(input.type) +
                " brook_result = " + converted_from_storage(input.type, "left") + ";\n";
        text +=
            "        " +
            reduce_body_call(kernel, converted_from_storage(input.type, "right"), "brook_result") +
            ";\n";
        text += "        left = ::brook::lang::convert<" + storage + ">(brook_result);\n";
    }
    return text + "        return left;\n    };\n";
}

/// The block-level fold a reduction's passes call: in any order when its operator commutes
/// (sema/reduce_commutes), which coalesces the loads; otherwise in row-major order.
std::string chunk_fold_call(const KernelDecl& kernel) {
    return reduce_commutes(kernel)
               ? std::string(device) + "reduce_chunk_any_order"
               : std::string(device) + "reduce_chunk<" + std::string(device) + "grid_items>";
}

std::string reduce_entry_points(const KernelDecl& kernel) {
    // A reduction combines partial results in an order the runtime chooses, so "the current
    // element" has no position; sema rejects indexof there.
    BRCC_ASSERT(!kernel.uses_indexof,
                "indexof in reduce function '" + kernel.name + "' reached code generation");
    const ParamDecl& input = reduce_input(kernel);
    const std::string name = cpp_identifier(kernel.name);
    const std::string storage = cpp_storage_type_name(input.type);
    const std::string index = std::string(device) + "Index";
    std::string text = entry_header(name + "__cuda_reduce_chunks",
                                    ", const " + std::string(device) + "RowMajorBox* boxes, " +
                                        index + " chunk, void* partials");
    const std::string no_checks = "    " + std::string(device) + "check_nothing();\n";
    text += no_checks + fetch_uniform_arguments(kernel) + reduce_operator(kernel, input);
    text += "    const " + std::string(device) + "RowMajorBox& box = boxes[blockIdx.y];\n";
    text += "    const " + storage + "* const input = static_cast<const " + storage +
            "*>(frame.args[" + std::to_string(input.index) + "].data);\n";
    text += "    " + std::string(device) + "DeviceBlock block;\n";
    text += "    " + storage + "* const out = static_cast<" + storage + "*>(partials) + " + index +
            "{blockIdx.y} * gridDim.x + blockIdx.x;\n";
    // A dense box (a whole stream, whole rows) is loaded without the division per dimension
    // that finding an element of a general box costs.
    const std::string fold = chunk_fold_call(kernel);
    text += "    if (box.dense())\n";
    text += "        " + fold + "(block, box.count(), chunk, blockIdx.x,\n";
    text += "            [&](" + index + " r) { return input[box.base + r]; }, op, out);\n";
    text += "    else\n";
    text += "        " + fold + "(block, box.count(), chunk, blockIdx.x,\n";
    text += "            [&](" + index + " r) { return input[box.offset(r)]; }, op, out);\n}\n\n";
    text += entry_header(name + "__cuda_reduce_partials",
                         ", const void* partials, " + index + " blocks, void* results");
    text += no_checks + fetch_uniform_arguments(kernel) + reduce_operator(kernel, input);
    text += "    const " + storage + "* const row = static_cast<const " + storage +
            "*>(partials) + " + index + "{blockIdx.y} * blocks;\n";
    text += "    " + std::string(device) + "DeviceBlock block;\n";
    text += "    " + fold + "(block, blocks, blocks, 0,\n";
    text += "        [&](" + index + " r) { return row[r]; }, op,\n";
    text += "        static_cast<" + storage + "*>(results) + blockIdx.y);\n}\n";
    return text;
}

} // namespace

std::string cuda_kernel_source(const KernelDecl& kernel) {
    std::string text = "// Generated by brcc from kernel '" + kernel.name +
                       "'. The ABI: brook/cuda/kernel_frame.hpp.\n"
                       "#include \"brook/kernel_language.hpp\"\n"
                       "#include \"brook/cuda/kernel_frame.hpp\"\n";
    if (kernel.is_reduce)
        text += "#include \"brook/cuda/ordered_reduce.hpp\"\n";
    text += "\n";
    std::vector<const KernelDecl*> helpers;
    std::set<const KernelDecl*> seen;
    add_helpers(kernel, helpers, seen);
    text += struct_definitions(kernel, helpers);
    for (const KernelDecl* helper : helpers)
        text += helper_definition(*helper);
    const std::map<const For*, SimdLoop> spread = warp_loops(kernel);
    text += body_function(kernel, spread);
    text += kernel.is_reduce ? reduce_entry_points(kernel)
                             : stream_entry_points(kernel, !spread.empty());
    return text;
}

} // namespace brcc
