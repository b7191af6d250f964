// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The vulkan backend (BRT_RUNTIME=vulkan): streams in device-local buffers, kernels as the SPIR-V
// modules brcc's codegen/vulkan/ embeds in each KernelInfo, run as compute pipelines on the
// device that vulkan_device.hpp chooses. Vulkan itself is loaded at run time (vulkan_loader.hpp).
//
// Streams. One buffer per stream in the element's C++ layout, which the shaders read with the
// scalar block layout, so streamRead/streamWrite are plain copies, one VkBufferCopy per
// contiguous run of a region, through the arenas of the command batches (command_batch.hpp).
// Where the device's memory is mapped and cached (lavapipe, integrated GPUs), reads copy straight
// out of the stream once the queue is idle.
//
// Work is recorded into batches and submitted asynchronously; only what hands data to the host
// waits: streamWrite, a reduction to a host variable, brook::finish, the size of a variable
// output, BRT_CHECK's record of division faults.
//
// Kernels. A launch writes its Frame (kernel_frame.hpp) into the batch's arena and dispatches a
// grid-stride loop over the elements to run: all of the domain, or under the mpi backend a block
// of its rows (Backend::runs_row_blocks). The entry is `dense` when every stream has the domain's
// shape and is contiguous, `general` otherwise; kernels with variable outputs run the core's
// count and write passes through their `count` and `write` entries.
//
// Variable outputs. The counts stay on the device: the count pass adds each element's pushes to
// a uint64 per element, the backend's own shader (device/vout_scan.comp) turns them into each
// element's first slot in place, and only each variable output's size comes back to the host,
// which the core needs to size the stream; the write pass reads the slots where they are. A
// block of rows under the mpi backend (Backend::runs_row_blocks) is counted into the core's
// host counters instead, since the mpi backend scans the counts of every rank's block together,
// and its write pass takes the slots from there.
//
// Reductions follow device/frame.glsl: the input is cut into boxes, one per target element (one
// box for a reduction to a value); pass 1 folds chunks of each box into partials, pass 2 folds
// each box's partials in chunk order into a dense buffer of results, which is then copied into
// the target or to the host. Operands keep their row-major order throughout.
#include "backends/vulkan/kernel_frame.hpp"
#include "backends/vulkan/shader_frame.hpp"
#include "backends/vulkan/vulkan_context.hpp"
#include "backends/vulkan/vulkan_storage.hpp"
#include "core/backend.hpp"
#include "core/checks.hpp"
#include "core/errors.hpp"
#include "core/launch.hpp"
#include "core/region_runs.hpp"
#include "core/registry.hpp"

#include "vout_scan_spirv.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

