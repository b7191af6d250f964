// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Translates kernels to C++ for the CPU backend. A kernel becomes three pieces:
//  - `NAME__body(...)`: the kernel body printed by CppKernelPrinter, with inputs by value (so
//    `k(a, a)` reads the old value), constants by const reference, gathers as
//    brook::lang::Gather values and outputs by reference; it is always inlined;
//  - `NAME__cpu(frame, begin, end)`: fetches the arguments from the Frame once and calls the
//    body for each element of [begin, end). When the runtime marks the call dense, element i
//    of every stream is at data + i and the loop is a plain array loop, marked
//    `#pragma omp simd` so that the C++ compiler vectorises it; otherwise each stream is
//    addressed through a brook::cpu::ResizedView, which resizes and follows views, a row of the
//    output at a time: a row along which every stream is contiguous (domains, inputs repeated
//    down the rows) runs as a plain array loop, marked like the dense one. A kernel that reads
//    a gather with float indices or uses indexof has its dense loops in `NAME__dense_narrow`,
//    with 32-bit indices, which NAME__cpu runs for arrays and rows below 2^31 elements
//    (kernel_loop_function says why). Where the runtime asks for streaming stores
//    (Frame::streaming_stores), the dense loop of a kernel without loops or gathers computes
//    its outputs into small blocks stored with non-temporal stores (streamed_loops).
//  - reductions instead get `NAME__fold` (a box of the input, in row-major order, or in the
//    order that vectorises when the operator commutes: sema/reduce_commutes.hpp) and
//    `NAME__combine` (joins two partial results), both calling the body.
// A kernel with `vout` parameters runs twice (brook::cpu::VariableOutput in kernel_abi.hpp): its
// body gets, for each vout, the current value and a VariableOutput that `push` counts into
// (count pass) or stores through (write pass); during the count pass its ordinary outputs go to
// scratch locals, so an output that is also an input is only written once. `fixed` values are
// bytes in streams, gathers, constants and reduce accumulators and floats in the body: read
// through convert<float..float4>, stored through convert<fixed..> (which saturates), and every
// conversion to fixed inside the body saturates and rounds as a store would (to_fixed).
// A body's `for` loops that only add up float sums become OpenMP SIMD reductions (simd_loop.hpp),
// with gathers indexed by the counter read unclamped when a check before the loop allows it.
// When such a loop is a statement of the body itself and runs over the same range for every
// element (SGEMV's dot product over a gather row), the dense loop runs jam_lanes elements at once
// through `NAME__jammed`: the body's other statements once per element, the loop once with each
// iteration doing every element's iteration. Each element keeps its own sums, added in the same
// order as alone (so its result is bit for bit the same), while the elements share the loads of
// gathers that do not depend on the element (x[j]) and their sums form independent chains of
// additions, which hide the latency a single dot product waits on.
// Built for several instruction sets (brcc --target=A,B), the loop functions are marked
// BROOK_CPU_DISPATCHED (brook/cpu_kernel.hpp), compiled once per set, and helpers are always
// inlined, so that they run in the set of the loop that calls them.
// Bodies are printed by the C++ printer it shares with the CUDA generator (cpp_kernel_printer.hpp),
// with the CPU's own indexof, jammed bodies and SIMD loops.

#include "codegen/cpu/cpu_kernel_emitter.hpp"

#include "codegen/cpp_kernel_printer.hpp"
#include "codegen/cpp_spelling.hpp"
#include "codegen/cpu/choice_forms.hpp"
#include "codegen/cpu/element_cost.hpp"
#include "codegen/param_access.hpp"
#include "codegen/simd_loop.hpp"
#include "sema/reduce_commutes.hpp"
#include "support/diagnostics.hpp"

#include <algorithm>
#include <unordered_set>
#include <vector>

namespace brcc {

namespace {

// Kernel bodies use only the kernel language (brook/kernel_language.hpp), which the CUDA backend
// shares (cpp_kernel_printer.hpp); the loops around them use the CPU machinery of
// brook/cpu_kernel.hpp.
constexpr std::string_view cpu = "::brook::cpu::";
/// The class template a CPU body's `push` goes through (kernel_abi.hpp).
constexpr std::string_view cpu_variable_output = "::brook::cpu::VariableOutput";
// Names of the body's extra parameters when the kernel uses indexof: where positions come from
// (the Frame, or a brook::cpu::DenseRow in a dense call's row loop) and the element's index.
constexpr std::string_view position_param = "brook_position";
constexpr std::string_view index_param = "brook_index";
/// A group kernel's body's parameter holding its thread's number in the group.
constexpr std::string_view group_thread_param = "brook_thread";

/// The number of elements a jammed body runs at once: with four independent sums a dot product
/// no longer waits on the latency of its additions, and the loop still fits the registers.
constexpr int jam_lanes = 4;

/// What a lane's copy of a jammed body adds to the names of its own values.
std::string lane_suffix(int lane) {
    return "__lane" + std::to_string(lane);
}

/// Whether `decl` has a value of its own for each element: a local, or an element of an input or
/// output stream.
bool per_element(const ValueDecl& decl) {
    if (decl.decl_kind == ValueDecl::Kind::Local)
        return true;
    const auto kind = static_cast<const ParamDecl&>(decl).param_kind;
    return kind == ParamKind::InputStream || kind == ParamKind::OutputStream;
}

/// The most sums a jammed loop keeps, over all its lanes: each is a vector register, and with
/// eight of them even a build for 16 registers (AVX2) keeps its loads and temporaries in
/// registers too. A loop with more sums has enough independent additions on its own.
constexpr std::size_t max_jammed_sums = 8;

/// `stmt` as a SimdLoop that several elements can run together: its range is the same for all.
std::optional<SimdLoop> jammed_loop(const Stmt& stmt) {
    if (stmt.kind != NodeKind::For)
        return std::nullopt;
    std::optional<SimdLoop> loop = find_simd_loop(static_cast<const For&>(stmt));
    if (!loop || !loop->uniform_bounds ||
        loop->sums.size() * static_cast<std::size_t>(jam_lanes) > max_jammed_sums)
        return std::nullopt;
    return loop;
}

/// Whether computing `expr` where the body might not have changes nothing and costs little: no
/// assignment, no increment, no call of a kernel that writes an output, discards or loops, and
/// no subscript but a gather's (whose index is clamped, so any index reads inside the stream).
bool evaluates_freely(const Expr& expr) {
    const auto all_free = [](const std::vector<Expr*>& exprs) {
        return std::all_of(exprs.begin(), exprs.end(),
                           [](const Expr* e) { return evaluates_freely(*e); });
    };
    switch (expr.kind) {
    case NodeKind::IntLiteral:
    case NodeKind::FloatLiteral:
    case NodeKind::BoolLiteral:
    case NodeKind::NameRef:
    case NodeKind::Indexof:
    case NodeKind::InstanceInGroup:
        return true;
    case NodeKind::Unary: {
        const auto& unary = static_cast<const Unary&>(expr);
        return unary.op != UnaryOp::PreInc && unary.op != UnaryOp::PreDec &&
               unary.op != UnaryOp::PostInc && unary.op != UnaryOp::PostDec &&
               evaluates_freely(*unary.operand);
    }
    case NodeKind::Binary: {
        const auto& binary = static_cast<const Binary&>(expr);
        return evaluates_freely(*binary.lhs) && evaluates_freely(*binary.rhs);
    }
    case NodeKind::Conditional: {
        const auto& conditional = static_cast<const Conditional&>(expr);
        return evaluates_freely(*conditional.condition) &&
               evaluates_freely(*conditional.then_value) &&
               evaluates_freely(*conditional.else_value);
    }
    case NodeKind::Call: {
        const auto& call = static_cast<const Call&>(expr);
        const KernelDecl* helper = call.helper;
        const bool helper_is_free =
            helper == nullptr ||
            (!helper->discards && !has_out_parameters(*helper) && !cpu_kernel_loops(*helper));
        return helper_is_free && all_free(call.args);
    }
    case NodeKind::Construct:
        return all_free(static_cast<const Construct&>(expr).args);
    case NodeKind::Cast:
        return evaluates_freely(*static_cast<const Cast&>(expr).operand);
    case NodeKind::ImplicitConvert:
        return evaluates_freely(*static_cast<const ImplicitConvert&>(expr).operand);
    case NodeKind::Member:
        return evaluates_freely(*static_cast<const Member&>(expr).base);
    case NodeKind::Subscript: {
        const auto& subscript = static_cast<const Subscript&>(expr);
        return subscript.gather != nullptr && all_free(subscript.indices);
    }
    case NodeKind::Assign:
    case NodeKind::InitList:
        return false;
#include "ast/stmt_kind_cases.def"
        break;
    }
    return false;
}

/// The CPU's printer: the C++ printer with the CPU backend's indexof, jammed bodies and SIMD loops.
class CpuKernelPrinter final : public CppKernelPrinter {
public:
    /// Prints the body of a kernel with a GroupSize: a coroutine (brook::cpu::GroupTask) taking
    /// the shared array by reference and its thread's number in the group.
    void print_group_body() { group_body_ = true; }
    /// Finds the choices of `body` (the body about to be printed) to print component-wise.
    void choose_forms(const Stmt& body) { componentwise_ = componentwise_choices(body); }

protected:
    std::string shared_declaration(const LocalDecl&) override { return ""; } // a parameter
    PrintedExpr instance_in_group() override {
        return {"::brook::int4(" + std::string(group_thread_param) + ", 0, 0, 0)"};
    }
    std::string sync_group() override { return "co_await ::brook::cpu::sync_group()"; }
    std::string_view return_keyword() override { return group_body_ ? "co_return" : "return"; }

