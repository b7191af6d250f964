// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Shader compilation: every fragment shader is `#version 430 core`, the pass's defines, the
// prelude (prelude.glsl, embedded at build time) and the kernel's source; the vertex shader is
// one triangle covering the viewport, with no vertex data, or for a pass whose defines draw
// points (BRT_DRAW_POINTS), one point on the texel of each element of an output view.
#include "backends/gl/gl_programs.hpp"

#include "brook/detail/glsl_interface.hpp"
#include "core/errors.hpp"
#include "core/profiler.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <string_view>
#include <vector>

namespace brook::detail::gl {

extern const char* const prelude_glsl;

namespace {

std::atomic<std::size_t> programs_compiled{0};

constexpr const char* points_define = "#define BRT_DRAW_POINTS\n";

constexpr const char* vertex_source = R"glsl(
#ifdef BRT_DRAW_POINTS
// Vertex i is element i of the view (brt_view_off + position . brt_view_str, the position
// within brt_frame_ext), drawn as a point on its texel of the view's streams, brt_view_size
// texels; the fragment shader takes the position as the element it computes.
uniform ivec4 brt_frame_ext;
uniform ivec4 brt_view_str;
uniform int brt_view_off;
uniform ivec2 brt_view_size;
flat out ivec4 brt_point_index;
void main() {
    int rest = gl_VertexID;
    ivec4 position;
    for (int d = 3; d >= 0; --d) {
        position[d] = rest % brt_frame_ext[d];
        rest /= brt_frame_ext[d];
    }
    int element = brt_view_off + position.x * brt_view_str.x + position.y * brt_view_str.y +
                  position.z * brt_view_str.z + position.w * brt_view_str.w;
    vec2 texel = vec2(element % brt_view_size.x, element / brt_view_size.x) + 0.5;
    gl_Position = vec4(texel / vec2(brt_view_size) * 2.0 - 1.0, 0.0, 1.0);
    brt_point_index = position;
}
#else
void main() {
    // (-1,-1), (3,-1), (-1,3): one triangle that covers the whole viewport.
    vec2 corner = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
#endif
)glsl";

/// The samplers `source` declares: brcc's GLSL has one per field of every stream argument
/// (`uniform sampler2D`, `isampler2D` or `usampler2D`).
int declared_samplers(const std::string& source) {
    int count = 0;
    for (std::size_t at = source.find("sampler2D "); at != std::string::npos;
         at = source.find("sampler2D ", at + 1))
        ++count;
    return count;
}

/// A valid kernel can still ask for more textures than the driver has units; brcc cannot know
/// the driver's number, so a shader that fails while it declares more samplers than that is the
/// user's to change: an error that names the kernel, the limit and its value.
void check_texture_units(const std::string& name, const std::string& source) {
    GLint units = 0;
    glGetIntegerv(GL_MAX_TEXTURE_IMAGE_UNITS, &units);
    const int samplers = declared_samplers(source);
    if (units <= 0 || samplers <= units)
        return;
    fatal("kernel '" + name + "' reads " + std::to_string(samplers) +
          " textures (one per field of each stream and gather argument), more than this OpenGL "
          "driver's GL_MAX_TEXTURE_IMAGE_UNITS of " +
          std::to_string(units) +
          ": split it into kernels with fewer stream and gather arguments (or pack arrays into "
          "one of a float4 or struct type), or run it with BRT_RUNTIME=cpu");
}

/// The lines of `source` outside every #if/#ifdef/#ifndef block: what a shader declares
/// whatever the pass's defines are.
std::string unconditional_lines(const std::string& source) {
    std::string kept;
    int depth = 0;
    std::size_t start = 0;
    while (start < source.size()) {
        std::size_t end = source.find('\n', start);
        end = end == std::string::npos ? source.size() : end + 1;
        const std::string_view line(source.data() + start, end - start);
        const std::size_t first = line.find_first_not_of(" \t");
        const std::string_view text = first == std::string_view::npos ? "" : line.substr(first);
        if (text.starts_with("#if")) {
            ++depth;
        } else if (text.starts_with("#endif")) {
            --depth;
        } else if (depth == 0) {
            kept += line;
        }
        start = end;
    }
    return kept;
}

/// The uniform components `source` declares: `uniform TYPE NAME;` or `uniform TYPE NAME[N];`,
/// each counted as GLSL declares it (a scalar 1, a vecN N; samplers, which take texture units,
/// 0), or with each padded to a vec4 (as drivers that do not pack uniforms store them) when
/// `padded`. brcc declares one uniform per leaf field of a struct constant, so structs add up.
int declared_uniform_components(const std::string& source, bool padded) {
    static const std::regex declaration(R"(\buniform\s+(\w+)\s+\w+\s*(\[\s*(\d+)\s*\])?\s*;)");
    int components = 0;
    for (auto match = std::sregex_iterator(source.begin(), source.end(), declaration);
         match != std::sregex_iterator(); ++match) {
        const std::string type = (*match)[1];
        if (type.find("sampler") != std::string::npos)
            continue;
        const char last = type.back();
        int size = last >= '2' && last <= '4' ? last - '0' : 1;
        if (padded)
            size = 4;
        const int length = (*match)[3].matched ? std::stoi((*match)[3]) : 1;
        components += size * length;
    }
    return components;
}

[[noreturn]] void too_many_uniform_components(const std::string& name, int components, int limit) {
    fatal("kernel '" + name + "' needs " + std::to_string(components) +
          " uniform components (one per component of each constant argument, of each field of "
          "a struct constant, and 9 per stream argument), more than this OpenGL driver's "
          "GL_MAX_FRAGMENT_UNIFORM_COMPONENTS of " +
          std::to_string(limit) +
          ": pass a large table as a stream read by gather (float4 table[]) rather than as a "
          "constant, split the kernel, or run it with BRT_RUNTIME=cpu");
}

/// A shader that fails while its uniforms, each padded to a vec4, are more than the driver's
/// limit: the driver does not pack them, and the kernel is the user's to change.
void check_padded_uniform_components(const std::string& name, const std::string& source) {
    GLint limit = 0;
    glGetIntegerv(GL_MAX_FRAGMENT_UNIFORM_COMPONENTS, &limit);
    const int components = declared_uniform_components(source, true);
    if (limit > 0 && components > limit)
        too_many_uniform_components(name, components, limit);
}

/// A GLSL that the driver rejects is brcc's (or the backend's) bug, reported like brcc's own
/// internal errors: the kernel, the log, exit status 70; unless a driver limit explains it.
[[noreturn]] void shader_failure(const std::string& name, const char* stage, const std::string& log,
                                 const std::string& source) {
    check_texture_units(name, source);
    check_padded_uniform_components(name, source);
    std::fflush(stdout);
    std::fprintf(stderr,
                 "brook: internal compiler error: the GLSL of kernel '%s' failed to %s:\n%s\n"
                 "--- shader source ---\n%s\n",
                 name.c_str(), stage, log.c_str(), source.c_str());
    std::exit(70);
}

std::string shader_log(GLuint shader) {
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<std::size_t>(length) + 1, '\0');
    glGetShaderInfoLog(shader, length, nullptr, log.data());
    return log.data();
}

std::string program_log(GLuint program) {
    GLint length = 0;
    glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<std::size_t>(length) + 1, '\0');
    glGetProgramInfoLog(program, length, nullptr, log.data());
    return log.data();
}

