// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The device-side ABI of brcc's CUDA kernels: what a generated NVRTC program (one per kernel,
// compiler/codegen/cuda/) expects from the backend that launches it. NVRTC name:
// "brook/cuda/kernel_frame.hpp". It includes only brook/kernel_language.hpp (and what that
// includes), so it compiles under NVRTC, which has no standard headers.
//
// Frame. Every entry point takes `const Frame*`, a Frame in device memory whose `args` points
// at one FrameArg per kernel parameter, in declaration order, also in device memory. Element
// counts, extents, strides and indices are 64-bit (Index), so streams beyond 2^31 elements
// address exactly.
//   output_rank, output_extents[4]  the output domain, slowest dimension first (for a
//                                   reduction: the reduce input's shape);
//   element_count                   the product of the output extents;
//   run_begin, run_end              the output elements to run, [run_begin, run_end) in
//                                   row-major order: all of them, or a block of rows of the
//                                   domain (the runtime's Launch::first_row, under the mpi
//                                   backend), where the stream arguments' data then point at
//                                   where row 0 would lie (see the backend's FrameBuffer);
//   args[p]                         parameter p:
//     data                          the first element of the stream, gather or output (for a
//                                   domain or view: its first element), in the storage type
//                                   (fixed as unsigned char, fixedN as vec<unsigned char, N>);
//     rank, extents[4], strides[4]  its shape and its element strides, slowest dimension first;
//     constant                      for a constant parameter: its value's bytes (storage type);
//     push_counts, push_offsets     for a vout parameter: see below.
// Streams of another shape than the output are resized (DESIGN.md §2): along dimension d,
// output index i reads element floor(i * extent[d] / output_extents[d]); a stream of lower rank
// than the output has extent 1 in the missing dimensions.
//
// Entry points, for kernel NAME (extern "C", so their names are exactly these):
//   NAME__cuda(const Frame*), NAME__cuda_resized(const Frame*)
//       stream kernels: one thread per output element to run (run_begin to run_end) over a
//       grid-stride loop; any 1-D grid.
//       NAME__cuda for a dense call (every stream argument has the output's shape and is
//       contiguous: element i of each is at data + i), NAME__cuda_resized for any other.
//   NAME__cuda_warps(const Frame*), NAME__cuda_warps_resized(const Frame*)
//       instead of those two, for a kernel whose body has a loop that walks a gathered row
//       (compiler/codegen/cuda/warp_loop.hpp): a warp (32 consecutive threads) per output
//       element, over a grid-stride loop of warps; the lanes share out that loop's iterations
//       and add up its sums (warp_sum), the rest of the body runs alike in every lane, and lane
//       0 stores the outputs. Any 1-D grid of whole warps.
//   NAME__cuda_group(const Frame*)
//       kernels with thread groups (Brook+'s GroupSize(x)), instead of those: blocks of x
//       threads, each block a group of x consecutive elements, in a grid-stride loop over the
//       groups (run_end - run_begin is whole groups); the body's __syncthreads and __shared__
//       array are the group's.
//   NAME__cuda_count(const Frame*), NAME__cuda_write(const Frame*)
//       kernels with vout parameters, instead of those: the count pass adds each element's
//       number of pushes to args[p].push_counts[i] (zeroed by the backend; indexed by output
//       element) and writes no output; the write pass stores element i's pushes from slot
//       args[p].push_offsets[i] of args[p].data (a dense 1-D array of the total count, sized
//       by the backend from an exclusive scan of the counts, see prefix_scan.hpp), and the
//       ordinary outputs.
//   NAME__cuda_reduce_chunks(const Frame*, const RowMajorBox* boxes, Index chunk, void* partials)
//       reductions, pass 1 (ordered_reduce.hpp's grid scheme): a 2-D grid, blockDim.x a multiple
//       of 32; block (c, y) folds chunk c (elements [c * chunk, (c + 1) * chunk)) of box
//       boxes[y] of the reduce input (args[input].data; offsets in elements) and stores it to
//       partials[y * gridDim.x + c], partials being of the input's storage type. A reduction to
//       one value has one box; a reduction to a stream one box per target element.
//   NAME__cuda_reduce_partials(const Frame*, const void* partials, Index blocks, void* results)
//       reductions, pass 2: a grid of (1, targets) blocks; block y folds partials
//       [y * blocks, (y + 1) * blocks) in order and stores the result to results[y] (dense).
// Both passes read constants and gathers through the same Frame.
#pragma once

