// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// A backend's code generator: what brcc embeds into the generated C++ for one backend. Each lives
// in its own folder under compiler/codegen/ (cpu/, gl/, ...), whose CMakeLists adds its sources
// and registers it with brcc_register_generator(NAME); NAME's folder defines
// `std::unique_ptr<BackendGenerator> make_NAME_generator(const GeneratorContext&)`, which takes
// from the context the settings of its own backend (the cpu generator's `#line` directives and
// target clones), so that this interface holds none. emit_cpp asks every generator that
// --backends selects for its part of each kernel, and the kernel's KernelInfo gets one entry per
// backend: the backend's name and the payload expression its generator returned. The same
// generators check each kernel first, as sema finishes it (check_kernel): a backend's own limits.

#include "ast/ast.hpp"
#include "support/diagnostics.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace brcc {

struct CodegenOptions;

/// What generators are made for: the C++ file that emit_cpp writes from the translation unit
/// in `sources` as `options` say, each generator reading what concerns its backend. Both null
/// where no C++ file is written (`--emit-kernels`, the kernels' checks): generators then write
/// their code as for `brcc --emit-cpp` with no options (the cpu generator: no `#line`
/// directives, one instruction set).
struct GeneratorContext {
    const SourceManager* sources = nullptr;
    const CodegenOptions* options = nullptr;
};

/// One backend's code for a kernel.
struct BackendKernelCode {
    /// C++ definitions placed in the anonymous namespace before the kernel's KernelInfo.
    std::string definitions;
    /// The expression stored as the entry's `const void* code` (the address of an object from
    /// `definitions`, or a string literal), which the runtime's backend of the same name reads.
    std::string payload;
};

/// A kernel as a standalone source file.
struct KernelSource {
    std::string text;
    /// The file name's suffix, with its dot (`.cu`, `.glsl`).
    std::string suffix;
};

class BackendGenerator {
public:
    virtual ~BackendGenerator() = default;
    BackendGenerator() = default;
    BackendGenerator(const BackendGenerator&) = delete;
    BackendGenerator& operator=(const BackendGenerator&) = delete;

    /// The BRT_RUNTIME name of the backend the code is for.
    virtual std::string_view name() const = 0;
    /// Lines for the top of the generated file: the headers its code uses.
    virtual std::string prologue() const { return {}; }
    /// For a kernel that kernels call (a helper, or any other kernel a body calls): its
    /// declaration, emitted before the first kernel that calls it when it comes later in the
    /// file, and its definition.
    virtual std::string helper_prototype(const KernelDecl& helper) {
        (void)helper;
        return {};
    }
    virtual std::string helper_definition(const KernelDecl& helper) {
        (void)helper;
        return {};
    }
    /// The code of a stream kernel or reduce function; nothing when this backend has none for
    /// it (the runtime then says so if the program runs it there).
    virtual std::optional<BackendKernelCode> kernel_code(const KernelDecl& kernel) = 0;
    /// The kernel as a standalone source file, for backends that compile it at run time
    /// (`brcc --emit-kernels`); nothing (the default) when the backend has none.
    virtual std::optional<KernelSource> kernel_source(const KernelDecl& kernel) {
        (void)kernel;
        return std::nullopt;
    }
    /// Reports, as warnings under a -W name of the backend's own, what of a valid `kernel` this
    /// backend may not run everywhere: past the limits its API guarantees every driver has.
    /// Called for each kernel sema found no mistakes in (which parameters its body names is
    /// ParamDecl::named_in_body), and only for the backends --backends selects: a backend whose
    /// code the program leaves out cannot fail to run it. Nothing (the default) for none.
    virtual void check_kernel(const KernelDecl& kernel, DiagnosticEngine& diags) const {
        (void)kernel;
        (void)diags;
    }
    /// Reports, as errors, what of a valid program this backend's code cannot be made of: a
    /// backend that compiles its code inside brcc (vulkan's SPIR-V) reports its compiler's
    /// rejections here. Called for each stream kernel and reduce function once sema has
    /// analysed the whole unit without errors (the call graph too: callees, discards), only for
    /// the backends --backends selects. Nothing (the default) for none.
    virtual void check_analysed_kernel(const KernelDecl& kernel, DiagnosticEngine& diags) const {
        (void)kernel;
        (void)diags;
    }
};

/// Every registered generator, in registration order (compiler/codegen/CMakeLists.txt).
std::vector<std::unique_ptr<BackendGenerator>>
make_backend_generators(const GeneratorContext& context = {});
/// The generators of `backends` (--backends, each registered), in registration order.
std::vector<std::unique_ptr<BackendGenerator>>
make_backend_generators(const std::vector<std::string>& backends,
                        const GeneratorContext& context = {});

/// The names of the registered generators, in the same order: what --backends accepts.
std::vector<std::string> registered_backends();

} // namespace brcc
