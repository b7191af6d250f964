// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The OpenGL backend, built the way the paper built Brook's GPU runtime (§4):
//  - a stream's storage is one 2-D texture per leaf field of its element type (R32F, RG32F or
//    RGBA32F; float3 fields use RGBA32F, which is renderable; int fields the 32I formats). The
//    elements are laid out row-major, `width` texels per row, so any stream (3-D, 4-D, 1-D
//    longer than GL_MAX_TEXTURE_SIZE) has exact integer addresses: element e is texel
//    (e % width, e / width);
//  - a kernel call is one draw per pass over a dense "frame" of the output domain: the
//    generated fragment shader computes one element per texel and writes every output field to
//    its render target. A stream stored exactly as the frame is drawn is read at the drawn
//    texel (BRT_DIRECT_P), without address arithmetic. An output the kernel assigns before any
//    use, and that no other argument shares, is rendered straight into its textures; the others
//    go to fresh textures (from a pool) that then replace the output's (ping-pong), so a stream
//    may be input and output of one call. An output that is a view of a larger stream is
//    rendered straight into its stream's textures, over the texels the view spans (each finds
//    its element of the view; those between its elements compute nothing) or, for a sparse
//    view, as a point per element; where that cannot be (the call reads the stream), it goes to
//    a fresh texture copied into place by a small scatter shader. Kernels with more output
//    fields than render targets are split into passes, each writing some of them. Draws change
//    the framebuffer only where it differs from the previous draw's (RenderTargets), which keeps
//    small calls cheap;
//  - a kernel with variable outputs runs the core's two passes (core/launch.cpp) on the GPU: the
//    count pass renders each element's number of pushes, which the core sums up; the write pass
//    of each vout draws over its values, each of which finds its element by a binary search over
//    the uploaded prefix sums and runs it, keeping one push (fragment shaders cannot scatter);
//  - a reduction is a series of passes, each folding up to 8 adjacent elements along one
//    dimension in order, last dimension first: O(log n) passes, row-major order preserved.

#include "backends/gl/field_format.hpp"
#include "backends/gl/gl_context.hpp"
#include "backends/gl/gl_device.hpp"
#include "backends/gl/gl_objects.hpp"
#include "backends/gl/gl_programs.hpp"
#include "backends/gl/gl_storage.hpp"
#include "backends/gl/render_targets.hpp"
#include "backends/gl/shape4.hpp"
#include "backends/gl/texture_pool.hpp"
#include "core/checks.hpp"
#include "core/errors.hpp"
#include "core/launch.hpp"
#include "core/registry.hpp"

#include <algorithm>
#include <compare>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace brook::detail::gl {

namespace {

// ---------------------------------------------------------------------------------------------
// The backend

class GlBackend final : public Backend {
public:
    explicit GlBackend(std::shared_ptr<gl::Context> context) : device_(std::make_shared<Device>()) {
        device_->context = std::move(context);
        device_->context->on_thread_exit([device = std::weak_ptr<Device>(device_)] {
            if (const std::shared_ptr<Device> alive = device.lock()) {
                alive->per_thread.erase(std::this_thread::get_id());
            }
        });
    }
    ~GlBackend() override {
        const std::shared_ptr<gl::Context> context = device_->context;
        const DeviceLock lock(*device_);
        device_.reset();
    }
    GlBackend(const GlBackend&) = delete;
    GlBackend& operator=(const GlBackend&) = delete;

    std::string_view name() const override { return "gl"; }
    std::string device() const override { return device_->context->description(); }
    bool software_renderer() const override { return device_->context->software_renderer(); }
    // Draws are queued by the driver; glFinish returns when they are done.
    void finish() override {
        const DeviceLock lock(*device_);
        glFinish();
    }

    std::unique_ptr<Storage> allocate(const ElementType& type, std::size_t count) override {
        const DeviceLock lock(*device_);
        return std::make_unique<GlStorage>(device_, type, count);
    }