    /// A choice between two vectors by a scalar condition, when both sides evaluate freely:
    /// both computed, then one taken whole by masking their bits (brook::cpu::select_whole),
    /// or component by component as with a vector condition, which the compiler may make a
    /// branch (choice_forms.hpp says where). C++'s `?:` on two vector objects is a branch
    /// around two stores, and masked stores into a struct or a vector, which the vectoriser
    /// would have to make of it, keep the loop scalar.
    PrintedExpr scalar_conditional(const Conditional& conditional) override {
        if (!conditional.type.is_vector() || !evaluates_freely(*conditional.then_value) ||
            !evaluates_freely(*conditional.else_value))
            return CppKernelPrinter::scalar_conditional(conditional);
        if (componentwise_.contains(&conditional))
            return vector_select(conditional);
        return {"::brook::cpu::select_whole<" + cpp_type_name(conditional.type) + ">(" +
                argument(*conditional.condition) + ", " + argument(*conditional.then_value) + ", " +
                argument(*conditional.else_value) + ")"};
    }

    /// While the copy of the body for one lane is printed, that lane's own values (locals, and
    /// elements of the input and output streams) carry its suffix; the counter of the jammed
    /// loop, constants and gathers are shared.
    std::string value_name(const ValueDecl& decl) override {
        std::string name = identifier(decl.name);
        if (lane_ < 0 || &decl == jammed_counter_ || !per_element(decl))
            return name;
        return name + lane_suffix(lane_);
    }

public:
    /// The statements of `body` for `lanes` consecutive elements (jammable): a jammed loop once,
    /// any other statement once per lane.
    void print_jammed_body(const Compound& body, int lanes, int indent, std::string& out) {
        for (const Stmt* stmt : body.body) {
            if (const std::optional<SimdLoop> loop = jammed_loop(*stmt)) {
                jammed_counter_ = loop->counter;
                simd_loop(static_cast<const For&>(*stmt), *loop, lanes, indent, out);
                jammed_counter_ = nullptr;
                continue;
            }
            for_each_lane(lanes, [&] { print_stmt(*stmt, indent, out); });
        }
    }

protected:
    bool target_for(const For& stmt, int indent, std::string& out) override {
        const std::optional<SimdLoop> loop = find_simd_loop(stmt);
        if (!loop)
            return false;
        simd_loop(stmt, *loop, 1, indent, out);
        return true;
    }

private:
    /// A SimdLoop as `#pragma omp simd` loops, each iteration running the body for `lanes`
    /// elements. When gathers are indexed by the counter, the loop is printed twice: a version
    /// reading them unclamped for when the counter's range lies inside their extents (checked
    /// once, before the loop), and the general one.
    void simd_loop(const For& stmt, const SimdLoop& loop, int lanes, int indent, std::string& out) {
        if (loop.counter_indices.empty()) {
            simd_for(stmt, loop, lanes, indent, out);
            return;
        }
        const std::string pad(static_cast<std::size_t>(indent) * 4, ' ');
        const std::string lower = print_expr(*loop.lower);
        std::string end = "static_cast<long long>(" + print_expr(*loop.upper) + ")";
        if (loop.inclusive)
            end += " + 1";
        std::string covered;
        for (const auto& [subscript, dimension] : loop.counter_indices) {
            covered += (covered.empty() ? "" : " &&\n" + pad + "        ") +
                       operand(*subscript->base, PrintedExpr::primary) + ".covers(" +
                       std::to_string(dimension) + ", " + lower + ", " + end + ")";
        }
        out += pad + "if (" + covered + ") {\n";
        in_range_ = loop.counter_indices;
        simd_for(stmt, loop, lanes, indent + 1, out);
        in_range_.clear();
        out += pad + "} else {\n";
        simd_for(stmt, loop, lanes, indent + 1, out);
        out += pad + "}\n";
    }

    void simd_for(const For& stmt, const SimdLoop& loop, int lanes, int indent, std::string& out) {
        const std::string pad(static_cast<std::size_t>(indent) * 4, ' ');
        std::string sums;
        for_each_lane(lanes, [&] {
            for (const LocalDecl* sum : loop.sums)
                sums += (sums.empty() ? "" : ", ") + value_name(*sum);
        });
        out +=
            pad + "#pragma omp simd" + (sums.empty() ? "" : " reduction(+ : " + sums + ")") + "\n";
        // OpenMP's canonical loop form: a plain `++i`, which cannot overflow below the bound.
        const std::string counter = value_name(*loop.counter);
        out += pad + "for (" + type_name(loop.counter->type) + " " + counter + " = " +
               print_expr(*loop.lower) + "; " + counter + (loop.inclusive ? " <= " : " < ") +
               print_expr(*loop.upper) + "; ++" + counter + ")";
        if (lanes == 1) {
            print_branch(*stmt.body, indent, out);
        } else {
            out += " {\n";
            for_each_lane(lanes, [&] { print_stmt(*stmt.body, indent + 1, out); });
            out += pad + "}";
        }
        out += "\n";
    }

    /// Calls `print` once for each of `lanes` lanes, or once as it is for a single lane.
    template <class Print> void for_each_lane(int lanes, const Print& print) {
        if (lanes == 1) {
            print();
            return;
        }
        for (lane_ = 0; lane_ < lanes; ++lane_)
            print();
        lane_ = -1;
    }

protected:
    /// The dimensions of `subscript` (bit d for dimension d) that the SIMD loop being printed
    /// indexes by its counter, known to lie inside the gather's extent.
    unsigned in_range_dimensions(const Subscript& subscript) const override {
        unsigned mask = 0;
        for (const auto& [indexed, dimension] : in_range_) {
            if (indexed == &subscript)
                mask |= 1u << dimension;
        }
        return mask;
    }

