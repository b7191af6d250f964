// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The emulation's memory profile: how well each kernel's warps coalesce their global-memory
// accesses, in the figures Nsight Compute gives on a GPU (sectors per request), without one.
//
// How the accesses are seen. A library of kernels built to profile (emulated_kernels.cmake,
// PROFILE) is compiled with -fsanitize=thread, which makes g++ call __tsan_readN(address) and
// __tsan_writeN(address) before every load and store, and is linked without ThreadSanitizer's
// runtime: this file defines those entry points instead. Only the addresses inside the fake
// driver's device allocations count (brook_emulate_device_memory tells them before each launch);
// the kernels' locals, the host's and the emulation's own memory are left out.
//
// What a request is. On a GPU a load or store instruction executed by a warp is one request, and
// it touches the 32-byte sectors its lanes' addresses fall in. Here the threads of a block run one
// after another (or as fibers, runtime cuda_emulation.cpp), so each thread's accesses are
// numbered per instruction (the call's return address): the n-th execution of an instruction by
// each lane of a warp makes one request, as lanes that run the same path do on a GPU. An
// aggregate (a float4, a struct) copied at once is one access of its size, as the GPU's vector
// loads are; the fields of a struct read one by one are an access each.
//
// What is printed. With BRT_PROFILE set (and not 0), at exit, on stderr, one line per kernel
// entry point, memory and direction:
//   cuda emulation: KERNEL argument K: R load requests, S.SS sectors each
// where the memory is the stream or gather of the kernel's argument K (its index in the call's
// Frame; `argument K counts` and `offsets` for a variable output's), the launch's `frame` (its
// Frame, FrameArgs and constants), a launch `parameter P` (a reduction's boxes and partial
// results, the scan's counts), or `other` device memory. A dense float stream reads 4 sectors per
// request, a float4 stream 16.
#include "cuda_emulation.hpp"

#include "brook/cuda/kernel_frame.hpp"

#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace brook::cuda::emulation {
namespace {

namespace abi = ::brook::cuda::device;

constexpr unsigned warp_lanes = 32;
constexpr std::uintptr_t sector_bytes = 32;

enum class Direction { load, store, atomic };

/// What a device allocation holds for the current launch, in the order the rows are printed:
/// the kernel's arguments by index, the launch's parameters, its frame, the rest.
struct Memory {
    enum Group { argument, parameter, frame, other };
    Group group = other;
    std::size_t index = 0;
    std::string name = "other";
    auto operator<=>(const Memory&) const = default;
};

/// One device allocation and what it holds in the current launch.
struct Region {
    std::uintptr_t begin;
    std::uintptr_t end;
    Memory memory;
};

/// The figures of one (kernel, memory, direction) row.
struct Totals {
    unsigned long long requests = 0;
    unsigned long long sectors = 0;
};

/// A warp's executions of one instruction: the n-th of each lane together.
struct RequestKey {
    unsigned warp;
    std::uintptr_t site;
    unsigned execution;
    bool operator==(const RequestKey&) const = default;
};
struct RequestKeyHash {
    std::size_t operator()(const RequestKey& key) const {
        return std::hash<std::uintptr_t>()(key.site) ^ (std::size_t{key.warp} << 40) ^
               (std::size_t{key.execution} * 0x9e3779b97f4a7c15ull);
    }
};
struct Request {
    const Region* region;
    Direction direction;
    std::vector<std::uintptr_t> sectors;
};

/// A thread's executions so far of one instruction.
struct ExecutionKey {
    unsigned thread;
    std::uintptr_t site;
    bool operator==(const ExecutionKey&) const = default;
};
struct ExecutionKeyHash {
    std::size_t operator()(const ExecutionKey& key) const {
        return std::hash<std::uintptr_t>()(key.site) ^ (std::size_t{key.thread} << 40);
    }
};

using RowKey = std::tuple<std::string, Memory, Direction>;

/// Every launch's rows, summed over the process, printed at exit under BRT_PROFILE.
class Table {
public:
    void add(const RowKey& key, const Totals& totals) {
        const std::lock_guard lock(mutex_);
        Totals& row = rows_[key];
        row.requests += totals.requests;
        row.sectors += totals.sectors;
    }