    void write(Storage& storage, const Region& region, const void* host) override {
        const DeviceLock lock(*device_);
        GlStorage& target = gl_storage(&storage);
        const Shape4 shape = shape_of(region);
        const auto [first, end] = element_span(shape);
        const Layout layout = target.surface().layout;
        const auto width = static_cast<std::size_t>(layout.width);
        const std::size_t row0 = first / width;
        const std::size_t rows = (end - 1) / width - row0 + 1;
        // Rows holding elements outside the region are read first so those keep their values.
        const bool covers_rows = region.contiguous() && first % width == 0 &&
                                 (end % width == 0 || end == storage.count());
        const auto* bytes = static_cast<const std::byte*>(host);
        for (std::size_t f = 0; f < target.formats().size(); ++f) {
            const Format& format = target.formats()[f];
            const FieldInfo& field = target.type().fields[f];
            std::vector<std::byte> texels =
                covers_rows ? std::vector<std::byte>(rows * width * format.texel_size())
                            : read_rows(target, f, row0, rows);
            for_each_element(shape, [&](std::size_t i, std::size_t element) {
                pack(format, bytes + i * storage.element_size() + field.offset,
                     texels.data() + (element - row0 * width) * format.texel_size());
            });
            glTextureSubImage2D(target.surface().textures[f].get(), 0, 0, static_cast<GLint>(row0),
                                layout.width, static_cast<GLsizei>(rows), format.format,
                                format.type, texels.data());
        }
        gl::check("uploading a stream");
    }

    void read(const Storage& storage, const Region& region, void* host) override {
        const DeviceLock lock(*device_);
        const GlStorage& source = gl_storage(storage);
        const Shape4 shape = shape_of(region);
        const auto [first, end] = element_span(shape);
        const auto width = static_cast<std::size_t>(source.surface().layout.width);
        const std::size_t row0 = first / width;
        const std::size_t rows = (end - 1) / width - row0 + 1;
        auto* bytes = static_cast<std::byte*>(host);
        for (std::size_t f = 0; f < source.formats().size(); ++f) {
            const Format& format = source.formats()[f];
            const FieldInfo& field = source.type().fields[f];
            const std::vector<std::byte> texels = read_rows(source, f, row0, rows);
            for_each_element(shape, [&](std::size_t i, std::size_t element) {
                unpack(format, texels.data() + (element - row0 * width) * format.texel_size(),
                       bytes + i * storage.element_size() + field.offset);
            });
        }
    }

    void copy(Storage& target, const Storage& source) override {
        const DeviceLock lock(*device_);
        GlStorage& to = gl_storage(&target);
        const GlStorage& from = gl_storage(source);
        for (std::size_t f = 0; f < to.formats().size(); ++f) {
            glCopyImageSubData(from.surface().textures[f].get(), GL_TEXTURE_2D, 0, 0, 0, 0,
                               to.surface().textures[f].get(), GL_TEXTURE_2D, 0, 0, 0, 0,
                               to.surface().layout.width, to.surface().layout.height, 1);
        }
        gl::check("copying a stream");
    }

    void run_kernel(const Launch& launch) override {
        const DeviceLock lock(*device_);
        const Shape4 domain = domain_shape(launch.rank, launch.extents);
        switch (launch.pass) {
        case Launch::Pass::Single:
            write_outputs(launch, domain);
            break;
        case Launch::Pass::Count:
            count_pushes(launch, domain);
            break;
        case Launch::Pass::Write:
            // The values first: their passes read the ordinary outputs' old values, as the
            // CPU's write pass does, and an output that is also an input must not change yet.
            for (std::size_t p = 0; p < launch.kernel->params.size(); ++p) {
                if (launch.kernel->params[p].kind == ParamKind::VariableOutput) {
                    write_pushes(launch, domain, p);
                }
            }
            write_outputs(launch, domain);
            break;
        }
    }

    bool tracks_elements() const override { return true; }

    bool runs_variable_outputs() const override { return true; }

    void reduce_to_value(const Launch& launch, int input, void* result) override {
        const DeviceLock lock(*device_);
        const BoundStream& in = launch.args[static_cast<std::size_t>(input)].stream;
        std::array<int, 4> ones{1, 1, 1, 1};
        const std::vector<Format>& formats = gl_storage(in.storage).formats();
        Surface folded = reduce(launch, input, ones);
        const ElementType& type = gl_storage(in.storage).type();
        auto* bytes = static_cast<std::byte*>(result);
        for (std::size_t f = 0; f < formats.size(); ++f) {
            std::byte texel[16] = {};
            glGetTextureSubImage(folded.textures[f].get(), 0, 0, 0, 0, 1, 1, 1, formats[f].format,
                                 formats[f].type, sizeof texel, texel);
            unpack(formats[f], texel, bytes + type.fields[f].offset);
        }
        gl::check("reading a reduction's result");
        release_surface(*device_, formats, folded);
    }

    void reduce_to_stream(const Launch& launch, int input, const BoundStream& target) override {
        const DeviceLock lock(*device_);
        const Shape4 target_shape = shape_of(target.region);
        Surface folded = reduce(launch, input, target_shape.extents);
        store(gl_storage(target.storage), target.region, folded);
    }

private:
    struct Output {
        int param;
        GlStorage* storage;
        Surface surface; ///< the new values, in the frame's dense layout
    };

