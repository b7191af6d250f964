// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// A kernel call drawn as passes over textures (KernelPasses): planning and drawing the passes
// of its ordinary outputs (kernel_passes.cpp), those of its variable outputs (vout_passes.cpp)
// and of a reduction (reduction_passes.cpp), and putting the values drawn into their streams
// (store_pass.cpp).

#include "backends/gl/gl_device.hpp"
#include "backends/gl/gl_programs.hpp"
#include "backends/gl/gl_storage.hpp"
#include "backends/gl/shape4.hpp"
#include "backends/gl/texture_pool.hpp"
#include "core/launch.hpp"

#include <array>
#include <compare>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace brook::detail::gl {

/// An output parameter of a call and its stream.
struct Output {
    int param;
    GlStorage* storage;
    Surface surface; ///< the new values, in the frame's dense layout
};

/// The render targets of a kernel call: the define that routes each shader output to its
/// target, and the target's texture (filled in once the program is known, see write_outputs).
struct Targets {
    std::vector<std::string> defines;
    std::vector<GLuint> textures;
};

/// The targets of `outputs`, rendering into each one's surface.
Targets targets_of(const std::vector<Output>& outputs);

/// One draw of a call: it writes targets [first, first + count) with `program`, the
/// kernel's shader with the defines routing its outputs to them.
struct Pass {
    std::size_t first;
    std::size_t count;
    ShaderProgram* program;
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

/// Draws the calls of kernels and reductions on `device`; keeps the plan of each kind of call.
class KernelPasses {
public:
    explicit KernelPasses(Device& device) : device_(device) {}

    /// Draws every ordinary output over the domain and stores the results. An output is
    /// rendered straight into its stream's textures when no pass reads them (the kernel
    /// assigns it before using it, and no other argument is the same stream) and the stream is
    /// stored as the domain is drawn, or the outputs are all one view of their streams
    /// (output_view), drawn over the texels it spans; the others go to fresh textures that
    /// replace the stream's afterwards (ping-pong), or are copied into the view, which keeps a
    /// stream that is read and written by one call, or an element the body does not assign, as
    /// the CPU does.
    void write_outputs(const Launch& launch, const Shape4& domain);

    /// The count pass: renders each element's number of pushes per variable output, reads
    /// them back into the core's counters (which sums them up on the host).
    void count_pushes(const Launch& launch, const Shape4& domain);

    /// The write pass of variable output `param`: uploads each element's first slot, then draws
    /// over the output's values (the bound region, the first elements of its storage); each
    /// finds its element by a binary search over those slots and runs it, keeping the push it
    /// stands for (prelude.glsl, brt_locate_push).
    void write_pushes(const Launch& launch, const Shape4& domain, std::size_t param);

    /// Folds argument `input` down to `target` extents (right-aligned; each divides the
    /// input's): per dimension, last first, passes that each fold up to 8 adjacent elements of
    /// a target element's block in order. Returns the dense result.
    Surface reduce(const Launch& launch, int input, const std::array<int, 4>& target);

    /// Puts `values` (dense over the region's shape) into `region` of `storage`: a whole storage
    /// takes the textures (the old ones go back to the pool), a view is copied into place.
    void store(GlStorage& storage, const Region& region, Surface& values);

private:
    /// What decides a call's passes and their programs (plan_passes).
    struct PlanKey {
        const KernelInfo* kernel;
        std::string extra_defines;
        std::string direct;
        bool fills_layout;
        std::vector<std::string> targets;
        auto operator<=>(const PlanKey&) const = default;
    };

    /// Whether `output` may be rendered into its own stream's textures (see write_outputs).
    bool renders_in_place(const Launch& launch, const Output& output, const Shape4& domain,
                          const std::vector<Pass>& passes) const;
    /// The layout a pass draws in: the frame's, or the values' for a variable output's write.
    Layout drawn_layout(const Shape4& frame, const PassUniforms& extra) const;
    /// Splits the call into passes over the dense frame of `frame`, each writing up to
    /// max_outputs() of the targets, and finds each pass's program. Plans are kept, so a call
    /// like an earlier one builds no defines and looks up no programs.
    const std::vector<Pass>& plan_passes(const KernelInfo& kernel, const Launch& launch,
                                         const Targets& targets, const Shape4& frame,
                                         const PassUniforms& extra);
    /// Whether every texel an ordinary pass draws is an element of the frame, so that its shader
    /// (under `#define BRT_FILLS_LAYOUT`) needs no test for texels past the last element. A
    /// `discard` that may run costs llvmpipe about a fifth of a SAXPY's speed even when it never
    /// does.
    bool fills_layout(const Shape4& frame, const PassUniforms& extra) const;
    /// How a pass finds each parameter's elements: '1' for the streams and outputs of an
    /// ordinary pass stored as the frame is drawn, which its shader (under `#define
    /// BRT_DIRECT_P`) reads at the texel it draws, with no address arithmetic; '2' for the other
    /// inputs of the frame's extents, which it reads at the frame's position as it is (under
    /// `#define BRT_UNRESIZED_P`), without brt_resize's divisions, which llvmpipe runs even for
    /// extents alike; '0' for the rest. Reductions and a variable output's values draw other
    /// frames, and an output view is drawn over its own texels (no stream is read directly).
    std::string direct_params(const Launch& launch, const Shape4& frame,
                              const PassUniforms& extra) const;
    /// Plans and draws the passes writing `targets` (textures set) over the frame of `frame`.
    void draw(const KernelInfo& kernel, const Launch& launch, const Targets& targets,
              const Shape4& frame, const PassUniforms& extra);
    /// Under BRT_CHECK=1, binds the record of division faults, set to all ones (none yet).
    void clear_division_record();
    /// Stops at the first element that the passes just drawn recorded a division fault at.
    void report_division_faults(const Launch& launch);
    /// Draws `passes`, each into its share of `targets`.
    void draw_passes(const Launch& launch, const std::vector<Pass>& passes, const Targets& targets,
                     const Shape4& frame, const PassUniforms& extra);
    /// Binds a stream parameter's textures and region.
    void bind_stream(ShaderProgram& program, std::size_t param, const GlStorage& storage,
                     const Surface& surface, const Shape4& shape, int& unit);
    /// Binds every stream and constant argument of `launch` (a reduction's input is rebound by
    /// each pass afterwards). Returns the first texture unit left free.
    int bind_arguments(ShaderProgram& program, const KernelInfo& kernel, const Launch& launch);
    // During a reduction, the reduce input of each pass is the previous pass's result.
    const Surface& pass_input_surface(std::size_t p, const GlStorage& storage) const;
    Shape4 pass_input_shape(std::size_t p, const Region& region) const;
    /// Copies dense `values` into a view `region` of `storage`, one draw per field over the
    /// storage's texels; texels outside the view are discarded.
    void scatter(GlStorage& storage, const Region& region, const Surface& values);

    Device& device_;
    std::map<PlanKey, std::vector<Pass>> plans_;
    // The reduce input of the pass being drawn (see pass_input_surface).
    const Surface* reduce_source_ = nullptr;
    std::size_t reduce_param_ = 0;
    Shape4 reduce_shape_;
};

} // namespace brook::detail::gl