    ~Table() {
        const char* setting = std::getenv("BRT_PROFILE");
        if (setting == nullptr || *setting == '\0' || std::string_view(setting) == "0") {
            return;
        }
        for (const auto& [key, totals] : rows_) {
            const auto& [kernel, memory, direction] = key;
            const char* kind = direction == Direction::load    ? "load"
                               : direction == Direction::store ? "store"
                                                               : "atomic";
            std::fprintf(stderr, "cuda emulation: %s %s: %llu %s requests, %.2f sectors each\n",
                         kernel.c_str(), memory.name.c_str(), totals.requests, kind,
                         static_cast<double>(totals.sectors) /
                             static_cast<double>(totals.requests));
        }
    }

private:
    std::mutex mutex_;
    std::map<RowKey, Totals> rows_;
};

Table& table() {
    static Table instance;
    return instance;
}

/// The launch running on the calling thread: its memory, and the requests of its current block.
struct Launch {
    bool running = false;
    std::string kernel;
    std::vector<Region> regions; ///< sorted by address
    std::unordered_map<ExecutionKey, unsigned, ExecutionKeyHash> executions;
    std::unordered_map<RequestKey, Request, RequestKeyHash> requests;
    std::map<std::pair<const Region*, Direction>, Totals> totals;

    /// The allocation holding `address`, or null.
    Region* find(std::uintptr_t address) {
        auto after = std::upper_bound(
            regions.begin(), regions.end(), address,
            [](std::uintptr_t value, const Region& region) { return value < region.begin; });
        if (after == regions.begin()) {
            return nullptr;
        }
        Region& region = *std::prev(after);
        return address < region.end ? &region : nullptr;
    }

    /// Names each region after what the launch's parameters say it holds.
    void name_regions(const char* entry, void** params, std::size_t param_count) {
        for (Region& region : regions) {
            region.memory = Memory{};
        }
        const bool has_frame = std::string_view(entry).find("__cuda") != std::string_view::npos;
        // Launch parameters that point into device memory: a reduction's boxes and partial
        // results, the scan's counts.
        for (std::size_t p = has_frame ? 1 : 0; p < param_count; ++p) {
            void* pointer = nullptr;
            std::memcpy(&pointer, params[p], sizeof pointer);
            if (Region* region = find(reinterpret_cast<std::uintptr_t>(pointer));
                region != nullptr && region->memory.group == Memory::other) {
                region->memory = {Memory::parameter, p, "parameter " + std::to_string(p)};
            }
        }
        if (!has_frame) {
            return;
        }
        const abi::Frame* frame = nullptr;
        std::memcpy(&frame, params[0], sizeof frame);
        Region* holder = find(reinterpret_cast<std::uintptr_t>(frame));
        if (holder == nullptr) {
            return;
        }
        holder->memory = {Memory::frame, 0, "frame"};
        // The FrameArgs follow the Frame in its buffer, then the constants they point at.
        std::uintptr_t limit = holder->end;
        for (std::size_t k = 0; reinterpret_cast<std::uintptr_t>(frame->args + k + 1) <= limit;
             ++k) {
            const abi::FrameArg& arg = frame->args[k];
            const auto constant = reinterpret_cast<std::uintptr_t>(arg.constant);
            if (constant >= holder->begin && constant < limit) {
                limit = constant;
            }
            const auto name_after = [&](const void* pointer, const std::string& suffix) {
                Region* region = find(reinterpret_cast<std::uintptr_t>(pointer));
                if (region != nullptr && region != holder &&
                    region->memory.group == Memory::other) {
                    region->memory = {Memory::argument, k,
                                      "argument " + std::to_string(k) + suffix};
                }
            };
            name_after(arg.data, "");
            // A variable output's counts of pushed elements, and where each one's go.
            name_after(arg.push_counts, " counts");
            name_after(arg.push_offsets, " offsets");
        }
    }