namespace brook::detail {

namespace {

using vulkan::ArenaSlice;
using vulkan::BatchQueue;
using vulkan::Buffer;
using vulkan::Context;
using vulkan::Entry;
using vulkan::FrameHeader;
using vulkan::MemoryUse;
using vulkan::PushArrays;
using vulkan::ScanBlock;
using vulkan::vulkan_storage;
using vulkan::VulkanStorage;

/// Bytes of a stream's elements in host memory and in a buffer: one VkBufferCopy.
struct Run {
    VkDeviceSize device_offset;
    std::byte* host;
    std::size_t bytes;
};

enum class Direction : unsigned char { to_device, to_host };

/// The runs of `region` of a storage of `element_size`-byte elements, against `host` holding the
/// region's elements in row-major order.
std::vector<Run> runs_of(const Region& region, std::size_t element_size, const void* host) {
    std::vector<Run> runs;
    auto* base = static_cast<std::byte*>(const_cast<void*>(host));
    for_each_run(region, [&](std::size_t offset, std::size_t count, std::size_t at) {
        runs.push_back({offset * element_size, base + at * element_size, count * element_size});
    });
    return runs;
}

std::size_t product(int rank, const std::array<std::size_t, 4>& extents) {
    std::size_t count = 1;
    for (std::size_t d = 0; d < static_cast<std::size_t>(rank); ++d) {
        count *= extents[d];
    }
    return count;
}

/// The most elements one invocation of a reduction's first pass folds, and the most tiles a
/// workgroup of the scan of variable outputs walks, while the grid's width allows it.
constexpr std::size_t max_loop_per_invocation = 4096;

/// The counts of a tile of device/vout_scan.comp, which a workgroup scans at once: 1024 / its
/// size per invocation (brt_items).
std::size_t scan_tile(std::size_t workgroup_size) {
    return workgroup_size * (1024 / workgroup_size);
}

/// The call a Launch of a kernel with variable outputs belongs to: its first vout's host
/// counters (Launch::push_counters), which the core hands to the count pass, the scan and the
/// write pass of one call, and to no other call while that one runs.
const std::size_t* variable_call(const Launch& launch) {
    for (const std::size_t* counters : launch.push_counters) {
        if (counters != nullptr) {
            return counters;
        }
    }
    return nullptr;
}

std::uint32_t to_u32(std::size_t value) {
    return static_cast<std::uint32_t>(value);
}

class VulkanBackend final : public Backend {
public:
    VulkanBackend() : context_(std::make_shared<Context>()) {
        const vulkan::Device& device = context_->device;
        const VkPhysicalDeviceLimits& limits = device.limits();
        // Two subgroups per workgroup at least, and 64 invocations, which every vendor runs well
        // (lavapipe's 8-wide subgroups included); never more than the device allows. Grids go up
        // to 65535 workgroups, so that invocations loop little: on lavapipe a dense saxpy of 16M
        // floats took 830 ms in workgroups of 64, 870 of 256, 906 of 1024, and 1.3 to 1.8 s
        // when 256 or 32 workgroups looped over the elements (the unit test's shader).
        workgroup_size_ = std::clamp<std::uint32_t>(2 * device.subgroup_size(), 64, 256);
        workgroup_size_ = std::min({workgroup_size_, limits.maxComputeWorkGroupSize[0],
                                    limits.maxComputeWorkGroupInvocations});
        max_workgroup_size_ =
            std::min(limits.maxComputeWorkGroupSize[0], limits.maxComputeWorkGroupInvocations);
        max_groups_x_ = std::min<std::uint32_t>(65535, limits.maxComputeWorkGroupCount[0]);
        max_groups_y_ = std::min<std::uint32_t>(65535, limits.maxComputeWorkGroupCount[1]);
        // Enough workgroups to keep every core busy with several each: a CPU implementation runs
        // a workgroup per thread; a GPU needs some thousands of resident invocations per
        // multiprocessor, which Vulkan does not count, so a large device's worth.
        parallel_groups_ =
            device.is_cpu() ? std::max(1u, std::thread::hardware_concurrency()) * 4 : 1024;
    }

    ~VulkanBackend() override {
        const std::lock_guard lock(context_->mutex);
        queue().keep_until_done(std::move(division_record_));
        // A call stopped by an error between its count and write passes.
        for (auto& [call, counts] : pending_counts_) {
            for (Buffer& buffer : counts) {
                queue().keep_until_done(std::move(buffer));
            }
        }
    }
    VulkanBackend(const VulkanBackend&) = delete;
    VulkanBackend& operator=(const VulkanBackend&) = delete;

    std::string_view name() const override { return "vulkan"; }
    std::string device() const override { return context_->device.description(); }
    bool software_renderer() const override { return context_->device.is_cpu(); }
    bool gpu_api() const override { return true; }

    void finish() override {
        const std::lock_guard lock(context_->mutex);
        queue().finish("a kernel failed on the device");
    }

    std::unique_ptr<Storage> allocate(const ElementType& type, std::size_t count) override {
        const std::lock_guard lock(context_->mutex);
        auto storage = std::make_unique<VulkanStorage>(context_, type.size, count);
        if (storage->buffer()) {
            queue().fill(storage->buffer().handle(), 0, VK_WHOLE_SIZE, 0);
            queue().submit_if_useful();
        }
        return storage;
    }

