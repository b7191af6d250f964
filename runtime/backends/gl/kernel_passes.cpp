// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The passes of a kernel call's ordinary outputs: where each output is drawn (its stream's own
// textures, a view of them, or fresh ones), the plan of passes and their programs, and the draw
// of each pass with the call's arguments bound.
#include "backends/gl/kernel_passes.hpp"

#include "backends/gl/field_format.hpp"
#include "backends/gl/render_targets.hpp"
#include "brook/detail/glsl_interface.hpp"
#include "core/checks.hpp"
#include "core/errors.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>

namespace brook::detail::gl {

namespace {

/// A view drawn over the texels it spans computes nothing at those between its elements,
/// but llvmpipe still runs the shader's start there; a point costs it roughly as much as
/// this many such texels (its setup, and a block of texels shaded for one; a rough figure,
/// not tuned). So a view whose elements are sparser than that in its span, such as a column
/// of a 2-D stream, is drawn as points.
constexpr std::size_t texels_per_point = 32;

/// The defines of the render targets of `outputs`' streams, one per field (textures not
/// yet set).
Targets target_defines(const std::vector<Output>& outputs) {
    Targets targets;
    for (const Output& output : outputs) {
        for (std::size_t f = 0; f < output.storage->formats().size(); ++f) {
            targets.defines.push_back(glsl::output_target(output.param, f));
        }
    }
    return targets;
}

bool is_stream_param(ParamKind kind) {
    return kind != ParamKind::Constant && kind != ParamKind::ReduceAccumulator;
}

/// Whether `output` may be drawn into its stream's own textures: no pass samples them (the
/// kernel assigns the output before any use) and no other argument is the same stream.
bool renders_into_stream(const Launch& launch, const Output& output,
                         const std::vector<Pass>& passes) {
    const auto param = static_cast<std::size_t>(output.param);
    const BoundStream& stream = launch.args[param].stream;
    for (std::size_t p = 0; p < launch.kernel->params.size(); ++p) {
        if (p != param && is_stream_param(launch.kernel->params[p].kind) &&
            launch.args[p].stream.storage == stream.storage) {
            return false;
        }
    }
    const std::size_t fields = output.storage->formats().size();
    return std::ranges::none_of(passes, [&](const Pass& pass) {
        return std::ranges::any_of(pass.program->stream_uniforms(param, fields).textures,
                                   [](GLint location) { return location != -1; });
    });
}

/// The view of their streams that the call's outputs are, when one draw can render them
/// straight into it (write_outputs): each output is a view, not the whole stream, of the
/// domain's extents, all with the same offset and strides in streams of the same width, and
/// each stride exceeds the span of the dimensions after it, so that a texel is at most one
/// element of the view (prelude.glsl, BRT_DRAW_IN_VIEW). Dimensions of extent 1 get stride 0.
std::optional<Shape4> output_view(const Launch& launch, const std::vector<Output>& outputs,
                                  const Shape4& domain) {
    std::optional<Shape4> view;
    for (const Output& output : outputs) {
        const Region& region = launch.args[static_cast<std::size_t>(output.param)].stream.region;
        Shape4 shape = shape_of(region);
        if (region.count() == output.storage->count() || shape.extents != domain.extents ||
            output.storage->surface().layout.width !=
                outputs.front().storage->surface().layout.width) {
            return std::nullopt;
        }
        std::size_t span = 1; // elements from the first to the last of the dimensions after d
        for (std::size_t d = 4; d-- > 0;) {
            if (shape.extents[d] == 1) {
                shape.strides[d] = 0;
            } else if (static_cast<std::size_t>(shape.strides[d]) < span) {
                return std::nullopt;
            } else {
                span += static_cast<std::size_t>(shape.extents[d] - 1) *
                        static_cast<std::size_t>(shape.strides[d]);
            }
        }
        if (view && (shape.offset != view->offset || shape.strides != view->strides)) {
            return std::nullopt;
        }
        view = shape;
    }
    return view;
}

/// Whether `stream` is stored exactly as a frame of `domain` in `frame` is drawn: dense
/// from element 0 with the domain's extents, in rows of the frame's width, so the element
/// drawn at a texel is stored at that very texel.
bool stored_as_frame(const BoundStream& stream, const Shape4& domain, Layout frame) {
    const Shape4 shape = shape_of(stream.region);
    if (shape.offset != 0 || shape.extents != domain.extents ||
        gl_storage(stream.storage).surface().layout.width != frame.width) {
        return false;
    }
    for (std::size_t d = 0; d < 4; ++d) {
        // A dimension of extent 1 adds nothing to an address, whatever its stride.
        if (shape.extents[d] > 1 && shape.strides[d] != domain.strides[d]) {
            return false;
        }
    }
    return true;
}

/// The kernel's GLSL (brcc's codegen/gl: the entry of its KernelInfo named after the backend).
const char* glsl_source(const KernelInfo& kernel) {
    return static_cast<const char*>(backend_code(kernel, glsl::backend_name));
}

/// Whether a pass runs BRT_CHECK=1's division checks (prelude.glsl, BRT_CHECK): a kernel's
/// passes do, a reduction's do not (docs/language.md, "Integer division").
bool checked(const PassUniforms& extra) {
    return checks_enabled() && extra.reduce_dim < 0;
}

/// The rectangle (x, y, width, height) of texels from the first to the last element of
/// `view` stored in `layout`: the rows they are in, or the texels themselves in one row.
std::array<GLint, 4> texels_spanned(const Shape4& view, Layout layout) {
    const auto [first, end] = element_span(view);
    const auto width = static_cast<std::size_t>(layout.width);
    const auto row = static_cast<GLint>(first / width);
    const auto last_row = static_cast<GLint>((end - 1) / width);
    if (row == last_row) {
        return {static_cast<GLint>(first % width), row, static_cast<GLint>(end - first), 1};
    }
    return {0, row, layout.width, last_row - row + 1};
}

void set_frame(ShaderProgram& program, const Shape4& frame, Layout layout) {
    glUniform4iv(program.uniform(glsl::frame_extents), 1, frame.extents.data());
    glUniform1i(program.uniform("brt_frame_width"), layout.width);
    glUniform1i(program.uniform("brt_frame_count"), static_cast<GLint>(frame.count()));
}

/// Sets the uniforms of constant parameter `p`, `value` (a bool, or a value of its element type).
void set_constant(ShaderProgram& program, std::size_t p, const ParamInfo& param,
                  const void* value) {
    if (param.element_type == nullptr) { // bool
        glUniform1i(program.constant_uniforms(p, 1).front(),
                    *static_cast<const bool*>(value) ? 1 : 0);
        return;
    }
    const ElementType& type = param.element_type();
    const auto* bytes = static_cast<const std::byte*>(value);
    const std::vector<GLint>& locations = program.constant_uniforms(p, type.fields.size());
    for (std::size_t f = 0; f < type.fields.size(); ++f) {
        set_uniform(locations[f], type.fields[f], bytes + type.fields[f].offset);
    }
}

} // namespace

Targets targets_of(const std::vector<Output>& outputs) {
    Targets targets;
    for (const Output& output : outputs) {
        for (std::size_t f = 0; f < output.surface.textures.size(); ++f) {
            targets.defines.push_back(glsl::output_target(output.param, f));
            targets.textures.push_back(output.surface.textures[f].get());
        }
    }
    return targets;
}

void KernelPasses::write_outputs(const Launch& launch, const Shape4& domain) {
    const KernelInfo& kernel = *launch.kernel;
    std::vector<Output> outputs;
    for (std::size_t p = 0; p < kernel.params.size(); ++p) {
        if (kernel.params[p].kind == ParamKind::OutputStream) {
            outputs.push_back(
                {static_cast<int>(p), &gl_storage(launch.args[p].stream.storage), {}});
        }
    }
    if (outputs.empty()) {
        return;
    }
    Targets targets = target_defines(outputs);
    // A tracked call (Launch::element_flags) also renders which elements it wrote.
    PassUniforms extra;
    GlStorage* flags = nullptr;
    Surface written;
    if (launch.element_flags != nullptr) {
        flags = &gl_storage(launch.element_flags);
        extra.defines = "#define " + std::string(glsl::element_flags) + "\n";
        extra.element_flags = flags->surface().textures[0].get();
        targets.defines.emplace_back(glsl::written_target);
        written = acquire_surface(device_, flags->formats(), domain.count());
    } else if (const std::optional<Shape4> view = output_view(launch, outputs, domain)) {
        // Planned as drawn in the view first, so that the common call builds one program; a
        // call that reads an output's stream is planned again, drawn in a frame.
        PassUniforms in_view = extra;
        in_view.view = view;
        in_view.view_layout = outputs.front().storage->surface().layout;
        const std::array<GLint, 4> span = texels_spanned(*view, in_view.view_layout);
        in_view.view_points =
            static_cast<std::size_t>(span[2]) * static_cast<std::size_t>(span[3]) >
            texels_per_point * domain.count();
        in_view.defines +=
            in_view.view_points ? "#define BRT_DRAW_POINTS\n" : "#define BRT_DRAW_IN_VIEW\n";
        const std::vector<Pass>& drawn = plan_passes(kernel, launch, targets, domain, in_view);
        if (std::ranges::all_of(outputs, [&](const Output& output) {
                return renders_into_stream(launch, output, drawn);
            })) {
            extra = std::move(in_view);
        }
    }
    const std::vector<Pass>& passes = plan_passes(kernel, launch, targets, domain, extra);
    std::vector<bool> in_place;
    for (Output& output : outputs) {
        in_place.push_back(extra.view.has_value() ||
                           renders_in_place(launch, output, domain, passes));
        const Surface& surface = in_place.back() ? output.storage->surface() : output.surface;
        if (!in_place.back()) {
            output.surface = acquire_surface(device_, output.storage->formats(), domain.count());
        }
        for (const Texture& texture : surface.textures) {
            targets.textures.push_back(texture.get());
        }
    }
    if (flags != nullptr) {
        targets.textures.push_back(written.textures[0].get());
    }
    draw_passes(launch, passes, targets, domain, extra);
    if (flags != nullptr) {
        store(*flags, Region::dense(1, {domain.count(), 0, 0, 0}), written);
    }
    for (std::size_t k = 0; k < outputs.size(); ++k) {
        if (!in_place[k]) {
            const auto param = static_cast<std::size_t>(outputs[k].param);
            store(*outputs[k].storage, launch.args[param].stream.region, outputs[k].surface);
        }
    }
}

bool KernelPasses::renders_in_place(const Launch& launch, const Output& output,
                                    const Shape4& domain, const std::vector<Pass>& passes) const {
    const auto param = static_cast<std::size_t>(output.param);
    const BoundStream& stream = launch.args[param].stream;
    const Layout frame = layout_for(domain.count(), device_.context->max_texture_size());
    const Layout stored = output.storage->surface().layout;
    return stream.region.count() == output.storage->count() &&
           stored_as_frame(stream, domain, frame) && stored.height == frame.height &&
           renders_into_stream(launch, output, passes);
}

Layout KernelPasses::drawn_layout(const Shape4& frame, const PassUniforms& extra) const {
    const std::size_t drawn =
        extra.push_total >= 0 ? static_cast<std::size_t>(extra.push_total) : frame.count();
    return layout_for(drawn, device_.context->max_texture_size());
}

const std::vector<Pass>& KernelPasses::plan_passes(const KernelInfo& kernel, const Launch& launch,
                                                   const Targets& targets, const Shape4& frame,
                                                   const PassUniforms& extra) {
    PlanKey key{&kernel, extra.defines, direct_params(launch, frame, extra),
                fills_layout(frame, extra), targets.defines};
    const auto found = plans_.find(key);
    if (found != plans_.end()) {
        return found->second;
    }
    check_uniform_components(kernel.name, glsl_source(kernel),
                             device_.context->max_uniform_components());
    std::string common = extra.defines;
    if (checked(extra)) {
        common += "#define BRT_CHECK\n";
    }
    if (key.fills_layout) {
        common += "#define BRT_FILLS_LAYOUT\n";
    }
    for (std::size_t p = 0; p < key.direct.size(); ++p) {
        if (key.direct[p] == '1') {
            common += "#define " + glsl::direct_read(p) + "\n";
        } else if (key.direct[p] == '2') {
            common += "#define " + glsl::unresized_read(p) + "\n";
        }
    }
    const auto per_pass = static_cast<std::size_t>(device_.context->max_outputs());
    std::vector<Pass> passes;
    for (std::size_t first = 0; first < targets.defines.size(); first += per_pass) {
        const std::size_t count = std::min(per_pass, targets.defines.size() - first);
        std::string defines = common;
        for (std::size_t i = 0; i < count; ++i) {
            defines += "#define " + targets.defines[first + i] + " " + std::to_string(i) + "\n";
        }
        passes.push_back(
            {first, count,
             &device_.programs.get(&kernel, kernel.name, glsl_source(kernel), defines)});
    }
    return plans_.emplace(std::move(key), std::move(passes)).first->second;
}

bool KernelPasses::fills_layout(const Shape4& frame, const PassUniforms& extra) const {
    if (extra.push_total >= 0 || extra.view) {
        return false;
    }
    const Layout layout = drawn_layout(frame, extra);
    return frame.count() ==
           static_cast<std::size_t>(layout.width) * static_cast<std::size_t>(layout.height);
}

std::string KernelPasses::direct_params(const Launch& launch, const Shape4& frame,
                                        const PassUniforms& extra) const {
    std::string direct(launch.kernel->params.size(), '0');
    if (extra.reduce_dim >= 0 || extra.push_total >= 0) {
        return direct;
    }
    const Layout layout = layout_for(frame.count(), device_.context->max_texture_size());
    for (std::size_t p = 0; p < launch.kernel->params.size(); ++p) {
        const ParamKind kind = launch.kernel->params[p].kind;
        const BoundStream& stream = launch.args[p].stream;
        if ((kind == ParamKind::InputStream || kind == ParamKind::OutputStream) && !extra.view &&
            stored_as_frame(stream, frame, layout)) {
            direct[p] = '1';
        } else if (kind == ParamKind::InputStream &&
                   shape_of(stream.region).extents == frame.extents) {
            direct[p] = '2';
        }
    }
    return direct;
}

void KernelPasses::draw(const KernelInfo& kernel, const Launch& launch, const Targets& targets,
                        const Shape4& frame, const PassUniforms& extra) {
    draw_passes(launch, plan_passes(kernel, launch, targets, frame, extra), targets, frame, extra);
}

void KernelPasses::clear_division_record() {
    if (device_.division_record.get() == 0) {
        GLuint name = 0;
        glCreateBuffers(1, &name);
        device_.division_record = Buffer(name);
        glNamedBufferStorage(name, sizeof(GLuint), nullptr, GL_DYNAMIC_STORAGE_BIT);
    }
    const GLuint none = ~GLuint{0};
    glNamedBufferSubData(device_.division_record.get(), 0, sizeof none, &none);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, device_.division_record.get());
}