    PrintedExpr element_position(const ParamDecl& stream) override {
        const std::string index =
            std::string(index_param) + (lane_ > 0 ? " + " + std::to_string(lane_) : std::string());
        return {std::string(cpu) + "indexof(" + std::string(position_param) + ", " +
                position_param_index(stream) + ", " + index + ")"};
    }

private:
    /// While a SimdLoop's unclamped version is printed: its gathers indexed by the counter.
    std::vector<std::pair<const Subscript*, int>> in_range_;
    /// The lane whose copy of the body is printed, or -1 outside a jammed body.
    int lane_ = -1;
    /// While a jammed loop is printed: its counter, shared by the lanes.
    const LocalDecl* jammed_counter_ = nullptr;
    bool group_body_ = false;
    /// The choices of the body being printed to print component-wise (choose_forms).
    std::unordered_set<const Conditional*> componentwise_;
};

/// `NAME__body`, or `NAME__jammed` for the body of jam_lanes elements.
std::string body_name(const KernelDecl& kernel, int lanes) {
    return lanes == 1 ? body_name(kernel) : cpp_identifier(kernel.name) + "__jammed";
}

/// `NAME__body` (lanes 1), or `NAME__jammed` for jam_lanes elements (jammable): a parameter for
/// each lane's element of each stream, and one for each constant and gather.
std::string body_function(const KernelDecl& kernel, int lanes, const SourceLines* lines) {
    std::string parameters;
    for (const ParamDecl* param : kernel.params) {
        if (!parameters.empty())
            parameters += ",\n        ";
        if (lanes == 1 || !per_element(*param)) {
            parameters += body_parameter(*param, cpu_variable_output);
            continue;
        }
        for (int lane = 0; lane < lanes; ++lane)
            parameters += (lane == 0 ? "" : ",\n        ") +
                          body_parameter(*param, cpu_variable_output, lane_suffix(lane));
    }
    std::string text;
    if (kernel.discards)
        parameters += ",\n        " + discard_parameter();
    if (kernel.has_group_size()) {
        if (const LocalDecl* shared = shared_array(kernel))
            parameters +=
                ",\n        " + shared_array_type(*shared) + "& " + cpp_identifier(shared->name);
        parameters += ",\n        " + maybe_unused("const int " + std::string(group_thread_param));
    }
    if (kernel.uses_indexof) {
        parameters += ",\n        " +
                      maybe_unused("const Position& " + std::string(position_param)) +
                      ",\n        " + maybe_unused("std::size_t " + std::string(index_param));
        text = "template <class Position>\n";
    }
    CpuKernelPrinter printer;
    printer.map_lines(lines);
    printer.choose_forms(*kernel.body);
    if (kernel.has_group_size()) {
        // A coroutine per thread of a group (brook::cpu::GroupTask), run by the group loop.
        text += "::brook::cpu::GroupTask " + body_name(kernel, lanes) + "(\n        " + parameters +
                ") {\n";
        printer.print_group_body();
        printer.print_body(*kernel.body, 1, text);
        text += "    co_return;\n";
    } else {
        text += "[[gnu::always_inline]] inline void " + body_name(kernel, lanes) + "(\n        " +
                parameters + ") {\n";
        if (lanes == 1)
            printer.print_body(*kernel.body, 1, text);
        else
            printer.print_jammed_body(*kernel.body, lanes, 1, text);
    }
    return text + "}\n" + (lines != nullptr ? SourceLines::leave() : "");
}

/// Declarations of the constants, gathers and scatter outputs, fetched once per call (a scatter
/// output by each thread's loop function, so its sink is the thread's own). A constant is not a
/// `const` object (the body takes it by const reference): GCC splits a local vector or struct
/// into scalars (SRA) only when it is not const, and one left whole is copied into an output as
/// an aggregate (`r = constant;`, `ray.o = eye;`), a statement its vectoriser cannot take, so
/// the loop stayed scalar. A gather stays const: split into scalars, its extents and strides
/// held registers the loop needed (the ray tracer's krnShade took twice as long).
/// `narrow` makes the gathers read with float indices narrow (cpu::Gather's
/// narrow_float_indices), for NAME__dense_narrow.
std::string fetch_uniform_arguments(const KernelDecl& kernel, bool narrow = false) {
    std::string text;
    for (const ParamDecl* param : kernel.params) {
        const std::string type = cpp_type_name(param->type);
        const std::string index = std::to_string(param->index);
        if (param->param_kind == ParamKind::Constant) {
            // A copy, not a reference: the compiler then knows that no output aliases it and
            // keeps it in a register across the loop.
            const std::string value =
                "frame.constant<" + cpp_storage_type_name(param->type) + ">(" + index + ")";
            text += "    " + type + " " + local_name(*param) + " = " +
                    converted_from_storage(param->type, value) + ";\n";
        } else if (param->param_kind == ParamKind::Gather) {
            text += "    const ::brook::cpu::Gather<" + cpp_storage_type_name(param->type) + ", " +
                    std::to_string(param->gather_view_rank()) + "> " + local_name(*param) +
                    "(frame.args[" + index + "].stream" +
                    (narrow && param->gather_float_indices ? ", true" : "") + ");\n";
        } else if (param->param_kind == ParamKind::ScatterOutput) {
            text += "    const ::brook::cpu::Scatter<" + cpp_storage_type_name(param->type) + ", " +
                    std::to_string(param->gather_view_rank()) + "> " + local_name(*param) +
                    "(frame.args[" + index + "].stream);\n";
        }
    }
    return text;
}

/// How the kernel loop reaches element i of its streams: Dense, as pointer[i]; DenseRows, as
/// Dense in a loop over rows that gives indexof its positions from a brook::cpu::DenseRow;
/// General, through a ResizedView; Row, as row_pointer[i - row] along a row where every stream
/// is contiguous; Counting, as General for a vout kernel's count pass.
/// How a loop addresses the streams' elements. Streamed and StreamedRows are Dense and DenseRows
/// with the outputs going to blocks that are then stored with streaming stores (streamed_loops).
enum class Addressing { Dense, DenseRows, General, Row, Counting, Streamed, StreamedRows };

/// Whether a loop of `addressing` writes its outputs into blocks (streamed_loops).
bool into_blocks(Addressing addressing) {
    return addressing == Addressing::Streamed || addressing == Addressing::StreamedRows;
}

/// Whether a loop of `addressing` runs inside a row of a dense call, with indexof from the
/// row's brook::cpu::DenseRow.
bool along_dense_row(Addressing addressing) {
    return addressing == Addressing::DenseRows || addressing == Addressing::StreamedRows;
}

std::string body_call(const KernelDecl& kernel, Addressing addressing, int lanes = 1,
                      bool outputs_in_locals = false);

/// The local holding an output's value where it is not written in place (fixed outputs, and
/// every output during a vout kernel's count pass).
std::string value_name(const ParamDecl& param) {
    return local_name(param) + "_value";
}

/// The local block that output `param` is computed into before its streaming stores.
std::string block_name(const ParamDecl& param) {
    return local_name(param) + "_block";
}

/// The local holding where the current output row starts in stream `param` (general loop).
std::string row_pointer_name(const ParamDecl& param) {
    return local_name(param) + "_row";
}

/// Element i (i + lane for a lane of a jammed call) of stream `param`, in its storage type: an
/// array element in the dense loop, an element of a brook::cpu::ResizedView in the general one
/// (see stream_locals), or of the row's pointer on a contiguous row.
std::string stream_element(const ParamDecl& param, Addressing addressing, int lane = 0) {
    if (addressing == Addressing::Row)
        return row_pointer_name(param) + "[i - row]";
    if (into_blocks(addressing) && param.param_kind == ParamKind::OutputStream)
        return block_name(param) + "[i - first]";
    return local_name(param) + (lane == 0 ? "[i]" : "[i + " + std::to_string(lane) + "]");
}

/// Declarations of the locals that address the input and output streams (the inputs alone
/// without `with_outputs`): plain arrays for the dense loop, brook::cpu::ResizedView for the
/// general one.
std::string stream_locals(const KernelDecl& kernel, Addressing addressing, const std::string& pad,
                          bool with_outputs = true) {
    std::string text;
    for (const ParamDecl* param : kernel.params) {
        if (!per_element(*param) || (!with_outputs && param->param_kind == ParamKind::OutputStream))
            continue;
        const std::string type = element_storage_type(*param);
        const std::string index = std::to_string(param->index);
        if (addressing == Addressing::Dense)
            text += pad + type + "* const " + local_name(*param) + " = frame.data<" + type + ">(" +
                    index + ");\n";
        else
            text += pad + "::brook::cpu::ResizedView<" + type + "> " + local_name(*param) +
                    "(frame, " + index + ");\n";
    }
    return text;
}

/// The output stream of a map kernel with one (cpu_fuses), else null.
const ParamDecl* map_output(const KernelDecl& kernel) {
    const ParamDecl* output = nullptr;
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind != ParamKind::OutputStream)
            continue;
        if (output != nullptr)
            return nullptr;
        output = param;
    }
    return output;
}

