// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The emulation runtime (see cuda_emulation.hpp): brook_emulate_launch runs a launch's blocks one
// after another, the grid-stride entry points thread by thread on the calling thread, the
// reduction passes with a fiber per thread of the block on the calling thread, so that
// __syncthreads and the warp shuffles can wait for the others. It is linked into every library
// of emulated kernels. The fibers switch with Boost.Context's fcontext: glibc's swapcontext
// makes a system call per switch (it saves the signal mask), and a reduction's shuffles switch
// millions of times (reduce_subgroup_folds.br: 14.7 s, 6.8 s of it in the kernel).
#include "cuda_emulation.hpp"

#include "brook/cuda/kernel_frame.hpp"
#include "brook/cuda/ordered_reduce.hpp"

#include <boost/context/detail/fcontext.hpp>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#endif

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

namespace brook::cuda::emulation {

namespace {

namespace abi = ::brook::cuda::device;
namespace fcontext = ::boost::context::detail;

constexpr unsigned warp_lanes = 32;
constexpr unsigned max_block_threads = 1024;
/// Each emulated thread's stack: the kernels' locals and the calls of device/'s templates.
constexpr std::size_t fiber_stack_bytes = 256 * 1024;

/// Where an emulated thread of a cooperative launch stands.
enum class FiberState { ready, at_block_barrier, at_warp_barrier, finished };

/// One emulated thread of a cooperative launch: a context of its own on a stack of its own,
/// run by the launching OS thread until it reaches a barrier or returns.
struct Fiber {
    /// Where it resumes: its start, then where it last waited.
    fcontext::fcontext_t context = nullptr;
    std::unique_ptr<char[]> stack;
    /// ASan's record of the fiber's fake stack while another stack runs.
    void* asan_fake_stack = nullptr;
    /// TSan's name for the fiber, new for each block: a fiber leaves its frames behind.
    void* tsan_fiber = nullptr;
    FiberState state = FiberState::ready;
    /// The buffer of its next warp exchange (every lane of a warp counts alike).
    unsigned exchange_phase = 0;
};

/// A block of a cooperative launch run as fibers on the launching OS thread: each fiber runs
/// until __syncthreads or a shuffle, and waits there until every thread of its block (or lanes of
/// its warp) has arrived, so the threads meet as on a GPU without an OS thread each (those
/// barriers of hundreds of OS threads on two cores cost millions of context switches: the sum
/// example took 7.9 s, 27 s under the test suite's load). Exchanges alternate between two
/// buffers per warp, so a lane writes a buffer again only two exchanges later, past a barrier
/// that every lane reaches after its read.
struct Block {
    explicit Block(unsigned thread_count) : threads(thread_count), fibers(thread_count) {
        for (Fiber& fiber : fibers) {
            fiber.stack = std::make_unique_for_overwrite<char[]>(fiber_stack_bytes);
        }
        words.resize((threads + warp_lanes - 1) / warp_lanes);
#if defined(__SANITIZE_THREAD__)
        tsan_scheduler = __tsan_get_current_fiber();
#endif
    }
    unsigned threads;
    std::vector<Fiber> fibers;
    std::vector<std::array<std::array<unsigned, warp_lanes>, 2>> words;
    /// Where the scheduler resumes when the running fiber waits or ends (each switch to a fiber
    /// hands the fiber the scheduler's new context).
    fcontext::fcontext_t scheduler = nullptr;
    /// The launching thread's stack, as ASan learns it when a fiber first starts.
    const void* scheduler_stack = nullptr;
    std::size_t scheduler_stack_bytes = 0;
    void* tsan_scheduler = nullptr;
    unsigned current = 0;
    const std::function<void()>* body = nullptr;
};

/// The calling thread's block (null outside a cooperative launch) and the emulated thread's
/// index in it.
thread_local Block* current_block = nullptr;
thread_local unsigned linear_thread = 0;

LaunchObserver* launch_observer = nullptr;

/// Tells the observer, if any, that the current block has run to its end.
void end_block() {
    if (launch_observer != nullptr) {
        launch_observer->block_ends();
    }
}

[[noreturn]] void misuse(const char* what) {
    std::fprintf(stderr,
                 "cuda emulation: %s outside a cooperative launch (only the reduction entry "
                 "points __cuda_reduce_chunks and __cuda_reduce_partials may use it)\n",
                 what);
    std::abort();
}

/// Argument `index` of cuLaunchKernel's params, of the entry point's parameter type T.
template <class T> T argument(void** params, std::size_t index) {
    T value;
    std::memcpy(&value, params[index], sizeof value);
    return value;
}

// ::uint3 is CUDA's (cuda_emulation.hpp); brook::uint3 is the kernel language's.
::uint3 coordinates(unsigned linear, const unsigned extents[3]) {
    return {linear % extents[0], linear / extents[0] % extents[1],
            linear / (extents[0] * extents[1])};
}

/// Sets the calling thread's launch dimensions (::dim3 is CUDA's, not the kernel language's).
void enter_launch(const unsigned grid[3], const unsigned block[3]) {
    gridDim = ::dim3{grid[0], grid[1], grid[2]};
    blockDim = ::dim3{block[0], block[1], block[2]};
}

template <class Entry> Entry entry_point(void* function) {
    Entry entry = nullptr;
    static_assert(sizeof entry == sizeof function);
    std::memcpy(&entry, &function, sizeof entry);
    return entry;
}

} // namespace

namespace {

// The sanitizers follow a thread from stack to stack only when told, before each switch (the
// stack about to run; a null save for a fiber that will not run again) and after it (the
// stack just left). Without them these are no-ops. The fibers of a block never run at once,
// and each switch is a release and an acquire of the block for TSan (its own synchronisation
// of fiber switches reports the scheduler's writes as races with GCC 12's libtsan). Between
// the two TSan takes the code for the other side's, which has not acquired yet: the contexts a
// switch reads and returns are read before and stored after, in locals meanwhile.

void leaving_for(Block& block, void** asan_fake_stack_save, const void* stack, std::size_t bytes,
                 void* tsan_fiber) {
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_start_switch_fiber(asan_fake_stack_save, stack, bytes);
#else
    (void)asan_fake_stack_save, (void)stack, (void)bytes;
#endif
#if defined(__SANITIZE_THREAD__)
    __tsan_release(&block);
    __tsan_switch_to_fiber(tsan_fiber, __tsan_switch_to_fiber_no_sync);
#else
    (void)block, (void)tsan_fiber;
#endif
}

void arrived(Block& block, void* asan_fake_stack, const void** left_stack,
             std::size_t* left_bytes) {
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_finish_switch_fiber(asan_fake_stack, left_stack, left_bytes);
#else
    (void)asan_fake_stack, (void)left_stack, (void)left_bytes;
#endif
#if defined(__SANITIZE_THREAD__)
    __tsan_acquire(&block);
#else
    (void)block;
#endif
}

/// Runs `fiber` from the block's scheduler until it waits or finishes.
void resume(Block& block, Fiber& fiber) {
    void* asan_fake_stack = nullptr;
    const fcontext::fcontext_t to = fiber.context;
    leaving_for(block, &asan_fake_stack, fiber.stack.get(), fiber_stack_bytes, fiber.tsan_fiber);
    const fcontext::fcontext_t left = fcontext::jump_fcontext(to, nullptr).fctx;
    arrived(block, asan_fake_stack, nullptr, nullptr);
    fiber.context = left;
}

/// Returns to the block's scheduler, the calling fiber waiting in `state`.
void wait_in(FiberState state) {
    Block& block = *current_block;
    Fiber& fiber = block.fibers[block.current];
    fiber.state = state;
    const fcontext::fcontext_t to = block.scheduler;
    leaving_for(block, &fiber.asan_fake_stack, block.scheduler_stack, block.scheduler_stack_bytes,
                block.tsan_scheduler);
    const fcontext::fcontext_t scheduler = fcontext::jump_fcontext(to, nullptr).fctx;
    arrived(block, fiber.asan_fake_stack, &block.scheduler_stack, &block.scheduler_stack_bytes);
    block.scheduler = scheduler;
}

/// Where every fiber starts, from the scheduler (`from`): the launch's body for the thread the
/// scheduler resumed. It ends by switching to the scheduler, not by returning (an fcontext
/// function must not), so that no instrumented function exit runs after TSan has switched to the
/// scheduler either; the scheduler makes the stack a new context for the next block.
void fiber_main(fcontext::transfer_t from) {
    Block& block = *current_block;
    arrived(block, nullptr, &block.scheduler_stack, &block.scheduler_stack_bytes);
    block.scheduler = from.fctx;
    (*block.body)();
    block.fibers[block.current].state = FiberState::finished;
    const fcontext::fcontext_t to = block.scheduler;
    leaving_for(block, nullptr, block.scheduler_stack, block.scheduler_stack_bytes,
                block.tsan_scheduler);
    fcontext::jump_fcontext(to, nullptr);
}

/// Lets the fibers waiting at a barrier go on once every thread that barrier waits for has
/// arrived (or returned); false when none could go on.
bool release_barriers(Block& block) {
    bool released = false;
    const auto release = [&](unsigned first, unsigned count, FiberState barrier) {
        bool all = true, any = false;
        for (unsigned t = first; t < first + count; ++t) {
            const FiberState state = block.fibers[t].state;
            all = all && (state == barrier || state == FiberState::finished);
            any = any || state == barrier;
        }
        if (all && any) {
            for (unsigned t = first; t < first + count; ++t) {
                if (block.fibers[t].state == barrier) {
                    block.fibers[t].state = FiberState::ready;
                }
            }
            released = true;
        }
    };
    release(0, block.threads, FiberState::at_block_barrier);
    for (unsigned first = 0; first < block.threads; first += warp_lanes) {
        release(first, std::min(warp_lanes, block.threads - first), FiberState::at_warp_barrier);
    }
    return released;
}

/// Runs every thread of the current block (blockIdx set) to its end.
void run_block(Block& block, const unsigned block_extents[3]) {
    for (unsigned t = 0; t < block.threads; ++t) {
        Fiber& fiber = block.fibers[t];
        fiber.state = FiberState::ready;
        fiber.exchange_phase = 0;
        // The stack grows down from its end.
        fiber.context = fcontext::make_fcontext(fiber.stack.get() + fiber_stack_bytes,
                                                fiber_stack_bytes, fiber_main);
#if defined(__SANITIZE_THREAD__)
        fiber.tsan_fiber = __tsan_create_fiber(0);
#endif
    }
    for (;;) {
        bool ran = false;
        for (unsigned t = 0; t < block.threads; ++t) {
            Fiber& fiber = block.fibers[t];
            if (fiber.state != FiberState::ready) {
                continue;
            }
            block.current = t;
            linear_thread = t;
            threadIdx = coordinates(t, block_extents);
            resume(block, fiber);
            ran = true;
        }
        const bool all_finished =
            std::all_of(block.fibers.begin(), block.fibers.end(),
                        [](const Fiber& fiber) { return fiber.state == FiberState::finished; });
        if (all_finished) {
#if defined(__SANITIZE_THREAD__)
            for (Fiber& fiber : block.fibers) {
                __tsan_destroy_fiber(fiber.tsan_fiber);
            }
#endif
            return;
        }
        if (!release_barriers(block) && !ran) {
            std::fprintf(stderr, "cuda emulation: the threads of a block wait at different "
                                 "barriers (__syncthreads or a shuffle reached by only some "
                                 "of them): the kernel would hang on a GPU\n");
            std::abort();
        }
    }
}

} // namespace

void sync_block() {
    if (current_block == nullptr) {
        misuse("__syncthreads");
    }
    wait_in(FiberState::at_block_barrier);
}

unsigned lane() {
    return linear_thread % warp_lanes;
}

unsigned thread_in_block() {
    return linear_thread;
}

void observe_launches(LaunchObserver* observer) {
    launch_observer = observer;
}

unsigned exchange_in_warp(unsigned word, unsigned source) {
    if (current_block == nullptr) {
        misuse("a warp shuffle");
    }
    Block& block = *current_block;
    const unsigned thread = block.current;
    Fiber& fiber = block.fibers[thread];
    std::array<unsigned, warp_lanes>& words =
        block.words[thread / warp_lanes][fiber.exchange_phase];
    fiber.exchange_phase ^= 1;
    words[thread % warp_lanes] = word;
    wait_in(FiberState::at_warp_barrier);
    return words[source];
}

void run_sequential(const unsigned grid[3], const unsigned block[3],
                    const std::function<void()>& body) {
    enter_launch(grid, block);
    current_block = nullptr;
    const unsigned blocks = grid[0] * grid[1] * grid[2];
    const unsigned threads = block[0] * block[1] * block[2];
    for (unsigned b = 0; b < blocks; ++b) {
        blockIdx = coordinates(b, grid);
        for (unsigned t = 0; t < threads; ++t) {
            threadIdx = coordinates(t, block);
            linear_thread = t;
            body();
        }
        end_block();
    }
}

// The blocks one after another, so that a block's function-static __shared__ arrays are its own.
void run_cooperative(const unsigned grid[3], const unsigned block[3],
                     const std::function<void()>& body) {
    enter_launch(grid, block);
    const unsigned blocks = grid[0] * grid[1] * grid[2];
    Block shared(block[0] * block[1] * block[2]);
    shared.body = &body;
    Block* const outer = current_block;
    current_block = &shared;
    for (unsigned b = 0; b < blocks; ++b) {
        blockIdx = coordinates(b, grid);
        run_block(shared, block);
        end_block();
    }
    current_block = outer;
}

} // namespace brook::cuda::emulation

