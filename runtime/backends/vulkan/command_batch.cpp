// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "backends/vulkan/command_batch.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

namespace brook::detail::vulkan {

namespace {

/// Batches in the ring: enough for the device to run one while the host records the next and
/// a third waits, plus one so that a full ring rarely makes the host wait.
constexpr std::size_t batch_count = 4;
/// A batch is submitted once it holds this many commands even while the device is busy, so
/// that long sequences of small kernels reach the device in steady portions.
constexpr std::size_t commands_per_batch = 64;
/// The first arena's size; arenas grow to the largest slice asked for.
constexpr VkDeviceSize first_arena_bytes = VkDeviceSize{256} << 10;

constexpr VkPipelineStageFlags device_stages =
    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;

} // namespace

struct BatchQueue::Batch {
    CommandPool pool;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    Fence fence;
    Buffer arena;
    VkDeviceSize used = 0;
    bool recording = false;
    bool submitted = false;
    std::size_t command_count = 0;
    std::vector<Buffer> kept;
    std::vector<std::function<void()>> actions;
};

BatchQueue::BatchQueue(MemoryPool& memory) : device_(&memory.device()), memory_(&memory) {
    const Device& device = memory.device();
    const Api& api = device.api();
    for (std::size_t b = 0; b < batch_count; ++b) {
        auto batch = std::make_unique<Batch>();
        VkCommandPoolCreateInfo pool{};
        pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
        pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
        pool.queueFamilyIndex = device.queue_family();
        VkCommandPool pool_handle = VK_NULL_HANDLE;
        check(api.vkCreateCommandPool(device.handle(), &pool, nullptr, &pool_handle),
              "cannot create a command pool");
        batch->pool = CommandPool(api, device.handle(), pool_handle);
        VkCommandBufferAllocateInfo buffer{};
        buffer.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
        buffer.commandPool = pool_handle;
        buffer.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        buffer.commandBufferCount = 1;
        check(api.vkAllocateCommandBuffers(device.handle(), &buffer, &batch->commands),
              "cannot allocate a command buffer");
        VkFenceCreateInfo fence{};
        fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
        VkFence fence_handle = VK_NULL_HANDLE;
        check(api.vkCreateFence(device.handle(), &fence, nullptr, &fence_handle),
              "cannot create a fence");
        batch->fence = Fence(api, device.handle(), fence_handle);
        batches_.push_back(std::move(batch));
    }
}

BatchQueue::~BatchQueue() {
    // Nothing may be destroyed while the device uses it; errors have no one to go to now.
    for (Batch* batch : in_flight_) {
        VkFence fence = batch->fence.get();
        device_->api().vkWaitForFences(device_->handle(), 1, &fence, VK_TRUE,
                                       std::numeric_limits<std::uint64_t>::max());
        batch->kept.clear();
    }
    Batch& open = *batches_[current_];
    if (open.recording) {
        device_->api().vkEndCommandBuffer(open.commands);
    }
}

BatchQueue::Batch& BatchQueue::recording() {
    Batch& batch = *batches_[current_];
    if (batch.recording) {
        return batch;
    }
    // The ring's next batch is its oldest submitted one.
    while (batch.submitted) {
        retire_oldest("a kernel or copy failed on the device");
    }
    const Api& api = device_->api();
    check_or_fatal(api.vkResetCommandPool(device_->handle(), batch.pool.get(), 0),
                   "cannot reset a command pool");
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check_or_fatal(api.vkBeginCommandBuffer(batch.commands, &begin),
                   "cannot begin a command buffer");
    batch.recording = true;
    return batch;
}

ArenaSlice BatchQueue::allocate(VkDeviceSize bytes) {
    bytes = std::max<VkDeviceSize>(16, (bytes + 15) / 16 * 16);
    Batch* batch = &recording();
    if (batch->used + bytes > batch->arena.size() && batch->used != 0) {
        // Full: the slices of this batch belong to the commands already recorded into it.
        submit();
        batch = &recording();
    }
    if (bytes > batch->arena.size()) {
        // Nothing in this batch uses its arena yet (used is 0), so it can be replaced.
        const VkDeviceSize grown =
            std::max(bytes, std::max(first_arena_bytes, 2 * batch->arena.size()));
        batch->arena = Buffer();
        batch->arena = Buffer::create(*memory_, grown, MemoryUse::host, "a command batch's arena");
    }
    ArenaSlice slice;
    slice.offset = batch->used;
    slice.host = batch->arena.mapped() + batch->used;
    slice.address = batch->arena.address() + batch->used;
    slice.buffer = batch->arena.handle();
    batch->used += bytes;
    return slice;
}

VkCommandBuffer BatchQueue::command_buffer_for_next_command() {
    Batch& batch = recording();
    VkMemoryBarrier barrier{};
    barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                            VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    device_->api().vkCmdPipelineBarrier(batch.commands, device_stages, device_stages, 0, 1,
                                        &barrier, 0, nullptr, 0, nullptr);
    ++batch.command_count;
    return batch.commands;
}

void BatchQueue::fill(VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size,
                      std::uint32_t value) {
    device_->api().vkCmdFillBuffer(command_buffer_for_next_command(), buffer, offset, size, value);
}

void BatchQueue::copy(VkBuffer source, VkBuffer target, std::span<const VkBufferCopy> regions) {
    if (regions.empty()) {
        return;
    }
    device_->api().vkCmdCopyBuffer(command_buffer_for_next_command(), source, target,
                                   static_cast<std::uint32_t>(regions.size()), regions.data());
}

void BatchQueue::dispatch(VkPipeline pipeline, VkPipelineLayout layout, VkDeviceAddress frame,
                          std::uint32_t x, std::uint32_t y) {
    const Api& api = device_->api();
    VkCommandBuffer commands = command_buffer_for_next_command();
    api.vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    api.vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof frame, &frame);
    api.vkCmdDispatch(commands, x, y, 1);
}

