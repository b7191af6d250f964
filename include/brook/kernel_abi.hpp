// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The interface between brcc's generated code and the runtime. For every kernel brcc emits a
// static KernelInfo (its parameters and the code of each backend) and a stub with the kernel's
// name that packs the call's arguments into KernelArgs and calls run_kernel / run_reduce. The
// runtime checks the arguments (kinds, element types, shapes) and launches on the current backend.
//
// Only generated code should need this header; users include <brook/brook.hpp>.

#include "brook/call_domain.hpp"
#include "brook/stream.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <source_location>
#include <span>
#include <string_view>

namespace brook {

/// The kind of a kernel parameter (brook/param_kinds.def lists them with what they allow).
enum class ParamKind : unsigned char {
#define BROOK_PARAM_KIND(name, words, is_stream, reads, writes) name,
#include "brook/param_kinds.def"
#undef BROOK_PARAM_KIND
};

/// What brcc knows about one kernel parameter.
struct ParamInfo {
    const char* name;
    ParamKind kind;
    /// element_traits<Element>::type of the parameter's element type; null for bool constants.
    const ElementType& (*element_type)();
    /// For gathers: bit K set when the body indexes it with K components (COMPAT.md §1.9: the
    /// bound stream's rank decides what they mean); 0 for the others.
    unsigned gather_index_widths = 0;
    bool read = true;     ///< the kernel's body reads the argument's elements
    bool written = false; ///< the kernel's body writes the argument's elements
    /// For gathers whose rows brcc could bound (row_from >= 0): every index has the same number
    /// of components (one bit of gather_index_widths) and its row component, the slowest
    /// dimension's, is component `row_from` (0 = .x .. 3 = .w) of indexof(parameter `row_stream`)
    /// plus a whole number in [row_reach_low, row_reach_high], before the clamp to the stream;
    /// plus, when row_shift >= 0, component row_shift_component of constant parameter
    /// row_shift (a float or an int): a whole number between the floor and the ceiling of its
    /// value. -1: any row. A backend that spreads streams over processes (mpi) then fetches
    /// only the rows near its block (a stencil's halo, SGEMV's own rows) rather than the whole
    /// stream.
    int row_from = -1;
    int row_stream = -1;
    int row_reach_low = 0;
    int row_reach_high = 0;
    int row_shift = -1;
    int row_shift_component = 0;
};

/// "input stream", "gather", ...: the kind as messages name it.
constexpr const char* param_kind_words(ParamKind kind) {
    switch (kind) {
#define BROOK_PARAM_KIND(name, words, is_stream, reads, writes)                                    \
    case ParamKind::name:                                                                          \
        return words;
#include "brook/param_kinds.def"
#undef BROOK_PARAM_KIND
    }
    return "";
}

namespace cpu {

/// One stream argument as a CPU kernel sees it: elements are stored in the C++ type's layout
/// (sizeof(T) apart), row-major. `strides` (in elements) let a view skip rows of its parent.
struct StreamView {
    std::byte* data = nullptr; ///< the view's first element
    int rank = 0;
    std::array<std::size_t, 4> extents{}; ///< extents[0] is the slowest dimension
    std::array<std::size_t, 4> strides{}; ///< element stride of each dimension
};

/// Everything a generated CPU kernel needs for one call. `args[i]` belongs to parameter i.
struct Frame {
    struct Arg {
        const void* constant = nullptr; ///< for Constant parameters: the value (type of the param)
        StreamView stream;              ///< for stream, gather and reduce parameters
        /// VariableOutput parameters, count pass: element i adds its number of pushes to
        /// push_counts[i] (zeroed by the runtime; indexed by output element).
        std::size_t* push_counts = nullptr;
        /// VariableOutput parameters, write pass: element i's first value goes to element
        /// push_offsets[i] of `stream` (a dense 1-D stream of the total count).
        const std::size_t* push_offsets = nullptr;
    };
    const Arg* args = nullptr;
    /// The output domain of a kernel call; for a reduction, the reduce input's shape. The
    /// ReduceAccumulator parameter's Arg is empty: fold and combine get the accumulator directly.
    int output_rank = 0;
    std::array<std::size_t, 4> output_extents{};
    std::size_t element_count = 0; ///< of the output domain (kernels) or the reduce input
    /// True when every stream argument has the output's shape and is dense, so element `i` of
    /// each is at data + i. Generated kernels then take their plain loop.
    bool dense = false;
    /// Kernels with VariableOutput parameters run twice over the same elements: first a count
    /// pass (`counting` true) in which push() only counts and the ordinary outputs go to scratch
    /// memory, then, after the runtime has sized each variable output, the write pass.
    bool counting = false;
    /// Null, or while a write mask or write query needs to know which elements a call writes
    /// (brook/write_control.hpp; then the call is never dense): one byte per output element,
    /// on entry nonzero for an element to skip, on return 1 for each element written (see
    /// skips_element and mark_written in cpu_kernel.hpp).
    unsigned char* element_flags = nullptr;
    /// Last, so that the fields before it keep their places for kernels built before it. True
    /// for a dense call that writes its outputs whole and moves more bytes than the
    /// last-level cache holds (cpu_backend.cpp's streaming_threshold), so that the lines it writes
    /// would leave the cache before anything read them again: its outputs are then better written
    /// with non-temporal stores (brook::cpu::store_streaming), which do not read each line before
    /// writing it. No output is also one of the call's inputs.
    bool streaming_stores = false;

