// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The emulation runtime (see cuda_emulation.hpp): brook_emulate_launch runs a launch's blocks one
// after another, the grid-stride entry points thread by thread on the calling thread, the
// reduction passes with one OS thread per thread of the block so that __syncthreads and the warp
// shuffles can wait for the others; those OS threads are kept between launches. It is linked
// into every library of emulated kernels.
#include "cuda_emulation.hpp"

#include "brook/cuda/kernel_frame.hpp"
#include "brook/cuda/ordered_reduce.hpp"

#include <algorithm>
#include <barrier>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <semaphore>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace brook::cuda::emulation {

namespace {

namespace abi = ::brook::cuda::device;

constexpr unsigned warp_lanes = 32;
constexpr unsigned max_block_threads = 1024;

/// A warp of a cooperative launch: its barrier and the words its lanes exchange. Exchanges
/// alternate between two buffers, so one barrier per exchange suffices: a lane writes a buffer
/// again only two exchanges later, past a barrier that every lane reaches after its read.
struct Warp {
    explicit Warp(unsigned lanes) : barrier(lanes) {}
    std::barrier<> barrier;
    unsigned words[2][warp_lanes] = {};
};

/// The block of a cooperative launch, shared by its threads for every block of the grid.
struct Block {
    explicit Block(unsigned threads) : barrier(threads) {
        for (unsigned first = 0; first < threads; first += warp_lanes) {
            warps.push_back(std::make_unique<Warp>(std::min(warp_lanes, threads - first)));
        }
    }
    std::barrier<> barrier;
    std::vector<std::unique_ptr<Warp>> warps;
};

/// An OS thread that runs one job at a time, posted by a cooperative launch.
class Worker {
public:
    Worker() : thread_([this] { serve(); }) {}
    ~Worker() {
        post(nullptr); // an empty job ends the thread
        thread_.join();
    }
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    void post(std::function<void()> job) {
        job_ = std::move(job);
        start_.release();
    }

private:
    void serve() {
        for (;;) {
            start_.acquire();
            // Taken out before it runs: once the job has signalled its end, its launch may post
            // this worker the next one.
            const std::function<void()> job = std::move(job_);
            if (!job) {
                return;
            }
            job();
        }
    }

    std::binary_semaphore start_{0};
    std::function<void()> job_;
    std::thread thread_; // last: it starts serving once the members above exist
};

/// The workers of cooperative launches, kept between them: a reduction pass takes one per
/// thread of its block, and starting that many OS threads for every launch (a few hundred per
/// reduction) made ThreadSanitizer fail to map its shadow memory (ENOMEM, most likely in the
/// reset that follows using up its thread slots) in the emulated thread tests of `make tsan`.
/// Launches from several host threads at once each take their own workers.
class WorkerPool {
public:
    /// Runs task(0) to task(count - 1) at once, each on its own worker, and returns when all
    /// have returned.
    void run(unsigned count, const std::function<void(unsigned)>& task) {
        std::vector<std::unique_ptr<Worker>> workers = take(count);
        std::mutex mutex;
        std::condition_variable finished;
        unsigned running = count;
        for (unsigned t = 0; t < count; ++t) {
            workers[t]->post([&, t] {
                task(t);
                // Notified under the lock, so that run() cannot return and end these
                // variables' lives before this worker is done with them.
                const std::lock_guard<std::mutex> lock(mutex);
                if (--running == 0) {
                    finished.notify_one();
                }
            });
        }
        std::unique_lock<std::mutex> lock(mutex);
        finished.wait(lock, [&] { return running == 0; });
        lock.unlock();
        give_back(std::move(workers));
    }

private:
    std::vector<std::unique_ptr<Worker>> take(unsigned count) {
        std::vector<std::unique_ptr<Worker>> taken;
        const std::lock_guard<std::mutex> lock(mutex_);
        while (taken.size() < count && !idle_.empty()) {
            taken.push_back(std::move(idle_.back()));
            idle_.pop_back();
        }
        while (taken.size() < count) {
            taken.push_back(std::make_unique<Worker>());
        }
        return taken;
    }

    void give_back(std::vector<std::unique_ptr<Worker>> workers) {
        const std::lock_guard<std::mutex> lock(mutex_);
        for (std::unique_ptr<Worker>& worker : workers) {
            idle_.push_back(std::move(worker));
        }
    }

