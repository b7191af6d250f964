// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The backend-independent part of a kernel's translation: its parameter table and KernelInfo
// (inside the anonymous namespace), and the host-callable stub named after the kernel that
// packs the call's arguments into KernelArgs and calls brook::run_kernel / brook::run_reduce.

#include "ast/ast.hpp"

#include <string>
#include <vector>

namespace brcc {

/// `NAME__info`, the kernel's `const ::brook::KernelInfo` (host code names a reduce function's
/// to pass it as an operator).
std::string kernel_info_name(const KernelDecl& kernel);
/// One entry of a KernelInfo's backend list: the backend's name and its generator's payload.
struct BackendEntry {
    std::string backend;
    std::string payload;
};

/// `NAME__params`, `NAME__backends` (one entry per backend that has code for the kernel) and
/// `NAME__info`.
std::string kernel_info(const KernelDecl& kernel, const std::vector<BackendEntry>& backends);
/// The stub's declaration (both overloads for a reduction), for a prototype or a header: the
/// declaration of NAME__launch and the template stub host code calls, which passes the call's
/// source location on, guarded so that a translation unit defines it once.
std::string kernel_stub_declaration(const KernelDecl& kernel);
/// Brook+'s kernel object for brcc's -h header (BROOKPLUS.md §3.1): `NAME(args...)` calls the
/// kernel through NAME__launch with Brook+ Stream<T>s or runtime handles, recording its errors
/// on its outputs. An object, not the stub: the header is what C++ files include, and the stub
/// functions of the same name stay in the kernel's own translation unit.
std::string kernel_object(const KernelDecl& kernel);
/// The stub's declaration and the definition of NAME__launch, which runs the kernel.
std::string kernel_stub(const KernelDecl& kernel);
/// The stub with BrookGPU's exact signature (COMPAT.md §2.2), for hand-written declarations
/// and C++ files; written at the end of the file, after all host code (kernel_stub_emitter.cpp
/// says why).
std::string kernel_compat_stub(const KernelDecl& kernel);
/// `extern "C" const ::brook::KernelInfo* const brook_kernel_table[]`: the KernelInfo of each
/// of `kernels` (those the file defines), then a null pointer; and
/// `extern "C" const char* const brook_struct_fields[]`: for each of `structs`, its name and its
/// leaf fields' member designators, then a null pointer, and a null pointer after the last. A
/// process that loads the compiled file as a shared library finds its kernels through them
/// (dlsym), calls them with brook::run_kernel and brook::run_reduce as the stubs do, and names
/// the fields of their element types.
std::string kernel_table(const std::vector<const KernelDecl*>& kernels,
                         const std::vector<const StructDecl*>& structs);

} // namespace brcc
