// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The CPU backend. Streams live in 64-byte aligned host memory in the element's C++ layout, so
// streamRead/streamWrite are memcpy and brcc's generated loops index the data directly. Large
// streams are mapped zero pages, advised onto huge pages, that the kernels' threads touch first
// (CpuStorage).
//
// Kernels: the output domain is cut into one contiguous row-major range per thread and each
// thread calls the generated loop function once for its range; for kernels that loop, whose
// elements may cost very different amounts, into a few chunks per thread taken in turn. Small
// launches run on the calling thread, since starting a team costs more than it saves below a few
// thousand elements (fewer for kernels with many operations per element, a few dozen for kernels
// that loop: cpu::KernelCode::grain). Launching allocates nothing once a thread has run a kernel
// with as many parameters, so that issuing a small kernel costs about a function call.
//
// Reductions to a value: each thread folds a contiguous row-major range of the input into its own
// partial result; the partials are then combined on one thread in range order. A range of a
// multi-dimensional stream is split into the few boxes (row-major blocks) that tile it, folded
// and combined in order, so operands are re-associated but never re-ordered. Reductions to a
// stream fold one block per target element; target elements are independent and run in parallel.
//
// A map kernel's call waits for the next operation (deferred_map.hpp): when that is a reduction
// of its output, the two run together a cache-sized piece at a time, and the map's output is
// stored only if something reads it later.
#include "deferred_map.hpp"

#include "core/backend.hpp"
#include "core/checks.hpp"
#include "core/errors.hpp"
#include "core/launch.hpp"
#include "core/registry.hpp"

#include "brook/detail/cpu_level.hpp"

#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace brook::detail {

namespace {

/// Fewer elements than this per thread are not worth a thread, unless the kernel says otherwise
/// (cpu::KernelCode::grain).
constexpr std::size_t min_elements_per_thread = 4096;

/// A kernel that loops runs in about this many chunks per thread, taken in turn.
constexpr std::size_t chunks_per_thread = 16;

/// Streams this large or larger are mapped from the OS (map_zero_pages) rather than taken from
/// the heap, for the huge pages. A max-reduction over a 12 MB image on 2 threads (examples/tonemap)
/// ran at 0.91-1.34x the OpenMP loop's speed (median 1.13x, 14 runs) with the image mapped, and at
/// 0.74-1.14x (median 0.99x) with it from the heap, the two libraries run in turn.
constexpr std::size_t mapped_bytes = std::size_t{4} << 20;

/// Mapped streams smaller than this are kept when freed, for the next stream of their size
/// (MappingCache): the streams of 4 to 16 MiB, which came from the heap before they were mapped,
/// and, like the heap's blocks, are zero-filled when reused. Larger ones go back to the OS, so
/// that a new one costs nothing until its pages are touched.
constexpr std::size_t kept_mapping_bytes = std::size_t{16} << 20;

/// The most memory that freed mappings hold at once: four of the largest kept.
constexpr std::size_t kept_total_bytes = std::size_t{64} << 20;

/// The size of a transparent huge page on x86-64 and of the common arm64 configuration.
constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;

/// `bytes` of zero pages from the OS, starting on a huge page boundary and advised onto
/// transparent huge pages. Huge pages make a kernel that streams through memory faster: the
/// hardware prefetcher stops at every page boundary, and the TLB covers 512 times the memory. A
/// loop computing y = a x + y over 64M floats on 2 threads took 30-35 ms on huge pages and 36-41
/// ms on 4 KiB ones, alternating in one process. The first touch faults 512 times less often:
/// two 1 GiB streams made and written by a kernel took 100-140 ms, against 520-560 ms on small
/// pages (bench_stream_creation). Where the OS has no transparent huge pages (or they are off),
/// madvise fails and the stream keeps small pages.
std::byte* map_zero_pages(std::size_t bytes) {
    const auto fail = [bytes](int error) {
        fatal("cpu backend: cannot allocate a stream of " + std::to_string(bytes) + " bytes (" +
              std::strerror(error) + "); make the stream smaller");
    };
    // The OS aligns a mapping to its small pages only: map a huge page more and give back the
    // ends outside the aligned range.
    if (bytes > std::numeric_limits<std::size_t>::max() - huge_page_bytes) {
        fail(ENOMEM);
    }
    const std::size_t mapped = bytes + huge_page_bytes;
    void* mapping =
        mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) {
        fail(errno);
    }
    const auto round_up = [](std::uintptr_t address, std::uintptr_t page) {
        return (address + page - 1) & ~(page - 1); // pages are powers of two
    };
    const auto start = reinterpret_cast<std::uintptr_t>(mapping);
    const std::uintptr_t aligned = round_up(start, huge_page_bytes);
    const std::uintptr_t used_end =
        round_up(aligned + bytes, static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE)));
    if (aligned > start) {
        munmap(mapping, aligned - start);
    }
    if (start + mapped > used_end) {
        munmap(reinterpret_cast<void*>(used_end), start + mapped - used_end);
    }
    auto* data = reinterpret_cast<std::byte*>(aligned);
    madvise(data, bytes, MADV_HUGEPAGE);
    return data;
}

/// Mappings of freed streams (from map_zero_pages, smaller than kept_mapping_bytes), kept with
/// their pages for the next stream of the same size, as the heap keeps freed blocks. Calls make
/// temporaries of their streams' size and free them at their end (the snapshot of an input that
/// is also the call's output, a variable output's buffer), and the next call makes them again: a
/// new mapping would fault in its pages on every call, where a kept one has them. Up to
/// kept_total_bytes are kept, the oldest given back first.
class MappingCache {
public:
    MappingCache() = default;
    MappingCache(const MappingCache&) = delete;
    MappingCache& operator=(const MappingCache&) = delete;
    ~MappingCache() { unmap(kept_); }