    void write(Storage& storage, const Region& region, const void* host) override {
        const std::lock_guard lock(context_->mutex);
        const std::vector<Run> runs = runs_of(region, storage.element_size(), host);
        transfer(Direction::to_device, vulkan_storage(storage).buffer().handle(), runs);
        queue().submit_if_useful();
    }

    void read(const Storage& storage, const Region& region, void* host) override {
        const std::lock_guard lock(context_->mutex);
        const std::vector<Run> runs = runs_of(region, storage.element_size(), host);
        const Buffer& buffer = vulkan_storage(storage).buffer();
        if (buffer.mapped() != nullptr) {
            // Memory the host reads as fast as the device: no staging, once the kernels that
            // write it are done.
            queue().finish("streamWrite: a kernel that wrote the stream failed");
            for (const Run& run : runs) {
                std::memcpy(run.host, buffer.mapped() + run.device_offset, run.bytes);
            }
            return;
        }
        transfer(Direction::to_host, buffer.handle(), runs);
        queue().finish("streamWrite: a kernel that wrote the stream failed");
    }

    void copy(Storage& target, const Storage& source) override {
        const std::lock_guard lock(context_->mutex);
        const std::size_t bytes = source.count() * source.element_size();
        if (bytes == 0) {
            return;
        }
        const VkBufferCopy whole{0, 0, bytes};
        queue().copy(vulkan_storage(source).buffer().handle(),
                     vulkan_storage(target).buffer().handle(), {&whole, 1});
        queue().submit_if_useful();
    }

    bool tracks_elements() const override { return true; }
    bool runs_variable_outputs() const override { return true; }
    bool runs_scatter() const override { return true; }
    bool runs_groups() const override { return true; }
    bool runs_row_blocks() const override { return true; }

    std::vector<std::size_t> scan_variable_outputs(const Launch& count) override {
        const std::lock_guard lock(context_->mutex);
        std::vector<std::size_t> variable_outputs;
        for (std::size_t p = 0; p < count.push_counters.size(); ++p) {
            if (count.push_counters[p] != nullptr) {
                variable_outputs.push_back(p);
            }
        }
        // Zero when the count pass had no elements to run, and left no counts.
        std::vector<std::size_t> totals(variable_outputs.size(), 0);
        const auto pending = pending_counts_.find(variable_call(count));
        if (pending == pending_counts_.end()) {
            return totals;
        }
        for (std::size_t k = 0; k < variable_outputs.size(); ++k) {
            scan(pending->second[variable_outputs[k]], count.element_count, totals[k]);
        }
        queue().finish("the scan of a variable output's counts failed on the device");
        return totals;
    }

    void run_kernel(const Launch& launch) override {
        const std::lock_guard lock(context_->mutex);
        const auto [begin, end] = launch.elements_to_run();
        if (begin == end) {
            return;
        }
        switch (launch.pass) {
        case Launch::Pass::Single:
            run_stream_kernel(launch,
                              launch.dense && launch.element_flags == nullptr ? Entry::dense
                                                                              : Entry::general,
                              {});
            break;
        case Launch::Pass::Count:
            run_count_pass(launch);
            break;
        case Launch::Pass::Write:
            run_write_pass(launch);
            break;
        }
        queue().submit_if_useful();
    }

    void reduce_to_value(const Launch& launch, int input, void* result) override {
        const std::lock_guard lock(context_->mutex);
        const BoundStream& source = launch.args[static_cast<std::size_t>(input)].stream;
        const std::size_t size = source.storage->element_size();
        const std::array<std::size_t, 4> one{1, 1, 1, 1};
        Buffer results = temporary(size, "a reduction's result");
        reduce(launch, input, one, results);
        const Run run{0, static_cast<std::byte*>(result), size};
        transfer(Direction::to_host, results.handle(), {&run, 1});
        queue().keep_until_done(std::move(results));
        queue().finish(call_label(*launch.kernel) + " failed on the device");
    }

