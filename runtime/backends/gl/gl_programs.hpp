// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The gl backend's shader cache. A program is one generated kernel shader (KernelInfo's GLSL
// with the prelude) plus the defines of one pass, e.g. which outputs it writes; each is compiled
// and linked once per process and kept with its uniform locations. A shader that does not
// compile is a bug in brcc: the error names the kernel and prints the driver's log.

#include "backends/gl/gl_context.hpp"
#include "backends/gl/gl_objects.hpp"

#include <array>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace brook::detail::gl {

/// Stops with an error naming kernel `name`, the limit and its value when its fragment shader
/// (`source`, brcc's GLSL after the prelude) declares uniforms of more components than `limit`
/// (Context::max_uniform_components): a valid kernel with large constants, which the driver
/// would reject, or take minutes to compile first. Components are counted as GLSL declares
/// them (a float 1, a vec3 3, an array its length times its type's), which no driver packs
/// tighter, so a shader that passes may still fail to link: shader_failure then says why.
void check_uniform_components(const std::string& name, const char* source, int limit);

/// The uniforms of stream parameter P in brcc's GLSL (brook/detail/glsl_interface.hpp): brt_ext_P,
/// brt_str_P, brt_off_P and a sampler brt_tex_P_F per field F (-1 for one the program does not
/// use).
struct StreamUniforms {
    GLint extents = -1;
    GLint strides = -1;
    GLint offset = -1;
    std::vector<GLint> textures;
};

class ShaderProgram {
public:
    explicit ShaderProgram(Program program) : program_(std::move(program)) {}
    GLuint get() const { return program_.get(); }
    /// The uniform's location (-1 when the shader does not use it, which GL ignores).
    GLint uniform(const std::string& name);
    /// The uniforms of stream parameter `param` with `fields` fields, looked up on first use:
    /// a call finds them by index, without building their names.
    const StreamUniforms& stream_uniforms(std::size_t param, std::size_t fields);
    /// The uniform of each field of constant parameter `param` with `fields` fields: brt_c_P for
    /// a scalar or vector, which is one uniform, else brt_c_P_F per leaf field of a struct.
    const std::vector<GLint>& constant_uniforms(std::size_t param, std::size_t fields);

private:
    Program program_;
    std::unordered_map<std::string, GLint> locations_;
    /// By parameter index, filled in on first use.
    std::vector<std::optional<StreamUniforms>> streams_;
    std::vector<std::optional<std::vector<GLint>>> constants_;
};

class ProgramCache {
public:
    /// The program for `source` (the fragment shader after the prelude) with `defines`, built
    /// on first use. `key` identifies the source (a KernelInfo, or a backend-internal shader);
    /// `name` is what errors call it.
    ShaderProgram& get(const void* key, const std::string& name, const char* source,
                       const std::string& defines);
    /// Programs compiled and linked so far in this process, by every cache (brook::gl's
    /// programs_compiled, which tests use to see that nothing is compiled twice).
    static std::size_t compiled_in_process();

private:
    std::map<std::pair<const void*, std::string>, std::unique_ptr<ShaderProgram>> programs_;
    /// The vertex shaders: [0] covers the viewport, [1] draws points (gl_programs.cpp).
    std::array<Shader, 2> vertex_;
};

} // namespace brook::detail::gl