    /// A kept mapping of `bytes`, zero-filled; null when none is kept.
    std::byte* take(std::size_t bytes) {
        std::byte* data = nullptr;
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            // The most recently freed first: its pages are the likeliest still in the cache.
            const auto found =
                std::ranges::find(kept_.rbegin(), kept_.rend(), bytes, &Mapping::bytes);
            if (found == kept_.rend()) {
                return nullptr;
            }
            data = found->data;
            kept_bytes_ -= bytes;
            kept_.erase(std::next(found).base());
        }
        std::memset(data, 0, bytes);
        return data;
    }

    /// Takes back a stream's mapping of `bytes`: keeps it, or unmaps it when it is too large to
    /// keep, and unmaps the oldest kept ones beyond kept_total_bytes.
    void give(std::byte* data, std::size_t bytes) {
        if (bytes >= kept_mapping_bytes) {
            munmap(data, bytes);
            return;
        }
        std::vector<Mapping> released;
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            kept_.push_back({data, bytes});
            kept_bytes_ += bytes;
            while (kept_bytes_ > kept_total_bytes) {
                released.push_back(kept_.front());
                kept_bytes_ -= kept_.front().bytes;
                kept_.erase(kept_.begin());
            }
        }
        unmap(released);
    }

private:
    struct Mapping {
        std::byte* data;
        std::size_t bytes;
    };

    static void unmap(const std::vector<Mapping>& mappings) {
        for (const Mapping& mapping : mappings) {
            munmap(mapping.data, mapping.bytes);
        }
    }
    std::mutex mutex_;
    std::vector<Mapping> kept_; ///< oldest first
    std::size_t kept_bytes_ = 0;
};

/// A stream's zero-filled memory. A large stream is an anonymous mapping (map_zero_pages): the
/// OS gives zeroed pages lazily, when first touched, and the first touch is usually the kernel
/// that writes the stream, on all of its threads, so creating a stream costs no more than the
/// memory its use touches. Zero-filling it here, on one thread, would touch every page first (and
/// take longer than the kernel writing it). A mapping kept from a freed stream of the same size
/// (MappingCache) is zero-filled instead, as are small streams, which come from the heap, 64-byte
/// aligned.
class CpuStorage final : public Storage {
public:
    CpuStorage(std::size_t element_size, std::size_t count, std::shared_ptr<MappingCache> mappings,
               std::shared_ptr<MapDeferral> deferral)
        : Storage(element_size, count), bytes_(element_size * count),
          mappings_(std::move(mappings)), deferral_(std::move(deferral)) {
        if (bytes_ >= mapped_bytes) {
            data_ = mappings_->take(bytes_);
            if (data_ == nullptr) {
                data_ = map_zero_pages(bytes_);
            }
            return;
        }
        data_ = static_cast<std::byte*>(brmalloc(bytes_));
        std::memset(data_, 0, bytes_);
    }
    /// The `count` elements at `host`, which the stream uses in place and never frees
    /// (stream::borrow).
    CpuStorage(std::size_t element_size, std::size_t count, void* host)
        : Storage(element_size, count), bytes_(element_size * count),
          data_(static_cast<std::byte*>(host)) {}
    ~CpuStorage() override {
        if (deferral_) {
            const auto lock = deferral_->lock();
            deferral_->storage_freed(this);
        }
        if (!mappings_) {
            return; // borrowed
        }
        if (bytes_ >= mapped_bytes) {
            mappings_->give(data_, bytes_);
        } else {
            brfree(data_);
        }
    }
    CpuStorage(const CpuStorage&) = delete;
    CpuStorage& operator=(const CpuStorage&) = delete;

    std::byte* data() const { return data_; }
    /// Memory the program lent (stream::borrow), which it may change behind the backend's back.
    bool borrowed() const { return !mappings_; }

private:
    std::size_t bytes_;
    /// Where the mapping of a large stream goes back (shared: a stream may outlive its backend);
    /// null for borrowed memory, which is not the stream's to free.
    std::shared_ptr<MappingCache> mappings_;
    /// Told when the storage is freed; null for borrowed memory, which no held call uses.
    std::shared_ptr<MapDeferral> deferral_;
    std::byte* data_ = nullptr;
};

// Only storage this backend allocated reaches it: one backend serves the whole run.
CpuStorage& cpu_storage(Storage& storage) {
    return static_cast<CpuStorage&>(storage);
}
const CpuStorage& cpu_storage(const Storage& storage) {
    return static_cast<const CpuStorage&>(storage);
}

cpu::StreamView view_of(const BoundStream& bound) {
    cpu::StreamView view;
    if (bound.storage == nullptr) {
        return view;
    }
    const std::size_t size = bound.storage->element_size();
    view.data = cpu_storage(*bound.storage).data() + bound.region.offset * size;
    if (bound.first_row != 0) {
        // A block of rows (Launch::first_row): the generated code addresses rows by their place
        // in the whole domain, so the view starts where row 0 would be. Only the block's rows
        // are ever addressed; the address is computed as an integer, since it lies outside the
        // allocation.
        view.data = reinterpret_cast<std::byte*>(reinterpret_cast<std::uintptr_t>(view.data) -
                                                 bound.first_row * bound.region.strides[0] * size);
    }
    view.rank = bound.region.rank;
    view.extents = bound.region.extents;
    view.strides = bound.region.strides;
    return view;
}

/// Row-major coordinates of element `index` of `extents`.
std::array<std::size_t, 4> unravel(std::size_t index, int rank,
                                   const std::array<std::size_t, 4>& extents) {
    std::array<std::size_t, 4> coords{};
    for (int d = rank - 1; d >= 0; --d) {
        const auto dim = static_cast<std::size_t>(d);
        coords[dim] = index % extents[dim];
        index /= extents[dim];
    }
    return coords;
}