    template <class Element> const Element& constant(int param) const {
        return *static_cast<const Element*>(args[param].constant);
    }
    template <class Element> Element* data(int param) const {
        return reinterpret_cast<Element*>(args[param].stream.data);
    }
};

/// Address of the element of `view` at `index` (slowest dimension first; index[d] <
/// view.extents[d] for d < view.rank, the rest ignored). Gathers and folds address elements so.
inline std::byte* element_at(const StreamView& view, const std::array<std::size_t, 4>& index,
                             std::size_t element_size) {
    std::size_t offset = 0;
    for (int d = 0; d < view.rank; ++d) {
        offset += index[static_cast<std::size_t>(d)] * view.strides[static_cast<std::size_t>(d)];
    }
    return view.data + offset * element_size;
}

/// DESIGN.md's gather index rule for one index component: floor(v + 0.25) clamped to
/// [0, extent - 1]; NaN gives 0. Also used by streamGatherOp and streamScatterOp.
inline std::size_t gather_index(float v, std::size_t extent) {
    const float rounded = std::floor(v + 0.25f);
    // Written so that NaN takes the first branch.
    if (!(rounded > 0.0f)) {
        return 0;
    }
    if (rounded >= static_cast<float>(extent - 1)) {
        return extent - 1;
    }
    return static_cast<std::size_t>(rounded);
}

/// For calls that are not `dense`: the element of an input stream that output element
/// `output_index` (row-major over frame.output_extents) reads. Per dimension, output index i reads
/// input index floor(i * in / out), so an input of the output's shape maps i to i, a smaller one
/// repeats elements and a larger one strides over them (DESIGN.md §2); the view's strides are
/// applied, so domain views work too. The input has the output's rank (run_kernel checks it).
inline const std::byte* resized_element(const StreamView& input, const Frame& frame,
                                        std::size_t output_index, std::size_t element_size) {
    std::size_t offset = 0;
    for (int d = frame.output_rank - 1; d >= 0; --d) {
        const auto dim = static_cast<std::size_t>(d);
        const std::size_t out = frame.output_extents[dim];
        const std::size_t i = output_index % out;
        output_index /= out;
        offset += (i * input.extents[dim] / out) * input.strides[dim];
    }
    return input.data + offset * element_size;
}

/// For calls that are not `dense`: where output element `output_index` of an output stream
/// lives (an output always has the output shape, but a view of one may have gaps).
inline std::byte* output_element(const StreamView& output, const Frame& frame,
                                 std::size_t output_index, std::size_t element_size) {
    std::size_t offset = 0;
    for (int d = frame.output_rank - 1; d >= 0; --d) {
        const auto dim = static_cast<std::size_t>(d);
        const std::size_t out = frame.output_extents[dim];
        offset += (output_index % out) * output.strides[dim];
        output_index /= out;
    }
    return output.data + offset * element_size;
}

/// `vout T name<>` inside the loop over output element `element`: the generated code declares
/// `VariableOutput<T> name_out(frame, param, i, limit);` and translates `push(name)` to
/// `name_out.push(name)`. In the count pass push() counts, in the write pass it stores the value
/// after the ones this element pushed before, so an element's values keep their order and the
/// elements' runs follow each other in row-major order. `limit` is N of `vout [N]`: pushes
/// after the element's first N are dropped, in both passes alike; 0 is no limit.
template <class Element> class VariableOutput {
public:
    VariableOutput(const Frame& frame, int param, std::size_t element, std::size_t limit)
        : arg_(&frame.args[param]), element_(element),
          limit_(limit == 0 ? static_cast<std::size_t>(-1) : limit), counting_(frame.counting) {}

    void push(const Element& value) {
        if (pushed_ == limit_) {
            return;
        }
        if (counting_) {
            ++arg_->push_counts[element_];
        } else {
            reinterpret_cast<Element*>(arg_->stream.data)[arg_->push_offsets[element_] + pushed_] =
                value;
        }
        ++pushed_;
    }

private:
    const Frame::Arg* arg_;
    std::size_t element_;
    std::size_t pushed_ = 0;
    std::size_t limit_;
    bool counting_;
};

/// Applies a kernel to output elements [begin, end) in row-major order.
using KernelFunction = void (*)(const Frame& frame, std::size_t begin, std::size_t end);

/// A row-major box of reduce-input elements: [lo[d], hi[d]) in each dimension d < rank.
struct Box {
    std::array<std::size_t, 4> lo{};
    std::array<std::size_t, 4> hi{};
};

/// Calls f(const std::byte* element) for every element of `view` inside `box`, in row-major order.
template <class Function>
void for_each_in_box(const StreamView& view, const Box& box, std::size_t element_size,
                     Function&& f) {
    std::array<std::size_t, 4> lo{0, 0, 0, 0};
    std::array<std::size_t, 4> hi{1, 1, 1, 1};
    std::array<std::size_t, 4> stride{0, 0, 0, 0};
    for (int d = 0; d < view.rank; ++d) {
        const auto dim = static_cast<std::size_t>(d);
        lo[dim] = box.lo[dim];
        hi[dim] = box.hi[dim];
        stride[dim] = view.strides[dim] * element_size;
    }
    for (std::size_t i0 = lo[0]; i0 < hi[0]; ++i0) {
        for (std::size_t i1 = lo[1]; i1 < hi[1]; ++i1) {
            for (std::size_t i2 = lo[2]; i2 < hi[2]; ++i2) {
                const std::byte* row = view.data + i0 * stride[0] + i1 * stride[1] + i2 * stride[2];
                for (std::size_t i3 = lo[3]; i3 < hi[3]; ++i3) {
                    f(static_cast<const std::byte*>(row + i3 * stride[3]));
                }
            }
        }
    }
}

/// Folds the reduce input's elements inside `box`, in row-major order, into `accumulator` (an
/// object of the element type): the accumulator becomes the box's first element, then the
/// reduce body combines each next element into it.
using FoldFunction = void (*)(const Frame& frame, const Box& box, void* accumulator);
/// accumulator = accumulator (+) value: the reduce body with `value` as the stream element. Used
/// to join partial results in order.
using CombineFunction = void (*)(const Frame& frame, void* accumulator, const void* value);

} // namespace cpu

namespace cpu {

struct KernelCode;

/// Folds, as a reduction would fold them, the elements a map kernel would write inside `box` of
/// its output, computing each where it is folded instead of storing it: `map` is the map's call.
/// brcc prints one for each map kernel and reduction of the same file that could be paired so
/// (cpu_kernel_emitter), and the backend runs it where a held map call's output is the next
/// reduction's input (the cpu backend's deferred_map.hpp).
using FusedFoldFunction = void (*)(const Frame& map, const Box& box, void* accumulator);

/// A FusedFoldFunction of two kernels, kept in the KernelCode of the one later in the file:
/// `partner` is the other's code.
struct FusedFold {
    const KernelCode* partner;
    FusedFoldFunction fold;
};

/// The CPU backend's code for a kernel (brcc's codegen/cpu), the payload of its "cpu" entry.
struct KernelCode {
    KernelFunction kernel = nullptr; ///< stream kernels
    FoldFunction fold = nullptr;     ///< reductions
    CombineFunction combine = nullptr;
    /// The fewest elements worth a thread of their own, or 0 for the backend's default (sized
    /// for a few operations per element). brcc lowers it for kernels that loop, where one
    /// element may be a whole dot product, and for straight-line kernels with many operations
    /// per element.
    std::size_t grain = 0;
    /// The body loops, so its elements may cost very different amounts: the backend hands them
    /// out in chunks taken in turn rather than one equal range per thread.
    bool loops = false;
    /// The fused folds of this kernel with kernels earlier in its file.
    std::span<const FusedFold> fused_folds{};
};

} // namespace cpu

/// One backend's code for a kernel: `backend` is its BRT_RUNTIME name and `code` what that
/// backend's generator in brcc emitted, which only the backend interprets (a cpu::KernelCode for
/// cpu; the kernel's source text, a null-terminated string, for gl and cuda).
struct BackendCode {
    const char* backend;
    const void* code;
};

struct KernelInfo {
    const char* name;
    std::span<const ParamInfo> params;
    bool is_reduce;
    /// One entry per backend the program was built with (brcc --backends).
    std::span<const BackendCode> backends;
    /// The body, or a kernel it calls, may run `discard`: the runtime cannot know which
    /// elements a call writes without asking the backend (brook/write_control.hpp).
    bool discards = false;
    /// Brook+'s `Attribute[GroupSize(x)]` (BROOKPLUS.md §4.8): x, the threads of a group, which
    /// run together (syncGroup, a shared array); 0 for a kernel without thread groups.
    unsigned group_size = 0;