    /// The render targets of a kernel call: the define that routes each shader output to its
    /// target, and the target's texture (filled in once the program is known, see
    /// write_outputs).
    struct Targets {
        std::vector<std::string> defines;
        std::vector<GLuint> textures;
    };

    /// One draw of a call: it writes targets [first, first + count) with `program`, the
    /// kernel's shader with the defines routing its outputs to them.
    struct Pass {
        std::size_t first;
        std::size_t count;
        gl::ShaderProgram* program;
    };

    /// What a draw needs besides its targets: a reduction's uniforms, or those of a variable
    /// output's write pass (drawn over push_total values rather than over the frame).
    struct PassUniforms {
        int reduce_dim = -1;
        int reduce_factor = 0;
        int reduce_chunks = 0;
        std::string defines;
        int push_total = -1;
        GLuint push_offsets = 0;
        /// The texture of Launch::element_flags, for a call whose elements are tracked.
        GLuint element_flags = 0;
        /// The view of its outputs' streams an ordinary pass draws straight into (output_view),
        /// the streams' layout, and whether it is drawn as a point per element rather than over
        /// the texels it spans (write_outputs).
        std::optional<Shape4> view;
        Layout view_layout;
        bool view_points = false;
    };

    /// A view drawn over the texels it spans computes nothing at those between its elements,
    /// but llvmpipe still runs the shader's start there; a point costs it roughly as much as
    /// this many such texels (its setup, and a block of texels shaded for one; a rough figure,
    /// not tuned). So a view whose elements are sparser than that in its span, such as a column
    /// of a 2-D stream, is drawn as points.
    static constexpr std::size_t texels_per_point = 32;

    /// Per-element push counts and first slots: one int per element, in the elements' layout.
    static Format counter_format() { return field_format({ScalarKind::Int32, 1, 0}); }

    /// The define routing field `field` of output `param` to a render target.
    static std::string output_define(int param, std::size_t field) {
        return "BRT_OUT_" + std::to_string(param) + "_" + std::to_string(field);
    }

    /// The defines of the render targets of `outputs`' streams, one per field (textures not
    /// yet set).
    static Targets target_defines(const std::vector<Output>& outputs) {
        Targets targets;
        for (const Output& output : outputs) {
            for (std::size_t f = 0; f < output.storage->formats().size(); ++f) {
                targets.defines.push_back(output_define(output.param, f));
            }
        }
        return targets;
    }

    /// The targets of `outputs`, rendering into each one's surface.
    static Targets targets_of(const std::vector<Output>& outputs) {
        Targets targets;
        for (const Output& output : outputs) {
            for (std::size_t f = 0; f < output.surface.textures.size(); ++f) {
                targets.defines.push_back(output_define(output.param, f));
                targets.textures.push_back(output.surface.textures[f].get());
            }
        }
        return targets;
    }

