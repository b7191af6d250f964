// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The gl backend's generator: a kernel's GLSL (glsl_kernel_emitter) as a raw string literal,
// the "gl" entry of the kernel's KernelInfo; its check warns about kernels past the limits
// every OpenGL 4.5 driver has (gl_limits).

#include "brook/detail/glsl_interface.hpp"
#include "codegen/backend_generator.hpp"
#include "codegen/gl/gl_limits.hpp"
#include "codegen/gl/glsl_kernel_emitter.hpp"
#include "support/diagnostics.hpp"

namespace brcc {

namespace {

class GlGenerator final : public BackendGenerator {
public:
    std::string_view name() const override { return brook::detail::glsl::backend_name; }

    void check_kernel(const KernelDecl& kernel, DiagnosticEngine& diags) const override {
        check_gl_limits(kernel, diags);
    }

    std::optional<BackendKernelCode> kernel_code(const KernelDecl& kernel) override {
        const std::string glsl = glsl_kernel_source(kernel);
        if (glsl.empty())
            return std::nullopt;
        BRCC_ASSERT(glsl.find(")brook_glsl\"") == std::string::npos,
                    "GLSL of '" + kernel.name + "' contains the raw string's delimiter");
        return BackendKernelCode{{}, "R\"brook_glsl(" + glsl + ")brook_glsl\""};
    }

    /// The shader as the gl backend receives it, before it prepends `#version`, the pass's
    /// defines and its prelude (docs/gl_backend.md).
    std::optional<KernelSource> kernel_source(const KernelDecl& kernel) override {
        std::string glsl = glsl_kernel_source(kernel);
        if (glsl.empty())
            return std::nullopt;
        return KernelSource{std::move(glsl), ".glsl"};
    }
};

} // namespace

std::unique_ptr<BackendGenerator> make_gl_generator(const GeneratorContext&) {
    return std::make_unique<GlGenerator>();
}

} // namespace brcc