namespace {

/// Runs `run`, the launch of `entry` with `param_count` parameters, telling the observer.
template <class Run>
void observed(const char* entry, void** params, std::size_t param_count, const Run& run) {
    using brook::cuda::emulation::launch_observer;
    if (launch_observer != nullptr) {
        launch_observer->launch_begins(entry, params, param_count);
    }
    run();
    if (launch_observer != nullptr) {
        launch_observer->launch_ends();
    }
}

} // namespace

extern "C" int brook_emulate_launch(const char* name, void* function, const unsigned grid[3],
                                    const unsigned block[3], void** params) {
    namespace emu = brook::cuda::emulation;
    namespace abi = brook::cuda::device;
    const std::string_view entry(name);
    const unsigned threads = block[0] * block[1] * block[2];
    if (threads == 0 || threads > emu::max_block_threads || grid[0] * grid[1] * grid[2] == 0) {
        std::fprintf(stderr, "cuda emulation: %s: a launch of %u x %u x %u blocks of %u threads\n",
                     name, grid[0], grid[1], grid[2], threads);
        return 1;
    }
    const auto* frame = emu::argument<const abi::Frame*>(params, 0);
    if (entry.ends_with("__cuda") || entry.ends_with("__cuda_resized") ||
        entry.ends_with("__cuda_count") || entry.ends_with("__cuda_write")) {
        const auto kernel = emu::entry_point<void (*)(const abi::Frame*)>(function);
        observed(name, params, 1,
                 [&] { emu::run_sequential(grid, block, [&] { kernel(frame); }); });
        return 0;
    }
    // A kernel with thread groups: a block is a group, whose threads meet at __syncthreads; one
    // run a warp per element: the lanes of a warp meet at its shuffles.
    if (entry.ends_with("__cuda_group") || entry.ends_with("__cuda_warps") ||
        entry.ends_with("__cuda_warps_resized")) {
        const auto kernel = emu::entry_point<void (*)(const abi::Frame*)>(function);
        observed(name, params, 1,
                 [&] { emu::run_cooperative(grid, block, [&] { kernel(frame); }); });
        return 0;
    }
    if (entry.ends_with("__cuda_reduce_chunks")) {
        const auto kernel = emu::entry_point<void (*)(const abi::Frame*, const abi::RowMajorBox*,
                                                      abi::Index, void*)>(function);
        const auto* boxes = emu::argument<const abi::RowMajorBox*>(params, 1);
        const auto chunk = emu::argument<abi::Index>(params, 2);
        auto* partials = emu::argument<void*>(params, 3);
        observed(name, params, 4, [&] {
            emu::run_cooperative(grid, block, [&] { kernel(frame, boxes, chunk, partials); });
        });
        return 0;
    }
    if (entry.ends_with("__cuda_reduce_partials")) {
        const auto kernel =
            emu::entry_point<void (*)(const abi::Frame*, const void*, abi::Index, void*)>(function);
        const auto* partials = emu::argument<const void*>(params, 1);
        const auto blocks = emu::argument<abi::Index>(params, 2);
        auto* results = emu::argument<void*>(params, 3);
        observed(name, params, 4, [&] {
            emu::run_cooperative(grid, block, [&] { kernel(frame, partials, blocks, results); });
        });
        return 0;
    }
    // The backend's own program, device/vout_scan.cu.
    if (entry == "brook_vout_count_chunks") {
        const auto kernel =
            emu::entry_point<void (*)(const abi::Index*, abi::Index, abi::Index, abi::Index*)>(
                function);
        const auto* counts = emu::argument<const abi::Index*>(params, 0);
        const auto n = emu::argument<abi::Index>(params, 1);
        const auto chunk = emu::argument<abi::Index>(params, 2);
        auto* totals = emu::argument<abi::Index*>(params, 3);
        observed(name, params, 4, [&] {
            emu::run_cooperative(grid, block, [&] { kernel(counts, n, chunk, totals); });
        });
        return 0;
    }
    if (entry == "brook_vout_scan_totals") {
        const auto kernel =
            emu::entry_point<void (*)(abi::Index*, abi::Index, abi::Index*)>(function);
        auto* totals = emu::argument<abi::Index*>(params, 0);
        const auto blocks = emu::argument<abi::Index>(params, 1);
        auto* grand_total = emu::argument<abi::Index*>(params, 2);
        observed(name, params, 3, [&] {
            emu::run_cooperative(grid, block, [&] { kernel(totals, blocks, grand_total); });
        });
        return 0;
    }
    if (entry == "brook_vout_scan_chunks") {
        const auto kernel =
            emu::entry_point<void (*)(abi::Index*, abi::Index, abi::Index, const abi::Index*)>(
                function);
        auto* counts = emu::argument<abi::Index*>(params, 0);
        const auto n = emu::argument<abi::Index>(params, 1);
        const auto chunk = emu::argument<abi::Index>(params, 2);
        const auto* slots = emu::argument<const abi::Index*>(params, 3);
        observed(name, params, 4, [&] {
            emu::run_cooperative(grid, block, [&] { kernel(counts, n, chunk, slots); });
        });
        return 0;
    }
    std::fprintf(stderr, "cuda emulation: %s is not an entry point of brcc's kernel ABI\n", name);
    return 1;
}