Shader compile(GLenum stage, const std::string& source, const std::string& name) {
    Shader shader(glCreateShader(stage));
    const char* text = source.c_str();
    glShaderSource(shader.get(), 1, &text, nullptr);
    glCompileShader(shader.get());
    GLint ok = GL_FALSE;
    glGetShaderiv(shader.get(), GL_COMPILE_STATUS, &ok);
    if (ok != GL_TRUE) {
        shader_failure(name, "compile", shader_log(shader.get()), source);
    }
    return shader;
}

} // namespace

void check_uniform_components(const std::string& name, const char* source, int limit) {
    const std::string whole = unconditional_lines(std::string(prelude_glsl) + source);
    const int components = declared_uniform_components(whole, false);
    if (components > limit)
        too_many_uniform_components(name, components, limit);
}

GLint ShaderProgram::uniform(const std::string& name) {
    const auto found = locations_.find(name);
    if (found != locations_.end()) {
        return found->second;
    }
    const GLint location = glGetUniformLocation(program_.get(), name.c_str());
    locations_.emplace(name, location);
    return location;
}

namespace {

/// slots[index], made on first use.
template <class T>
std::optional<T>& slot_of(std::vector<std::optional<T>>& slots, std::size_t index) {
    if (slots.size() <= index) {
        slots.resize(index + 1);
    }
    return slots[index];
}

} // namespace

