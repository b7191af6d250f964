// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// What the vulkan backend and its streams share: the device, its pipelines and its queue of
// batches, behind one lock. Streams keep it alive (a shared_ptr), since a program may free its
// streams after the backend has stopped; it is destroyed with the last of them.

#include "backends/vulkan/command_batch.hpp"
#include "backends/vulkan/pipelines.hpp"
#include "backends/vulkan/vulkan_device.hpp"

#include <mutex>

namespace brook::detail::vulkan {

struct Context {
    /// Starts Vulkan (Device's constructor); throws std::runtime_error when it cannot.
    Context() : memory(device), pipelines(device), queue(memory) {}
    /// Waits for the device to be idle before anything is destroyed: lavapipe's queue thread
    /// may still hold a pipeline for a moment after the last fence has signalled.
    ~Context() { device.api().vkDeviceWaitIdle(device.handle()); }
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    // In this order so that they go in reverse: the queue waits for the device's work to end
    // (freeing the buffers it kept), then the pipelines are destroyed (their cache saved), then
    // the device's memory and the device.
    Device device;
    MemoryPool memory;
    Pipelines pipelines;
    BatchQueue queue;
    /// Held around every use of the pipelines and the queue: the backend serves every thread
    /// of the program. Recursive, since an error stops the program with exit() from inside a
    /// call that holds it, and the backend and streams destroyed at exit take it again.
    std::recursive_mutex mutex;
};

} // namespace brook::detail::vulkan