/// Copies between a region of `storage` and dense host memory (`host` is std::byte* when
/// reading the region out, const std::byte* when writing it): a contiguous region all at once
/// through copy_whole(target, source, bytes), another element by element along each row of the
/// last dimension.
template <class HostBytes, class CopyWhole>
void transfer(const CpuStorage& storage, const Region& region, HostBytes host,
              const CopyWhole& copy_whole) {
    constexpr bool to_host = !std::is_const_v<std::remove_pointer_t<HostBytes>>;
    const auto copy = [](std::byte* element, HostBytes host_element, std::size_t bytes) {
        if constexpr (to_host) {
            std::memcpy(host_element, element, bytes);
        } else {
            std::memcpy(element, host_element, bytes);
        }
    };
    const std::size_t size = storage.element_size();
    std::byte* base = storage.data() + region.offset * size;
    if (region.contiguous()) {
        if constexpr (to_host) {
            copy_whole(host, base, region.count() * size);
        } else {
            copy_whole(base, host, region.count() * size);
        }
        return;
    }
    const auto last = static_cast<std::size_t>(region.rank - 1);
    const std::size_t row_length = region.extents[last];
    const std::size_t rows = region.count() / row_length;
    for (std::size_t row = 0; row < rows; ++row) {
        const std::array<std::size_t, 4> coords =
            unravel(row * row_length, region.rank, region.extents);
        std::size_t offset = 0;
        for (std::size_t d = 0; d < last; ++d) {
            offset += coords[d] * region.strides[d];
        }
        for (std::size_t i = 0; i < row_length; ++i) {
            copy(base + (offset + i * region.strides[last]) * size,
                 host + (row * row_length + i) * size, size);
        }
    }
}

/// Calls visit(box) for the boxes that tile elements [begin, end) of `extents` in row-major
/// order: at most two partial boxes per dimension around full blocks.
template <class Visit>
void for_each_box(int rank, const std::array<std::size_t, 4>& extents, std::size_t begin,
                  std::size_t end, Visit visit) {
    std::size_t position = begin;
    while (position < end) {
        const std::array<std::size_t, 4> coords = unravel(position, rank, extents);
        // Take whole trailing dimensions while the position is at their start and they fit.
        std::size_t block = 1;
        int partial = rank - 1;
        while (partial > 0) {
            const auto dim = static_cast<std::size_t>(partial);
            if (coords[dim] != 0 || position + block * extents[dim] > end) {
                break;
            }
            block *= extents[dim];
            --partial;
        }
        const auto dim = static_cast<std::size_t>(partial);
        const std::size_t slices = std::min(extents[dim] - coords[dim], (end - position) / block);
        cpu::Box box;
        for (int d = 0; d < rank; ++d) {
            const auto other = static_cast<std::size_t>(d);
            if (d < partial) {
                box.lo[other] = coords[other];
                box.hi[other] = coords[other] + 1;
            } else if (d == partial) {
                box.lo[other] = coords[other];
                box.hi[other] = coords[other] + slices;
            } else {
                box.lo[other] = 0;
                box.hi[other] = extents[other];
            }
        }
        visit(box);
        position += slices * block;
    }
}

/// The fewest bytes of a stream transfer worth a thread of their own: a team's start costs a few
/// microseconds, a MiB's memcpy some tens.
constexpr std::size_t copy_grain_bytes = std::size_t{1} << 20;

/// BRT_THREADS, or OpenMP's default when it is unset.
int thread_cap() {
    const char* text = std::getenv("BRT_THREADS");
    if (text == nullptr || *text == '\0') {
        return std::max(1, omp_get_max_threads());
    }
    const std::string value(text);
    int threads = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), threads);
    if (error != std::errc() || end != value.data() + value.size() || threads <= 0) {
        fatal("BRT_THREADS=" + value + " is not a positive number of threads");
    }
    return threads;
}

/// The generated code's view of a launch: one Frame::Arg per parameter. The Args live in a
/// per-thread buffer that keeps its capacity, so that a launch does not allocate; launches on one
/// thread never overlap.
struct CpuFrame {
    std::vector<cpu::Frame::Arg>& args;
    cpu::Frame frame;

    /// Which per-thread buffer holds the Args: a fused reduction has two frames at once.
    enum class Buffer { Call, FusedMap };

    explicit CpuFrame(const Launch& launch, Buffer which = Buffer::Call) : args(buffer(which)) {
        args.assign(launch.args.size(), cpu::Frame::Arg{});
        for (std::size_t i = 0; i < launch.args.size(); ++i) {
            args[i].constant = launch.args[i].constant;
            args[i].stream = view_of(launch.args[i].stream);
            if (i < launch.push_counters.size()) {
                std::size_t* counters = launch.push_counters[i];
                const bool counting = launch.pass == Launch::Pass::Count;
                args[i].push_counts = counting ? counters : nullptr;
                args[i].push_offsets = counting ? nullptr : counters;
            }
        }
        frame.args = args.data();
        frame.output_rank = launch.rank;
        frame.output_extents = launch.extents;
        frame.element_count = launch.element_count;
        frame.dense = launch.dense;
        frame.counting = launch.pass == Launch::Pass::Count;
        if (launch.element_flags != nullptr) {
            frame.element_flags =
                reinterpret_cast<unsigned char*>(cpu_storage(*launch.element_flags).data());
        }
    }
    CpuFrame(const CpuFrame&) = delete;
    CpuFrame& operator=(const CpuFrame&) = delete;

private:
    static std::vector<cpu::Frame::Arg>& buffer(Buffer which) {
        thread_local std::vector<cpu::Frame::Arg> call_args;
        thread_local std::vector<cpu::Frame::Arg> map_args;
        return which == Buffer::Call ? call_args : map_args;
    }
};

