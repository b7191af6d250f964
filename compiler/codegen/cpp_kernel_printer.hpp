// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The kernel-body printer of the backends that compile C++: the CPU backend's loops and the CUDA
// backend's NVRTC programs print a body the same way, with brook::vec values and the kernel
// language of include/brook/kernel_language.hpp (brook::lang). It supplies the C-like printer's
// C++ hooks; what differs between the targets stays with them: indexof (where an element's
// position comes from), the names of a body's values (the CPU's jammed copies of a body), and
// the loops a target prints its own way (the CPU's OpenMP SIMD loops), with the gathers such a
// loop may read unclamped.

#include "codegen/c_like_printer.hpp"

#include <string>
#include <string_view>

namespace brcc {

/// The name of the object a body's `push(name)` on `vout` parameter `name` goes through: a
/// VariableOutput of the target's runtime with a `push(value)` member.
std::string push_target_name(std::string_view name);

// ----- What both C++ generators print around a body -----

/// `[[maybe_unused]] declaration`.
std::string maybe_unused(const std::string& declaration);
/// `NAME__body`, the function holding a kernel's translated body.
std::string body_name(const KernelDecl& kernel);
/// A parameter of `NAME__body` (with `suffix` after its name: the CPU's lanes of a jammed body).
/// A vout parameter also gets its `variable_output<T>&` (the target runtime's class template).
std::string body_parameter(const ParamDecl& param, std::string_view variable_output,
                           const std::string& suffix = "");
/// `bool& brook_discarded`: the last parameter of a body that may discard (after the positions).
std::string discard_parameter();
/// The test that the element was not discarded, to guard its outputs' stores.
std::string discarded_test();
/// `bool brook_discarded = false;`: the flag, declared before the body's call.
std::string discard_flag_declaration();
/// The body call's argument for its discard parameter.
std::string discard_argument();
/// The statements of an element loop (element `i`, indented by `pad`) that a write mask or query
/// needs (Frame::element_flags, through `runtime`'s skips_element and mark_written,
/// "::brook::cpu::" or the CUDA device namespace): before the element, skipping it; after, marking
/// it written unless it discarded.
std::string skip_element_statement(std::string_view runtime, const std::string& pad);
std::string mark_written_statement(const KernelDecl& kernel, std::string_view runtime,
                                   const std::string& pad);
/// The local holding parameter `param` in the functions around the body. Its name carries the
/// parameter's position, so it cannot clash with the functions' own names.
std::string local_name(const ParamDecl& param);
/// `element` (of `type`'s storage type) as a value of `type`.
std::string converted_from_storage(const Type& type, const std::string& element);
/// The storage type of an element-wise stream's elements, const for an input.
std::string element_storage_type(const ParamDecl& param);
/// Whether `kernel` has `out` parameters (a called one writes them back through references).
bool has_out_parameters(const KernelDecl& kernel);
/// The reduce body's call with `input` and `accumulator` as the two stream parameters, the
/// constants and gathers as their locals.
std::string reduce_body_call(const KernelDecl& kernel, const std::string& input,
                             const std::string& accumulator);

class CppKernelPrinter;

/// The C++ type of a group-shared array (`shared T s[N];`, BROOKPLUS.md §4.8),
/// `::brook::lang::GroupShared<T, N>`.
std::string shared_array_type(const LocalDecl& array);

/// The parameter index by which the runtime's indexof finds `stream`'s position: its own, or -1
/// for a scatter output, whose position is the domain's (BROOKPLUS.md §4.6).
std::string position_param_index(const ParamDecl& stream);

/// `inline T NAME__call(...);`: the function through which kernels call kernel `kernel`, with
/// `specifiers` in place of `inline`.
std::string callable_prototype(const KernelDecl& kernel, std::string_view specifiers = "inline");
/// Its definition, the body printed by `printer`. Values and input streams are C values, gathers
/// brook::lang::Gather values, and each `out` parameter a forwarding reference (a write mask
/// comes as a brook::lang::MaskedLvalue) that the body's copy of it
/// starts from and is stored back to when the body ends, in parameter order (copy-in/copy-out,
/// as GLSL's `inout`: an input bound to the same variable keeps its old value). The positions
/// of the streams whose indexof it uses come last.
std::string callable_definition(const KernelDecl& kernel, CppKernelPrinter& printer,
                                std::string_view specifiers = "inline");

/// The C-like printer's hooks for C++ on brook::vec and brook::lang.
class CppKernelPrinter : public CLikePrinter {
protected:
    std::string position_parameter(const ParamDecl& stream) override;
    std::string callable_name(const KernelDecl& callee) override;
    std::string out_argument(const Expr& arg) override;
    std::string discard_flag() override;
    std::string discard() override;
    std::string type_name(const Type& type) override;
    std::string identifier(std::string_view name) override;
    std::string float_literal(double value) override;
    std::string double_literal(double value) override;
    PrintedExpr field(const Member& member) override;
    PrintedExpr swizzle(const Member& member) override;
    PrintedExpr masked_assign(const Assign& assign, const Member& target) override;
    PrintedExpr builtin_call(const Call& call) override;
    PrintedExpr convert(const Type& to, const Expr& operand) override;
    PrintedExpr gather(const Subscript& subscript) override;
    PrintedExpr scatter_store(const Subscript& target, const Expr& value) override;
    PrintedExpr shared_element(const Subscript& subscript) override;
    PrintedExpr condition(const Expr& expr) override;
    PrintedExpr vector_select(const Conditional& conditional) override;
    PrintedExpr float_remainder(const Expr& lhs, const Expr& rhs) override;
    PrintedExpr vector_logical(const Binary& binary) override;
    PrintedExpr vector_not(const Unary& unary) override;
    PrintedExpr init_list(const InitList& list, const Type& type) override;
    std::optional<PrintedExpr> wrapping_arithmetic(const Expr& expr) override;
    PrintedExpr integer_division(const Binary& binary) override;
    std::optional<PrintedExpr> compound_assignment(const Assign& assign) override;
    std::string wrapping_call(std::string_view name, const Expr& lhs, const Expr& rhs);
    std::string push(const Push& push) override;
    PrintedExpr construct(const Construct& construct) override;
    /// `o.at(i0, i1)` or `o.at_vector(p)`: the element of a gather or scatter output that
    /// `subscript` names.
    std::string array_element(const Subscript& subscript);

    /// The dimensions of `subscript` (bit d for dimension d) known to lie inside the gather's
    /// extent, read without the index rule (at_in_range); none by default.
    virtual unsigned in_range_dimensions(const Subscript& subscript) const {
        (void)subscript;
        return 0;
    }
};

} // namespace brcc