    void reduce_to_stream(const Launch& launch, int input, const BoundStream& target) override {
        const std::lock_guard lock(context_->mutex);
        const Region& out = target.region;
        const std::size_t size = target.storage->element_size();
        Buffer results = temporary(out.count() * size, "a reduction's results");
        reduce(launch, input, out.extents, results);
        // The results are dense, in the target's row-major order; the target may be a view.
        std::vector<VkBufferCopy> regions;
        for_each_run(out, [&](std::size_t offset, std::size_t count, std::size_t at) {
            regions.push_back({at * size, offset * size, count * size});
        });
        queue().copy(results.handle(), vulkan_storage(*target.storage).buffer().handle(), regions);
        queue().keep_until_done(std::move(results));
        queue().submit_if_useful();
    }

private:
    BatchQueue& queue() { return context_->queue; }

    Buffer temporary(std::size_t bytes, const char* what) {
        return Buffer::create(context_->memory, std::max<std::size_t>(bytes, 1), MemoryUse::device,
                              what);
    }

    /// Moves `runs` between `buffer` and host memory through the batches' arenas, in pieces of
    /// at most BatchQueue::transfer_piece bytes, each piece's runs in one vkCmdCopyBuffer. Copies
    /// to the host land when their batch is done: the caller waits (finish) before using them.
    void transfer(Direction direction, VkBuffer buffer, std::span<const Run> runs) {
        std::size_t remaining = 0;
        for (const Run& run : runs) {
            remaining += run.bytes;
        }
        ArenaSlice slice;
        std::size_t slice_used = 0;
        std::size_t slice_size = 0;
        std::vector<VkBufferCopy> regions;
        std::vector<Run> arrivals; // to_host: (arena offset in device_offset, host, bytes)
        const auto flush = [&] {
            if (regions.empty()) {
                return;
            }
            if (direction == Direction::to_device) {
                queue().copy(slice.buffer, buffer, regions);
            } else {
                queue().copy(buffer, slice.buffer, regions);
                // Recorded before the next allocate, so into the batch of the copy.
                queue().when_done([arrivals, from = slice.host] {
                    for (const Run& arrival : arrivals) {
                        std::memcpy(arrival.host, from + arrival.device_offset, arrival.bytes);
                    }
                });
            }
            regions.clear();
            arrivals.clear();
        };
        for (const Run& run : runs) {
            std::size_t done = 0;
            while (done < run.bytes) {
                if (slice_used == slice_size) {
                    flush();
                    slice_size = std::min<std::size_t>(remaining, BatchQueue::transfer_piece);
                    slice = queue().allocate(slice_size);
                    slice_used = 0;
                }
                const std::size_t piece = std::min(run.bytes - done, slice_size - slice_used);
                const VkDeviceSize at = run.device_offset + done;
                if (direction == Direction::to_device) {
                    std::memcpy(slice.host + slice_used, run.host + done, piece);
                    regions.push_back({slice.offset + slice_used, at, piece});
                } else {
                    regions.push_back({at, slice.offset + slice_used, piece});
                    arrivals.push_back({slice_used, run.host + done, piece});
                }
                slice_used += piece;
                done += piece;
                remaining -= piece;
            }
        }
        flush();
    }

    /// The workgroup size of `launch`'s pipelines: the backend's, or a kernel's thread group
    /// (BROOKPLUS.md §4.8), which runs as one workgroup.
    std::uint32_t workgroup_size(const Launch& launch) const {
        const unsigned group = launch.kernel->group_size;
        if (group == 0) {
            return workgroup_size_;
        }
        if (group > max_workgroup_size_) {
            fatal_not_supported(
                call_label(*launch.kernel) + " runs in groups of " + std::to_string(group) +
                " threads, more than " + context_->device.description() + " runs in a workgroup (" +
                std::to_string(max_workgroup_size_) + "); use smaller groups, or BRT_RUNTIME=cpu");
        }
        return group;
    }

    VkPipeline pipeline(const Launch& launch, Entry entry, bool checks) {
        return context_->pipelines.get(launch.code, entry, workgroup_size(launch), checks,
                                       call_label(*launch.kernel), launch.kernel->name);
    }

