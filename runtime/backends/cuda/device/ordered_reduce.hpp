// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Ordered reductions for CUDA kernels: warp, block and grid levels, written once; and, for the
// operators that also commute, a grid level that folds in any order.
//
// A Brook reduce operator is associative but may be non-commutative (a matrix product), and it has
// no identity element. So every level combines pairs (i, i + stride), i a multiple of 2 * stride,
// as left ⊕ right, and a lane only absorbs a neighbour that holds a value. By induction lane i then
// holds the fold of positions [i, min(i + 2 * stride, count)) in order; after the last level lane 0
// holds a0 ⊕ a1 ⊕ ... ⊕ a(count-1): re-associated, never re-ordered.
//
// The algorithms are templates over an execution adaptor `Exec`. DeviceBlock (below, CUDA only) is
// the one a kernel uses: each hardware thread runs the code for itself. HostBlock
// (tests/host_block.hpp) runs each step for every thread of a simulated block before the next one,
// so the same templates are unit-tested on the host. An adaptor provides:
//   unsigned threads() const                       threads in the block: a multiple of 32, <= 1024
//   template <class T> class PerThread             one T per thread, built from the adaptor;
//                                                  v[ThreadId], value_type = T
//   void each(F f)                                 f(ThreadId) for the calling thread (host: every
//   thread) PerThread<T> shfl_down(const PerThread<T>&, unsigned delta)  lane + delta's value; own
//   past lane 31 PerThread<T> shfl_up(const PerThread<T>&, unsigned delta)    lane - delta's value;
//   own below delta PerThread<T> shfl_idx(const PerThread<T>&, F src_lane)       value of lane
//   src_lane(ThreadId) void sync()                                    barrier of the block template
//   <class T, unsigned N> T* shared()     N Ts shared by the block
// Threads communicate only through the shuffles and through shared memory separated by sync(), so
// the host's step-by-step run computes what the device computes. Collective calls (shuffles, sync,
// and every algorithm here) must be reached by all threads of the block. Element types are
// trivially copyable and default-constructible.
//
// Under NVRTC no standard header exists, so this file and prefix_scan.hpp include nothing else.
#pragma once

#if defined(__CUDACC__)
#define BROOK_DEVICE __device__
#else
#define BROOK_DEVICE
#endif
#if defined(__CUDA_ARCH__) // device compilation only: host compilers warn on the pragma
#define BROOK_UNROLL _Pragma("unroll")
#else
#define BROOK_UNROLL
#endif

namespace brook::cuda::device {

/// Element counts and indices: 64-bit on host and device alike.
using Size = unsigned long long;

inline constexpr unsigned warp_size = 32;
inline constexpr unsigned max_block_threads = 1024;

/// A thread of the block: its index, its lane in the warp and its warp.
struct ThreadId {
    unsigned index;
    BROOK_DEVICE constexpr unsigned lane() const { return index % warp_size; }
    BROOK_DEVICE constexpr unsigned warp() const { return index / warp_size; }
};

/// One value of type T per thread of the block run by Exec.
template <class Exec, class T> using PerThread = typename Exec::template PerThread<T>;

/// A fixed-size array usable as a per-thread value (std::array is not available under NVRTC).
template <class T, unsigned N> struct Array {
    T items[N];
    BROOK_DEVICE constexpr T& operator[](unsigned i) { return items[i]; }
    BROOK_DEVICE constexpr const T& operator[](unsigned i) const { return items[i]; }
};

namespace detail {
template <class T> struct RemoveCvref { using type = T; };
template <class T> struct RemoveCvref<const T> : RemoveCvref<T> {};
template <class T> struct RemoveCvref<volatile T> : RemoveCvref<T> {};
template <class T> struct RemoveCvref<const volatile T> : RemoveCvref<T> {};
template <class T> struct RemoveCvref<T&> : RemoveCvref<T> {};
template <class T> struct RemoveCvref<T&&> : RemoveCvref<T> {};
template <class T> T&& declval() noexcept;

BROOK_DEVICE constexpr Size min(Size a, Size b) {
    return a < b ? a : b;
}
} // namespace detail

/// The element type an element-loading functor `Load(Size) -> T` yields.
template <class Load>
using LoadedType = typename detail::RemoveCvref<decltype(detail::declval<Load&>()(Size{}))>::type;

// ---------------------------------------------------------------------------------------------
// The device adaptor
// ---------------------------------------------------------------------------------------------
#if defined(__CUDACC__)
/// Execution adaptor for a CUDA kernel: the calling thread of a 1-D block (blockDim.x a multiple
/// of 32). Values of any size are shuffled as 4-byte words.
class DeviceBlock {
public:
    template <class T> class PerThread {
    public:
        using value_type = T;
        __device__ explicit PerThread(const DeviceBlock&) : value_{} {}
        __device__ T& operator[](ThreadId) { return value_; }
        __device__ const T& operator[](ThreadId) const { return value_; }

    private:
        T value_;
    };