/// Memory for per-thread results of the element type, each slot on its own cache lines.
class SlotBuffer {
public:
    SlotBuffer(std::size_t slots, std::size_t element_size)
        : stride_((element_size + 63) / 64 * 64),
          data_(static_cast<std::byte*>(brmalloc(stride_ * slots))) {}
    ~SlotBuffer() { brfree(data_); }
    SlotBuffer(const SlotBuffer&) = delete;
    SlotBuffer& operator=(const SlotBuffer&) = delete;

    std::byte* operator[](std::size_t slot) const { return data_ + slot * stride_; }

private:
    std::size_t stride_;
    std::byte* data_;
};

/// What folds a box of a reduction's input: the reduction's own fold over the stored input and
/// its call, or the fused fold of the map kernel whose output the input is (FusedFold) over the
/// map's call, which computes the elements rather than reading them.
struct BoxFold {
    cpu::FoldFunction function;
    const cpu::Frame& frame;

    void operator()(const cpu::Box& box, void* accumulator) const {
        function(frame, box, accumulator);
    }
};

/// A thread's part of a reduction to a value: the boxes of its range folded in row-major order,
/// the first into `partial`, each later one into `scratch` and then combined into `partial`.
struct OrderedFold {
    const BoxFold& fold_box;
    const cpu::KernelCode& kernel;
    const cpu::Frame& frame;
    std::byte* partial;
    std::byte* scratch;
    bool started = false;

    void operator()(const cpu::Box& box) {
        fold_box(box, started ? scratch : partial);
        if (started) {
            kernel.combine(frame, partial, scratch);
        }
        started = true;
    }
};

/// The fold that brcc printed for `map`'s output folded by `reduction` (cpu::FusedFold, in the
/// code of whichever of the two comes later in their file), or null.
cpu::FoldFunction fused_fold_of(const cpu::KernelCode& map, const cpu::KernelCode& reduction) {
    for (const auto& [own, partner] : {std::pair(&map, &reduction), std::pair(&reduction, &map)}) {
        for (const cpu::FusedFold& fused : own->fused_folds) {
            if (fused.partner == partner) {
                return fused.fold;
            }
        }
    }
    return nullptr;
}

/// Combines the partials of threads 1 to team - 1 (slots 2, 4, ...) into thread 0's in order and
/// copies the result out.
void combine_partials(const cpu::KernelCode& kernel, const cpu::Frame& frame,
                      const SlotBuffer& partials, std::size_t team, void* result,
                      std::size_t size) {
    for (std::size_t member = 1; member < team; ++member) {
        kernel.combine(frame, partials[0], partials[2 * member]);
    }
    std::memcpy(result, partials[0], size);
}

/// The bytes of a map's output computed at once in a fused reduction (deferred_map.hpp): half
/// of a core's L1 data cache, beside the lines of the map's inputs streaming through it. SGEMV's
/// multiply and row sum (bench_sgemv, 2 threads, 2026-12-07) took 65, 71, 79, 89 and 96 µs at
/// 1024 with pieces of 8, 16, 32, 128 KiB and 1 MiB (the gather loop 42-45 µs, unfused 107 µs),
/// and 1.69-1.97 ms at 4096 whatever the piece (the gather loop 0.95-1.09 ms, unfused 2.84 ms).
constexpr std::size_t fused_piece_bytes = std::size_t{16} << 10;

/// A reduction to a stream fuses with its map only when one target row's block of the input fits
/// a piece this large: its rows are the pieces.
constexpr std::size_t fused_band_limit_bytes = std::size_t{1} << 20;

/// This thread's memory for a fused reduction's piece of the map's output: fused_band_limit_bytes,
/// 64-byte aligned, made at the thread's first fused reduction.
std::byte* piece_buffer() {
    struct Buffer {
        std::byte* data = static_cast<std::byte*>(brmalloc(fused_band_limit_bytes));
        Buffer() = default;
        Buffer(const Buffer&) = delete;
        Buffer& operator=(const Buffer&) = delete;
        ~Buffer() { brfree(data); }
    };
    thread_local Buffer buffer;
    return buffer.data;
}

/// `view` with element `first` at `piece`: the generated code addresses a whole stream's
/// elements by their place in it, and only the piece's are addressed. Computed as an integer,
/// since the address of element 0 lies outside the piece (as in view_of for row blocks).
void point_at_piece(cpu::StreamView& view, std::byte* piece, std::size_t first,
                    std::size_t element_size) {
    view.data = reinterpret_cast<std::byte*>(reinterpret_cast<std::uintptr_t>(piece) -
                                             first * element_size);
}

/// The bytes above which a dense call writes its outputs with streaming stores
/// (Frame::streaming_stores): the last-level cache's size, since a call that moves more has
/// evicted the first lines it wrote by its end, so that nothing reads them from the cache; but
/// at most 32 MiB. A larger last-level cache is a server part's, shared by many cores (and in a
/// virtual machine with other tenants): our 2-core machine reports 480 MiB, yet SAXPY on
/// 1024x1024 float4s (48 MB moved) runs at memory speed, 1.14 ms with plain stores against 1.00
/// ms streamed; streaming breaks even at 12 MB (222 us either way) and loses at 3 MB (18 against
/// 29 us). BRT_CPU_STREAM_STORES=1 streams every dense call's outputs (which tests use), =0 none.
std::size_t streaming_threshold() {
    const char* text = std::getenv("BRT_CPU_STREAM_STORES");
    if (text != nullptr && *text != '\0') {
        const std::string_view value(text);
        if (value == "1")
            return 0;
        if (value == "0")
            return std::numeric_limits<std::size_t>::max();
        fatal("BRT_CPU_STREAM_STORES=" + std::string(value) +
              " is neither 0 (never) nor 1 (every dense call); leave it unset for the default");
    }
    // glibc reads the caches' sizes from CPUID; one it cannot tell gets the cap.
    constexpr std::size_t most = std::size_t{32} << 20;
    const long last_level = sysconf(_SC_LEVEL3_CACHE_SIZE);
    return last_level > 0 ? std::min(static_cast<std::size_t>(last_level), most) : most;
}