    /// Counts the current block's requests into the launch's totals.
    void close_block() {
        for (auto& [key, request] : requests) {
            std::sort(request.sectors.begin(), request.sectors.end());
            const auto distinct = static_cast<unsigned long long>(
                std::unique(request.sectors.begin(), request.sectors.end()) -
                request.sectors.begin());
            Totals& row = totals[{request.region, request.direction}];
            row.requests += 1;
            row.sectors += distinct;
        }
        requests.clear();
        executions.clear();
    }
};

thread_local Launch launch;

void record(const void* pointer, std::size_t bytes, Direction direction, const void* site) {
    if (!launch.running) {
        return;
    }
    const auto address = reinterpret_cast<std::uintptr_t>(pointer);
    const Region* region = launch.find(address);
    if (region == nullptr) {
        return;
    }
    const unsigned thread = thread_in_block();
    const auto at = reinterpret_cast<std::uintptr_t>(site);
    const unsigned execution = launch.executions[{thread, at}]++;
    Request& request = launch.requests[{thread / warp_lanes, at, execution}];
    request.region = region;
    request.direction = direction;
    for (std::uintptr_t sector = address / sector_bytes;
         sector <= (address + bytes - 1) / sector_bytes; ++sector) {
        request.sectors.push_back(sector);
    }
}

class MemoryProfile final : public LaunchObserver {
public:
    MemoryProfile() { observe_launches(this); }

    void launch_begins(const char* entry, void** params, std::size_t param_count) override {
        launch.running = true;
        launch.kernel = entry;
        launch.name_regions(entry, params, param_count);
    }
    void block_ends() override { launch.close_block(); }
    void launch_ends() override {
        launch.close_block();
        for (const auto& [key, totals] : launch.totals) {
            table().add({launch.kernel, key.first->memory, key.second}, totals);
        }
        launch.totals.clear();
        launch.running = false;
    }
};

// Registered when the library is loaded.
MemoryProfile profile;

} // namespace
} // namespace brook::cuda::emulation

namespace emu = brook::cuda::emulation;

extern "C" {

/// The fake driver's device allocations (fake_cuda.cpp), before each launch on the thread that
/// makes it.
void brook_emulate_device_memory(const unsigned long long* bases, const std::size_t* sizes,
                                 std::size_t count) {
    emu::launch.regions.clear();
    for (std::size_t i = 0; i < count; ++i) {
        emu::launch.regions.push_back({static_cast<std::uintptr_t>(bases[i]),
                                       static_cast<std::uintptr_t>(bases[i] + sizes[i]),
                                       {}});
    }
    std::sort(emu::launch.regions.begin(), emu::launch.regions.end(),
              [](const emu::Region& a, const emu::Region& b) { return a.begin < b.begin; });
}

// The instrumentation's entry points (g++ -fsanitize=thread); the names are the compiler's.
// NOLINTBEGIN(bugprone-reserved-identifier)
void __tsan_init() {}
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}

#define BROOK_PROFILE_ACCESS(bytes)                                                                \
    void __tsan_read##bytes(void* address) {                                                       \
        emu::record(address, bytes, emu::Direction::load, __builtin_return_address(0));            \
    }                                                                                              \
    void __tsan_write##bytes(void* address) {                                                      \
        emu::record(address, bytes, emu::Direction::store, __builtin_return_address(0));           \
    }                                                                                              \
    void __tsan_unaligned_read##bytes(void* address) {                                             \
        emu::record(address, bytes, emu::Direction::load, __builtin_return_address(0));            \
    }                                                                                              \
    void __tsan_unaligned_write##bytes(void* address) {                                            \
        emu::record(address, bytes, emu::Direction::store, __builtin_return_address(0));           \
    }
BROOK_PROFILE_ACCESS(1)
BROOK_PROFILE_ACCESS(2)
BROOK_PROFILE_ACCESS(4)
BROOK_PROFILE_ACCESS(8)
BROOK_PROFILE_ACCESS(16)
#undef BROOK_PROFILE_ACCESS

// Atomics, in the types g++ gives these built-ins: each is an atomic request, and does what it
// names (host threads may run launches at once).
#define BROOK_PROFILE_ATOMIC_RECORD(address)                                                       \
    emu::record(const_cast<const void*>(address), sizeof(Word), emu::Direction::atomic,            \
                __builtin_return_address(0))
#define BROOK_PROFILE_ATOMIC_RMW(bits, operation, builtin)                                         \
    Word##bits __tsan_atomic##bits##_##operation(volatile void* address, Word##bits value, int) {  \
        using Word = Word##bits;                                                                   \
        BROOK_PROFILE_ATOMIC_RECORD(address);                                                      \
        return builtin(static_cast<volatile Word*>(address), value, __ATOMIC_SEQ_CST);             \
    }