    __device__ unsigned threads() const { return blockDim.x; }

    template <class F> __device__ void each(F&& f) { f(ThreadId{threadIdx.x}); }

    template <class T>
    __device__ PerThread<T> shfl_down(const PerThread<T>& v, unsigned delta) const {
        return shuffle(v,
                       [delta](unsigned word) { return __shfl_down_sync(all_lanes, word, delta); });
    }
    template <class T>
    __device__ PerThread<T> shfl_up(const PerThread<T>& v, unsigned delta) const {
        return shuffle(v,
                       [delta](unsigned word) { return __shfl_up_sync(all_lanes, word, delta); });
    }
    template <class T, class F>
    __device__ PerThread<T> shfl_idx(const PerThread<T>& v, F src_lane) const {
        const int src = static_cast<int>(src_lane(ThreadId{threadIdx.x}));
        return shuffle(v, [src](unsigned word) { return __shfl_sync(all_lanes, word, src); });
    }

    __device__ void sync() { __syncthreads(); }

    /// N Ts in shared memory, one array per (T, N) for the whole kernel. alignas comes first:
    /// a standard attribute may not follow a decl-specifier, so the other order compiles only
    /// where __shared__ is an attribute (nvcc, NVRTC), not as host C++ (the emulated tests).
    template <class T, unsigned N> __device__ T* shared() {
        alignas(T) __shared__ unsigned char storage[N * sizeof(T)];
        return reinterpret_cast<T*>(storage);
    }

private:
    static constexpr unsigned all_lanes = 0xffffffffu;