/// Whether output `param` is computed in a value local and stored after the body: a fixed
/// output (a float in the body, saturated to a byte when stored), and every output of a kernel
/// that may discard (stored only when the element was not discarded).
bool held_in_local(const KernelDecl& kernel, const ParamDecl& param) {
    return param.param_kind == ParamKind::OutputStream && (is_fixed(param.type) || kernel.discards);
}

/// Declarations of the value locals of the held outputs before the body call (with the discard
/// flag, and each output's old value, which a discarded element keeps, in a kernel that may
/// discard).
std::string held_output_locals(const KernelDecl& kernel, Addressing addressing,
                               const std::string& pad) {
    std::string text = kernel.discards ? pad + discard_flag_declaration() : "";
    for (const ParamDecl* param : kernel.params) {
        if (!held_in_local(kernel, *param))
            continue;
        text += pad + cpp_type_name(param->type) + " " + value_name(*param);
        text += kernel.discards
                    ? " = " +
                          converted_from_storage(param->type, stream_element(*param, addressing)) +
                          ";\n"
                    : "{};\n";
    }
    return text;
}

/// Stores of the held outputs' values (fixed ones saturated to bytes), after the body call.
std::string held_output_stores(const KernelDecl& kernel, Addressing addressing,
                               const std::string& pad) {
    std::string text;
    const std::string inner = kernel.discards ? pad + "    " : pad;
    for (const ParamDecl* param : kernel.params) {
        if (held_in_local(kernel, *param))
            text += inner + stream_element(*param, addressing) + " = ::brook::lang::convert<" +
                    cpp_storage_type_name(param->type) + ">(" + value_name(*param) + ");\n";
    }
    if (!kernel.discards || text.empty())
        return text;
    return pad + "if (" + discarded_test() + ") {\n" + text + pad + "}\n";
}

/// Whether `stmt` or a statement inside it passes `test`.
template <class Test> bool any_statement(const Stmt& stmt, const Test& test) {
    if (test(stmt))
        return true;
    const auto inside = [&test](const Stmt* s) { return s != nullptr && any_statement(*s, test); };
    if (stmt.kind == NodeKind::Compound) {
        const auto& body = static_cast<const Compound&>(stmt).body;
        return std::any_of(body.begin(), body.end(), inside);
    }
    if (stmt.kind == NodeKind::If) {
        const auto& branch = static_cast<const If&>(stmt);
        return inside(branch.then_branch) || inside(branch.else_branch);
    }
    if (stmt.kind == NodeKind::For)
        return inside(static_cast<const For&>(stmt).body);
    if (stmt.kind == NodeKind::While)
        return inside(static_cast<const While&>(stmt).body);
    if (stmt.kind == NodeKind::DoWhile)
        return inside(static_cast<const DoWhile&>(stmt).body);
    return false;
}

/// Whether the dense loop runs the kernel jam_lanes elements at a time through `NAME__jammed`:
/// its body has a SIMD loop that can be jammed (jammed_loop) among its own statements, and no
/// `return` (which would end every lane's copy). vout kernels and fixed outputs (stored after
/// the body, see held_output_stores), like the outputs of a kernel that may discard, keep the
/// element loop.
bool jammable(const KernelDecl& kernel) {
    if (kernel.is_reduce || has_variable_output(kernel) || kernel.discards ||
        kernel.has_group_size() ||
        std::any_of(kernel.params.begin(), kernel.params.end(), [](const ParamDecl* param) {
            return param->param_kind == ParamKind::OutputStream && is_fixed(param->type);
        }))
        return false;
    const auto& body = kernel.body->body;
    return std::any_of(body.begin(), body.end(),
                       [](const Stmt* stmt) { return jammed_loop(*stmt).has_value(); }) &&
           !any_statement(*kernel.body,
                          [](const Stmt& stmt) { return stmt.kind == NodeKind::Return; });
}

/// One loop over [first, last): the body call with the locals and stores it needs.
std::string element_loop(const KernelDecl& kernel, Addressing addressing, int indent,
                         const std::string& first = "begin", const std::string& last = "end") {
    const std::string pad(static_cast<std::size_t>(indent) * 4, ' ');
    const std::string inner = pad + "    ";
    std::string before = held_output_locals(kernel, addressing, inner);
    std::string after = held_output_stores(kernel, addressing, inner);
    if (addressing == Addressing::General) {
        // The loop that a call whose elements a write mask or query tracks takes.
        before = skip_element_statement(cpu, inner) + before;
        after += mark_written_statement(kernel, cpu, inner);
    }
    std::string header;
    std::string text = pad + "for (std::size_t i = " + first + "; i < " + last + "; ++i)";
    if (along_dense_row(addressing)) {
        // Counted in an int (the row fits one, see dense_row_loops), so that the columns
        // DenseRow gives indexof stay in 32-bit lanes, where a size_t counter makes 64-bit ones.
        header = pad + "const int columns = static_cast<int>(" + last + " - " + first + ");\n";
        text = pad + "for (int column = 0; column < columns; ++column)";
        before = inner + "const std::size_t i = " + first +
                 " + static_cast<std::size_t>(column);\n" + before;
    }
    // Elements are independent and every stream written is distinct from every stream read
    // (the runtime snapshots a written one that is also gathered), so the lanes of an array
    // loop may run in any order: `omp simd` lets the compiler vectorise even across inner loops.
    if (addressing != Addressing::General && addressing != Addressing::Counting)
        text = header + pad + "#pragma omp simd\n" + text;
    if (before.empty())
        return text + "\n" + inner + body_call(kernel, addressing) + ";\n";
    return text + " {\n" + before + inner + body_call(kernel, addressing) + ";\n" + after + pad +
           "}\n";
}

