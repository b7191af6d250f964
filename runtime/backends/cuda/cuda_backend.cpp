// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The cuda backend (BRT_RUNTIME=cuda): streams in device memory, kernels compiled at run time by
// NVRTC from the CUDA C++ that brcc's codegen/cuda/ embeds in each KernelInfo.
//
// Streams. One device allocation per stream, in the element's C++ layout (the generated device
// code uses the same types), so streamRead/streamWrite are plain copies, one per contiguous run
// of a region. Everything goes through one CUDA stream in issue order: a launch returns at once,
// and only what hands data to the host waits (streamWrite, a reduction to a host variable,
// brook::finish, the count pass of a variable output). BRT_SYNC=1 makes the core call finish()
// after every call (core/launch.hpp), so a device fault is reported at the call that caused it.
//
// Kernels. The first launch of a kernel compiles its program for this GPU's compute capability
// (KernelCache: once per process, then from $XDG_CACHE_HOME/brook/cuda across processes) and
// loads the module. A launch writes the call's Frame (kernel_frame.hpp: the output domain, and
// per parameter its data pointer, shape, strides and constant bytes) into a device buffer with
// one host-to-device copy, then launches a grid-stride loop over the output elements: all of
// them, or under the mpi backend a block of the domain's rows (Backend::runs_row_blocks), whose
// streams' data pointers are then where row 0 would lie.
//
// Reductions follow ordered_reduce.hpp: pass 1 folds chunks of each target's block of the input
// (a RowMajorBox per target element; one box for a reduction to a value) into partials, pass 2
// folds each target's partials in chunk order; operands keep their row-major order throughout.
// Variable outputs run the core's count and write passes (core/launch.cpp) on the device; the
// counts come back to the host for the prefix sum and the offsets go back down.
#include "backends/cuda/cuda_driver.hpp"
#include "backends/cuda/cuda_objects.hpp"
#include "backends/cuda/device/kernel_frame.hpp"
#include "backends/cuda/device/ordered_reduce.hpp"
#include "backends/cuda/kernel_cache.hpp"
#include "backends/cuda/nvrtc_compiler.hpp"
#include "backends/cuda/nvrtc_headers.hpp"
#include "core/backend.hpp"
#include "core/checks.hpp"
#include "core/errors.hpp"
#include "core/launch.hpp"
#include "core/profiler.hpp"
#include "core/region_runs.hpp"
#include "core/registry.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

namespace brook::detail {

namespace {

namespace abi = ::brook::cuda::device; // what the generated kernels see (device/)
using cuda::DeviceMemory;
using Index = abi::Index;

/// Threads per block of every launch: a multiple of 32 that leaves room for several blocks per
/// multiprocessor at the register counts brcc's kernels have.
constexpr unsigned block_threads = 256;
/// Threads of a warp, the unit blocks are sized in; a kernel whose entry points spread loops
/// over a warp (kernel_frame.hpp's NAME__cuda_warps) runs a warp per output element.
constexpr unsigned warp_threads = 32;
/// Blocks per multiprocessor a grid-stride launch asks for: enough resident warps to hide memory
/// latency; more only add scheduling.
constexpr unsigned blocks_per_multiprocessor = 8;
/// The most blocks gridDim.y takes: reductions to larger streams go in batches of targets.
constexpr Index max_grid_y = 65535;

bool env_is(const char* name, std::string_view value) {
    const char* set = std::getenv(name);
    return set != nullptr && value == set;
}

/// A program for NVRTC: brcc's program of a kernel, or one of the backend's own.
struct DeviceProgram {
    const char* text;
    std::string name;  ///< for NVRTC and BRT_VERBOSE
    std::string label; ///< what messages call it: "kernel 'saxpy'"
};

/// The device, its context and stream, the compilers, and the compiled kernels.
class Device {
public:
    Device()
        : nvrtc_(), cache_(nvrtc_), device_(first_device(driver_)), context_(driver_, device_),
          stream_((context_.make_current(), create())) {
        compute_capability_ = 10 * attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) +
                              attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
        multiprocessors_ =
            static_cast<unsigned>(attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
        char name[256] = {};
        check(driver_.cuDeviceGetName(name, sizeof name, device_), "cannot name the device");
        name_ = name;
        verbose_ = env_is("BRT_VERBOSE", "1");
    }

    const cuda::Driver& driver() const { return driver_; }
    CUstream stream() const { return stream_.get(); }
    unsigned multiprocessors() const { return multiprocessors_; }
    std::string description() const {
        return name_ + ", compute capability " + std::to_string(compute_capability_ / 10) + "." +
               std::to_string(compute_capability_ % 10) + ", NVRTC " +
               std::to_string(nvrtc_.version().first) + "." +
               std::to_string(nvrtc_.version().second);
    }

    /// Every driver call needs the context current on the calling thread; the program may use
    /// streams from any thread.
    void make_current() const { context_.make_current(); }

    /// Stops the program with the driver's message when `result` is an error.
    void check(CUresult result, const std::string& what) const {
        if (result != CUDA_SUCCESS) {
            fatal("cuda: " + what + ": " + driver_.describe(result));
        }
    }