/// Whether a dense call `launch` moves more than `threshold` bytes through its streams and
/// writes no stream it also reads (there a line is read before it is written in any case). The
/// bytes first: most calls are small, and every call asks.
bool writes_streaming(const Launch& launch, std::size_t threshold) {
    if (!launch.dense || launch.pass != Launch::Pass::Single || launch.element_flags != nullptr)
        return false;
    std::size_t bytes = 0;
    for (const BoundArg& arg : launch.args) {
        if (arg.stream.storage != nullptr)
            bytes += arg.stream.region.count() * arg.stream.storage->element_size();
    }
    if (bytes <= threshold)
        return false;
    for (std::size_t i = 0; i < launch.args.size(); ++i) {
        if (launch.kernel->params[i].kind != ParamKind::OutputStream)
            continue;
        for (std::size_t j = 0; j < launch.args.size(); ++j) {
            if (j != i && launch.args[j].stream.storage == launch.args[i].stream.storage)
                return false;
        }
    }
    return true;
}

/// BRT_CPU_FUSE=0 runs every call as it comes, for comparing the two ways (the default is on).
bool fusion_switched_on() {
    const char* text = std::getenv("BRT_CPU_FUSE");
    return text == nullptr || std::string_view(text) != "0";
}

class CpuBackend final : public Backend {
public:
    explicit CpuBackend(int max_threads)
        : max_threads_(max_threads), fuses_(fusion_switched_on() && !checks_enabled()),
          streaming_threshold_(streaming_threshold()) {}
    ~CpuBackend() override {
        const auto lock = deferral_->lock();
        deferral_->end();
    }
    CpuBackend(const CpuBackend&) = delete;
    CpuBackend& operator=(const CpuBackend&) = delete;

    std::string_view name() const override { return "cpu"; }
    /// With the x86-64 level, which says which copy of its kernels a program built for several
    /// CPU targets runs (the best of them up to it).
    std::string device() const override {
        std::string text = "the host, " + std::to_string(max_threads_) + " threads";
        if (const int level = detail::x86_64_level(); level > 1)
            text += ", x86-64-v" + std::to_string(level);
        else if (level == 1)
            text += ", x86-64";
        return text;
    }
    /// Every call has completed when it returns, so launches are synchronous without BRT_SYNC=1,
    /// except a held map (deferred_map.hpp), which runs here unless a reduction consumed it.
    void finish() override {
        const auto lock = deferral_->lock();
        deferral_->settle_unconsumed();
    }

    std::unique_ptr<Storage> allocate(const ElementType& type, std::size_t count) override {
        return std::make_unique<CpuStorage>(type.size, count, mappings_, deferral_);
    }

    std::unique_ptr<Storage> borrow(const ElementType& type, std::size_t count,
                                    void* host) override {
        return std::make_unique<CpuStorage>(type.size, count, host);
    }

    /// copy_on_threads as transfer's copy of a contiguous region.
    auto whole_copy() const {
        return [this](std::byte* target, const std::byte* source, std::size_t bytes) {
            copy_on_threads(target, source, bytes);
        };
    }

    void write(Storage& storage, const Region& region, const void* host) override {
        settle_before({}, {&storage});
        transfer(cpu_storage(storage), region, static_cast<const std::byte*>(host), whole_copy());
    }

    void read(const Storage& storage, const Region& region, void* host) override {
        settle_before({&storage}, {});
        transfer(cpu_storage(storage), region, static_cast<std::byte*>(host), whole_copy());
    }

    void copy(Storage& target, const Storage& source) override {
        settle_before({&source}, {&target});
        std::memcpy(cpu_storage(target).data(), cpu_storage(source).data(),
                    source.count() * source.element_size());
    }

    void run_kernel(const Launch& launch) override {
        {
            const auto lock = deferral_->lock();
            deferral_->settle_before(launch);
            if (defers(launch)) {
                deferral_->hold(launch);
                return;
            }
        }
        execute(launch);
    }

    /// Runs `launch` now.
    void execute(const Launch& launch) {
        CpuFrame call(launch);
        call.frame.streaming_stores = writes_streaming(launch, streaming_threshold_);
        const cpu::KernelCode& code = code_of(launch);
        const cpu::KernelFunction kernel = code.kernel;
        // The elements of the rows to run (Launch::first_row): [first, last).
        const auto [first, last] = launch.elements_to_run();
        const std::size_t n = last - first;
        if (checks_enabled()) {
            run_checked(launch, call.frame, kernel, first, n);
            return;
        }
        const int threads = threads_for(n, code);
        if (threads == 1) {
            kernel(call.frame, first, first + n);
            return;
        }
        if (code.loops) {
            // A kernel that loops may cost very different amounts per element (a ray that
            // finishes at once beside one that crosses the whole grid): chunks taken in turn
            // keep every thread busy to the end, where equal ranges left one idle (the ray
            // tracer's calls took 1.3x less time). The chunks are sized for `threads`; the
            // whole team takes them (see on_threads).
            const std::size_t chunk =
                std::max(code.grain, n / (static_cast<std::size_t>(threads) * chunks_per_thread));
            const auto chunks = static_cast<long long>((n + chunk - 1) / chunk);
#pragma omp parallel for num_threads(max_threads_) schedule(dynamic, 1)
            for (long long c = 0; c < chunks; ++c) {
                const std::size_t begin = static_cast<std::size_t>(c) * chunk;
                kernel(call.frame, first + begin, first + std::min(n, begin + chunk));
            }
            return;
        }
        on_threads(threads, [&](std::size_t member, std::size_t team) {
            const std::size_t begin = n * member / team;
            const std::size_t end = n * (member + 1) / team;
            if (begin < end) {
                kernel(call.frame, first + begin, first + end);
            }
        });
    }

