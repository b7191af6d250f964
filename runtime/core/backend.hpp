// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The interface every backend implements (runtime/backends/NAME/). The core checks a
// call's arguments and binds them into a Launch, a backend-neutral description: per parameter a
// constant or a Region of some Storage. A backend owns its storage format (host memory, GL
// textures, CUDA buffers) and turns a Launch into its own dispatch; the CPU backend builds a
// brook::cpu::Frame and calls the generated loop functions.
//
// Storage is RAII: destroying it frees the backend's memory, so a GPU backend's Storage keeps its
// context alive. Host data crossing the interface (read/write/reduce results) is always in the
// element's C++ layout; a GPU backend packs and unpacks it.

#include "brook/kernel_abi.hpp"
#include "brook/stream.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace brook::detail {

/// The elements of a Storage a stream covers: `offset` elements in, `rank` dimensions of
/// `extents` (slowest first) `strides` elements apart.
struct Region {
    std::size_t offset = 0;
    int rank = 0;
    std::array<std::size_t, 4> extents{};
    std::array<std::size_t, 4> strides{};

    /// A whole dense row-major array of `extents`.
    static Region dense(int rank, const std::array<std::size_t, 4>& extents);
    std::size_t count() const;
    /// True when the elements are consecutive in row-major order.
    bool contiguous() const;
    bool same_shape(const Region& other) const;
    bool operator==(const Region& other) const = default;
};

/// Backend memory holding `count` elements of one type. Backends derive from it.
class Storage {
public:
    virtual ~Storage();
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;

    std::size_t element_size() const { return element_size_; }
    std::size_t count() const { return count_; }

protected:
    /// Counts the storage's bytes against BRT_MAX_MEMORY (core/storage.cpp) before the backend's
    /// constructor allocates them: a size past the cap, or one that does not fit in size_t,
    /// stops the program with a message naming it.
    Storage(std::size_t element_size, std::size_t count);
    /// Storage that keeps its elements in other Storages, which count them (the mpi backend's
    /// blocks of rows, each in its inner backend): counts no bytes itself.
    struct Uncounted {};
    Storage(std::size_t element_size, std::size_t count, Uncounted);

private:
    std::size_t element_size_;
    std::size_t count_;
    bool counted_ = true;
};

/// BRT_MAX_MEMORY in bytes, nothing when unset (core/storage.cpp reads it once).
const std::optional<std::size_t>& memory_cap();
/// The bytes every counted Storage holds now: with memory_cap(), for a backend whose streams
/// live in other Storages (mpi) to report a stream past the cap as the whole stream it is.
std::size_t storage_bytes_held();
/// Whether `bytes` more fit under `cap` beside the `held` bytes.
bool fits_memory_cap(std::size_t bytes, std::size_t held, std::size_t cap);
/// The error's start for a stream of `count` elements of `element_size` bytes that does not fit
/// under `cap` beside `held` bytes: "cannot allocate a stream of ... BRT_MAX_MEMORY is CAP".
std::string memory_cap_exceeded(std::size_t count, std::size_t element_size, std::size_t held,
                                std::size_t cap);

struct BoundStream {
    Storage* storage = nullptr;
    Region region;
    /// The first row (index along the slowest dimension of `region`) that `storage` holds: 0
    /// for a whole stream. A backend that spreads streams over processes (mpi) binds a process's
    /// block of rows so in a launch of a row block (Launch::first_row); row r of the region is
    /// then at region.offset + (r - first_row) * strides[0] of the storage.
    std::size_t first_row = 0;
};

/// One parameter of a launch: `constant` for Constant parameters, `stream` for stream, gather
/// and reduce-input parameters; nothing for a reduce accumulator.
struct BoundArg {
    const void* constant = nullptr;
    BoundStream stream;
};