/// The dense loop of a jammable kernel: `NAME__jammed` on jam_lanes elements at a time, then the
/// element loop on the rest.
std::string jammed_loops(const KernelDecl& kernel, int indent) {
    const std::string pad(static_cast<std::size_t>(indent) * 4, ' ');
    const std::string lanes = std::to_string(jam_lanes);
    return pad + "const std::size_t jammed_end = begin + (end - begin) / " + lanes + " * " + lanes +
           ";\n" + pad + "for (std::size_t i = begin; i < jammed_end; i += " + lanes + ")\n" + pad +
           "    " + body_call(kernel, Addressing::Dense, jam_lanes) + ";\n" +
           element_loop(kernel, Addressing::Dense, indent, "jammed_end");
}

/// The body call of the kernel loop, on element i of the stream locals (stream_locals), or on
/// elements i to i + lanes - 1 for `NAME__jammed`. Counting is General for a vout kernel's count
/// pass (ordinary outputs go to scratch locals, see variable_output_locals). With
/// `outputs_in_locals`, every output goes to its value local (value_name), as in a fused fold.
std::string body_call(const KernelDecl& kernel, Addressing addressing, int lanes,
                      bool outputs_in_locals) {
    std::string args;
    for (const ParamDecl* param : kernel.params) {
        if (!args.empty())
            args += ", ";
        switch (param->param_kind) {
        case ParamKind::Constant:
        case ParamKind::Gather:
        case ParamKind::ScatterOutput:
            args += local_name(*param);
            break;
        case ParamKind::ReduceInput:
            internal_error(__FILE__, __LINE__, "reduce input in a stream kernel");
        case ParamKind::InputStream:
            for (int lane = 0; lane < lanes; ++lane)
                args +=
                    (lane == 0 ? "" : ", ") +
                    converted_from_storage(param->type, stream_element(*param, addressing, lane));
            break;
        case ParamKind::OutputStream:
            // A fixed output is computed in a float local and stored after the body.
            if (outputs_in_locals || addressing == Addressing::Counting ||
                held_in_local(kernel, *param)) {
                args += value_name(*param);
                break;
            }
            for (int lane = 0; lane < lanes; ++lane)
                args += (lane == 0 ? "" : ", ") + stream_element(*param, addressing, lane);
            break;
        case ParamKind::VariableOutput:
            args += local_name(*param) + ", " + push_target_name(local_name(*param));
            break;
        case ParamKind::ReduceAccumulator:
            internal_error(__FILE__, __LINE__, "reduce accumulator in a stream kernel");
        }
    }
    if (kernel.discards)
        args += ", " + discard_argument();
    if (kernel.has_group_size())
        args += std::string(shared_array(kernel) != nullptr ? ", brook_shared" : "") + ", " +
                std::string(group_thread_param);
    if (kernel.uses_indexof)
        args += along_dense_row(addressing) ? ", brook_row, i" : ", frame, i";
    return body_name(kernel, lanes) + "(" + args + ")";
}

/// The per-element locals of a vout kernel's loop: each vout's value and VariableOutput, and in
/// the count pass a scratch value for each ordinary output.
std::string variable_output_locals(const KernelDecl& kernel, bool counting, int indent) {
    const std::string pad(static_cast<std::size_t>(indent) * 4, ' ');
    std::string text;
    for (const ParamDecl* param : kernel.params) {
        const std::string type = cpp_type_name(param->type);
        if (param->param_kind == ParamKind::VariableOutput) {
            text += pad + type + " " + local_name(*param) + "{};\n";
            text += pad + "::brook::cpu::VariableOutput<" + cpp_storage_type_name(param->type) +
                    "> " + push_target_name(local_name(*param)) + "(frame, " +
                    std::to_string(param->index) + ", i, " + std::to_string(param->push_limit) +
                    ");\n";
        } else if (counting && param->param_kind == ParamKind::OutputStream) {
            text += pad + type + " " + value_name(*param) + "{};\n";
        }
    }
    return text;
}

/// The loop of a kernel with `vout` parameters: the count pass, then the write pass.
std::string variable_output_loops(const KernelDecl& kernel) {
    std::string text = stream_locals(kernel, Addressing::General, "    ");
    text += "    if (frame.counting) {\n";
    text += "        for (std::size_t i = begin; i < end; ++i) {\n";
    text += variable_output_locals(kernel, true, 3);
    text += "            " + body_call(kernel, Addressing::Counting) + ";\n";
    text += "        }\n";
    text += "        return;\n";
    text += "    }\n";
    text += "    for (std::size_t i = begin; i < end; ++i) {\n";
    text += variable_output_locals(kernel, false, 2) +
            held_output_locals(kernel, Addressing::General, "        ");
    text += "        " + body_call(kernel, Addressing::General) + ";\n";
    text += held_output_stores(kernel, Addressing::General, "        ");
    text += "    }\n";
    return text;
}

/// A loop over the rows of the output in [begin, end) (a thread's range may start and end
/// inside a row), running `per_row` on [row, row_stop) with `pad` as the loop's indentation:
/// the general loop's, whose brook::cpu::OutputRows `rows` counts the rows' coordinates.
std::string loop_over_rows(const std::string& pad, const std::string& per_row) {
    return pad +
           "for (::brook::cpu::OutputRows rows(frame, begin, end); rows.more(); rows.next()) {\n" +
           pad + "    const std::size_t row = rows.first();\n" + pad +
           "    const std::size_t row_stop = rows.stop();\n" + per_row + pad + "}\n";
}

/// loop_over_rows for a dense call's row loop (indexof's), each row found by division, with its
/// brook::cpu::DenseRow. Its loops vectorise worse with OutputRows: the FFT's butterfly took
/// 2.65 ms a pass against 2.05.
std::string loop_over_dense_rows(const std::string& pad, const std::string& per_row) {
    return pad + "for (std::size_t row = begin; row < end;) {\n" + pad +
           "    const std::size_t row_stop = ::brook::cpu::row_end(frame, row, end);\n" + pad +
           "    const ::brook::cpu::DenseRow brook_row(frame, row);\n" + per_row + pad +
           "    row = row_stop;\n" + pad + "}\n";
}

/// The dense loop of a kernel that uses indexof, a row of the output at a time, so that indexof
/// is an addition (brook::cpu::DenseRow) and the element loop still vectorises. Only in
/// NAME__dense_narrow, which runs where the output's rows fit an int.
std::string dense_row_loops(const KernelDecl& kernel, int indent) {
    const std::string pad(static_cast<std::size_t>(indent) * 4, ' ');
    return loop_over_dense_rows(
        pad, element_loop(kernel, Addressing::DenseRows, indent + 1, "row", "row_stop"));
}

/// Whether the dense loop of `kernel` may write its outputs through streaming stores
/// (Frame::streaming_stores): a kernel without loops, whose elements cost about the same (a
/// loop's may cost hundreds of times more, and its calls move few bytes for their time), and
/// without gathers, whose reads the streaming stores slowed (the FFT's butterfly, 96 MB a call:
/// 2.21 ms a pass with plain stores, 2.77 streamed; its bit reversal 4.2 against 6.1 ms), whose
/// outputs are written at i alone (no scatter, vout or group) and never read, their old values
/// included (every path assigns each whole before naming it otherwise: the block holds no old
/// value); with the element loop or indexof's rows (not jammed, which needs a loop).
bool streams_outputs(const KernelDecl& kernel) {
    if (kernel.is_reduce || has_variable_output(kernel) || kernel.has_group_size() ||
        cpu_kernel_loops(kernel))
        return false;
    const std::vector<ParamAccess> access = param_access(kernel);
    bool outputs = false;
    for (std::size_t i = 0; i < kernel.params.size(); ++i) {
        const ParamKind kind = kernel.params[i]->param_kind;
        if (kind == ParamKind::ScatterOutput || kind == ParamKind::Gather ||
            (kind == ParamKind::OutputStream && access[i].read))
            return false;
        outputs = outputs || kind == ParamKind::OutputStream;
    }
    return outputs;
}