    /// memcpy of `bytes`, a contiguous range of whole cache lines per thread of the team when
    /// each gets at least copy_grain_bytes, since one core does not reach the memory's speed,
    /// and the first touch of a fresh destination's pages is the OS's work on every thread at
    /// once: streamWrite of 256 MB into touched host memory took 17 ms on one thread against
    /// 13 ms for a memcpy on two, and into fresh host memory 1.0 s against 0.51 s
    /// (bench_transfers).
    void copy_on_threads(std::byte* target, const std::byte* source, std::size_t bytes) const {
        const std::size_t useful = bytes / copy_grain_bytes;
        const int threads = static_cast<int>(
            std::clamp<std::size_t>(useful, 1, static_cast<std::size_t>(max_threads_)));
        if (threads == 1) {
            std::memcpy(target, source, bytes);
            return;
        }
        constexpr std::size_t line = 64;
        const std::size_t lines = (bytes + line - 1) / line;
        on_threads(threads, [&](std::size_t member, std::size_t team) {
            const std::size_t first = std::min(bytes, lines * member / team * line);
            const std::size_t last = std::min(bytes, lines * (member + 1) / team * line);
            std::memcpy(target + first, source + first, last - first);
        });
    }

    /// Runs work(member, team) on members 0 to team - 1 of an OpenMP team, team being
    /// `threads` or fewer if OpenMP gives fewer. The team itself is always the backend's whole
    /// team, and the members beyond `threads` do nothing: libgomp forms a team of another size
    /// than the last one slowly. On a 16-core machine a 1024-element kernel took 1.2 ms a call
    /// on 16 threads when calls on 4 threads came between, and 13 µs when every team was 16
    /// (a call that needs one thread runs on the calling thread, without a team).
    template <class Work> void on_threads(int threads, const Work& work) const {
#pragma omp parallel num_threads(max_threads_)
        {
            const auto team = static_cast<std::size_t>(std::min(threads, omp_get_num_threads()));
            const auto member = static_cast<std::size_t>(omp_get_thread_num());
            if (member < team) {
                work(member, team);
            }
        }
    }

    /// The elements one at a time on this thread, under BRT_CHECK=1, so that the first one that
    /// divides an integer by zero or INT_MIN by -1 is known: brook::detail::zero_divisors and
    /// division_overflows count them.
    static void run_checked(const Launch& launch, const cpu::Frame& frame,
                            cpu::KernelFunction kernel, std::size_t first, std::size_t n) {
        const unsigned long zero_divisors_before = brook::detail::zero_divisors;
        const unsigned long overflows_before = brook::detail::division_overflows;
        for (std::size_t i = first; i < first + n; ++i) {
            kernel(frame, i, i + 1);
            if (brook::detail::zero_divisors != zero_divisors_before) {
                report_division_fault(launch, i, DivisionFault::ZeroDivisor);
            }
            if (brook::detail::division_overflows != overflows_before) {
                report_division_fault(launch, i, DivisionFault::Overflow);
            }
        }
    }

    bool tracks_elements() const override {
        return true;
    }

    bool runs_variable_outputs() const override {
        return true;
    }

    bool runs_scatter() const override {
        return true;
    }

    bool runs_groups() const override {
        return true;
    }

    bool runs_row_blocks() const override {
        return true;
    }

    void reduce_to_value(const Launch& launch, int input, void* result) override {
        {
            const auto lock = deferral_->lock();
            if (const Launch* map = deferral_->map_feeding(launch, input)) {
                if (const cpu::FoldFunction fused = fused_fold_of(code_of(*map), code_of(launch))) {
                    const CpuFrame map_call(*map, CpuFrame::Buffer::FusedMap);
                    fold_to_value(launch, input, result, BoxFold{fused, map_call.frame});
                } else {
                    fused_reduce_to_value(*map, launch, input, result);
                }
                deferral_->consume();
                return;
            }
            deferral_->settle_before(launch);
        }
        fold_to_value(launch, input, result);
    }

    void reduce_to_stream(const Launch& launch, int input, const BoundStream& target) override {
        {
            const auto lock = deferral_->lock();
            const Launch* map = deferral_->map_feeding(launch, input, target.storage);
            if (map != nullptr) {
                if (const cpu::FoldFunction fused = fused_fold_of(code_of(*map), code_of(launch))) {
                    const CpuFrame map_call(*map, CpuFrame::Buffer::FusedMap);
                    fold_to_stream(launch, input, target, BoxFold{fused, map_call.frame});
                    deferral_->consume();
                    return;
                }
                if (fused_reduce_to_stream(*map, launch, input, target)) {
                    deferral_->consume();
                    return;
                }
            }
            const Storage* read = launch.args[static_cast<std::size_t>(input)].stream.storage;
            const Storage* written = target.storage;
            deferral_->settle_before(std::span(&read, 1), std::span(&written, 1));
        }
        fold_to_stream(launch, input, target);
    }

private:
    /// Whether `launch` waits for the next operation (deferred_map.hpp): not when every call
    /// is waited for and timed (BRT_SYNC=1, BRT_PROFILE), nor when it reads memory the program
    /// lent, which the program may change before the call would run.
    bool defers(const Launch& launch) const {
        if (!fuses_ || calls_wait || !MapDeferral::deferrable(launch)) {
            return false;
        }
        return std::ranges::none_of(launch.args, [](const BoundArg& arg) {
            return arg.stream.storage != nullptr && cpu_storage(*arg.stream.storage).borrowed();
        });
    }