    /// The code for `backend`, or null when the program was built without it.
    const void* code_for(std::string_view backend) const {
        for (const BackendCode& entry : backends) {
            if (backend == entry.backend) {
                return entry.code;
            }
        }
        return nullptr;
    }
};

/// One argument of a kernel call, built by the generated stub.
struct KernelArg {
    const void* constant = nullptr;     ///< Constant parameters
    const stream* stream_arg = nullptr; ///< stream, gather and reduce-input parameters
    stream* output = nullptr;           ///< OutputStream parameters and stream reduce targets
    void* reduce_value = nullptr;       ///< a host variable as reduce target
    const ElementType* reduce_value_type = nullptr;

    template <class Element> static KernelArg constant_value(const Element& value) {
        KernelArg arg;
        arg.constant = &value;
        return arg;
    }
    static KernelArg input(const stream& s) {
        KernelArg arg;
        arg.stream_arg = &s;
        return arg;
    }
    /// OutputStream and VariableOutput parameters.
    static KernelArg output_stream(stream& s) {
        KernelArg arg;
        arg.output = &s;
        return arg;
    }
    template <class Element> static KernelArg reduce_target(Element& value) {
        KernelArg arg;
        arg.reduce_value = &value;
        arg.reduce_value_type = &element_traits<Element>::type();
        return arg;
    }
};

/// Checks the arguments against `kernel`'s parameters and runs it on the current backend;
/// misuse (wrong element type, mismatched output shapes, bad resize) stops the program with a
/// message naming the kernel, the argument and the shapes.
///
/// Variable outputs: the domain is the ordinary outputs' shape, or, for a kernel whose only
/// outputs are `vout`s, the first input stream's. The kernel runs a count pass, the runtime takes
/// the exclusive prefix sum of each vout's per-element counts, makes each vout stream (a whole
/// stream, not a view) a dense stream of its total count (COMPAT.md §3.2: <n>, or rows as wide
/// as the widest input when it and the inputs are 2-D, the last row padded), then runs the write
/// pass. A total of 0 leaves an empty stream (0 elements): streamSize gives 0, streamWrite copies
/// and streamPrint prints nothing, and passing it to a kernel or reduction other than as a vout
/// is an error. `where` is the call's location in the .br file (brook/errors.hpp).
void run_kernel(const KernelInfo& kernel, std::span<const KernelArg> args,
                std::source_location where = std::source_location::current());

/// Runs a reduce function: the ReduceInput argument is folded into the ReduceAccumulator
/// argument, a host variable (all elements) or a stream (each element folds its block).
void run_reduce(const KernelInfo& kernel, std::span<const KernelArg> args,
                std::source_location where = std::source_location::current());

} // namespace brook