/// The dense loop of a call that asks for streaming stores, before the plain one: the body run
/// on a block of elements at a time into a local block per output, each block then stored by
/// brook::cpu::store_streaming. A kernel that uses indexof takes its blocks a row at a time, as
/// dense_row_loops does its elements.
std::string streamed_loops(const KernelDecl& kernel, int indent) {
    const std::string pad(static_cast<std::size_t>(indent) * 4, ' ');
    const bool rows = kernel.uses_indexof;
    const std::string inner = rows ? pad + "    " : pad;
    std::string types;
    std::string blocks;
    std::string stores;
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind != ParamKind::OutputStream)
            continue;
        const std::string type = element_storage_type(*param);
        types += (types.empty() ? "" : ", ") + type;
        blocks += pad + "    alignas(" + std::string(cpu) + "streaming_line_bytes) " + type + " " +
                  block_name(*param) + "[block];\n";
        stores += inner + "        " + std::string(cpu) + "store_streaming(" + local_name(*param) +
                  " + first, " + block_name(*param) + ", last - first);\n";
    }
    const std::string range_end = rows ? "row_stop" : "end";
    std::string loop = inner + "    for (std::size_t first = " + (rows ? "row" : "begin") +
                       "; first < " + range_end + ";) {\n" + inner +
                       "        const std::size_t last = " + std::string(cpu) +
                       "streamed_block_end(first, " + range_end + ", block);\n" +
                       element_loop(kernel, rows ? Addressing::StreamedRows : Addressing::Streamed,
                                    indent + (rows ? 3 : 2), "first", "last") +
                       stores + inner + "        first = last;\n" + inner + "    }\n";
    if (rows)
        loop = loop_over_dense_rows(pad + "    ", loop);
    return pad + "if (frame.streaming_stores) {\n" + pad +
           "    constexpr std::size_t block = " + std::string(cpu) + "streaming_block<" + types +
           ">();\n" + blocks + loop + pad + "    " + std::string(cpu) +
           "finish_streaming_stores();\n" + pad + "    return;\n" + pad + "}\n";
}

/// The loops of a dense call, with the stream locals they use, `indent` levels deep.
std::string dense_loops(const KernelDecl& kernel, int indent) {
    const std::string pad(static_cast<std::size_t>(indent) * 4, ' ');
    const std::string locals = stream_locals(kernel, Addressing::Dense, pad);
    if (jammable(kernel))
        return locals + jammed_loops(kernel, indent);
    const std::string streamed = streams_outputs(kernel) ? streamed_loops(kernel, indent) : "";
    if (kernel.uses_indexof)
        return locals + streamed + dense_row_loops(kernel, indent);
    return locals + streamed + element_loop(kernel, Addressing::Dense, indent);
}

/// The start of the current row (`row`) in each stream of the general loop (the inputs alone
/// without `with_outputs`), each found by the ResizedView call `start`, as declarations `pad`
/// deep, and the test that each of them is
/// contiguous along the row and the call's elements are not tracked (Frame::element_flags),
/// which lets the row run as an array loop.
struct RowStarts {
    std::string declarations;
    std::string contiguous;
};
RowStarts row_starts(const KernelDecl& kernel, const std::string& pad, bool with_outputs = true,
                     const std::string& start = "unit_run(rows.position(), row)") {
    RowStarts starts;
    for (const ParamDecl* param : kernel.params) {
        if (!per_element(*param) || (!with_outputs && param->param_kind == ParamKind::OutputStream))
            continue;
        const std::string type = element_storage_type(*param);
        starts.declarations += pad + type + "* const " + row_pointer_name(*param) + " = " +
                               local_name(*param) + "." + start + ";\n";
        starts.contiguous += row_pointer_name(*param) + " != nullptr && ";
    }
    // (A scatter kernel may have no stream read or written per element.)
    starts.contiguous += "frame.element_flags == nullptr";
    return starts;
}

/// The general loop, a row of the output at a time: the row's start in every stream, then an
/// array loop when each of them is contiguous along the row, else the ResizedView loop.
std::string row_loops(const KernelDecl& kernel) {
    const RowStarts starts = row_starts(kernel, "        ");
    std::string per_row = starts.declarations;
    per_row += "        if (" + starts.contiguous + ") {\n";
    per_row += element_loop(kernel, Addressing::Row, 3, "row", "row_stop");
    per_row += "        } else {\n";
    per_row += element_loop(kernel, Addressing::General, 3, "row", "row_stop");
    per_row += "        }\n";
    return loop_over_rows("    ", per_row);
}

/// The gathers of `kernel` read with a float index somewhere.
std::vector<const ParamDecl*> float_indexed_gathers(const KernelDecl& kernel) {
    std::vector<const ParamDecl*> gathers;
    for (const ParamDecl* param : kernel.params) {
        if (param->param_kind == ParamKind::Gather && param->gather_float_indices)
            gathers.push_back(param);
    }
    return gathers;
}

/// NAME__cpu of a kernel with a GroupSize (BROOKPLUS.md §4.8): each group of its threads whose
/// first element lies in [begin, end) runs whole, its threads as coroutines (run_group), so that
/// a group is never split between the runtime's ranges (the domain is whole groups).
std::string group_loop_function(const KernelDecl& kernel, const std::string& attributes) {
    const std::string size = std::to_string(kernel.group_size[0]);
    std::string text = attributes + "void " + cpu_kernel_function_name(kernel) +
                       "(const ::brook::cpu::Frame& frame, std::size_t begin, std::size_t end) {\n";
    text += fetch_uniform_arguments(kernel) + stream_locals(kernel, Addressing::General, "    ");
    if (const LocalDecl* shared = shared_array(kernel))
        text += "    " + shared_array_type(*shared) + " brook_shared;\n";
    text += "    for (std::size_t first = (begin + " + size + " - 1) / " + size + " * " + size +
            "; first < end; first += " + size + ") {\n";
    text += "        ::brook::cpu::run_group(" + size + ", [&](const int " +
            std::string(group_thread_param) + ") {\n";
    text += "            const std::size_t i = first + static_cast<std::size_t>(" +
            std::string(group_thread_param) + ");\n";
    text += "            return " + body_call(kernel, Addressing::General) + ";\n";
    text += "        });\n    }\n}\n";
    return text;
}