#define BROOK_PROFILE_ATOMICS(bits)                                                                \
    Word##bits __tsan_atomic##bits##_load(const volatile void* address, int) {                     \
        using Word = Word##bits;                                                                   \
        BROOK_PROFILE_ATOMIC_RECORD(address);                                                      \
        return __atomic_load_n(static_cast<const volatile Word*>(address), __ATOMIC_SEQ_CST);      \
    }                                                                                              \
    void __tsan_atomic##bits##_store(volatile void* address, Word##bits value, int) {              \
        using Word = Word##bits;                                                                   \
        BROOK_PROFILE_ATOMIC_RECORD(address);                                                      \
        __atomic_store_n(static_cast<volatile Word*>(address), value, __ATOMIC_SEQ_CST);           \
    }                                                                                              \
    BROOK_PROFILE_ATOMIC_RMW(bits, exchange, __atomic_exchange_n)                                  \
    BROOK_PROFILE_ATOMIC_RMW(bits, fetch_add, __atomic_fetch_add)                                  \
    BROOK_PROFILE_ATOMIC_RMW(bits, fetch_sub, __atomic_fetch_sub)                                  \
    BROOK_PROFILE_ATOMIC_RMW(bits, fetch_and, __atomic_fetch_and)                                  \
    BROOK_PROFILE_ATOMIC_RMW(bits, fetch_or, __atomic_fetch_or)                                    \
    BROOK_PROFILE_ATOMIC_RMW(bits, fetch_xor, __atomic_fetch_xor)                                  \
    BROOK_PROFILE_ATOMIC_RMW(bits, fetch_nand, __atomic_fetch_nand)                                \
    bool __tsan_atomic##bits##_compare_exchange_strong(volatile void* address, void* expected,     \
                                                       Word##bits desired, int, int) {             \
        using Word = Word##bits;                                                                   \
        BROOK_PROFILE_ATOMIC_RECORD(address);                                                      \
        return __atomic_compare_exchange_n(static_cast<volatile Word*>(address),                   \
                                           static_cast<Word*>(expected), desired, false,           \
                                           __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                    \
    }                                                                                              \
    bool __tsan_atomic##bits##_compare_exchange_weak(volatile void* address, void* expected,       \
                                                     Word##bits desired, int, int) {               \
        using Word = Word##bits;                                                                   \
        BROOK_PROFILE_ATOMIC_RECORD(address);                                                      \
        return __atomic_compare_exchange_n(static_cast<volatile Word*>(address),                   \
                                           static_cast<Word*>(expected), desired, true,            \
                                           __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                    \
    }                                                                                              \
    Word##bits __tsan_atomic##bits##_compare_exchange_val(                                         \
        volatile void* address, Word##bits expected, Word##bits desired, int, int) {               \
        using Word = Word##bits;                                                                   \
        BROOK_PROFILE_ATOMIC_RECORD(address);                                                      \
        __atomic_compare_exchange_n(static_cast<volatile Word*>(address), &expected, desired,      \
                                    false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                    \
        return expected;                                                                           \
    }
using Word8 = unsigned char;
using Word16 = unsigned short;
using Word32 = unsigned int;
using Word64 = unsigned long long;
BROOK_PROFILE_ATOMICS(8)
BROOK_PROFILE_ATOMICS(16)
BROOK_PROFILE_ATOMICS(32)
BROOK_PROFILE_ATOMICS(64)
#undef BROOK_PROFILE_ATOMICS
#undef BROOK_PROFILE_ATOMIC_RMW
#undef BROOK_PROFILE_ATOMIC_RECORD

void __tsan_atomic_thread_fence(int) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
void __tsan_atomic_signal_fence(int) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

void __tsan_read_range(void* address, unsigned long bytes) {
    emu::record(address, bytes, emu::Direction::load, __builtin_return_address(0));
}
void __tsan_write_range(void* address, unsigned long bytes) {
    emu::record(address, bytes, emu::Direction::store, __builtin_return_address(0));
}
// NOLINTEND(bugprone-reserved-identifier)
}