    /// MapDeferral::settle_before under its lock.
    void settle_before(std::initializer_list<const Storage*> reads,
                       std::initializer_list<const Storage*> writes) {
        const auto lock = deferral_->lock();
        deferral_->settle_before(std::span(reads.begin(), reads.size()),
                                 std::span(writes.begin(), writes.size()));
    }

    /// The reduction `launch` of its argument `input` to a value: each thread's range of the
    /// input's elements folded box by box in order by `fused`, or by the reduction's own fold
    /// without one, the threads' partial results then combined in order.
    void fold_to_value(const Launch& launch, int input, void* result,
                       std::optional<BoxFold> fused = std::nullopt) const {
        const CpuFrame call(launch);
        const cpu::KernelCode& kernel = code_of(launch);
        const BoxFold fold_box = fused.value_or(BoxFold{kernel.fold, call.frame});
        const cpu::StreamView& view = call.args[static_cast<std::size_t>(input)].stream;
        const std::size_t n = launch.element_count;
        const std::size_t size =
            launch.args[static_cast<std::size_t>(input)].stream.storage->element_size();
        const int threads = threads_for(n, kernel);
        if (threads == 1) {
            cpu::Box whole;
            for (int d = 0; d < view.rank; ++d) {
                whole.hi[static_cast<std::size_t>(d)] = view.extents[static_cast<std::size_t>(d)];
            }
            fold_box(whole, result);
            return;
        }
        // Per thread: its partial result and scratch for the boxes after its first.
        const SlotBuffer partials(2 * static_cast<std::size_t>(threads), size);
        std::size_t team_size = 1;
        on_threads(threads, [&](std::size_t member, std::size_t team) {
            if (member == 0) {
                team_size = team;
            }
            OrderedFold fold{fold_box, kernel, call.frame, partials[2 * member],
                             partials[2 * member + 1]};
            for_each_box(view.rank, view.extents, n * member / team, n * (member + 1) / team,
                         std::ref(fold));
        });
        // Every thread got elements: threads_for gives each at least a grain of them.
        combine_partials(kernel, call.frame, partials, team_size, result, size);
    }

    /// The reduction `launch` of its argument `input` to the stream `target`: each target
    /// element's block of the input folded by `fused`, or by the reduction's own fold without
    /// one, in parallel over the targets.
    void fold_to_stream(const Launch& launch, int input, const BoundStream& target,
                        std::optional<BoxFold> fused = std::nullopt) const {
        const CpuFrame call(launch);
        const cpu::KernelCode& kernel = code_of(launch);
        const BoxFold fold_box = fused.value_or(BoxFold{kernel.fold, call.frame});
        const cpu::StreamView& source = call.args[static_cast<std::size_t>(input)].stream;
        const cpu::StreamView out = view_of(target);
        const std::size_t size = target.storage->element_size();
        const std::size_t targets = target.region.count();
        std::array<std::size_t, 4> block{};
        for (int d = 0; d < source.rank; ++d) {
            const auto dim = static_cast<std::size_t>(d);
            block[dim] = source.extents[dim] / out.extents[dim];
        }
        // Parallel over target elements, so never more threads than targets.
        int threads = threads_for(launch.element_count, kernel);
        if (targets < static_cast<std::size_t>(threads)) {
            threads = static_cast<int>(targets);
        }
        if (threads == 1) {
            fold_targets(fold_box, out, block, size, 0, targets);
            return;
        }
        on_threads(threads, [&](std::size_t member, std::size_t team) {
            fold_targets(fold_box, out, block, size, targets * member / team,
                         targets * (member + 1) / team);
        });
    }

    /// Calls compute(piece, first, end) for consecutive ranges [first, end) of `map`'s output
    /// elements in [begin, end_all), each at most piece_elements long, after running the map
    /// for the range into `piece` (this thread's piece_buffer()). The map's frame is this
    /// thread's own.
    template <class Compute>
    static void map_in_pieces(const Launch& map, std::size_t begin, std::size_t end_all,
                              std::size_t piece_elements, const Compute& compute) {
        CpuFrame map_call(map, CpuFrame::Buffer::FusedMap);
        const cpu::KernelFunction kernel = code_of(map).kernel;
        const std::size_t output = output_param(map);
        const std::size_t size = map.args[output].stream.storage->element_size();
        std::byte* piece = piece_buffer();
        for (std::size_t first = begin; first < end_all; first += piece_elements) {
            const std::size_t end = std::min(end_all, first + piece_elements);
            point_at_piece(map_call.args[output].stream, piece, first, size);
            kernel(map_call.frame, first, end);
            compute(piece, first, end);
        }
    }

    /// Folds target elements [first, last) of `out` (of `size` bytes) from their `block`s of
    /// the reduce input, counting the targets' coordinates up rather than dividing for each:
    /// SGEMV's row sum folds a row of a few hundred elements per target.
    static void fold_targets(const BoxFold& fold_box, const cpu::StreamView& out,
                             const std::array<std::size_t, 4>& block, std::size_t size,
                             std::size_t first, std::size_t last) {
        if (first >= last) {
            return;
        }
        std::array<std::size_t, 4> coords = unravel(first, out.rank, out.extents);
        for (std::size_t j = first; j < last; ++j) {
            cpu::Box box;
            for (int d = 0; d < out.rank; ++d) {
                const auto dim = static_cast<std::size_t>(d);
                box.lo[dim] = coords[dim] * block[dim];
                box.hi[dim] = box.lo[dim] + block[dim];
            }
            fold_box(box, cpu::element_at(out, coords, size));
            for (int d = out.rank; d-- > 0;) {
                const auto dim = static_cast<std::size_t>(d);
                if (++coords[dim] < out.extents[dim]) {
                    break;
                }
                coords[dim] = 0;
            }
        }
    }

