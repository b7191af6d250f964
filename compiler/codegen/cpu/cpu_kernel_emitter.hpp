#pragma once
// The CPU backend's code for kernels: C++ that the runtime's CPU backend calls through
// KernelInfo (see include/brook/kernel_abi.hpp). Everything here goes inside the generated
// file's anonymous namespace.

#include "ast/ast.hpp"
#include "codegen/code_writer.hpp"

#include <string>

namespace brcc {

/// The function through which kernels call `kernel` (callable_definition).
/// `lines`, when given, maps the body's statements to their .br lines.
std::string cpu_callable_definition(const KernelDecl& kernel, const SourceLines* lines = nullptr);
/// For a kernel: `NAME__body` (the translated body, always inlined) and `NAME__cpu` (the loop
/// over an element range). For a reduction: `NAME__body`, `NAME__fold` and `NAME__combine`.
std::string cpu_kernel_code(const KernelDecl& kernel, const SourceLines* lines = nullptr);

/// KernelInfo::cpu_grain for `kernel`: small when its body (or a helper it calls) loops, 0 (the
/// runtime's default) otherwise.
std::size_t cpu_grain(const KernelDecl& kernel);

/// Names of the generated functions the KernelInfo points at.
std::string cpu_kernel_function_name(const KernelDecl& kernel);
std::string cpu_fold_function_name(const KernelDecl& kernel);
std::string cpu_combine_function_name(const KernelDecl& kernel);

} // namespace brcc