void KernelPasses::report_division_faults(const Launch& launch) {
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    GLuint record = 0;
    glGetNamedBufferSubData(device_.division_record.get(), 0, sizeof record, &record);
    check("reading the record of division faults");
    report_division_record(launch, record, ~GLuint{0});
}

void KernelPasses::draw_passes(const Launch& launch, const std::vector<Pass>& passes,
                               const Targets& targets, const Shape4& frame,
                               const PassUniforms& extra) {
    if (checked(extra)) {
        clear_division_record();
    }
    const Layout layout = extra.view ? extra.view_layout : drawn_layout(frame, extra);
    ContextObjects& objects = device_.objects();
    glBindVertexArray(objects.empty_vertex_array.get());
    if (extra.view && !extra.view_points) {
        const std::array<GLint, 4> span = texels_spanned(*extra.view, layout);
        glViewport(span[0], span[1], span[2], span[3]);
    } else {
        glViewport(0, 0, layout.width, layout.height);
    }
    for (const Pass& pass : passes) {
        objects.targets.bind(targets.textures.data() + pass.first, pass.count);
        ShaderProgram& program = *pass.program;
        glUseProgram(program.get());
        set_frame(program, frame, layout);
        if (extra.view) {
            glUniform4iv(program.uniform("brt_view_str"), 1, extra.view->strides.data());
            glUniform1i(program.uniform("brt_view_off"), extra.view->offset);
            glUniform2i(program.uniform("brt_view_size"), layout.width, layout.height);
        }
        const int unit = bind_arguments(program, *launch.kernel, launch);
        if (extra.reduce_dim >= 0) {
            glUniform1i(program.uniform(glsl::reduce_dimension), extra.reduce_dim);
            glUniform1i(program.uniform(glsl::reduce_factor), extra.reduce_factor);
            glUniform1i(program.uniform(glsl::reduce_chunks), extra.reduce_chunks);
        }
        if (extra.push_total >= 0) {
            glUniform1i(program.uniform("brt_push_total"), extra.push_total);
            bind_texture_unit(static_cast<GLuint>(unit), extra.push_offsets);
            glUniform1i(program.uniform("brt_push_offsets"), unit);
        }
        if (extra.element_flags != 0) {
            bind_texture_unit(static_cast<GLuint>(unit), extra.element_flags);
            glUniform1i(program.uniform(glsl::element_flags_sampler), unit);
        }
        if (extra.view_points) {
            glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(frame.count()));
        } else {
            glDrawArrays(GL_TRIANGLES, 0, 3);
        }
        check("running a kernel pass");
    }
    if (checked(extra)) {
        report_division_faults(launch);
    }
}

