// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The CUDA dialect of brcc's generated kernels as host C++: the prelude force-included (-include)
// into every generated KERNEL.cu when the emulated conformance tests compile it with g++ and
// -D__CUDACC__ (so kernel_frame.hpp and ordered_reduce.hpp take their device paths). Together
// with cuda_emulation.cpp it lets brook_fake_cuda run a program's kernels on the host
// (FAKE_CUDA_KERNELS, see fake_cuda.hpp).
//
// Execution model. brook_emulate_launch (cuda_emulation.cpp) runs the blocks of a launch one after
// another. Grid-stride entry points (NAME__cuda, __cuda_count, __cuda_write) do not cooperate
// inside a block, so every (block, thread) pair runs in turn on the calling thread. The reduction
// passes do: there every thread of the block is a fiber (a Boost.Context fcontext on a stack of
// its own) on the
// calling thread, run until it reaches a barrier or returns; __syncthreads is a barrier of the
// block and a warp shuffle exchanges 4-byte words through a buffer of the warp at a barrier of
// the warp. Since one block runs at a time, a function-static array is the block's
// shared memory, so __shared__ is `static`.
//
// __CUDA_ARCH__ stays undefined: the headers use it only for `#pragma unroll`, which g++ warns
// about, and kernel_language.hpp takes its host path (the std math functions) without
// __CUDACC_RTC__.
#if !defined(__CUDACC__)
#error "compile the generated kernels with -D__CUDACC__"
#endif

#include <atomic>
#include <cstddef>
#include <cstring>
#include <functional>
#include <type_traits>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __shared__ static

/// CUDA's index types: uint3 for threadIdx and blockIdx, dim3 for blockDim and gridDim.
struct uint3 {
    unsigned x, y, z;
};
struct dim3 {
    unsigned x = 1, y = 1, z = 1;
};

/// The calling emulated thread's coordinates, set by brook_emulate_launch before each call.
inline thread_local uint3 threadIdx{};
inline thread_local uint3 blockIdx{};
inline thread_local dim3 blockDim{};
inline thread_local dim3 gridDim{};

inline constexpr int warpSize = 32;

namespace brook::cuda::emulation {

/// The barrier of the calling thread's block; a fatal error outside a cooperative launch.
void sync_block();
/// Lane `source` (0 to 31) of the calling thread's warp's `word`, as every lane of the warp
/// passes its own; a fatal error outside a cooperative launch.
unsigned exchange_in_warp(unsigned word, unsigned source);
/// The calling thread's lane in its warp.
unsigned lane();
/// The calling emulated thread's index in its block (threadIdx, x fastest).
unsigned thread_in_block();

/// What a launch does, told to one observer: the memory profile (memory_profile.cpp) registers
/// itself when it is linked into the library of kernels.
class LaunchObserver {
public:
    /// Before the first thread of a launch of the entry point `entry`, with its `param_count`
    /// parameters.
    virtual void launch_begins(const char* entry, void** params, std::size_t param_count) = 0;
    /// After the last thread of each block of the launch.
    virtual void block_ends() = 0;
    /// After the last block.
    virtual void launch_ends() = 0;

protected:
    ~LaunchObserver() = default;
};
/// Makes `observer` (null: none) the one told of every launch from now on.
void observe_launches(LaunchObserver* observer);

/// Runs `body` for every thread of every block of a grid (threadIdx and the other indices set),
/// in turn on the calling thread; __syncthreads and the shuffles are fatal errors there.
void run_sequential(const unsigned grid[3], const unsigned block[3],
                    const std::function<void()>& body);
/// Runs `body` for every thread of every block of a grid, the blocks in turn and the threads of a
/// block as fibers on the calling thread, so that they may use __syncthreads and the shuffles.
void run_cooperative(const unsigned grid[3], const unsigned block[3],
                     const std::function<void()>& body);

/// Shuffles a value as the device does: in 4-byte words, each from lane `source` of the warp.
template <class T> T shuffle(T value, unsigned source) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) % 4 == 0,
                  "the emulation shuffles values made of 4-byte words");
    unsigned words[sizeof(T) / 4];
    std::memcpy(words, &value, sizeof(T));
    for (unsigned& word : words)
        word = exchange_in_warp(word, source);
    std::memcpy(&value, words, sizeof(T));
    return value;
}

} // namespace brook::cuda::emulation

// The full-warp shuffles (width 32); the mask is ignored, as every lane takes part.
inline void __syncthreads() {
    brook::cuda::emulation::sync_block();
}
template <class T> T __shfl_down_sync(unsigned, T value, unsigned delta) {
    const unsigned lane = brook::cuda::emulation::lane();
    return brook::cuda::emulation::shuffle(value, lane + delta < 32 ? lane + delta : lane);
}
template <class T> T __shfl_up_sync(unsigned, T value, unsigned delta) {
    const unsigned lane = brook::cuda::emulation::lane();
    return brook::cuda::emulation::shuffle(value, lane >= delta ? lane - delta : lane);
}
template <class T> T __shfl_xor_sync(unsigned, T value, int lane_mask) {
    const unsigned lane = brook::cuda::emulation::lane();
    return brook::cuda::emulation::shuffle(value, (lane ^ static_cast<unsigned>(lane_mask)) % 32);
}
template <class T> T __shfl_sync(unsigned, T value, int source) {
    return brook::cuda::emulation::shuffle(value, static_cast<unsigned>(source) % 32);
}

// CUDA's atomicMin of a 64-bit word (BRT_CHECK=1's division record, brook/vector.hpp).
inline unsigned long long atomicMin(unsigned long long* address, unsigned long long value) {
    std::atomic_ref<unsigned long long> word(*address);
    unsigned long long old = word.load();
    while (value < old && !word.compare_exchange_weak(old, value)) {
    }
    return old;
}

extern "C" {
/// Runs the entry point `name` (a host function of this library, `function`) on a grid of
/// `grid` blocks of `block` threads with cuLaunchKernel's `params` (a pointer to each argument),
/// and returns when every block has run. 0 on success; otherwise it prints why to stderr and
/// returns 1 (an entry point of an unknown kind, or a block of more than 1024 threads).
int brook_emulate_launch(const char* name, void* function, const unsigned grid[3],
                         const unsigned block[3], void** params);
}