/// NAME__cpu. A kernel that reads a gather with float indices or uses indexof has its dense
/// loops in NAME__dense_narrow, with 32-bit indices: gathers made narrow (Gather's
/// narrow_float_indices) convert float indices through 32-bit integers, and indexof counts
/// columns in an int (DenseRow), both of which AVX2 does for a vector at once, where a
/// conversion to or from 64-bit integers keeps the loop scalar. NAME__cpu runs it for a dense
/// call whose gathers have fewer than 2^31 elements and whose output rows are as short; the
/// rare dense call beyond that (an array of 8 GiB of floats) takes the general loops, which
/// address any size. The narrow loops are a function of their own: in one that also held the
/// general loops GCC stopped inlining Gather::at. The general loops are one too, never inlined,
/// so that what they hold does not move GCC's choices for the dense ones: with OutputRows in
/// the general loop beside them, the FFT's butterfly stored its outputs a component at a time
/// (3.4 ms a pass, 2.2 ms with the general loop apart).
std::string kernel_loop_function(const KernelDecl& kernel, const std::string& attributes) {
    const std::string parameters =
        "(const ::brook::cpu::Frame& frame, std::size_t begin, std::size_t end)";
    const std::string name = cpu_kernel_function_name(kernel);
    std::string text;
    std::string statements;
    const std::vector<const ParamDecl*> gathers = float_indexed_gathers(kernel);
    const bool narrow = (!gathers.empty() || kernel.uses_indexof) && !has_variable_output(kernel);
    if (narrow) {
        const std::string narrow_loops = cpp_identifier(kernel.name) + "__dense_narrow";
        text = attributes + "void " + narrow_loops + parameters + " {\n" +
               fetch_uniform_arguments(kernel, true) + dense_loops(kernel, 1) + "}\n\n";
        std::string fits;
        for (const ParamDecl* gather : gathers) {
            fits += " && ::brook::cpu::fits_int_offsets(frame.args[" +
                    std::to_string(gather->index) + "].stream)";
        }
        if (kernel.uses_indexof)
            fits += " && ::brook::cpu::fits_int_columns(frame)";
        statements = "    if (frame.dense" + fits + ") {\n        " + narrow_loops +
                     "(frame, begin, end);\n        return;\n    }\n";
    }
    if (has_variable_output(kernel)) {
        statements += fetch_uniform_arguments(kernel) + variable_output_loops(kernel);
        return text + attributes + "void " + name + parameters + " {\n" + statements + "}\n";
    }
    if (!narrow)
        statements += fetch_uniform_arguments(kernel) + "    if (frame.dense) {\n" +
                      dense_loops(kernel, 2) + "        return;\n    }\n";
    const std::string general_loops = cpp_identifier(kernel.name) + "__general";
    text += attributes + "[[gnu::noinline]] void " + general_loops + parameters + " {\n" +
            fetch_uniform_arguments(kernel) + stream_locals(kernel, Addressing::General, "    ") +
            row_loops(kernel) + "}\n\n";
    statements += "    " + general_loops + "(frame, begin, end);\n";
    return text + attributes + "void " + name + parameters + " {\n" + statements + "}\n";
}

/// The statements that combine `value` into `result` (both lvalues of the input's storage type).
/// A fixed accumulator is a float in the body and saturates back to a byte after each step.
std::string reduce_step(const KernelDecl& kernel, const ParamDecl& input, const std::string& value,
                        const std::string& result) {
    if (!is_fixed(input.type))
        return reduce_body_call(kernel, value, result) + ";";
    const std::string type = cpp_type_name(input.type);
    return type + " brook_result = " + converted_from_storage(input.type, result) + "; " +
           reduce_body_call(kernel, converted_from_storage(input.type, value), "brook_result") +
           "; " + result + " = ::brook::lang::convert<" + cpp_storage_type_name(input.type) +
           ">(brook_result);";
}

std::string reduce_functions(const KernelDecl& kernel, const std::string& attributes) {
    // A reduction combines partial results in an order the runtime chooses, so "the current
    // element" has no position; sema rejects indexof there.
    BRCC_ASSERT(!kernel.uses_indexof,
                "indexof in reduce function '" + kernel.name + "' reached code generation");
    const ParamDecl& input = reduce_input(kernel);
    const std::string type = cpp_storage_type_name(input.type);
    std::string text = attributes + "void " + cpu_fold_function_name(kernel) +
                       "(const ::brook::cpu::Frame& frame, const ::brook::cpu::Box& box, "
                       "void* accumulator) {\n";
    text += fetch_uniform_arguments(kernel);
    const std::string order = reduce_commutes(kernel) ? "Commutative" : "Ordered";
    text += "    ::brook::cpu::fold_box<::brook::cpu::FoldOrder::" + order + ">(frame.args[" +
            std::to_string(input.index) + "].stream, box, *static_cast<" + type +
            "*>(accumulator),\n";
    text += "        [&](const " + type + "& value, " + type + "& result) { " +
            reduce_step(kernel, input, "value", "result") + " });\n";
    text += "}\n\n";
    text += attributes + "void " + cpu_combine_function_name(kernel) +
            "([[maybe_unused]] const ::brook::cpu::Frame& frame, void* accumulator, "
            "const void* value) {\n";
    text += fetch_uniform_arguments(kernel);
    text += "    " +
            reduce_step(kernel, input, "*static_cast<const " + type + "*>(value)",
                        "*static_cast<" + type + "*>(accumulator)") +
            "\n";
    return text + "}\n";
}

/// The fold of a fused fold's map elements from `first` to `last` (expressions), on element i
/// of the map's streams as `addressing` reaches them: the body's output goes to its value
/// local (zeroed first, so that fields a body leaves unwritten fold as zeros rather than as
/// whatever the stack held), which the reduction's step (brook_combine) takes. `contiguous`
/// says whether the elements may be computed in any order at the cost of one each
/// (detail::fold_run).
std::string fused_run_fold(const KernelDecl& map, const KernelDecl& reduction,
                           Addressing addressing, const std::string& first, const std::string& last,
                           bool contiguous, int indent) {
    const std::string pad(static_cast<std::size_t>(indent) * 4, ' ');
    const ParamDecl& output = *map_output(map);
    const std::string order = reduce_commutes(reduction) ? "Commutative" : "Ordered";
    // The blocks are unrolled where each element costs about a load: a map of elements of its
    // output's type (SGEMV's multiply).
    const bool elementwise =
        std::all_of(map.params.begin(), map.params.end(), [&](const ParamDecl* param) {
            return param->param_kind != ParamKind::InputStream ||
                   cpp_storage_type_name(param->type) == cpp_storage_type_name(output.type);
        });
    return pad + "::brook::cpu::fold_elements<::brook::cpu::FoldOrder::" + order + ", " +
           (contiguous ? "true" : "false") + ", " + (contiguous && elementwise ? "true" : "false") +
           ">(\n" + pad + "    [&](std::size_t k) {\n" + pad +
           "        const std::size_t i = " + first + " + k;\n" + pad + "        " +
           cpp_type_name(output.type) + " " + value_name(output) + "{};\n" + pad + "        " +
           body_call(map, addressing, 1, true) + ";\n" + pad + "        return " +
           value_name(output) + ";\n" + pad + "    },\n" + pad + "    " + last + " - " + first +
           ", brook_folded, brook_first, brook_combine);\n";
}