#include "brook/kernel_language.hpp"

namespace brook::cuda::device {

/// Element counts, extents, strides and indices.
using Index = unsigned long long;

/// One kernel parameter's argument.
struct FrameArg {
    void* data;
    int rank;
    Index extents[4];
    Index strides[4];
    const void* constant;
    Index* push_counts;
    const Index* push_offsets;
};

/// One kernel call.
struct Frame {
    int output_rank;
    Index output_extents[4];
    Index element_count;
    Index run_begin;
    Index run_end;
    const FrameArg* args;
    /// Null, or while a write mask or write query tracks the call's elements (the runtime's
    /// Launch::element_flags; the call is then not dense): a byte per output element, on entry
    /// nonzero for one to skip, on return 1 for each one written.
    unsigned char* element_flags;
    /// Null, or under BRT_CHECK=1 (a program compiled with -DBROOK_CHECK) the word where the
    /// call records its first integer division fault, element * 2 + fault, by atomicMin from
    /// all ones (runtime/core/checks.hpp).
    unsigned long long* division_record;
};

#if defined(__CUDACC__)

/// The offset (in elements) of output element `i` in stream `arg`, resized to the output.
__device__ inline Index resized_offset(const Frame& frame, const FrameArg& arg, Index i) {
    Index offset = 0;
    for (int d = frame.output_rank - 1; d >= 0; --d) {
        const Index out = frame.output_extents[d];
        const Index coordinate = d == 0 ? i : i % out;
        i = d == 0 ? 0 : i / out;
        if (d >= arg.rank)
            continue;
        const Index extent = arg.extents[d];
        offset += (extent == out ? coordinate : coordinate * extent / out) * arg.strides[d];
    }
    return offset;
}

/// Stream parameter `param`'s elements, in their storage type T, with the alignment their
/// placement guarantees: device allocations start at 256 bytes and a stream (or a view of one)
/// starts a whole number of elements in, so an element whose size is a power of two up to 16
/// bytes is aligned to its size, and a float4 or int4 loads in one instruction.
template <class T> __device__ inline T* element_data(const Frame& frame, int param) {
    constexpr Index size = sizeof(T);
    constexpr Index alignment = (size & (size - 1)) == 0 && size <= 16 ? size : alignof(T);
    return static_cast<T*>(__builtin_assume_aligned(frame.args[param].data, alignment));
}

/// Element `i` of the output domain in stream parameter `param`, in its storage type T, resized
/// (resized_offset). In a dense call (Frame::dense) the generated loop indexes the data instead.
template <class T> __device__ inline T& resized_element(const Frame& frame, int param, Index i) {
    const FrameArg& arg = frame.args[param];
    return static_cast<T*>(arg.data)[resized_offset(frame, arg, i)];
}

/// Whether the element loop skips output element `i` (Frame::element_flags): it then runs
/// nothing, and its flag becomes 0, not written.
__device__ inline bool skips_element(const Frame& frame, Index i) {
    if (frame.element_flags == nullptr || frame.element_flags[i] == 0)
        return false;
    frame.element_flags[i] = 0;
    return true;
}

/// Records that output element `i` was written, where the runtime asks (Frame::element_flags).
__device__ inline void mark_written(const Frame& frame, Index i) {
    if (frame.element_flags != nullptr)
        frame.element_flags[i] = 1;
}

/// Marks output element `i` as the one the calling thread runs, for the division checks of
/// BRT_CHECK=1 (brook/vector.hpp, record_division_fault); nothing without -DBROOK_CHECK.
__device__ inline void check_element([[maybe_unused]] const Frame& frame,
                                     [[maybe_unused]] Index i) {
#if defined(BROOK_CHECK)
    ::brook::detail::division_record = frame.division_record;
    ::brook::detail::checked_elements[threadIdx.x] = i;
#endif
}

/// A reduction records no division faults (docs/language.md, "Integer division"): it clears
/// the record an earlier launch in the block's shared memory may have left.
__device__ inline void check_nothing() {
#if defined(BROOK_CHECK)
    ::brook::detail::division_record = nullptr;
#endif
}

/// The value of constant parameter `param`, in its storage type T.
template <class T> __device__ inline const T& constant(const Frame& frame, int param) {
    return *static_cast<const T*>(frame.args[param].constant);
}

/// Stream parameter `param` as the kernel language's `Array` (Gather or Scatter) of T elements
/// indexed with up to R components.
template <template <class, int> class Array, class T, int R>
__device__ inline Array<T, R> stream_array(const Frame& frame, int param) {
    const FrameArg& arg = frame.args[param];
    lang::size_t extents[4] = {};
    lang::size_t strides[4] = {};
    for (int d = 0; d < arg.rank; ++d) {
        extents[d] = static_cast<lang::size_t>(arg.extents[d]);
        strides[d] = static_cast<lang::size_t>(arg.strides[d]);
    }
    return Array<T, R>(static_cast<T*>(arg.data), arg.rank, extents, strides);
}

/// Gather parameter `param` as the kernel language's Gather.
template <class T, int R>
__device__ inline lang::Gather<T, R> gather(const Frame& frame, int param) {
    return stream_array<lang::Gather, T, R>(frame, param);
}

/// Scatter output parameter `param` as the kernel language's Scatter (one per thread).
template <class T, int R>
__device__ inline lang::Scatter<T, R> scatter(const Frame& frame, int param) {
    return stream_array<lang::Scatter, T, R>(frame, param);
}

/// `indexof(s)`: the position of output element `i` in stream parameter `param` (resized), as a
/// float4 whose .x is the last dimension; as the CPU backend's brook::cpu::indexof. A scatter
/// output's `param` is -1: its position is the domain's (BROOKPLUS.md §4.6).
__device__ inline float4 indexof(const Frame& frame, int param, Index i) {
    const int rank = param >= 0 ? frame.args[param].rank : 0;
    float4 position{};
    int component = 0;
    for (int d = frame.output_rank - 1; d >= 0; --d, ++component) {
        const Index out = frame.output_extents[d];
        const Index coordinate = d == 0 ? i : i % out;
        i = d == 0 ? 0 : i / out;
        const Index extent = d < rank ? frame.args[param].extents[d] : out;
        position[component] =
            static_cast<float>(extent == out ? coordinate : coordinate * extent / out);
    }
    return position;
}

/// A `vout` parameter seen by one element: `push(value)` counts (count pass) or stores the value
/// to the element's next slot (write pass). `limit` is N of `vout [N]`, after which pushes are
/// dropped; 0 is no limit.
template <class T> class VariableOutput {
public:
    __device__ VariableOutput(const Frame& frame, int param, Index i, Index limit, bool counting)
        : arg_(frame.args[param]), i_(i), limit_(limit == 0 ? ~Index{0} : limit),
          counting_(counting) {}
    __device__ void push(const T& value) {
        if (count_ == limit_)
            return;
        if (!counting_)
            static_cast<T*>(arg_.data)[arg_.push_offsets[i_] + count_] = value;
        ++count_;
    }
    /// After the body; in the count pass, adds the element's pushes to its counter.
    __device__ void finish() {
        if (counting_)
            arg_.push_counts[i_] += count_;
    }

private:
    const FrameArg& arg_;
    Index i_;
    Index limit_;
    bool counting_;
    Index count_ = 0;
};

/// The index of the calling thread in a 1-D grid, and the grid's thread count.
__device__ inline Index first_element() {
    return Index{blockIdx.x} * blockDim.x + threadIdx.x;
}
__device__ inline Index grid_threads() {
    return Index{gridDim.x} * blockDim.x;
}

/// A warp-per-element kernel's lane (NAME__cuda_warps): the iterations of a spread loop it runs
/// are those from `warp_lane()` on, `warp_lanes` apart.
inline constexpr int warp_lanes = 32;
__device__ inline int warp_lane() {
    return static_cast<int>(threadIdx.x % warp_lanes);
}

/// The sum of `value` over the lanes of the warp, in every lane: the same float in each, since
/// each step adds the same two partial sums, which commute exactly.
__device__ inline float warp_sum(float value) {
    for (int distance = warp_lanes / 2; distance > 0; distance /= 2)
        value += __shfl_xor_sync(0xffffffffu, value, distance);
    return value;
}

#endif

} // namespace brook::cuda::device