    template <class T, class F>
    __device__ static PerThread<T> shuffle(const PerThread<T>& v, F shuffle_word) {
        constexpr unsigned words = (sizeof(T) + 3) / 4;
        unsigned buffer[words] = {};
        memcpy(buffer, &v[ThreadId{}], sizeof(T));
        BROOK_UNROLL
        for (unsigned w = 0; w < words; ++w)
            buffer[w] = shuffle_word(buffer[w]);
        PerThread<T> result = v;
        memcpy(&result[ThreadId{}], buffer, sizeof(T));
        return result;
    }
};
#endif

// ---------------------------------------------------------------------------------------------
// Warp and block levels
// ---------------------------------------------------------------------------------------------
namespace detail {
// The ordered tree over the 32 lanes of every warp; lanes_with_value(t) is the number of leading
// lanes of t's warp that hold a value. Afterwards lane 0 holds their fold (if there is one).
template <class Exec, class Values, class Op, class LaneCount>
BROOK_DEVICE Values warp_tree(Exec& ex, Values v, Op& op, LaneCount lanes_with_value) {
    for (unsigned stride = 1; stride < warp_size; stride *= 2) {
        const Values right = ex.shfl_down(v, stride);
        ex.each([&](ThreadId t) {
            const unsigned lane = t.lane();
            if (lane % (2 * stride) == 0 && lane + stride < lanes_with_value(t))
                v[t] = op(v[t], right[t]);
        });
    }
    return v;
}
} // namespace detail

/// Folds, in every warp, the values of its first `valid_lanes` lanes (1 to 32) in lane order:
/// the result is v[0] ⊕ v[1] ⊕ ... ⊕ v[valid_lanes - 1] in lane 0; other lanes hold no result.
/// Lanes at or past valid_lanes are never read into `op`. Values is PerThread<Exec, T>; the
/// count is the same in every thread.
template <class Exec, class Values, class Op>
BROOK_DEVICE Values warp_reduce(Exec& ex, const Values& v, unsigned valid_lanes, Op op) {
    return detail::warp_tree(ex, v, op, [valid_lanes](ThreadId) { return valid_lanes; });
}

/// Folds the values of the block's first `valid_threads` threads (1 to threads()) in thread
/// order; the result is in thread 0 (and lane 0 of each warp when more than one warp holds values).
/// Level 1 folds each warp's lanes; level 2 folds the warps' partials, passed through shared
/// memory, with the same tree in every warp (so control flow stays uniform). Values is
/// PerThread<Exec, T>; the count is the same in every thread.
template <class Exec, class Values, class Op>
BROOK_DEVICE Values block_reduce(Exec& ex, const Values& v, unsigned valid_threads, Op op) {
    using T = typename Values::value_type;
    const Values per_warp = detail::warp_tree(ex, v, op, [valid_threads](ThreadId t) {
        const unsigned first = t.warp() * warp_size;
        return valid_threads > first ? valid_threads - first : 0u;
    });
    const unsigned warps = (valid_threads + warp_size - 1) / warp_size;
    if (warps == 1)
        return per_warp;

    T* slots = ex.template shared<T, warp_size>();
    ex.sync(); // a previous call may still be reading the slots
    ex.each([&](ThreadId t) {
        if (t.lane() == 0 && t.warp() < warps)
            slots[t.warp()] = per_warp[t];
    });
    ex.sync();
    Values partial(ex);
    ex.each([&](ThreadId t) {
        if (t.lane() < warps)
            partial[t] = slots[t.lane()];
    });
    return detail::warp_tree(ex, partial, op, [warps](ThreadId) { return warps; });
}

// ---------------------------------------------------------------------------------------------
// Grid level
// ---------------------------------------------------------------------------------------------
//
// Scheme (n >= 1 elements, given by a functor load(i), i in [0, n) in row-major order):
//   pass 1: a grid of `blocks` blocks; block c calls reduce_chunk for chunk c, the contiguous
//           elements [c * chunk, min(n, (c + 1) * chunk)), and stores its fold to partials[c];
//   pass 2: one block calls reduce_chunk over the `blocks` partials (n = chunk = blocks, c = 0).
// plan_chunks picks chunk and blocks; since chunks are contiguous and the partials are folded in
// chunk order, the result is the ordered fold of all n elements.
//
// Inside a block, the chunk is walked in tiles of threads() * Items elements. Thread t folds the
// Items CONSECUTIVE elements [t * Items, (t + 1) * Items) of the tile sequentially, starting from
// its first element (no identity); block_reduce folds the threads' values in thread order, and
// thread 0 folds the tiles' results in tile order. A coalesced strided assignment (thread t taking
// elements t, t + threads, ...) would interleave the order and is wrong for a non-commutative
// operator. Consecutive runs keep the order and still coalesce in practice: at step j a warp reads
// elements t * Items + j, which lie in the same 32 * Items * sizeof(T) bytes at every step, so
// after the first step the lines are in L1 and DRAM/L2 traffic equals a coalesced read; only the
// L1 wavefronts grow with Items. Staging the tile through shared memory would also coalesce
// the L1 requests at the cost of threads() * Items * sizeof(T) shared bytes and a barrier per
// tile; it is a possible later change behind the same API, as the order depends only on which
// elements each thread folds.
//
// A reduction to a stream (each target element folds a row-major sub-box of the input) uses the
// same calls with a 2-D grid: blockIdx.y names the target element, whose box a RowMajorBox
// turns into element offsets, and its partials are a row of a blocks-wide partials array.

/// The Items of the grid passes the cuda backend runs (brcc's reductions, vout_scan.cu), which
/// the backend also gives plan_chunks: the elements each thread takes per tile.
constexpr unsigned grid_items = 4;

/// How a grid splits n elements: `blocks` chunks of `chunk` elements (the last may be shorter).
struct ChunkPlan {
    Size chunk;
    Size blocks;
};

/// Splits n >= 1 elements into at most max_blocks >= 1 chunks, each a whole number of tiles of
/// threads * items elements (so that only the last tile of the last chunk is partial).
BROOK_DEVICE constexpr ChunkPlan plan_chunks(Size n, unsigned threads, unsigned items,
                                             Size max_blocks) {
    const Size tile = Size{threads} * items;
    const Size tiles = (n + tile - 1) / tile;
    const Size tiles_per_chunk = (tiles + max_blocks - 1) / max_blocks;
    const Size chunk = tiles_per_chunk * tile;
    return ChunkPlan{chunk, (n + chunk - 1) / chunk};
}

/// Folds, in order, the Items consecutive elements of a thread's run that lie before `end`
/// (there is at least one).
template <unsigned Items, class Load, class Op>
BROOK_DEVICE LoadedType<Load> fold_run(Size first, Size end, Load& load, Op& op) {
    LoadedType<Load> value = load(first);
    BROOK_UNROLL
    for (unsigned j = 1; j < Items; ++j)
        if (first + j < end)
            value = op(value, load(first + j));
    return value;
}

/// Block level of the grid scheme above, called by every thread of the block: folds chunk c,
/// the elements [c * chunk, min(n, (c + 1) * chunk)) (c * chunk < n), and thread 0 stores the
/// result to *out.
template <unsigned Items, class Exec, class Load, class Op>
BROOK_DEVICE void reduce_chunk(Exec& ex, Size n, Size chunk, Size c, Load load, Op op,
                               LoadedType<Load>* out) {
    static_assert(Items >= 1, "a thread folds at least one element");
    using T = LoadedType<Load>;
    const Size begin = c * chunk;
    const Size end = detail::min(n, begin + chunk);
    const Size tile = Size{ex.threads()} * Items;
    PerThread<Exec, T> acc(ex);
    for (Size tile_begin = begin; tile_begin < end; tile_begin += tile) {
        const Size left = end - tile_begin;
        const unsigned valid =
            left >= tile ? ex.threads() : static_cast<unsigned>((left + Items - 1) / Items);
        PerThread<Exec, T> run(ex);
        ex.each([&](ThreadId t) {
            const Size first = tile_begin + Size{t.index} * Items;
            if (first < end)
                run[t] = fold_run<Items>(first, end, load, op);
        });
        const PerThread<Exec, T> folded = block_reduce(ex, run, valid, op);
        ex.each([&](ThreadId t) {
            if (t.index == 0)
                acc[t] = tile_begin == begin ? folded[t] : op(acc[t], folded[t]);
        });
    }
    ex.each([&](ThreadId t) {
        if (t.index == 0)
            *out = acc[t];
    });
}

/// Block level of the grid scheme for an operator that commutes as well as associates (brcc's
/// sema/reduce_commutes: `+`, `*`, min, max and the integer bit operations): the fold's order is
/// free, so thread t takes the elements begin + t, begin + t + threads(), ... of chunk c. Every
/// warp's loads coalesce, a thread keeps four loads in flight, and the block folds its threads'
/// values once per chunk instead of once per tile, which is what the ordered walk must do. The
/// same contract as reduce_chunk: thread 0 stores the fold of chunk c to *out.
template <class Exec, class Load, class Op>
BROOK_DEVICE void reduce_chunk_any_order(Exec& ex, Size n, Size chunk, Size c, Load load, Op op,
                                         LoadedType<Load>* out) {
    using T = LoadedType<Load>;
    const Size begin = c * chunk;
    const Size end = detail::min(n, begin + chunk);
    const Size step = ex.threads();
    PerThread<Exec, T> acc(ex);
    ex.each([&](ThreadId t) {
        Size i = begin + t.index;
        if (i >= end)
            return;
        T value = load(i);
        for (i += step; i + 3 * step < end; i += 4 * step) {
            const T a = load(i), b = load(i + step), d = load(i + 2 * step), e = load(i + 3 * step);
            value = op(op(value, a), op(op(b, d), e));
        }
        for (; i < end; i += step)
            value = op(value, load(i));
        acc[t] = value;
    });
    const auto valid = static_cast<unsigned>(detail::min(end - begin, step));
    const PerThread<Exec, T> folded = block_reduce(ex, acc, valid, op);
    ex.each([&](ThreadId t) {
        if (t.index == 0)
            *out = folded[t];
    });
}

/// A row-major box of up to 4 dimensions inside a larger array: element rank r (row-major within
/// the box, the last dimension fastest) lives at offset(r). Extents are >= 1; strides are in
/// elements.
struct RowMajorBox {
    unsigned rank;
    Size base;
    Size extent[4];
    Size stride[4];

    // The loops run over all 4 dimensions so that, unrolled, they index the arrays with constants
    // and the box stays in registers instead of local memory.
    BROOK_DEVICE constexpr Size count() const {
        Size n = 1;
        BROOK_UNROLL
        for (unsigned d = 0; d < 4; ++d)
            if (d < rank)
                n *= extent[d];
        return n;
    }
    /// Whether the box's elements lie next to each other in row-major order (a whole stream, or
    /// whole rows of it), so that element r is at base + r and loads need no index arithmetic.
    BROOK_DEVICE constexpr bool dense() const {
        Size packed = 1;
        BROOK_UNROLL
        for (unsigned k = 0; k < 4; ++k) {
            const unsigned d = 3 - k;
            if (d < rank) {
                if (extent[d] > 1 && stride[d] != packed)
                    return false;
                packed *= extent[d];
            }
        }
        return true;
    }
    BROOK_DEVICE constexpr Size offset(Size r) const {
        Size at = base;
        BROOK_UNROLL
        for (unsigned k = 0; k < 4; ++k) {
            const unsigned d = 3 - k;
            if (d < rank) {
                at += (r % extent[d]) * stride[d];
                r /= extent[d];
            }
        }
        return at;
    }
};

} // namespace brook::cuda::device
