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

/// The C-like printer's hooks for C++ on brook::vec and brook::lang.
class CppKernelPrinter : public CLikePrinter {
protected:
    std::string type_name(const Type& type) override;
    std::string identifier(std::string_view name) override;
    std::string float_literal(double value) override;
    PrintedExpr swizzle(const Member& member) override;
    PrintedExpr masked_assign(const Assign& assign, const Member& target) override;
    PrintedExpr builtin_call(const Call& call) override;
    PrintedExpr convert(const Type& to, const Expr& operand) override;
    PrintedExpr gather(const Subscript& subscript) override;
    PrintedExpr condition(const Expr& expr) override;
    PrintedExpr vector_select(const Conditional& conditional) override;
    PrintedExpr float_remainder(const Expr& lhs, const Expr& rhs) override;
    PrintedExpr vector_logical(const Binary& binary) override;
    PrintedExpr vector_not(const Unary& unary) override;
    PrintedExpr init_list(const InitList& list, const Type& type) override;
    std::optional<PrintedExpr> wrapping_arithmetic(const Expr& expr) override;
    std::string wrapping_call(std::string_view name, const Expr& lhs, const Expr& rhs);
    std::string push(const Push& push) override;
    PrintedExpr construct(const Construct& construct) override;

    /// The dimensions of `subscript` (bit d for dimension d) known to lie inside the gather's
    /// extent, read without the index rule (at_in_range); none by default.
    virtual unsigned in_range_dimensions(const Subscript& subscript) const {
        (void)subscript;
        return 0;
    }
};

} // namespace brcc