void BatchQueue::keep_until_done(Buffer buffer) {
    if (!buffer) {
        return;
    }
    const Batch& open = *batches_[current_];
    if (in_flight_.empty() && (!open.recording || open.command_count == 0)) {
        return; // no command may use it: freed now
    }
    recording().kept.push_back(std::move(buffer));
}

void BatchQueue::when_done(std::function<void()> action) {
    recording().actions.push_back(std::move(action));
}

void BatchQueue::submit_if_useful() {
    const Api& api = device_->api();
    // Recycle what is done, so that its memory goes back early.
    while (!in_flight_.empty() &&
           api.vkGetFenceStatus(device_->handle(), in_flight_.front()->fence.get()) == VK_SUCCESS) {
        retire_oldest("a kernel or copy failed on the device");
    }
    const Batch& open = *batches_[current_];
    if (!open.recording || open.command_count == 0) {
        return;
    }
    if (in_flight_.empty() || open.command_count >= commands_per_batch) {
        submit();
    }
}

void BatchQueue::submit() {
    Batch& batch = *batches_[current_];
    if (!batch.recording) {
        return;
    }
    const Api& api = device_->api();
    // What the batch wrote becomes visible to the host once its fence has signalled.
    VkMemoryBarrier barrier{};
    barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    api.vkCmdPipelineBarrier(batch.commands, device_stages, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                             &barrier, 0, nullptr, 0, nullptr);
    check_or_fatal(api.vkEndCommandBuffer(batch.commands), "cannot end a command buffer");
    VkFence fence = batch.fence.get();
    check_or_fatal(api.vkResetFences(device_->handle(), 1, &fence), "cannot reset a fence");
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &batch.commands;
    check_or_fatal(api.vkQueueSubmit(device_->queue(), 1, &submit, fence),
                   "cannot submit work to the device");
    batch.recording = false;
    batch.submitted = true;
    in_flight_.push_back(&batch);
    current_ = (current_ + 1) % batches_.size();
}

void BatchQueue::retire_oldest(const std::string& what) {
    Batch& batch = *in_flight_.front();
    VkFence fence = batch.fence.get();
    const VkResult waited = device_->api().vkWaitForFences(
        device_->handle(), 1, &fence, VK_TRUE, std::numeric_limits<std::uint64_t>::max());
    if (waited == VK_ERROR_DEVICE_LOST) {
        fatal(what + ": vulkan: the device was lost (VK_ERROR_DEVICE_LOST): a kernel faulted "
                     "or ran too long");
    }
    check_or_fatal(waited, what);
    in_flight_.pop_front();
    batch.submitted = false;
    batch.used = 0;
    batch.command_count = 0;
    batch.kept.clear();
    // Taken out first: an action may not run twice, whatever it does.
    std::vector<std::function<void()>> actions = std::move(batch.actions);
    batch.actions.clear();
    for (const std::function<void()>& action : actions) {
        action();
    }
}

void BatchQueue::finish(const std::string& what) {
    submit();
    while (!in_flight_.empty()) {
        retire_oldest(what);
    }
}

} // namespace brook::detail::vulkan