    /// Draws every ordinary output over the domain and stores the results. An output is
    /// rendered straight into its stream's textures when no pass reads them (the kernel
    /// assigns it before using it, and no other argument is the same stream) and the stream is
    /// stored as the domain is drawn, or the outputs are all one view of their streams
    /// (output_view), drawn over the texels it spans; the others go to fresh textures that
    /// replace the stream's afterwards (ping-pong), or are copied into the view, which keeps a
    /// stream that is read and written by one call, or an element the body does not assign, as
    /// the CPU does.
    void write_outputs(const Launch& launch, const Shape4& domain) {
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
            extra.defines = "#define BRT_FLAGS\n";
            extra.element_flags = flags->surface().textures[0].get();
            targets.defines.emplace_back("BRT_WRITTEN");
            written = acquire_surface(*device_, flags->formats(), domain.count());
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
                output.surface =
                    acquire_surface(*device_, output.storage->formats(), domain.count());
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

    /// Whether `output` may be rendered into its own stream's textures (see write_outputs).
    bool renders_in_place(const Launch& launch, const Output& output, const Shape4& domain,
                          const std::vector<Pass>& passes) {
        const auto param = static_cast<std::size_t>(output.param);
        const BoundStream& stream = launch.args[param].stream;
        const Layout frame = layout_for(domain.count(), device_->context->max_texture_size());
        const Layout stored = output.storage->surface().layout;
        return stream.region.count() == output.storage->count() &&
               stored_as_frame(stream, domain, frame) && stored.height == frame.height &&
               renders_into_stream(launch, output, passes);
    }

    /// Whether `output` may be drawn into its stream's own textures: no pass samples them (the
    /// kernel assigns the output before any use) and no other argument is the same stream.
    static bool renders_into_stream(const Launch& launch, const Output& output,
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
    static std::optional<Shape4>
    output_view(const Launch& launch, const std::vector<Output>& outputs, const Shape4& domain) {
        std::optional<Shape4> view;
        for (const Output& output : outputs) {
            const Region& region =
                launch.args[static_cast<std::size_t>(output.param)].stream.region;
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

    static bool is_stream_param(ParamKind kind) {
        return kind != ParamKind::Constant && kind != ParamKind::ReduceAccumulator;
    }

    /// Whether `stream` is stored exactly as a frame of `domain` in `frame` is drawn: dense
    /// from element 0 with the domain's extents, in rows of the frame's width, so the element
    /// drawn at a texel is stored at that very texel.
    static bool stored_as_frame(const BoundStream& stream, const Shape4& domain, Layout frame) {
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

    /// The count pass: renders each element's number of pushes per variable output, reads
    /// them back into the core's counters (which sums them up on the host).
    void count_pushes(const Launch& launch, const Shape4& domain) {
        const KernelInfo& kernel = *launch.kernel;
        const Layout layout = layout_for(domain.count(), device_->context->max_texture_size());
        const Format counter = counter_format();
        std::vector<std::size_t> params;
        std::vector<Texture> counts;
        Targets targets;
        for (std::size_t p = 0; p < kernel.params.size(); ++p) {
            if (kernel.params[p].kind == ParamKind::VariableOutput) {
                params.push_back(p);
                counts.push_back(device_->pool.acquire(counter, layout));
                targets.defines.push_back("BRT_COUNT_" + std::to_string(p));
                targets.textures.push_back(counts.back().get());
            }
        }
        draw(kernel, launch, targets, domain, {});
        std::vector<std::int32_t> texels(static_cast<std::size_t>(layout.width) *
                                         static_cast<std::size_t>(layout.height));
        for (std::size_t k = 0; k < params.size(); ++k) {
            glGetTextureImage(counts[k].get(), 0, counter.format, counter.type,
                              static_cast<GLsizei>(texels.size() * sizeof(std::int32_t)),
                              texels.data());
            gl::check("reading push counts back");
            std::size_t* counters = launch.push_counters[params[k]];
            for (std::size_t i = 0; i < domain.count(); ++i) {
                counters[i] += static_cast<std::size_t>(texels[i]);
            }
            release_texture(*device_, counter, layout, std::move(counts[k]));
        }
    }

    /// The write pass of variable output `param`: uploads each element's first slot, then draws
    /// over the output's values (the bound region, the first elements of its storage); each
    /// finds its element by a binary search over those slots and runs it, keeping the push it
    /// stands for (prelude.glsl, brt_locate_push).
    void write_pushes(const Launch& launch, const Shape4& domain, std::size_t param) {
        GlStorage& storage = gl_storage(launch.args[param].stream.storage);
        const std::size_t total = launch.args[param].stream.region.count();
        if (total == 0) {
            return;
        }
        if (total > static_cast<std::size_t>(INT32_MAX)) {
            fatal(call_label(*launch.kernel) + " pushed " + std::to_string(total) +
                  " values, more than the gl backend addresses with 32-bit integers");
        }
        const Layout layout = layout_for(domain.count(), device_->context->max_texture_size());
        const Format counter = counter_format();
        std::vector<std::int32_t> slots(static_cast<std::size_t>(layout.width) *
                                        static_cast<std::size_t>(layout.height));
        const std::size_t* offsets = launch.push_counters[param];
        for (std::size_t i = 0; i < domain.count(); ++i) {
            slots[i] = static_cast<std::int32_t>(offsets[i]);
        }
        Texture first_slots = device_->pool.acquire(counter, layout);
        glTextureSubImage2D(first_slots.get(), 0, 0, 0, layout.width, layout.height, counter.format,
                            counter.type, slots.data());
        gl::check("uploading the first slots of pushes");

        std::vector<Output> values;
        values.push_back({static_cast<int>(param), &storage,
                          acquire_surface(*device_, storage.formats(), total)});
        PassUniforms extra;
        extra.defines = "#define BRT_PUSH_WRITE\n#define BRT_PUSH_" + std::to_string(param) + "\n";
        extra.push_total = static_cast<int>(total);
        extra.push_offsets = first_slots.get();
        draw(*launch.kernel, launch, targets_of(values), domain, extra);
        store(storage, launch.args[param].stream.region, values.front().surface);
        release_texture(*device_, counter, layout, std::move(first_slots));
    }

    /// The kernel's GLSL (brcc's codegen/gl: the "gl" entry of its KernelInfo).
    static const char* glsl_source(const KernelInfo& kernel) {
        return static_cast<const char*>(backend_code(kernel, "gl"));
    }

    /// The layout a pass draws in: the frame's, or the values' for a variable output's write.
    Layout drawn_layout(const Shape4& frame, const PassUniforms& extra) const {
        const std::size_t drawn =
            extra.push_total >= 0 ? static_cast<std::size_t>(extra.push_total) : frame.count();
        return layout_for(drawn, device_->context->max_texture_size());
    }

    /// Splits the call into passes over the dense frame of `frame`, each writing up to
    /// max_outputs() of the targets, and finds each pass's program. Plans are kept, so a call
    /// like an earlier one builds no defines and looks up no programs.
    const std::vector<Pass>& plan_passes(const KernelInfo& kernel, const Launch& launch,
                                         const Targets& targets, const Shape4& frame,
                                         const PassUniforms& extra) {
        PlanKey key{&kernel, extra.defines, direct_params(launch, frame, extra),
                    fills_layout(frame, extra), targets.defines};
        const auto found = plans_.find(key);
        if (found != plans_.end()) {
            return found->second;
        }
        gl::check_uniform_components(kernel.name, glsl_source(kernel),
                                     device_->context->max_uniform_components());
        std::string common = extra.defines;
        if (checked(extra)) {
            common += "#define BRT_CHECK\n";
        }
        if (key.fills_layout) {
            common += "#define BRT_FILLS_LAYOUT\n";
        }
        for (std::size_t p = 0; p < key.direct.size(); ++p) {
            if (key.direct[p] == '1') {
                common += "#define BRT_DIRECT_" + std::to_string(p) + "\n";
            } else if (key.direct[p] == '2') {
                common += "#define BRT_UNRESIZED_" + std::to_string(p) + "\n";
            }
        }
        const auto per_pass = static_cast<std::size_t>(device_->context->max_outputs());
        std::vector<Pass> passes;
        for (std::size_t first = 0; first < targets.defines.size(); first += per_pass) {
            const std::size_t count = std::min(per_pass, targets.defines.size() - first);
            std::string defines = common;
            for (std::size_t i = 0; i < count; ++i) {
                defines += "#define " + targets.defines[first + i] + " " + std::to_string(i) + "\n";
            }
            passes.push_back(
                {first, count,
                 &device_->programs.get(&kernel, kernel.name, glsl_source(kernel), defines)});
        }
        return plans_.emplace(std::move(key), std::move(passes)).first->second;
    }

    /// Whether every texel an ordinary pass draws is an element of the frame, so that its shader
    /// (under `#define BRT_FILLS_LAYOUT`) needs no test for texels past the last element. A
    /// `discard` that may run costs llvmpipe about a fifth of a SAXPY's speed even when it never
    /// does.
    bool fills_layout(const Shape4& frame, const PassUniforms& extra) const {
        if (extra.push_total >= 0 || extra.view) {
            return false;
        }
        const Layout layout = drawn_layout(frame, extra);
        return frame.count() ==
               static_cast<std::size_t>(layout.width) * static_cast<std::size_t>(layout.height);
    }

    /// How a pass finds each parameter's elements: '1' for the streams and outputs of an
    /// ordinary pass stored as the frame is drawn, which its shader (under `#define
    /// BRT_DIRECT_P`) reads at the texel it draws, with no address arithmetic; '2' for the other
    /// inputs of the frame's extents, which it reads at the frame's position as it is (under
    /// `#define BRT_UNRESIZED_P`), without brt_resize's divisions, which llvmpipe runs even for
    /// extents alike; '0' for the rest. Reductions and a variable output's values draw other
    /// frames, and an output view is drawn over its own texels (no stream is read directly).
    std::string direct_params(const Launch& launch, const Shape4& frame,
                              const PassUniforms& extra) const {
        std::string direct(launch.kernel->params.size(), '0');
        if (extra.reduce_dim >= 0 || extra.push_total >= 0) {
            return direct;
        }
        const Layout layout = layout_for(frame.count(), device_->context->max_texture_size());
        for (std::size_t p = 0; p < launch.kernel->params.size(); ++p) {
            const ParamKind kind = launch.kernel->params[p].kind;
            const BoundStream& stream = launch.args[p].stream;
            if ((kind == ParamKind::InputStream || kind == ParamKind::OutputStream) &&
                !extra.view && stored_as_frame(stream, frame, layout)) {
                direct[p] = '1';
            } else if (kind == ParamKind::InputStream &&
                       shape_of(stream.region).extents == frame.extents) {
                direct[p] = '2';
            }
        }
        return direct;
    }

    /// Plans and draws the passes writing `targets` (textures set) over the frame of `frame`.
    void draw(const KernelInfo& kernel, const Launch& launch, const Targets& targets,
              const Shape4& frame, const PassUniforms& extra) {
        draw_passes(launch, plan_passes(kernel, launch, targets, frame, extra), targets, frame,
                    extra);
    }

    /// Whether a pass runs BRT_CHECK=1's division checks (prelude.glsl, BRT_CHECK): a kernel's
    /// passes do, a reduction's do not (docs/language.md, "Integer division").
    static bool checked(const PassUniforms& extra) {
        return checks_enabled() && extra.reduce_dim < 0;
    }

    /// Under BRT_CHECK=1, binds the record of division faults, set to all ones (none yet).
    void clear_division_record() {
        if (device_->division_record.get() == 0) {
            GLuint name = 0;
            glCreateBuffers(1, &name);
            device_->division_record = gl::Buffer(name);
            glNamedBufferStorage(name, sizeof(GLuint), nullptr, GL_DYNAMIC_STORAGE_BIT);
        }
        const GLuint none = ~GLuint{0};
        glNamedBufferSubData(device_->division_record.get(), 0, sizeof none, &none);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, device_->division_record.get());
    }

    /// Stops at the first element that the passes just drawn recorded a division fault at.
    void report_division_faults(const Launch& launch) {
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        GLuint record = 0;
        glGetNamedBufferSubData(device_->division_record.get(), 0, sizeof record, &record);
        gl::check("reading the record of division faults");
        report_division_record(launch, record, ~GLuint{0});
    }

    /// Draws `passes`, each into its share of `targets`.
    void draw_passes(const Launch& launch, const std::vector<Pass>& passes, const Targets& targets,
                     const Shape4& frame, const PassUniforms& extra) {
        if (checked(extra)) {
            clear_division_record();
        }
        const Layout layout = extra.view ? extra.view_layout : drawn_layout(frame, extra);
        ContextObjects& objects = device_->objects();
        glBindVertexArray(objects.empty_vertex_array.get());
        if (extra.view && !extra.view_points) {
            const std::array<GLint, 4> span = texels_spanned(*extra.view, layout);
            glViewport(span[0], span[1], span[2], span[3]);
        } else {
            glViewport(0, 0, layout.width, layout.height);
        }
        for (const Pass& pass : passes) {
            objects.targets.bind(targets.textures.data() + pass.first, pass.count);
            gl::ShaderProgram& program = *pass.program;
            glUseProgram(program.get());
            set_frame(program, frame, layout);
            if (extra.view) {
                glUniform4iv(program.uniform("brt_view_str"), 1, extra.view->strides.data());
                glUniform1i(program.uniform("brt_view_off"), extra.view->offset);
                glUniform2i(program.uniform("brt_view_size"), layout.width, layout.height);
            }
            const int unit = bind_arguments(program, *launch.kernel, launch);
            if (extra.reduce_dim >= 0) {
                glUniform1i(program.uniform("brt_reduce_dim"), extra.reduce_dim);
                glUniform1i(program.uniform("brt_reduce_factor"), extra.reduce_factor);
                glUniform1i(program.uniform("brt_reduce_chunks"), extra.reduce_chunks);
            }
            if (extra.push_total >= 0) {
                glUniform1i(program.uniform("brt_push_total"), extra.push_total);
                bind_texture_unit(static_cast<GLuint>(unit), extra.push_offsets);
                glUniform1i(program.uniform("brt_push_offsets"), unit);
            }
            if (extra.element_flags != 0) {
                bind_texture_unit(static_cast<GLuint>(unit), extra.element_flags);
                glUniform1i(program.uniform("brt_flags"), unit);
            }
            if (extra.view_points) {
                glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(frame.count()));
            } else {
                glDrawArrays(GL_TRIANGLES, 0, 3);
            }
            gl::check("running a kernel pass");
        }
        if (checked(extra)) {
            report_division_faults(launch);
        }
    }

    /// The rectangle (x, y, width, height) of texels from the first to the last element of
    /// `view` stored in `layout`: the rows they are in, or the texels themselves in one row.
    static std::array<GLint, 4> texels_spanned(const Shape4& view, Layout layout) {
        const auto [first, end] = element_span(view);
        const auto width = static_cast<std::size_t>(layout.width);
        const auto row = static_cast<GLint>(first / width);
        const auto last_row = static_cast<GLint>((end - 1) / width);
        if (row == last_row) {
            return {static_cast<GLint>(first % width), row, static_cast<GLint>(end - first), 1};
        }
        return {0, row, layout.width, last_row - row + 1};
    }

    static void set_frame(gl::ShaderProgram& program, const Shape4& frame, Layout layout) {
        glUniform4iv(program.uniform("brt_frame_ext"), 1, frame.extents.data());
        glUniform1i(program.uniform("brt_frame_width"), layout.width);
        glUniform1i(program.uniform("brt_frame_count"), static_cast<GLint>(frame.count()));
    }

    /// Binds a stream parameter's textures and region.
    void bind_stream(gl::ShaderProgram& program, std::size_t param, const GlStorage& storage,
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
            if (unit >= device_->context->max_texture_units()) {
                fatal("gl backend: the kernel reads more textures than the " +
                      std::to_string(device_->context->max_texture_units()) +
                      " texture units of this OpenGL driver");
            }
            bind_texture_unit(static_cast<GLuint>(unit), surface.textures[f].get());
            glUniform1i(location, unit);
            ++unit;
        }
    }

    /// Binds every stream and constant argument of `launch` (a reduction's input is rebound by
    /// each pass afterwards). Returns the first texture unit left free.
    int bind_arguments(gl::ShaderProgram& program, const KernelInfo& kernel, const Launch& launch) {
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
                break;
            }
        }
        return unit;
    }