const StreamUniforms& ShaderProgram::stream_uniforms(std::size_t param, std::size_t fields) {
    std::optional<StreamUniforms>& found = slot_of(streams_, param);
    if (!found) {
        StreamUniforms made{uniform(glsl::stream_extents(param)),
                            uniform(glsl::stream_strides(param)),
                            uniform(glsl::stream_offset(param)),
                            {}};
        for (std::size_t f = 0; f < fields; ++f) {
            made.textures.push_back(uniform(glsl::stream_texture(param, f)));
        }
        found = std::move(made);
    }
    return *found;
}

const std::vector<GLint>& ShaderProgram::constant_uniforms(std::size_t param, std::size_t fields) {
    std::optional<std::vector<GLint>>& found = slot_of(constants_, param);
    if (!found) {
        const GLint whole = fields == 1 ? uniform(glsl::constant(param)) : -1;
        std::vector<GLint> made;
        for (std::size_t f = 0; f < fields; ++f) {
            made.push_back(whole != -1 ? whole : uniform(glsl::constant(param, f)));
        }
        found = std::move(made);
    }
    return *found;
}

ShaderProgram& ProgramCache::get(const void* key, const std::string& name, const char* source,
                                 const std::string& defines) {
    auto& slot = programs_[{key, defines}];
    if (slot) {
        return *slot;
    }
    const ProfileTimer timer;
    const bool points = defines.find(points_define) != std::string::npos;
    Shader& vertex = vertex_[points ? 1 : 0];
    if (vertex.get() == 0) {
        vertex = compile(GL_VERTEX_SHADER,
                         std::string("#version 430 core\n") + (points ? points_define : "") +
                             vertex_source,
                         "(vertex shader)");
    }
    const std::string fragment_source =
        std::string("#version 430 core\n") + defines + prelude_glsl + "\n#line 1 1\n" + source;
    const Shader fragment = compile(GL_FRAGMENT_SHADER, fragment_source, name);
    Program program(glCreateProgram());
    glAttachShader(program.get(), vertex.get());
    glAttachShader(program.get(), fragment.get());
    glLinkProgram(program.get());
    GLint ok = GL_FALSE;
    glGetProgramiv(program.get(), GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) {
        shader_failure(name, "link", program_log(program.get()), fragment_source);
    }
    glDetachShader(program.get(), fragment.get());
    check("building a shader program");
    slot = std::make_unique<ShaderProgram>(std::move(program));
    ++programs_compiled;
    if (profiling()) [[unlikely]] {
        // Linking waited for the driver's compiler, so the time is the whole compilation.
        timer.record(Activity::Compile, name, 0, 0);
    }
    return *slot;
}

std::size_t ProgramCache::compiled_in_process() {
    return programs_compiled.load();
}

} // namespace brook::detail::gl