/// The FusedFoldFunction of `map` and `reduction` (cpu_fuses): the map's elements in the box,
/// run by run (cpu::for_each_output_run), computed as the map's loops compute them, each then
/// folded by the reduction's step as fold_box folds a stream's.
std::string fused_fold_function(const KernelDecl& map, const KernelDecl& reduction,
                                const std::string& attributes) {
    const ParamDecl& input = reduce_input(reduction);
    const std::string type = cpp_storage_type_name(input.type);
    std::string text = attributes + "void " + cpu_fused_fold_function_name(map, reduction) +
                       "(const ::brook::cpu::Frame& frame, const ::brook::cpu::Box& box, "
                       "void* accumulator) {\n";
    text += fetch_uniform_arguments(map);
    text += "    const auto brook_combine = [&](const " + type + "& value, " + type +
            "& result) { " + reduce_step(reduction, input, "value", "result") + " };\n";
    text += "    " + type + " brook_folded{};\n    bool brook_first = true;\n";
    text += "    if (frame.dense) {\n" + stream_locals(map, Addressing::Dense, "        ", false);
    text += "        ::brook::cpu::for_each_output_run(frame, box, [&](std::size_t begin, "
            "std::size_t end, const auto&) {\n";
    text += fused_run_fold(map, reduction, Addressing::Dense, "begin", "end", true, 3);
    text += "        });\n    } else {\n";
    text += stream_locals(map, Addressing::General, "        ", false);
    // Each run is inside one output row here (for_each_output_run), at `position`.
    text += "        ::brook::cpu::for_each_output_run(frame, box, [&](std::size_t row, "
            "std::size_t row_stop, const std::array<std::size_t, 4>& position) {\n";
    const RowStarts starts = row_starts(map, "            ", false, "unit_run(position, row)");
    text += starts.declarations;
    text += "            if (" + starts.contiguous + ") {\n";
    text += fused_run_fold(map, reduction, Addressing::Row, "row", "row_stop", true, 4);
    text += "            } else {\n";
    text += fused_run_fold(map, reduction, Addressing::General, "row", "row_stop", false, 4);
    text += "            }\n        });\n    }\n";
    text += "    *static_cast<" + type + "*>(accumulator) = brook_folded;\n}\n";
    return text;
}

/// Whether `stmt` is or contains a loop.
bool loops(const Stmt& stmt) {
    return any_statement(stmt, [](const Stmt& s) {
        return s.kind == NodeKind::For || s.kind == NodeKind::While || s.kind == NodeKind::DoWhile;
    });
}

/// What precedes the loop functions: with several instruction sets, the mark that has each
/// compiled once per set (brook/cpu_kernel.hpp).
std::string loop_attributes(const CpuCodeOptions& options) {
    return options.clones.empty() ? std::string() : "BROOK_CPU_DISPATCHED\n";
}

/// A helper's specifiers: always inlined, which ends, helpers not being recursive. Left to GCC,
/// a helper called in a kernel's loop could stay out of line past its inlining limits: a call
/// per element, and a loop that does not vectorise (a float4 bitonic sort's lane compare took
/// a fifth of the sort's time in its calls). And target_clones clones the loop function alone,
/// so that a helper not inlined would run the lowest instruction set's code.
constexpr std::string_view callable_specifiers = "[[gnu::always_inline]] inline";

} // namespace

std::string cpu_prologue(const CpuCodeOptions& options) {
    std::string text;
    if (!options.clones.empty()) {
        std::string names;
        for (const std::string& clone : options.clones)
            names += (names.empty() ? "\"" : ", \"") + clone + "\"";
        text = "#define BROOK_CPU_TARGETS " + names + "\n";
    }
    return text + "#include <brook/cpu_kernel.hpp>\n";
}

bool cpu_kernel_loops(const KernelDecl& kernel) {
    return loops(*kernel.body) ||
           std::any_of(kernel.callees.begin(), kernel.callees.end(),
                       [](const KernelDecl* helper) { return cpu_kernel_loops(*helper); });
}

std::size_t cpu_grain(const KernelDecl& kernel) {
    // An element that loops can cost as much as hundreds of straight-line ones (one SGEMV
    // element is a whole dot product), so a team of threads pays for itself from a few dozen.
    constexpr std::size_t looping_grain = 32;
    if (cpu_kernel_loops(kernel))
        return looping_grain;
    // The runtime's default (min_elements_per_thread), 4,096 elements a thread, is sized for
    // kernels of up to about 16 component operations an element (SAXPY on float4 has 8); a
    // kernel with more gets a thread for proportionally fewer elements. A straight-line kernel
    // of 43 float4 multiply-adds (344 operations: grain 190) at 1,024 elements: 8.9-9.8 us on
    // one thread, 5.5-6.5 us on two, where the two-thread OpenMP loop takes 5.6-5.8 us.
    constexpr std::size_t default_grain = 4096;
    constexpr std::size_t default_operations = 16;
    const std::size_t operations = element_operations(kernel);
    if (operations <= default_operations)
        return 0;
    return std::max(looping_grain, default_grain * default_operations / operations);
}

std::string cpu_kernel_function_name(const KernelDecl& kernel) {
    return cpp_identifier(kernel.name) + "__cpu";
}
std::string cpu_fold_function_name(const KernelDecl& kernel) {
    return cpp_identifier(kernel.name) + "__fold";
}
std::string cpu_combine_function_name(const KernelDecl& kernel) {
    return cpp_identifier(kernel.name) + "__combine";
}

std::string cpu_callable_prototype(const KernelDecl& kernel) {
    return callable_prototype(kernel, callable_specifiers);
}

std::string cpu_callable_definition(const KernelDecl& kernel, const CpuCodeOptions& options) {
    CpuKernelPrinter printer;
    printer.map_lines(options.lines);
    printer.choose_forms(*kernel.body);
    return callable_definition(kernel, printer, callable_specifiers) +
           (options.lines != nullptr ? SourceLines::leave() : "");
}

bool cpu_fuses(const KernelDecl& map, const KernelDecl& reduction) {
    // A map whose element costs no more than the default grain is sized for (cpu_grain: no
    // loop, few operations): there the output's store and load are a large share of the time,
    // and the fold, whose block loop is unrolled 64 times (detail::fold_run_commutative),
    // stays small; a dot product's loop in it took GCC 40 s to compile (SGEMV's gather kernel
    // paired with its row sum).
    // Its elements come from streams and constants alone: a gather's read or indexof's
    // position, inlined in every one of those steps, took GCC seconds to compile for each pair.
    if (map.is_reduce || !reduction.is_reduce || cpu_grain(map) != 0 || map.uses_indexof ||
        has_variable_output(map) || map.discards || map.has_group_size())
        return false;
    const ParamDecl* output = map_output(map);
    if (output == nullptr || is_fixed(output->type))
        return false;
    const bool gathers_or_scatters =
        std::any_of(map.params.begin(), map.params.end(), [](const auto* p) {
            return p->param_kind == ParamKind::Gather || p->param_kind == ParamKind::ScatterOutput;
        });
    const bool reduction_uniforms =
        std::any_of(reduction.params.begin(), reduction.params.end(), [](const auto* p) {
            return p->param_kind != ParamKind::ReduceInput &&
                   p->param_kind != ParamKind::ReduceAccumulator;
        });
    const ParamDecl& input = reduce_input(reduction);
    return !gathers_or_scatters && !reduction_uniforms && !is_fixed(input.type) &&
           cpp_storage_type_name(output->type) == cpp_storage_type_name(input.type);
}

std::string cpu_fused_fold_function_name(const KernelDecl& map, const KernelDecl& reduction) {
    return cpp_identifier(map.name) + "__folded_by__" + cpp_identifier(reduction.name);
}

std::string cpu_fused_fold_code(const KernelDecl& map, const KernelDecl& reduction,
                                const CpuCodeOptions& options) {
    return fused_fold_function(map, reduction, loop_attributes(options));
}

std::string cpu_kernel_code(const KernelDecl& kernel, const CpuCodeOptions& options) {
    std::string text = body_function(kernel, 1, options.lines) + "\n";
    if (jammable(kernel))
        text += body_function(kernel, jam_lanes, options.lines) + "\n";
    const std::string attributes = loop_attributes(options);
    if (kernel.is_reduce)
        return text + reduce_functions(kernel, attributes);
    if (kernel.has_group_size())
        return text + group_loop_function(kernel, attributes);
    return text + kernel_loop_function(kernel, attributes);
}

} // namespace brcc