    DeviceMemory allocate(std::size_t bytes) const {
        try {
            return cuda::allocate_device(driver_, bytes);
        } catch (const std::runtime_error& error) {
            fatal(std::string(error.what()) + "; free device memory by releasing streams first");
        }
    }

    void synchronize(const std::string& what) const {
        check(driver_.cuStreamSynchronize(stream()), what);
    }

    /// Entry point `entry` of the program of `launch`'s kernel, compiled and loaded on first use.
    CUfunction function(const Launch& launch, const std::string& entry) {
        return function({static_cast<const char*>(launch.code), launch.kernel->name,
                         call_label(*launch.kernel)},
                        entry);
    }

    /// Entry point `entry` of `source`, compiled and loaded on first use.
    CUfunction function(const DeviceProgram& source, const std::string& entry) {
        CUfunction function = find_function(source, entry);
        if (function == nullptr) {
            fatal("cuda: " + source.label + ": its program has no entry point " + entry +
                  " (was it built by another version of brcc?)");
        }
        return function;
    }

    /// Whether the program of `launch`'s kernel has entry point `entry` (brcc writes some
    /// entry points only for some kernels: kernel_frame.hpp).
    bool has_function(const Launch& launch, const std::string& entry) {
        return find_function({static_cast<const char*>(launch.code), launch.kernel->name,
                              call_label(*launch.kernel)},
                             entry) != nullptr;
    }

