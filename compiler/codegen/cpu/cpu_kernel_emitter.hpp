// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The CPU backend's code for kernels: C++ that the runtime's CPU backend calls through
// KernelInfo (see include/brook/kernel_abi.hpp). Everything here goes inside the generated
// file's anonymous namespace.

#include "ast/ast.hpp"
#include "codegen/code_writer.hpp"

#include <string>
#include <vector>

namespace brcc {

/// The CPU code of a translation unit: `lines`, when given, maps the body's statements to their
/// .br lines; `clones` are the GCC target_clones names of the loop functions, empty for one
/// instruction set (CodegenOptions::cpu_clones).
struct CpuCodeOptions {
    const SourceLines* lines = nullptr;
    std::vector<std::string> clones;
};

/// The lines at the top of the generated file: brook/cpu_kernel.hpp, after the instruction sets
/// to compile the loop functions for (BROOK_CPU_TARGETS) when there are several.
std::string cpu_prologue(const CpuCodeOptions& options);
/// The function through which kernels call `kernel` (callable_definition), and its prototype.
std::string cpu_callable_prototype(const KernelDecl& kernel);
std::string cpu_callable_definition(const KernelDecl& kernel, const CpuCodeOptions& options = {});
/// For a kernel: `NAME__body` (the translated body, always inlined) and `NAME__cpu` (the loop
/// over an element range). For a reduction: `NAME__body`, `NAME__fold` and `NAME__combine`.
std::string cpu_kernel_code(const KernelDecl& kernel, const CpuCodeOptions& options = {});

/// Whether brcc prints a fused fold (cpu::FusedFoldFunction) of map kernel `map` and reduce
/// function `reduction`: the map's element is cheap (no loop, no more operations than the
/// default grain is sized for) and it writes one output of the reduction's input type per
/// element and nothing else (no scatter or vout output, no discard, no thread groups), and the
/// reduction takes no arguments but its input and accumulator.
bool cpu_fuses(const KernelDecl& map, const KernelDecl& reduction);
/// The fused fold's name, and its definition (after both kernels' code).
std::string cpu_fused_fold_function_name(const KernelDecl& map, const KernelDecl& reduction);
std::string cpu_fused_fold_code(const KernelDecl& map, const KernelDecl& reduction,
                                const CpuCodeOptions& options = {});

/// cpu::KernelCode::grain for `kernel`: small when its body (or a helper it calls) loops, lower
/// than the runtime's default in proportion to its operations per element (element_cost.hpp)
/// when it does not but has many, else 0 (the runtime's default).
std::size_t cpu_grain(const KernelDecl& kernel);
/// cpu::KernelCode::loops: whether the body, or a helper it calls, has a loop.
bool cpu_kernel_loops(const KernelDecl& kernel);

/// Names of the generated functions the KernelInfo points at.
std::string cpu_kernel_function_name(const KernelDecl& kernel);
std::string cpu_fold_function_name(const KernelDecl& kernel);
std::string cpu_combine_function_name(const KernelDecl& kernel);

} // namespace brcc
