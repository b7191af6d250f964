#pragma once
// The backend-independent part of a kernel's translation: its parameter table and KernelInfo
// (inside the anonymous namespace), and the host-callable stub named after the kernel that
// packs the call's arguments into KernelArgs and calls brook::run_kernel / brook::run_reduce.

#include "ast/ast.hpp"

#include <string>

namespace brcc {

/// `NAME__info`, the kernel's `const ::brook::KernelInfo` (host code names a reduce function's
/// to pass it as an operator).
std::string kernel_info_name(const KernelDecl& kernel);
/// `NAME__params` and `NAME__info`; `with_cpu` points the info at the CPU functions, `with_gl`
/// adds the kernel's GLSL (codegen/glsl).
std::string kernel_info(const KernelDecl& kernel, bool with_cpu, bool with_gl);
/// The stub (two overloads for a reduction: a stream target and a host variable target).
std::string kernel_stub(const KernelDecl& kernel);

} // namespace brcc