/// A checked call, ready to run. For kernels the domain is the outputs' shape; for reductions,
/// the reduce input's.
struct Launch {
    const KernelInfo* kernel = nullptr;
    /// The payload of the kernel's entry for the backend's kernel_code_name() (null for a
    /// backend that runs no generated code), looked up once by the core.
    const void* code = nullptr;
    std::vector<BoundArg> args; ///< one per parameter
    int rank = 0;
    std::array<std::size_t, 4> extents{};
    std::size_t element_count = 0;
    /// Every InputStream/OutputStream/ReduceInput argument has the domain's shape and is
    /// contiguous.
    bool dense = false;
    /// The rows of the domain (indices along its slowest dimension) to run: [first_row, end_row),
    /// all of them as the core launches. A backend that spreads the domain over processes (mpi)
    /// hands its inner backend one block of rows, only when that one's runs_row_blocks() is true;
    /// indexof, iterators and resized inputs still see the whole domain, `extents`.
    std::size_t first_row = 0;
    std::size_t end_row = std::numeric_limits<std::size_t>::max();
    /// True when the launch runs a block of the domain's rows (first_row/end_row set).
    bool runs_rows() const {
        return first_row != 0 || end_row != std::numeric_limits<std::size_t>::max();
    }
    /// The elements of first_row/end_row, as positions in the domain's row-major order:
    /// [first, end).
    std::array<std::size_t, 2> elements_to_run() const {
        const std::size_t rows = rank == 0 ? 1 : extents[0];
        const std::size_t row_length = rows == 0 ? 0 : element_count / rows;
        return {std::min(first_row, rows) * row_length, std::min(end_row, rows) * row_length};
    }

    /// A kernel with VariableOutput parameters runs as two launches (core/launch.cpp). Count:
    /// each element adds the number of values it pushes to each vout's counter array; ordinary
    /// outputs are bound to scratch storage. Write: the counters hold the exclusive prefix sums
    /// (each element's first slot) and each vout argument is bound to dense 1-D storage of the
    /// total. Single: a kernel without variable outputs.
    enum class Pass : unsigned char { Single, Count, Write };
    Pass pass = Pass::Single;
    /// Per parameter: for VariableOutput ones, element_count counters in host memory (see
    /// `pass`); null for the others. Empty in a Single pass.
    std::vector<std::size_t*> push_counters;
    /// Null, or (while a write mask or write query needs it, core/write_control.hpp) dense
    /// storage of one uchar per element of the domain, row-major: on entry nonzero for an
    /// element to skip (it runs nothing and its outputs keep their values); on return 1 for each
    /// element written, 0 for one skipped or discarded. Only in Single passes of calls that are
    /// not dense.
    Storage* element_flags = nullptr;
};

class Backend {
public:
    virtual ~Backend() = default;
    Backend() = default;
    Backend(const Backend&) = delete;
    Backend& operator=(const Backend&) = delete;

    /// The BRT_RUNTIME name ("cpu").
    virtual std::string_view name() const = 0;
    /// The KernelInfo::backends entry whose code it runs: its own name, another backend's (a
    /// backend that wraps one), or "" for one that runs no generated code (the tests' record
    /// backend). The core refuses a kernel without that entry before binding its arguments.
    virtual std::string_view kernel_code_name() const { return name(); }
    /// What it runs on, for BRT_VERBOSE=1 ("NVIDIA H100 80GB HBM3, compute capability 9.0").
    virtual std::string device() const = 0;
    /// True for a GPU API served by the CPU (Mesa's llvmpipe): `auto` passes it over, since the
    /// cpu backend runs Brook programs faster than a software rasteriser does.
    virtual bool software_renderer() const { return false; }
    /// True for a GPU API (gl, cuda, vulkan), whatever serves it: Brook+'s device API lists
    /// these as its "cal" devices.
    virtual bool gpu_api() const { return false; }
    /// Returns when all work issued so far is done (brook::finish); a backend whose every
    /// call completes before it returns has nothing to wait for.
    virtual void finish() {}