    static void set_constant(gl::ShaderProgram& program, std::size_t p, const ParamInfo& param,
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
            gl::set_uniform(locations[f], type.fields[f], bytes + type.fields[f].offset);
        }
    }

    // During a reduction, the reduce input of each pass is the previous pass's result.
    const Surface& pass_input_surface(std::size_t p, const GlStorage& storage) const {
        if (reduce_source_ != nullptr && p == reduce_param_) {
            return *reduce_source_;
        }
        return storage.surface();
    }
    Shape4 pass_input_shape(std::size_t p, const Region& region) const {
        if (reduce_source_ != nullptr && p == reduce_param_) {
            return reduce_shape_;
        }
        return shape_of(region);
    }

    /// Puts `values` (dense over the region's shape) into `region` of `storage`: a whole storage
    /// takes the textures (the old ones go back to the pool), a view is copied into place.
    void store(GlStorage& storage, const Region& region, Surface& values) {
        const bool whole =
            region.offset == 0 && region.contiguous() && region.count() == storage.count();
        if (whole) {
            std::swap(storage.surface(), values);
        } else {
            scatter(storage, region, values);
        }
        release_surface(*device_, storage.formats(), values);
    }

    /// Copies dense `values` into a view `region` of `storage`, one draw per field over the
    /// storage's texels; texels outside the view are discarded.
    void scatter(GlStorage& storage, const Region& region, const Surface& values) {
        static constexpr const char* source = R"glsl(
uniform ivec4 brt_view_ext;
uniform ivec4 brt_view_str;
uniform int brt_view_off;
uniform int brt_storage_count;
#if defined(BRT_INTEGER)
uniform isampler2D brt_values;
layout(location = 0) out ivec4 brt_out;
#elif defined(BRT_UNSIGNED)
uniform usampler2D brt_values;
layout(location = 0) out uvec4 brt_out;
#else
uniform sampler2D brt_values;
layout(location = 0) out vec4 brt_out;
#endif
void main() {
    int element = int(gl_FragCoord.y) * brt_frame_width + int(gl_FragCoord.x);
    int rest = element - brt_view_off;
    if (element >= brt_storage_count || rest < 0) {
        discard;
    }
    ivec4 position = ivec4(0);
    for (int d = 0; d < 4; ++d) {
        if (brt_view_str[d] != 0) {
            position[d] = rest / brt_view_str[d];
            rest -= position[d] * brt_view_str[d];
        }
        if (position[d] >= brt_view_ext[d]) {
            discard;
        }
    }
    if (rest != 0) {
        discard;
    }
    int value = brt_element(position, ivec4(brt_view_ext.y * brt_view_ext.z * brt_view_ext.w,
                                            brt_view_ext.z * brt_view_ext.w, brt_view_ext.w, 1), 0);
    brt_out = texelFetch(brt_values, brt_texel(value, textureSize(brt_values, 0).x), 0);
}
)glsl";
        const Shape4 view = shape_of(region);
        const Layout layout = storage.surface().layout;
        ContextObjects& objects = device_->objects();
        glBindVertexArray(objects.empty_vertex_array.get());
        glViewport(0, 0, layout.width, layout.height);
        for (std::size_t f = 0; f < storage.formats().size(); ++f) {
            const Format& format = storage.formats()[f];
            const char* variant = !format.integer()                     ? ""
                                  : format.scalar == ScalarKind::UInt32 ? "#define BRT_UNSIGNED\n"
                                                                        : "#define BRT_INTEGER\n";
            gl::ShaderProgram& program =
                device_->programs.get(source, "(gl backend: copy into a view)", source, variant);
            glUseProgram(program.get());
            const GLuint target = storage.surface().textures[f].get();
            objects.targets.bind(&target, 1);
            glUniform1i(program.uniform("brt_frame_width"), layout.width);
            glUniform4iv(program.uniform("brt_view_ext"), 1, view.extents.data());
            glUniform4iv(program.uniform("brt_view_str"), 1, view.strides.data());
            glUniform1i(program.uniform("brt_view_off"), view.offset);
            glUniform1i(program.uniform("brt_storage_count"), static_cast<GLint>(storage.count()));
            bind_texture_unit(0, values.textures[f].get());
            glUniform1i(program.uniform("brt_values"), 0);
            glDrawArrays(GL_TRIANGLES, 0, 3);
        }
        gl::check("copying into a view");
    }

    /// Folds argument `input` down to `target` extents (right-aligned; each divides the
    /// input's): per dimension, last first, passes that each fold up to 8 adjacent elements of
    /// a target element's block in order. Returns the dense result.
    Surface reduce(const Launch& launch, int input, const std::array<int, 4>& target) {
        const KernelInfo& kernel = *launch.kernel;
        const auto input_param = static_cast<std::size_t>(input);
        std::size_t accumulator = 0;
        for (std::size_t p = 0; p < kernel.params.size(); ++p) {
            if (kernel.params[p].kind == ParamKind::ReduceAccumulator) {
                accumulator = p;
            }
        }
        const GlStorage& storage = gl_storage(launch.args[input_param].stream.storage);
        const std::vector<Format>& formats = storage.formats();
        Shape4 shape = shape_of(launch.args[input_param].stream.region);
        Surface current; // empty: the first pass reads the input itself
        bool passed = false;
        for (int d = 3; d >= 0; --d) {
            const auto dim = static_cast<std::size_t>(d);
            int factor = shape.extents[dim] / target[dim];
            while (factor > 1 || (!passed && d == 0)) {
                const int chunks = (factor + 7) / 8;
                std::array<int, 4> extents = shape.extents;
                extents[dim] = target[dim] * chunks;
                const Shape4 next = dense_shape(extents);
                std::vector<Output> outputs;
                outputs.push_back({static_cast<int>(accumulator), nullptr,
                                   acquire_surface(*device_, formats, next.count())});
                reduce_source_ = current.textures.empty() ? &storage.surface() : &current;
                reduce_param_ = input_param;
                reduce_shape_ = shape;
                PassUniforms extra;
                extra.reduce_dim = d;
                extra.reduce_factor = factor;
                extra.reduce_chunks = chunks;
                draw(kernel, launch, targets_of(outputs), next, extra);
                reduce_source_ = nullptr;
                if (!current.textures.empty()) {
                    release_surface(*device_, formats, current);
                }
                current = std::move(outputs.front().surface);
                shape = next;
                factor = chunks;
                passed = true;
            }
        }
        return current;
    }

    /// What decides a call's passes and their programs (plan_passes).
    struct PlanKey {
        const KernelInfo* kernel;
        std::string extra_defines;
        std::string direct;
        bool fills_layout;
        std::vector<std::string> targets;
        auto operator<=>(const PlanKey&) const = default;
    };

    std::shared_ptr<Device> device_;
    std::map<PlanKey, std::vector<Pass>> plans_;
    // The reduce input of the pass being drawn (see pass_input_surface).
    const Surface* reduce_source_ = nullptr;
    std::size_t reduce_param_ = 0;
    Shape4 reduce_shape_;
};

const BackendRegistration gl_registration({
    .name = "gl",
    .auto_rank = 10,
    .create =
        [] { return std::unique_ptr<Backend>(std::make_unique<GlBackend>(gl::Context::create())); },
});

} // namespace

} // namespace brook::detail::gl