void KernelPasses::bind_stream(ShaderProgram& program, std::size_t param, const GlStorage& storage,
                               const Surface& surface, const Shape4& shape, int& unit) {
    const StreamUniforms& uniforms = program.stream_uniforms(param, storage.formats().size());
    glUniform4iv(uniforms.extents, 1, shape.extents.data());
    glUniform4iv(uniforms.strides, 1, shape.strides.data());
    glUniform1i(uniforms.offset, shape.offset);
    for (std::size_t f = 0; f < storage.formats().size(); ++f) {
        const GLint location = uniforms.textures[f];
        if (location == -1) {
            continue; // not sampled by this program (an output it assigns before use)
        }
        if (unit >= device_.context->max_texture_units()) {
            fatal("gl backend: the kernel reads more textures than the " +
                  std::to_string(device_.context->max_texture_units()) +
                  " texture units of this OpenGL driver");
        }
        bind_texture_unit(static_cast<GLuint>(unit), surface.textures[f].get());
        glUniform1i(location, unit);
        ++unit;
    }
}

int KernelPasses::bind_arguments(ShaderProgram& program, const KernelInfo& kernel,
                                 const Launch& launch) {
    int unit = 0;
    for (std::size_t p = 0; p < kernel.params.size(); ++p) {
        const ParamInfo& param = kernel.params[p];
        const BoundArg& arg = launch.args[p];
        switch (param.kind) {
        case ParamKind::Constant:
            set_constant(program, p, param, arg.constant);
            break;
        case ParamKind::InputStream:
        case ParamKind::OutputStream:
        case ParamKind::Gather:
        case ParamKind::ReduceInput: {
            const GlStorage& storage = gl_storage(arg.stream.storage);
            bind_stream(program, p, storage, pass_input_surface(p, storage),
                        pass_input_shape(p, arg.stream.region), unit);
            break;
        }
        case ParamKind::ReduceAccumulator:
        case ParamKind::VariableOutput:
        case ParamKind::ScatterOutput: // the core runs scatter calls on the host
            break;
        }
    }
    return unit;
}

const Surface& KernelPasses::pass_input_surface(std::size_t p, const GlStorage& storage) const {
    if (reduce_source_ != nullptr && p == reduce_param_) {
        return *reduce_source_;
    }
    return storage.surface();
}

Shape4 KernelPasses::pass_input_shape(std::size_t p, const Region& region) const {
    if (reduce_source_ != nullptr && p == reduce_param_) {
        return reduce_shape_;
    }
    return shape_of(region);
}

} // namespace brook::detail::gl