    static std::size_t output_param(const Launch& map) {
        const auto& params = map.kernel->params;
        const auto found = std::ranges::find(params, ParamKind::OutputStream, &ParamInfo::kind);
        return static_cast<std::size_t>(found - params.begin());
    }

    /// reduce_to_value of the held `map`'s output, computed a piece at a time as it is folded:
    /// each thread's range of elements as without fusion, in pieces of fused_piece_bytes.
    void fused_reduce_to_value(const Launch& map, const Launch& reduction, int input,
                               void* result) const {
        const cpu::KernelCode& kernel = code_of(reduction);
        const auto in = static_cast<std::size_t>(input);
        const std::size_t size = reduction.args[in].stream.storage->element_size();
        const std::size_t n = reduction.element_count;
        const std::size_t piece_elements = std::max<std::size_t>(1, fused_piece_bytes / size);
        const int threads = threads_for(n, kernel);
        const SlotBuffer partials(2 * static_cast<std::size_t>(threads), size);
        std::size_t team_size = 1;
        const auto fold_range = [&](std::size_t member, std::size_t team) {
            if (member == 0) {
                team_size = team;
            }
            const CpuFrame call(reduction);
            cpu::StreamView& view = call.args[in].stream;
            const BoxFold fold_box{kernel.fold, call.frame};
            OrderedFold fold{fold_box, kernel, call.frame, partials[2 * member],
                             partials[2 * member + 1]};
            map_in_pieces(map, n * member / team, n * (member + 1) / team, piece_elements,
                          [&](std::byte* piece, std::size_t first, std::size_t end) {
                              point_at_piece(view, piece, first, size);
                              for_each_box(view.rank, view.extents, first, end, std::ref(fold));
                          });
        };
        if (threads == 1) {
            fold_range(0, 1);
        } else {
            on_threads(threads, fold_range);
        }
        const CpuFrame call(reduction);
        combine_partials(kernel, call.frame, partials, team_size, result, size);
    }

    /// reduce_to_stream of the held `map`'s output, computed a piece at a time as it is folded:
    /// a piece is the input block of one or more target rows (the targets with the same index
    /// along the slowest dimension, whose blocks are consecutive elements), each target folded
    /// as without fusion. False, having done nothing, when one target row's block is larger
    /// than fused_band_limit_bytes.
    bool fused_reduce_to_stream(const Launch& map, const Launch& reduction, int input,
                                const BoundStream& target) const {
        const cpu::KernelCode& kernel = code_of(reduction);
        const auto in = static_cast<std::size_t>(input);
        const std::size_t size = reduction.args[in].stream.storage->element_size();
        const cpu::StreamView out = view_of(target);
        const std::size_t targets = target.region.count();
        const std::size_t target_rows = out.extents[0];
        if (target_rows == 0) {
            return false;
        }
        const std::size_t band = reduction.element_count / target_rows;
        if (band * size > fused_band_limit_bytes) {
            return false;
        }
        std::array<std::size_t, 4> block{};
        for (int d = 0; d < out.rank; ++d) {
            const auto dim = static_cast<std::size_t>(d);
            block[dim] = reduction.extents[dim] / out.extents[dim];
        }
        const std::size_t rows_per_piece =
            std::max<std::size_t>(1, fused_piece_bytes / (band * size));
        const std::size_t pieces = (target_rows + rows_per_piece - 1) / rows_per_piece;
        const std::size_t targets_per_row = targets / target_rows;
        const auto fold_pieces = [&](std::size_t member, std::size_t team) {
            const CpuFrame call(reduction);
            cpu::StreamView& view = call.args[in].stream;
            const BoxFold fold_box{kernel.fold, call.frame};
            const std::size_t first_row = pieces * member / team * rows_per_piece;
            const std::size_t end_row =
                std::min(target_rows, pieces * (member + 1) / team * rows_per_piece);
            map_in_pieces(map, first_row * band, end_row * band, rows_per_piece * band,
                          [&](std::byte* piece, std::size_t first, std::size_t end) {
                              point_at_piece(view, piece, first, size);
                              fold_targets(fold_box, out, block, size,
                                           first / band * targets_per_row,
                                           end / band * targets_per_row);
                          });
        };
        // Parallel over pieces, so never more threads than pieces.
        const int threads = static_cast<int>(std::min<std::size_t>(
            pieces, static_cast<std::size_t>(threads_for(reduction.element_count, kernel))));
        if (threads == 1) {
            fold_pieces(0, 1);
        } else {
            on_threads(threads, fold_pieces);
        }
        return true;
    }

    static const cpu::KernelCode& code_of(const Launch& launch) {
        return *static_cast<const cpu::KernelCode*>(launch.code);
    }

    /// Threads for `n` elements of `kernel`: at most the cap, each with enough work.
    int threads_for(std::size_t n, const cpu::KernelCode& kernel) const {
        const std::size_t grain = kernel.grain != 0 ? kernel.grain : min_elements_per_thread;
        const std::size_t useful = n / grain;
        return static_cast<int>(
            std::clamp<std::size_t>(useful, 1, static_cast<std::size_t>(max_threads_)));
    }

    int max_threads_;
    /// Whether map calls may wait for a reduction (BRT_CPU_FUSE, and not under BRT_CHECK=1,
    /// whose division faults must name the call that made them).
    bool fuses_;
    /// The bytes a dense call moves above which it writes with streaming stores.
    std::size_t streaming_threshold_;
    std::shared_ptr<MappingCache> mappings_ = std::make_shared<MappingCache>();
    std::shared_ptr<MapDeferral> deferral_ =
        std::make_shared<MapDeferral>([this](const Launch& launch) { execute(launch); });
};

const BackendRegistration cpu_registration({
    .name = "cpu",
    .auto_rank = 0,
    .create = [] { return std::unique_ptr<Backend>(std::make_unique<CpuBackend>(thread_cap())); },
});

} // namespace

} // namespace brook::detail