    std::mutex mutex_;
    std::vector<std::unique_ptr<Worker>> idle_;
};

WorkerPool& cooperative_workers() {
    static WorkerPool pool;
    return pool;
}

/// The calling thread's block (null outside a cooperative launch) and its index in the block.
thread_local Block* current_block = nullptr;
thread_local unsigned linear_thread = 0;
/// The buffer of the calling thread's next exchange (every lane of a warp counts alike).
thread_local unsigned exchange_phase = 0;

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

void sync_block() {
    if (current_block == nullptr) {
        misuse("__syncthreads");
    }
    current_block->barrier.arrive_and_wait();
}

unsigned lane() {
    return linear_thread % warp_lanes;
}

unsigned exchange_in_warp(unsigned word, unsigned source) {
    if (current_block == nullptr) {
        misuse("a warp shuffle");
    }
    Warp& warp = *current_block->warps[linear_thread / warp_lanes];
    unsigned(&words)[warp_lanes] = warp.words[exchange_phase];
    exchange_phase ^= 1;
    words[lane()] = word;
    warp.barrier.arrive_and_wait();
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
    }
}

// A barrier after each block keeps a fast thread from starting the next block on shared memory
// still in use.
void run_cooperative(const unsigned grid[3], const unsigned block[3],
                     const std::function<void()>& body) {
    const unsigned blocks = grid[0] * grid[1] * grid[2];
    const unsigned threads = block[0] * block[1] * block[2];
    Block shared(threads);
    cooperative_workers().run(threads, [&](unsigned t) {
        enter_launch(grid, block);
        current_block = &shared;
        linear_thread = t;
        exchange_phase = 0;
        threadIdx = coordinates(t, block);
        for (unsigned b = 0; b < blocks; ++b) {
            blockIdx = coordinates(b, grid);
            body();
            shared.barrier.arrive_and_wait();
        }
        current_block = nullptr;
    });
}

} // namespace brook::cuda::emulation

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
        emu::run_sequential(grid, block, [&] { kernel(frame); });
        return 0;
    }
    if (entry.ends_with("__cuda_reduce_chunks")) {
        const auto kernel = emu::entry_point<void (*)(const abi::Frame*, const abi::RowMajorBox*,
                                                      abi::Index, void*)>(function);
        const auto* boxes = emu::argument<const abi::RowMajorBox*>(params, 1);
        const auto chunk = emu::argument<abi::Index>(params, 2);
        auto* partials = emu::argument<void*>(params, 3);
        emu::run_cooperative(grid, block, [&] { kernel(frame, boxes, chunk, partials); });
        return 0;
    }
    if (entry.ends_with("__cuda_reduce_partials")) {
        const auto kernel =
            emu::entry_point<void (*)(const abi::Frame*, const void*, abi::Index, void*)>(function);
        const auto* partials = emu::argument<const void*>(params, 1);
        const auto blocks = emu::argument<abi::Index>(params, 2);
        auto* results = emu::argument<void*>(params, 3);
        emu::run_cooperative(grid, block, [&] { kernel(frame, partials, blocks, results); });
        return 0;
    }
    // The backend's own program, device/vout_scan.cu.
    if (entry == "brook_vout_count_chunks") {
        const auto kernel = emu::entry_point<void (*)(const abi::Index*, abi::Index, abi::Index,
                                                      abi::Index*)>(function);
        const auto* counts = emu::argument<const abi::Index*>(params, 0);
        const auto n = emu::argument<abi::Index>(params, 1);
        const auto chunk = emu::argument<abi::Index>(params, 2);
        auto* totals = emu::argument<abi::Index*>(params, 3);
        emu::run_cooperative(grid, block, [&] { kernel(counts, n, chunk, totals); });
        return 0;
    }
    if (entry == "brook_vout_scan_totals") {
        const auto kernel =
            emu::entry_point<void (*)(abi::Index*, abi::Index, abi::Index*)>(function);
        auto* totals = emu::argument<abi::Index*>(params, 0);
        const auto blocks = emu::argument<abi::Index>(params, 1);
        auto* grand_total = emu::argument<abi::Index*>(params, 2);
        emu::run_cooperative(grid, block, [&] { kernel(totals, blocks, grand_total); });
        return 0;
    }
    if (entry == "brook_vout_scan_chunks") {
        const auto kernel = emu::entry_point<void (*)(abi::Index*, abi::Index, abi::Index,
                                                      const abi::Index*)>(function);
        auto* counts = emu::argument<abi::Index*>(params, 0);
        const auto n = emu::argument<abi::Index>(params, 1);
        const auto chunk = emu::argument<abi::Index>(params, 2);
        const auto* slots = emu::argument<const abi::Index*>(params, 3);
        emu::run_cooperative(grid, block, [&] { kernel(counts, n, chunk, slots); });
        return 0;
    }
    std::fprintf(stderr, "cuda emulation: %s is not an entry point of brcc's kernel ABI\n", name);
    return 1;
}