    /// Writes `header` and `launch`'s arguments into the arena and dispatches `pipeline` on an
    /// (x, y) grid.
    void dispatch(const Launch& launch, VkPipeline pipeline, const FrameHeader& header,
                  std::span<const PushArrays> push, std::uint32_t x, std::uint32_t y) {
        const ArenaSlice frame = queue().allocate(vulkan::frame_size(launch));
        vulkan::write_frame(launch, header, push, frame.host, frame.address);
        queue().dispatch(pipeline, context_->pipelines.layout(), frame.address, x, y);
        if (context_->device.is_cpu() && dispatched_.insert(pipeline).second) {
            // lavapipe (Mesa 22.3) finishes compiling a pipeline in its queue thread when it
            // first runs, where LLVM makes statics of its own: a program that ended then had
            // them destroyed by exit() under that thread (a crash in MCJIT, found with valgrind
            // on a program whose last call was a pipeline's first). A pipeline's first dispatch
            // is waited for, before exit can come.
            queue().finish(call_label(*launch.kernel) + " failed on the device");
        }
    }

    void run_stream_kernel(const Launch& launch, Entry entry, std::span<const PushArrays> push) {
        const bool checks = checks_enabled();
        VkPipeline chosen = pipeline(launch, entry, checks);
        FrameHeader header = vulkan::stream_header(launch);
        if (checks) {
            if (!division_record_) {
                division_record_ =
                    temporary(sizeof(std::uint32_t), "the record of division faults");
            }
            // All ones: no fault yet (the shaders keep the smallest record).
            queue().fill(division_record_.handle(), 0, sizeof(std::uint32_t), 0xFFFFFFFFu);
            header.division_record = division_record_.address();
        }
        const std::size_t elements = header.run_end - header.run_begin;
        const std::size_t workgroup = workgroup_size(launch);
        const std::size_t groups = (elements + workgroup - 1) / workgroup;
        dispatch(launch, chosen, header, push, to_u32(std::min<std::size_t>(groups, max_groups_x_)),
                 1);
        if (checks) {
            std::uint32_t record = 0;
            const Run run{0, reinterpret_cast<std::byte*>(&record), sizeof record};
            transfer(Direction::to_host, division_record_.handle(), {&run, 1});
            queue().finish(call_label(*launch.kernel) + " failed on the device");
            report_division_record(launch, record, std::numeric_limits<std::uint32_t>::max());
        }
    }

    /// Each variable output's counts for the elements to run, zeroed, counted into on the
    /// device. They stay there for scan_variable_outputs and the write pass; those of a block of
    /// rows go to the launch's host counters (Launch::push_counters), which the mpi backend
    /// scans.
    void run_count_pass(const Launch& launch) {
        static_assert(sizeof(std::size_t) == sizeof(std::uint64_t));
        const auto [begin, end] = launch.elements_to_run();
        const std::size_t bytes = (end - begin) * sizeof(std::uint64_t);
        std::vector<PushArrays> push(launch.args.size());
        std::vector<Buffer> counts(launch.args.size());
        for (std::size_t p = 0; p < launch.push_counters.size(); ++p) {
            if (launch.push_counters[p] == nullptr) {
                continue;
            }
            counts[p] = temporary(bytes, "a variable output's counts");
            queue().fill(counts[p].handle(), 0, VK_WHOLE_SIZE, 0);
            // Indexed by the element's place in the domain, as frame.glsl has it.
            push[p].counts = counts[p].address() - begin * sizeof(std::uint64_t);
        }
        run_stream_kernel(launch, Entry::count, push);
        if (!launch.runs_rows()) {
            pending_counts_[variable_call(launch)] = std::move(counts);
            return;
        }
        for (std::size_t p = 0; p < counts.size(); ++p) {
            if (!counts[p]) {
                continue;
            }
            const Run run{0, reinterpret_cast<std::byte*>(launch.push_counters[p] + begin), bytes};
            transfer(Direction::to_host, counts[p].handle(), {&run, 1});
            queue().keep_until_done(std::move(counts[p]));
        }
        queue().finish(call_label(*launch.kernel) + " failed on the device");
    }