    /// New storage for `count` elements of `type`, zero-filled.
    virtual std::unique_ptr<Storage> allocate(const ElementType& type, std::size_t count) = 0;
    /// Storage that is the `count` elements of `type` at `host` (C++ layout, row-major), used in
    /// place and never freed (stream::borrow); null for a backend whose streams live elsewhere.
    virtual std::unique_ptr<Storage> borrow(const ElementType& /*type*/, std::size_t /*count*/,
                                            void* /*host*/) {
        return nullptr;
    }
    /// Copies host data (C++ layout, region.count() elements in row-major order) into `region`.
    virtual void write(Storage& storage, const Region& region, const void* host) = 0;
    /// Copies `region` out to host memory in C++ layout, row-major.
    virtual void read(const Storage& storage, const Region& region, void* host) = 0;
    /// Copies all of `source` into `target` (same element size and count).
    virtual void copy(Storage& target, const Storage& source) = 0;
    /// The rows [first, end) of `region` (along its slowest dimension) that this process holds
    /// (brook::local_region): all of them on a backend that is one process. A backend that
    /// spreads streams over processes (mpi) may redistribute the storage first so that its rows
    /// are the region's (collective), and then holds every element of the rows it names.
    virtual std::array<std::size_t, 2> local_rows(Storage& storage, const Region& region);
    /// Copies `region`, rows of the storage this process holds (local_rows), out to host memory
    /// without involving other processes (streamWriteLocal); read() on one process.
    virtual void read_local(const Storage& storage, const Region& region, void* host) {
        read(storage, region, host);
    }
    /// streamScatterOp's reads: the elements of `region` at the row-major `positions` into
    /// `values` (host memory, C++ layout), in the order of `positions`. A backend that spreads
    /// streams over processes makes it collective, each process passing its own positions, and
    /// fetches each element from the process holding it; the default reads the whole region.
    /// `caller` names the operation in profiles.
    virtual void read_elements(Storage& storage, const Region& region,
                               std::span<const std::size_t> positions, void* values,
                               std::string_view caller);
    /// streamGatherOp's fetch-and-update: for each of `positions` in order, values[k] takes the
    /// element of `region` at that row-major position, then `update` changes the element in
    /// place (so a later position naming it sees the update). Spread over processes it is
    /// collective, the processes' positions taken in process order (the row-major order of
    /// their elements of dst), each element updated by the process holding it.
    virtual void update_elements(Storage& storage, const Region& region,
                                 std::span<const std::size_t> positions, void* values,
                                 const std::function<void(std::byte*)>& update,
                                 std::string_view caller);

    /// Runs a stream kernel over launch.extents (one pass of it for kernels with variable
    /// outputs: see Launch::pass).
    virtual void run_kernel(const Launch& launch) = 0;
    /// True when run_kernel implements Launch::Pass::Count and Write; the core refuses kernels
    /// with variable outputs on other backends rather than let them return wrong results.
    virtual bool runs_variable_outputs() const { return false; }
    /// True when run_kernel implements Launch::element_flags; write masks and the write queries
    /// of kernels that may discard need it.
    virtual bool tracks_elements() const { return false; }
    /// True when run_kernel runs kernels with a ScatterOutput parameter (BROOKPLUS.md §4.7),
    /// whose argument is bound whole and written at any element. The core runs such a call on
    /// the host for a backend without it (core/host_fallback.hpp).
    virtual bool runs_scatter() const { return false; }
    /// True when run_kernel runs kernels with thread groups (KernelInfo::group_size, BROOKPLUS.md
    /// §4.8), each group of consecutive elements together; the core runs them on the host for a
    /// backend without it.
    virtual bool runs_groups() const { return false; }
    /// True when run_kernel implements Launch::first_row/end_row and BoundStream::first_row for
    /// passes without element flags (for the Count and Write passes of variable outputs too,
    /// when runs_variable_outputs(): counters stay indexed by the element's place in the
    /// domain, and slots by push_counters).
    virtual bool runs_row_blocks() const { return false; }
    /// Between the Count and Write passes of a kernel with variable outputs: turns each
    /// VariableOutput parameter's counts into its elements' first slots (an exclusive prefix sum)
    /// and returns the totals, one per such parameter, in parameter order. The default scans
    /// the host counters (Launch::push_counters); a backend that keeps its counts on the device
    /// scans them there, and its Write pass uses its own slots.
    virtual std::vector<std::size_t> scan_variable_outputs(const Launch& count);
    /// Folds all elements of argument `input` (a ReduceInput) into `result` (host memory of the
    /// element type), keeping their row-major order.
    virtual void reduce_to_value(const Launch& launch, int input, void* result) = 0;
    /// Folds argument `input` into `target`: same rank, each target extent divides the input's,
    /// target element j folds the contiguous block of input elements [j * b, (j + 1) * b).
    virtual void reduce_to_stream(const Launch& launch, int input, const BoundStream& target) = 0;
};

} // namespace brook::detail