    /// Launches `function` on a grid of `grid` blocks of `block` threads with `params`; `label`
    /// names it in messages. A kernel compiled to more registers than a block of `block` may have
    /// cannot launch (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES): one that runs with blocks of any size
    /// (`any_block_size`, a grid-stride loop) then runs in blocks as large as its registers
    /// allow; any other stops with an error naming the kernel, the limits and their values.
    void launch(const std::string& label, CUfunction function, std::array<unsigned, 2> grid,
                void** params, bool any_block_size = false, unsigned block = block_threads) const {
        const auto smaller = smaller_blocks_.find(function);
        unsigned threads = smaller != smaller_blocks_.end() ? smaller->second : block;
        CUresult result = driver_.cuLaunchKernel(function, grid[0], grid[1], 1, threads, 1, 1, 0,
                                                 stream(), params, nullptr);
        if (result == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES) {
            const auto most = static_cast<unsigned>(
                function_attribute(function, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
            if (!any_block_size || most < warp_threads || most >= threads) {
                fatal(out_of_resources(label, function, threads));
            }
            threads = most / warp_threads * warp_threads;
            smaller_blocks_[function] = threads;
            result = driver_.cuLaunchKernel(function, grid[0], grid[1], 1, threads, 1, 1, 0,
                                            stream(), params, nullptr);
            if (result == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES) {
                fatal(out_of_resources(label, function, threads));
            }
        }
        check(result, label + ": cannot launch it");
    }

private:
    /// Entry point `entry` of `source` (compiled and loaded on first use), or null when the
    /// program has none.
    CUfunction find_function(const DeviceProgram& source, const std::string& entry) {
        Program& program = programs_[source.text];
        if (!program.module) {
            program.module = load(source);
        }
        auto found = program.functions.find(entry);
        if (found == program.functions.end()) {
            CUfunction function = nullptr;
            const CUresult result =
                driver_.cuModuleGetFunction(&function, program.module.get(), entry.c_str());
            if (result != CUDA_ERROR_NOT_FOUND) {
                check(result, source.label + ": cannot find its entry point " + entry);
            }
            found = program.functions.emplace(entry, function).first;
        }
        return found->second;
    }

    /// A valid kernel that the compiler cannot fit in the device's limits (ptxas: "Entry function
    /// 'K' uses too much shared data (0x10000 bytes, 0xc000 max)", or local data, or parameter
    /// space) is the user's to change, not a brcc bug: stops naming the kernel and the limit.
    static void report_resource_limit(const std::string& label, const std::string& log) {
        static const std::regex too_much(
            R"(uses too much (shared data|local data|parameter space)[^\n]*)");
        std::smatch match;
        if (std::regex_search(log, match, too_much)) {
            fatal(label + " needs more than the GPU allows: it " + match.str() +
                  " (ptxas's limit, in bytes): simplify the kernel (smaller local arrays, fewer "
                  "constant arguments) or split it into several, or run it with BRT_RUNTIME=cpu");
        }
    }

    int function_attribute(CUfunction function, CUfunction_attribute which) const {
        int value = 0;
        check(driver_.cuFuncGetAttribute(&value, which, function),
              "cannot query a compiled kernel");
        return value;
    }

    /// Why `function` cannot launch in blocks of `threads`: what it needs and what the device has.
    std::string out_of_resources(const std::string& label, CUfunction function,
                                 unsigned threads) const {
        const int registers = function_attribute(function, CU_FUNC_ATTRIBUTE_NUM_REGS);
        const int shared = function_attribute(function, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
        const int most = function_attribute(function, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
        return label + " needs more registers or shared memory than a block of " +
               std::to_string(threads) +
               " threads may have on this GPU: " + std::to_string(registers) +
               " registers per thread (CU_FUNC_ATTRIBUTE_NUM_REGS; the device has " +
               std::to_string(attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK)) +
               " per block, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK) and " +
               std::to_string(shared) +
               " bytes of shared memory (CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES; the device has " +
               std::to_string(attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)) +
               ", CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK), so it runs at most " +
               std::to_string(most) +
               " threads per block (CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK): simplify the kernel "
               "or split it into several, or run it with BRT_RUNTIME=cpu "
               "(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)";
    }

    struct Program {
        cuda::Module module;
        std::map<std::string, CUfunction> functions;
    };

    static CUdevice first_device(const cuda::Driver& driver) {
        // A driver without GPUs (none installed, or CUDA_VISIBLE_DEVICES hides them all) fails
        // cuInit with CUDA_ERROR_NO_DEVICE rather than counting zero devices.
        const CUresult init = driver.cuInit(0);
        int count = 0;
        if (init != CUDA_ERROR_NO_DEVICE) {
            driver.check(init, "cannot initialise the driver");
            driver.check(driver.cuDeviceGetCount(&count), "cannot count the devices");
        }
        if (count == 0) {
            throw std::runtime_error("no CUDA device (the NVIDIA driver is installed, but it "
                                     "sees no GPU)");
        }
        CUdevice device = 0;
        driver.check(driver.cuDeviceGet(&device, 0), "cannot open device 0");
        return device;
    }

    cuda::Stream create() const { return cuda::create_stream(driver_); }

    int attribute(CUdevice_attribute which) const {
        int value = 0;
        check(driver_.cuDeviceGetAttribute(&value, which, device_), "cannot query the device");
        return value;
    }

    cuda::Module load(const DeviceProgram& source) {
        cuda::CompileRequest request =
            cuda::program_request(source.text, source.name, compute_capability_);
        if (checks_enabled()) {
            // BRT_CHECK=1: the division checks (kernel_frame.hpp, check_element); without it
            // the programs have no trace of them.
            request.options.emplace_back("-DBROOK_CHECK");
        }
        const auto start = std::chrono::steady_clock::now();
        const ProfileTimer timer;
        cuda::CacheOrigin origin{};
        std::string image;
        try {
            image = cache_.compile_cached(request, &origin);
        } catch (const std::runtime_error& error) {
            report_resource_limit(source.label, error.what());
            fatal(source.label +
                  " does not compile for the cuda backend (an internal "
                  "error of brcc; please report it): " +
                  error.what());
        }
        if (verbose_) {
            const double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
            std::fprintf(stderr, "brook: cuda: %s %s (%.1f ms)\n", source.name.c_str(),
                         origin == cuda::CacheOrigin::compiled ? "compiled"
                         : origin == cuda::CacheOrigin::disk   ? "read from the disk cache"
                                                               : "found in memory",
                         ms);
        }
        try {
            cuda::Module module = cuda::load_module(driver_, image, request.program);
            if (profiling()) [[unlikely]] {
                // Compiled or read from a cache, and loaded: what the first launch waited for.
                timer.record(Activity::Compile, source.name, 0, 0);
            }
            return module;
        } catch (const std::runtime_error& error) {
            fatal(source.label + ": " + error.what());
        }
    }

    cuda::Driver driver_;
    cuda::Nvrtc nvrtc_;
    cuda::KernelCache cache_;
    CUdevice device_;
    cuda::PrimaryContext context_;
    cuda::Stream stream_;
    int compute_capability_ = 0;
    unsigned multiprocessors_ = 1;
    std::string name_;
    bool verbose_ = false;
    std::map<const char*, Program> programs_; ///< by their source text
    /// Grid-stride kernels that launch in blocks smaller than block_threads (see launch).
    mutable std::map<CUfunction, unsigned> smaller_blocks_;
};

/// A vout kernel's counters, then slots, on the device, one array per parameter, from its Count
/// pass to its Write pass; the core runs the passes and the scan between them on one thread.
thread_local std::vector<DeviceMemory> pending_slots;

class CudaStorage final : public Storage {
public:
    CudaStorage(std::shared_ptr<const Device> device, std::size_t element_size, std::size_t count)
        : Storage(element_size, count), device_(std::move(device)),
          memory_(device_->allocate(element_size * count)) {}
    CUdeviceptr address() const { return memory_.get(); }

private:
    // Keeps the driver and context alive until the memory is freed.
    std::shared_ptr<const Device> device_;
    DeviceMemory memory_;
};

const CudaStorage& cuda_storage(const Storage& storage) {
    return static_cast<const CudaStorage&>(storage);
}
CudaStorage& cuda_storage(Storage& storage) {
    return static_cast<CudaStorage&>(storage);
}

/// Two pinned host buffers that large copies go through a chunk at a time: the CPU copies one
/// chunk while the copy engine moves the other, at the engine's full speed, which it reaches only
/// from page-locked memory (from pageable memory the driver stages through smaller buffers of its
/// own). Waits use the one CUDA stream, so they also wait for work queued before the copy.
class Staging {
public:
    /// Copies of fewer bytes go directly.
    static constexpr std::size_t threshold = std::size_t{1} << 20;
    static constexpr std::size_t chunk = std::size_t{8} << 20;

    /// Queues the copy of `bytes` from `host` to `target`; returns once `host` may change.
    void to_device(const Device& device, CUdeviceptr target, const std::byte* host,
                   std::size_t bytes) {
        prepare(device);
        for (std::size_t at = 0, k = 0; at < bytes; at += chunk, ++k) {
            const std::size_t size = std::min(chunk, bytes - at);
            // The copy from this buffer two chunks ago ended at the last iteration's wait.
            std::memcpy(buffers_[k % 2].get(), host + at, size);
            device.synchronize("streamRead: an earlier copy or kernel failed");
            device.check(device.driver().cuMemcpyHtoDAsync(target + at, buffers_[k % 2].get(), size,
                                                           device.stream()),
                         "streamRead: cannot copy to the device");
        }
        in_flight_ = true;
    }

    /// Copies `bytes` from `source` to `host`; returns when they are there.
    void to_host(const Device& device, std::byte* host, CUdeviceptr source, std::size_t bytes) {
        prepare(device);
        const auto queue = [&](std::size_t at, std::size_t k) {
            device.check(device.driver().cuMemcpyDtoHAsync(buffers_[k % 2].get(), source + at,
                                                           std::min(chunk, bytes - at),
                                                           device.stream()),
                         "streamWrite: cannot copy from the device");
        };
        queue(0, 0);
        for (std::size_t at = 0, k = 0; at < bytes; at += chunk, ++k) {
            device.synchronize("streamWrite: a kernel that wrote the stream failed");
            if (at + chunk < bytes) {
                queue(at + chunk, k + 1); // moves while this chunk is copied out
            }
            std::memcpy(host + at, buffers_[k % 2].get(), std::min(chunk, bytes - at));
        }
        in_flight_ = false;
    }

private:
    void prepare(const Device& device) {
        if (!buffers_[0]) {
            for (cuda::PinnedMemory& buffer : buffers_) {
                try {
                    buffer = cuda::allocate_pinned(device.driver(), chunk);
                } catch (const std::runtime_error& error) {
                    fatal(error.what());
                }
            }
        }
        if (in_flight_) {
            // The last copy to the device may still read the buffers.
            device.synchronize("streamRead: a copy to the device failed");
            in_flight_ = false;
        }
    }

    cuda::PinnedMemory buffers_[2];
    bool in_flight_ = false;
};

/// A launch's Frame, its FrameArgs and its constants, laid out in one buffer for one copy to the
/// device: pointers inside it are device addresses.
class FrameBuffer {
public:
    /// The size of `launch`'s bytes: the Frame, the FrameArgs, then each constant, every part
    /// starting at a multiple of 16 bytes.
    static std::size_t size_of(const Launch& launch) {
        std::size_t size = constants_at(launch);
        for (std::size_t p = 0; p < launch.args.size(); ++p) {
            if (launch.args[p].constant != nullptr) {
                size = align(size + constant_size(launch, p));
            }
        }
        return size;
    }

    /// The bytes for `launch`, to live at device address `base`. `push` gives each vout
    /// parameter its device counters or offsets (0 for the others).
    void build(const Launch& launch, CUdeviceptr base, const std::vector<CUdeviceptr>& push,
               CUdeviceptr division_record) {
        const std::size_t params = launch.args.size();
        std::size_t constants_at = FrameBuffer::constants_at(launch);
        bytes_.assign(size_of(launch), std::byte{0});

        abi::Frame frame{};
        frame.output_rank = launch.rank;
        for (std::size_t d = 0; d < 4; ++d) {
            frame.output_extents[d] = launch.extents[d];
        }
        frame.element_count = launch.element_count;
        const auto [begin, end] = launch.elements_to_run();
        frame.run_begin = begin;
        frame.run_end = end;
        frame.args = reinterpret_cast<const abi::FrameArg*>(base + args_at);
        if (launch.element_flags != nullptr) {
            frame.element_flags =
                reinterpret_cast<unsigned char*>(cuda_storage(*launch.element_flags).address());
        }
        frame.division_record = reinterpret_cast<unsigned long long*>(division_record);
        std::memcpy(bytes_.data(), &frame, sizeof frame);

        for (std::size_t p = 0; p < params; ++p) {
            const BoundArg& bound = launch.args[p];
            abi::FrameArg arg{};
            if (bound.constant != nullptr) {
                const std::size_t bytes = constant_size(launch, p);
                std::memcpy(bytes_.data() + constants_at, bound.constant, bytes);
                arg.constant = reinterpret_cast<const void*>(base + constants_at);
                constants_at = align(constants_at + bytes);
            }
            if (const Storage* storage = bound.stream.storage; storage != nullptr) {
                const Region& region = bound.stream.region;
                // A block of rows from first_row on (BoundStream::first_row): the address row 0
                // would have, which the kernel never reads, so that row r is where it lies.
                const std::size_t before = bound.stream.first_row * region.strides[0];
                arg.data = reinterpret_cast<void*>(cuda_storage(*storage).address() +
                                                   region.offset * storage->element_size() -
                                                   before * storage->element_size());
                arg.rank = region.rank;
                for (std::size_t d = 0; d < 4; ++d) {
                    arg.extents[d] = region.extents[d];
                    arg.strides[d] = region.strides[d];
                }
            }
            if (p < push.size() && push[p] != 0) {
                // The same buffer serves as the counters (count pass) and the offsets (write).
                arg.push_counts = reinterpret_cast<Index*>(push[p]);
                arg.push_offsets = reinterpret_cast<const Index*>(push[p]);
            }
            std::memcpy(bytes_.data() + args_at + p * sizeof arg, &arg, sizeof arg);
        }
    }

    const std::vector<std::byte>& bytes() const { return bytes_; }

private:
    static constexpr std::size_t args_at = (sizeof(abi::Frame) + 15) / 16 * 16;

    static std::size_t align(std::size_t offset) { return (offset + 15) / 16 * 16; }
    static std::size_t constants_at(const Launch& launch) {
        return align(args_at + launch.args.size() * sizeof(abi::FrameArg));
    }
    static std::size_t constant_size(const Launch& launch, std::size_t param) {
        const ParamInfo& info = launch.kernel->params[param];
        // A bool constant has no stream element type; the stub passes a C++ bool.
        return info.element_type != nullptr ? info.element_type().size : sizeof(bool);
    }

    std::vector<std::byte> bytes_;
};

class CudaBackend final : public Backend {
public:
    CudaBackend() : device_(std::make_shared<Device>()) {}

    std::string_view name() const override { return "cuda"; }
    std::string device() const override { return device_->description(); }
    bool gpu_api() const override { return true; }

    void finish() override {
        device_->make_current();
        device_->synchronize("a kernel failed on the device");
    }

    std::unique_ptr<Storage> allocate(const ElementType& type, std::size_t count) override {
        device_->make_current();
        auto storage = std::make_unique<CudaStorage>(device_, type.size, count);
        if (count != 0) {
            check(driver().cuMemsetD8Async(storage->address(), 0, type.size * count, stream()),
                  "cannot clear a new stream");
        }
        return storage;
    }

    void write(Storage& storage, const Region& region, const void* host) override {
        device_->make_current();
        const std::size_t size = storage.element_size();
        const CUdeviceptr base = cuda_storage(storage).address();
        // From pageable memory the driver has taken the bytes when the call returns, so the
        // program may reuse its array at once while the copy is queued.
        for_each_run(region, [&](std::size_t offset, std::size_t count, std::size_t at) {
            const auto* from = static_cast<const std::byte*>(host) + at * size;
            if (count * size >= Staging::threshold) {
                const std::lock_guard lock(staging_mutex_);
                staging_.to_device(*device_, base + offset * size, from, count * size);
                return;
            }
            check(driver().cuMemcpyHtoDAsync(base + offset * size, from, count * size, stream()),
                  "streamRead: cannot copy to the device");
        });
    }

    void read(const Storage& storage, const Region& region, void* host) override {
        device_->make_current();
        const std::size_t size = storage.element_size();
        const CUdeviceptr base = cuda_storage(storage).address();
        for_each_run(region, [&](std::size_t offset, std::size_t count, std::size_t at) {
            auto* to = static_cast<std::byte*>(host) + at * size;
            if (count * size >= Staging::threshold) {
                const std::lock_guard lock(staging_mutex_);
                staging_.to_host(*device_, to, base + offset * size, count * size);
                return;
            }
            check(driver().cuMemcpyDtoHAsync(to, base + offset * size, count * size, stream()),
                  "streamWrite: cannot copy from the device");
        });
        device_->synchronize("streamWrite: a kernel that wrote the stream failed");
    }

    void copy(Storage& target, const Storage& source) override {
        device_->make_current();
        if (source.count() != 0) {
            check(driver().cuMemcpyDtoDAsync(cuda_storage(target).address(),
                                             cuda_storage(source).address(),
                                             source.count() * source.element_size(), stream()),
                  "cannot copy a stream");
        }
    }

    bool tracks_elements() const override { return true; }

    bool runs_variable_outputs() const override { return true; }

    bool runs_scatter() const override { return true; }

    bool runs_groups() const override { return true; }

    bool runs_row_blocks() const override { return true; }

    void run_kernel(const Launch& launch) override {
        const std::lock_guard lock(launch_mutex_);
        device_->make_current();
        const auto [begin, end] = launch.elements_to_run();
        if (begin == end) {
            return;
        }
        const KernelInfo& kernel = *launch.kernel;
        const std::string name = kernel.name;
        switch (launch.pass) {
        case Launch::Pass::Single:
            if (kernel.group_size != 0) {
                run_stream_kernel(launch, name + "__cuda_group", {});
            } else if (const std::string suffix = launch.dense ? "" : "_resized";
                       device_->has_function(launch, name + "__cuda_warps" + suffix)) {
                run_stream_kernel(launch, name + "__cuda_warps" + suffix, {}, warp_threads);
            } else {
                run_stream_kernel(launch, name + "__cuda" + suffix, {});
            }
            return;
        case Launch::Pass::Count: {
            // Per vout: element_count counters on the device, zeroed; they stay there, for
            // scan_variable_outputs to turn into slots and the write pass to use.
            const std::size_t bytes = launch.element_count * sizeof(Index);
            std::vector<CUdeviceptr> push(launch.args.size(), 0);
            pending_slots.clear();
            pending_slots.resize(launch.args.size());
            for (std::size_t p = 0; p < launch.args.size(); ++p) {
                if (p < launch.push_counters.size() && launch.push_counters[p] != nullptr) {
                    pending_slots[p] = device_->allocate(bytes);
                    push[p] = pending_slots[p].get();
                    check(driver().cuMemsetD8Async(push[p], 0, bytes, stream()),
                          "cannot clear a variable output's counters");
                }
            }
            run_stream_kernel(launch, name + "__cuda_count", push);
            if (launch.runs_rows()) {
                // A block of rows (the mpi backend) is scanned by the caller from the host
                // counters of its elements (Backend::runs_row_blocks).
                transfer_counters(launch, push, Direction::to_host);
            }
            return;
        }
        case Launch::Pass::Write: {
            std::vector<CUdeviceptr> push(launch.args.size(), 0);
            for (std::size_t p = 0; p < pending_slots.size() && p < push.size(); ++p) {
                push[p] = pending_slots[p].get();
            }
            if (launch.runs_rows()) {
                // The slots of a block of rows come from the caller's scan, on the host.
                transfer_counters(launch, push, Direction::to_device);
            }
            run_stream_kernel(launch, name + "__cuda_write", push);
            // The slots are freed next; the launch must have read them by then.
            device_->synchronize(call_label(kernel) + " failed");
            pending_slots.clear();
            return;
        }
        }
    }

    std::vector<std::size_t> scan_variable_outputs(const Launch& count) override {
        const std::lock_guard lock(launch_mutex_);
        device_->make_current();
        std::vector<std::size_t> totals;
        for (std::size_t p = 0; p < count.push_counters.size(); ++p) {
            if (count.push_counters[p] == nullptr) {
                continue;
            }
            // No counters when the count pass had no elements to run.
            const bool counted = p < pending_slots.size() && pending_slots[p];
            totals.push_back(counted ? scan(pending_slots[p].get(), count.element_count) : 0);
        }
        return totals;
    }

    void reduce_to_value(const Launch& launch, int input, void* result) override {
        const std::lock_guard lock(launch_mutex_);
        device_->make_current();
        const BoundStream& source = launch.args[static_cast<std::size_t>(input)].stream;
        const std::size_t size = source.storage->element_size();
        abi::RowMajorBox box{};
        box.rank = static_cast<unsigned>(source.region.rank);
        for (std::size_t d = 0; d < 4; ++d) {
            box.extent[d] = source.region.extents[d];
            box.stride[d] = source.region.strides[d];
        }
        const DeviceMemory results = device_->allocate(size);
        reduce(launch, {box}, results.get());
        check(driver().cuMemcpyDtoHAsync(result, results.get(), size, stream()),
              "cannot read a reduction's result");
        device_->synchronize(call_label(*launch.kernel) + " failed on the device");
    }

    void reduce_to_stream(const Launch& launch, int input, const BoundStream& target) override {
        const std::lock_guard lock(launch_mutex_);
        device_->make_current();
        const Region& in = launch.args[static_cast<std::size_t>(input)].stream.region;
        const Region& out = target.region;
        const std::size_t targets = out.count();
        // Target element j folds the block of the input at its coordinates times the block's
        // extents, in row-major order.
        std::vector<abi::RowMajorBox> boxes(targets);
        for (std::size_t j = 0; j < targets; ++j) {
            abi::RowMajorBox& box = boxes[j];
            box.rank = static_cast<unsigned>(in.rank);
            std::size_t rest = j;
            for (int d = out.rank - 1; d >= 0; --d) {
                const auto dim = static_cast<std::size_t>(d);
                const std::size_t block = in.extents[dim] / out.extents[dim];
                box.base += (rest % out.extents[dim]) * block * in.strides[dim];
                box.extent[dim] = block;
                box.stride[dim] = in.strides[dim];
                rest /= out.extents[dim];
            }
        }
        const std::size_t size = target.storage->element_size();
        const DeviceMemory results = device_->allocate(targets * size);
        reduce(launch, boxes, results.get());
        // The results are dense, in the target's row-major order; the target may be a view.
        const CUdeviceptr base = cuda_storage(*target.storage).address();
        for_each_run(out, [&](std::size_t offset, std::size_t count, std::size_t at) {
            check(driver().cuMemcpyDtoDAsync(base + offset * size, results.get() + at * size,
                                             count * size, stream()),
                  "cannot store a reduction's results");
        });
        // `results` is freed on return.
        device_->synchronize(call_label(*launch.kernel) + " failed on the device");
    }

private:
    enum class Direction { to_host, to_device };

    /// Copies the counters (or slots) of the elements a block of rows runs between `push` on
    /// the device and the launch's push_counters on the host, for every variable output.
    void transfer_counters(const Launch& launch, const std::vector<CUdeviceptr>& push,
                           Direction direction) {
        static_assert(sizeof(Index) == sizeof(std::size_t));
        const auto [begin, end] = launch.elements_to_run();
        const std::size_t bytes = (end - begin) * sizeof(Index);
        for (std::size_t p = 0; p < push.size() && p < launch.push_counters.size(); ++p) {
            if (push[p] == 0 || launch.push_counters[p] == nullptr) {
                continue;
            }
            const CUdeviceptr device = push[p] + begin * sizeof(Index);
            std::size_t* host = launch.push_counters[p] + begin;
            check(direction == Direction::to_host
                      ? driver().cuMemcpyDtoHAsync(host, device, bytes, stream())
                      : driver().cuMemcpyHtoDAsync(device, host, bytes, stream()),
                  "cannot copy a variable output's counters");
        }
        // Pageable host memory: the copies are done when the stream has reached them.
        device_->synchronize(call_label(*launch.kernel) + " failed");
    }

    const cuda::Driver& driver() const { return device_->driver(); }
    CUstream stream() const { return device_->stream(); }
    void check(CUresult result, const std::string& what) const { device_->check(result, what); }

    /// Uploads `launch`'s Frame (with `push` for vout parameters) and returns its device address.
    CUdeviceptr upload_frame(const Launch& launch, const std::vector<CUdeviceptr>& push) {
        // Sized before it is built: the frame's pointers need the buffer's address.
        const std::size_t bytes = FrameBuffer::size_of(launch);
        if (bytes > frame_capacity_) {
            // Earlier launches may still read the old buffer.
            device_->synchronize("a kernel failed on the device");
            frame_memory_ = device_->allocate(bytes);
            frame_capacity_ = bytes;
        }
        frame_.build(launch, frame_memory_.get(), push, division_record(launch));
        // Queued behind the launches before it, so they read their own frames; pageable memory is
        // copied out before the call returns.
        check(
            driver().cuMemcpyHtoDAsync(frame_memory_.get(), frame_.bytes().data(), bytes, stream()),
            "cannot copy a kernel's arguments to the device");
        return frame_memory_.get();
    }

    /// A grid-stride launch of `entry` over the launch's elements, `threads_per_element` threads
    /// each. A kernel with thread groups (BROOKPLUS.md §4.8) runs a block per group, of exactly
    /// its size: the domain is whole groups, so every thread of a block takes the same turns of
    /// the loop.
    void run_stream_kernel(const Launch& launch, const std::string& entry,
                           const std::vector<CUdeviceptr>& push, unsigned threads_per_element = 1) {
        const KernelInfo& kernel = *launch.kernel;
        CUfunction function = device_->function(launch, entry);
        CUdeviceptr frame = upload_frame(launch, push);
        void* params[] = {&frame};
        const auto [begin, end] = launch.elements_to_run();
        const bool groups = kernel.group_size != 0;
        const unsigned block = groups ? kernel.group_size : block_threads;
        const Index needed = ((end - begin) * threads_per_element + block - 1) / block;
        const Index most = Index{device_->multiprocessors()} * blocks_per_multiprocessor;
        device_->launch(call_label(kernel), function,
                        {static_cast<unsigned>(std::min(needed, most)), 1}, params, !groups, block);
        if (checks_enabled()) {
            report_division_faults(launch);
        }
    }

    /// Under BRT_CHECK=1, the device word a stream kernel's launch records its first division
    /// fault in, set to all ones (no fault) before the launch; 0 (none) otherwise and for
    /// reductions, which are not checked.
    CUdeviceptr division_record(const Launch& launch) {
        if (!checks_enabled() || launch.kernel->is_reduce) {
            return 0;
        }
        if (!division_record_) {
            division_record_ = device_->allocate(sizeof(std::uint64_t));
        }
        check(
            driver().cuMemsetD8Async(division_record_.get(), 0xFF, sizeof(std::uint64_t), stream()),
            "cannot clear the record of division faults");
        return division_record_.get();
    }

    /// Waits for the launch, then stops at the first element it recorded a fault at.
    void report_division_faults(const Launch& launch) {
        std::uint64_t record = 0;
        check(driver().cuMemcpyDtoHAsync(&record, division_record_.get(), sizeof record, stream()),
              "cannot read the record of division faults");
        device_->synchronize(call_label(*launch.kernel) + " failed on the device");
        report_division_record(launch, record, ~std::uint64_t{0});
    }

    /// The two passes of an ordered reduction of `boxes` (all of one size) into `results`, one
    /// element per box, in batches of at most max_grid_y boxes.
    void reduce(const Launch& launch, const std::vector<abi::RowMajorBox>& boxes,
                CUdeviceptr results) {
        const KernelInfo& kernel = *launch.kernel;
        const std::string name = kernel.name;
        CUfunction chunks = device_->function(launch, name + "__cuda_reduce_chunks");
        CUfunction partials_pass = device_->function(launch, name + "__cuda_reduce_partials");
        const std::size_t size = element_size_of_reduce_input(launch);
        const Index per_box = boxes.front().count();
        // Enough blocks over all boxes to fill the device, never more than a box's tiles.
        const Index wanted = std::max<Index>(1, Index{device_->multiprocessors()} *
                                                    blocks_per_multiprocessor / boxes.size());
        const abi::ChunkPlan plan =
            abi::plan_chunks(per_box, block_threads, abi::grid_items, wanted);
        CUdeviceptr frame = upload_frame(launch, {});
        for (std::size_t first = 0; first < boxes.size(); first += max_grid_y) {
            const std::size_t batch = std::min<std::size_t>(max_grid_y, boxes.size() - first);
            const DeviceMemory box_memory = device_->allocate(batch * sizeof(abi::RowMajorBox));
            check(driver().cuMemcpyHtoDAsync(box_memory.get(), boxes.data() + first,
                                             batch * sizeof(abi::RowMajorBox), stream()),
                  "cannot copy a reduction's blocks to the device");
            const DeviceMemory partials = device_->allocate(batch * plan.blocks * size);
            CUdeviceptr box_pointer = box_memory.get();
            Index chunk = plan.chunk;
            CUdeviceptr partials_pointer = partials.get();
            void* first_params[] = {&frame, &box_pointer, &chunk, &partials_pointer};
            device_->launch(call_label(kernel), chunks,
                            {static_cast<unsigned>(plan.blocks), static_cast<unsigned>(batch)},
                            first_params);
            Index blocks = plan.blocks;
            CUdeviceptr batch_results = results + first * size;
            void* second_params[] = {&frame, &partials_pointer, &blocks, &batch_results};
            device_->launch(call_label(kernel), partials_pass, {1, static_cast<unsigned>(batch)},
                            second_params);
            // The boxes and partials are freed at the end of the batch.
            device_->synchronize(call_label(kernel) + " failed on the device");
        }
    }

    /// Turns the `n` counts at `counts` into each element's first slot, in place, on the device
    /// (device/vout_scan.cu); returns their sum.
    std::size_t scan(CUdeviceptr counts, Index n) {
        const DeviceProgram program{cuda::vout_scan_source(), "brook_vout_scan",
                                    "the scan of a variable output's counts"};
        const abi::ChunkPlan plan =
            abi::plan_chunks(n, block_threads, abi::grid_items,
                             Index{device_->multiprocessors()} * blocks_per_multiprocessor);
        // Each chunk's total, then its first slot; after them the sum of all.
        const DeviceMemory chunk_slots = device_->allocate((plan.blocks + 1) * sizeof(Index));
        CUdeviceptr slots = chunk_slots.get();
        CUdeviceptr grand_total = slots + plan.blocks * sizeof(Index);
        Index count = n;
        Index chunk = plan.chunk;
        Index blocks = plan.blocks;
        const auto grid = static_cast<unsigned>(blocks);
        void* count_params[] = {&counts, &count, &chunk, &slots};
        device_->launch(program.label, device_->function(program, "brook_vout_count_chunks"),
                        {grid, 1}, count_params);
        void* totals_params[] = {&slots, &blocks, &grand_total};
        device_->launch(program.label, device_->function(program, "brook_vout_scan_totals"), {1, 1},
                        totals_params);
        void* chunk_params[] = {&counts, &count, &chunk, &slots};
        device_->launch(program.label, device_->function(program, "brook_vout_scan_chunks"),
                        {grid, 1}, chunk_params);
        Index total = 0;
        check(driver().cuMemcpyDtoHAsync(&total, grand_total, sizeof total, stream()),
              "cannot read a variable output's size");
        device_->synchronize(program.label + " failed on the device");
        return static_cast<std::size_t>(total);
    }

    static std::size_t element_size_of_reduce_input(const Launch& launch) {
        for (std::size_t p = 0; p < launch.args.size(); ++p) {
            if (launch.kernel->params[p].kind == ParamKind::ReduceInput) {
                return launch.args[p].stream.storage->element_size();
            }
        }
        fatal(call_label(*launch.kernel) + " has no reduce input");
    }

    std::shared_ptr<Device> device_;
    // Launches from several threads take turns: they share the argument buffer and the
    // compiled programs. Copies need no lock; the driver serialises them on the stream.
    std::mutex launch_mutex_;
    std::mutex staging_mutex_;
    Staging staging_;
    FrameBuffer frame_;
    DeviceMemory frame_memory_;
    std::size_t frame_capacity_ = 0;
    DeviceMemory division_record_; ///< see division_record
};

const BackendRegistration cuda_registration({
    .name = "cuda",
    .auto_rank = 20,
    .create = [] { return std::unique_ptr<Backend>(std::make_unique<CudaBackend>()); },
});

} // namespace

} // namespace brook::detail