    /// The write pass, each variable output's slots those scan_variable_outputs left in place of
    /// the counts, or for a block of rows the launch's host counters (the mpi backend's scan).
    void run_write_pass(const Launch& launch) {
        const auto [begin, end] = launch.elements_to_run();
        const std::size_t bytes = (end - begin) * sizeof(std::uint64_t);
        std::vector<Buffer> slots(launch.args.size());
        if (const auto pending = pending_counts_.find(variable_call(launch));
            pending != pending_counts_.end()) {
            slots = std::move(pending->second);
            pending_counts_.erase(pending);
        }
        std::vector<PushArrays> push(launch.args.size());
        for (std::size_t p = 0; p < launch.push_counters.size(); ++p) {
            if (launch.push_counters[p] == nullptr) {
                continue;
            }
            if (launch.runs_rows()) {
                slots[p] = temporary(bytes, "a variable output's slots");
                const Run run{0, reinterpret_cast<std::byte*>(launch.push_counters[p] + begin),
                              bytes};
                transfer(Direction::to_device, slots[p].handle(), {&run, 1});
            } else if (!slots[p]) {
                fatal(call_label(*launch.kernel) +
                      ": the vulkan backend's write pass has no counts from a count pass");
            }
            push[p].offsets = slots[p].address() - begin * sizeof(std::uint64_t);
        }
        run_stream_kernel(launch, Entry::write, push);
        for (Buffer& used : slots) {
            queue().keep_until_done(std::move(used));
        }
    }

    /// Records the scan of `count` counts in `counts` (device/vout_scan.comp) into each
    /// element's first slot, in place, and the copy of their sum to `total`, which holds it once
    /// the queue has finished.
    void scan(const Buffer& counts, std::size_t count, std::size_t& total) {
        // Chunks of whole tiles, enough to fill the device, few enough for one workgroup to
        // scan their totals, and short enough that no workgroup walks more than
        // max_loop_per_invocation tiles unless the grid's width leaves no choice.
        const std::size_t tile = scan_tile(workgroup_size_);
        const std::size_t tiles = (count + tile - 1) / tile;
        std::size_t tiles_per_chunk = std::clamp<std::size_t>(
            (tiles + parallel_groups_ - 1) / parallel_groups_, 1, max_loop_per_invocation);
        tiles_per_chunk = std::max(tiles_per_chunk, (tiles + max_groups_x_ - 1) / max_groups_x_);
        const std::size_t chunk = tiles_per_chunk * tile;
        const std::size_t chunks = (count + chunk - 1) / chunk;
        Buffer slots = temporary((chunks + 1) * sizeof(std::uint64_t),
                                 "the slots of a variable output's chunks");

        const std::string label = "the scan of a variable output's counts";
        const auto pipeline = [&](Entry entry) {
            return context_->pipelines.get(vout_scan_spirv, entry, workgroup_size_, false, label,
                                           "brook_vout_scan");
        };
        const VkPipeline chunk_totals = pipeline(Entry::scan_chunk_totals);
        const VkPipeline chunk_slots = pipeline(Entry::scan_chunk_slots);
        const VkPipeline counts_to_slots = pipeline(Entry::scan_counts);
        const ScanBlock block{counts.address(), count, chunk, slots.address()};
        // The three dispatches are recorded into the batch of the block's slice.
        const ArenaSlice at = queue().allocate(sizeof block);
        std::memcpy(at.host, &block, sizeof block);
        const VkPipelineLayout layout = context_->pipelines.layout();
        queue().dispatch(chunk_totals, layout, at.address, to_u32(chunks), 1);
        queue().dispatch(chunk_slots, layout, at.address, 1, 1);
        queue().dispatch(counts_to_slots, layout, at.address, to_u32(chunks), 1);
        const Run run{chunks * sizeof(std::uint64_t), reinterpret_cast<std::byte*>(&total),
                      sizeof total};
        transfer(Direction::to_host, slots.handle(), {&run, 1});
        queue().keep_until_done(std::move(slots));
    }

