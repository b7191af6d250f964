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
//
// This file holds the backend's overrides and its registration; docs/gl_backend.md lists the
// files that hold the rest.

#include "backends/gl/field_format.hpp"
#include "backends/gl/gl_context.hpp"
#include "backends/gl/gl_device.hpp"
#include "backends/gl/gl_storage.hpp"
#include "backends/gl/kernel_passes.hpp"
#include "backends/gl/shape4.hpp"
#include "brook/detail/glsl_interface.hpp"
#include "core/launch.hpp"
#include "core/registry.hpp"

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace brook::detail::gl {

namespace {

class GlBackend final : public Backend {
public:
    explicit GlBackend(std::shared_ptr<Context> context)
        : device_(std::make_shared<Device>()), passes_(*device_) {
        device_->context = std::move(context);
        device_->context->on_thread_exit([device = std::weak_ptr<Device>(device_)] {
            if (const std::shared_ptr<Device> alive = device.lock()) {
                alive->per_thread.erase(std::this_thread::get_id());
            }
        });
    }
    ~GlBackend() override {
        const std::shared_ptr<Context> context = device_->context;
        const DeviceLock lock(*device_);
        device_.reset();
    }
    GlBackend(const GlBackend&) = delete;
    GlBackend& operator=(const GlBackend&) = delete;

    std::string_view name() const override { return glsl::backend_name; }
    std::string device() const override { return device_->context->description(); }
    bool software_renderer() const override { return device_->context->software_renderer(); }
    bool gpu_api() const override { return true; }
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
        check("uploading a stream");
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
        check("copying a stream");
    }

    void run_kernel(const Launch& launch) override {
        const DeviceLock lock(*device_);
        const Shape4 domain = domain_shape(launch.rank, launch.extents);
        switch (launch.pass) {
        case Launch::Pass::Single:
            passes_.write_outputs(launch, domain);
            break;
        case Launch::Pass::Count:
            passes_.count_pushes(launch, domain);
            break;
        case Launch::Pass::Write:
            // The values first: their passes read the ordinary outputs' old values, as the
            // CPU's write pass does, and an output that is also an input must not change yet.
            for (std::size_t p = 0; p < launch.kernel->params.size(); ++p) {
                if (launch.kernel->params[p].kind == ParamKind::VariableOutput) {
                    passes_.write_pushes(launch, domain, p);
                }
            }
            passes_.write_outputs(launch, domain);
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
        Surface folded = passes_.reduce(launch, input, ones);
        const ElementType& type = gl_storage(in.storage).type();
        auto* bytes = static_cast<std::byte*>(result);
        for (std::size_t f = 0; f < formats.size(); ++f) {
            std::byte texel[16] = {};
            glGetTextureSubImage(folded.textures[f].get(), 0, 0, 0, 0, 1, 1, 1, formats[f].format,
                                 formats[f].type, sizeof texel, texel);
            unpack(formats[f], texel, bytes + type.fields[f].offset);
        }
        check("reading a reduction's result");
        release_surface(*device_, formats, folded);
    }

    void reduce_to_stream(const Launch& launch, int input, const BoundStream& target) override {
        const DeviceLock lock(*device_);
        const Shape4 target_shape = shape_of(target.region);
        Surface folded = passes_.reduce(launch, input, target_shape.extents);
        passes_.store(gl_storage(target.storage), target.region, folded);
    }

private:
    std::shared_ptr<Device> device_;
    KernelPasses passes_;
};

const BackendRegistration gl_registration({
    .name = glsl::backend_name,
    .auto_rank = 10,
    .create =
        [] { return std::unique_ptr<Backend>(std::make_unique<GlBackend>(Context::create())); },
});

} // namespace

} // namespace brook::detail::gl