    /// The two passes of an ordered reduction of argument `input` into `results`: one element
    /// per target (`targets`, the target's extents, rank dimensions of them), dense.
    void reduce(const Launch& launch, int input, const std::array<std::size_t, 4>& targets,
                const Buffer& results) {
        const BoundStream& source = launch.args[static_cast<std::size_t>(input)].stream;
        const Region& in = source.region;
        const std::string label = call_label(*launch.kernel);
        std::array<std::size_t, 4> box{1, 1, 1, 1};
        for (std::size_t d = 0; d < static_cast<std::size_t>(in.rank); ++d) {
            box[d] = in.extents[d] / targets[d];
        }
        const std::size_t box_count = product(in.rank, box);
        const std::size_t boxes = product(in.rank, targets);
        const std::size_t size = source.storage->element_size();

        // Enough chunks over all boxes to fill the device, each long enough that its workgroup
        // has work for every invocation several times over, and short enough that no
        // invocation loops more than a few thousand times (lavapipe ends any shader loop after
        // 65535 iterations), unless the grid's width leaves no choice.
        const std::size_t per_box = std::max<std::size_t>(1, parallel_groups_ / boxes);
        const std::size_t workgroup = workgroup_size_;
        std::size_t chunk =
            std::clamp<std::size_t>((box_count + per_box - 1) / per_box, workgroup * 8,
                                    workgroup * max_loop_per_invocation);
        chunk = std::max(chunk, (box_count + max_groups_x_ - 1) / max_groups_x_);
        const std::size_t chunks = (box_count + chunk - 1) / chunk;
        Buffer partials = temporary(boxes * chunks * size, "a reduction's partial results");

        FrameHeader header;
        header.element_count = box_count;
        header.run_begin = 0;
        header.run_end = box_count;
        header.output_rank = in.rank;
        header.output_extents = vulkan::padded_extents(in.rank, box, label);
        header.reduce_targets = vulkan::padded_extents(in.rank, targets, label);
        header.reduce_chunk = chunk;
        header.partials = partials.address();
        header.results = results.address();
        header.reduce_blocks = chunks;
        VkPipeline fold_chunks = pipeline(launch, Entry::reduce_chunks, false);
        VkPipeline fold_partials = pipeline(launch, Entry::reduce_partials, false);
        const std::uint32_t rows = to_u32(std::min<std::size_t>(boxes, max_groups_y_));
        // One frame for both passes: allocated, then both dispatches recorded into its batch.
        const ArenaSlice frame = queue().allocate(vulkan::frame_size(launch));
        vulkan::write_frame(launch, header, {}, frame.host, frame.address);
        const VkPipelineLayout layout = context_->pipelines.layout();
        queue().dispatch(fold_chunks, layout, frame.address, to_u32(chunks), rows);
        queue().dispatch(fold_partials, layout, frame.address, 1, rows);
        queue().keep_until_done(std::move(partials));
    }

    std::shared_ptr<Context> context_;
    std::uint32_t workgroup_size_ = 64;
    std::uint32_t max_workgroup_size_ = 128; ///< of a kernel's thread groups
    std::uint32_t max_groups_x_ = 65535;
    std::uint32_t max_groups_y_ = 65535;
    std::size_t parallel_groups_ = 1024;
    Buffer division_record_; ///< under BRT_CHECK=1, see run_stream_kernel
    /// On a CPU implementation, the pipelines dispatched once (see dispatch).
    std::unordered_set<VkPipeline> dispatched_;
    /// The counts of the variable outputs of calls between their count and write passes, by
    /// call (variable_call), one buffer per parameter (none for the others). Calls on other
    /// threads may come between a call's passes.
    std::map<const std::size_t*, std::vector<Buffer>> pending_counts_;
};

const BackendRegistration vulkan_registration({
    .name = "vulkan",
    // After cuda (20), before gl (10): on NVIDIA's GPUs cuda runs Brook best; elsewhere Vulkan
    // compute beats gl's fragment programs. A CPU implementation is passed over
    // (software_renderer).
    .auto_rank = 15,
    .create = [] { return std::unique_ptr<Backend>(std::make_unique<VulkanBackend>()); },
});

} // namespace

} // namespace brook::detail
