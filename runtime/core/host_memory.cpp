// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// brmalloc and friends (brook/host_memory.hpp). Every live block is recorded with its size:
// brrealloc must know how much to copy (aligned blocks cannot go through realloc), brismalloc
// answers from the record, and brfree refuses a pointer it never gave out rather than corrupt
// the heap.
#include "brook/host_memory.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

namespace {

/// Cache-line alignment: more than the 32 bytes BrookGPU promised.
constexpr std::size_t alignment = 64;

struct Blocks {
    std::mutex mutex;
    std::unordered_map<void*, std::size_t> sizes;
};

Blocks& blocks() {
    static Blocks live;
    return live;
}

/// The recorded size of `pointer`, or false when brmalloc did not give it out.
bool recorded_size(void* pointer, std::size_t& size) {
    Blocks& live = blocks();
    const std::lock_guard lock(live.mutex);
    const auto found = live.sizes.find(pointer);
    if (found == live.sizes.end()) {
        return false;
    }
    size = found->second;
    return true;
}

} // namespace

using brook::detail::fatal;

void* brmalloc(std::size_t bytes) {
    // aligned_alloc wants a size that is a multiple of the alignment, and never 0.
    const std::size_t rounded =
        bytes == 0 ? alignment : (bytes + alignment - 1) / alignment * alignment;
    if (rounded < bytes) {
        fatal("brmalloc: cannot allocate " + std::to_string(bytes) + " bytes");
    }
    void* pointer = std::aligned_alloc(alignment, rounded);
    if (pointer == nullptr) {
        fatal("brmalloc: out of memory allocating " + std::to_string(bytes) + " bytes");
    }
    Blocks& live = blocks();
    const std::lock_guard lock(live.mutex);
    live.sizes[pointer] = bytes;
    return pointer;
}

void* brcalloc(std::size_t count, std::size_t size) {
    if (size != 0 && count > static_cast<std::size_t>(-1) / size) {
        fatal("brcalloc: " + std::to_string(count) + " elements of " + std::to_string(size) +
              " bytes do not fit in memory");
    }
    void* pointer = brmalloc(count * size);
    std::memset(pointer, 0, count * size);
    return pointer;
}

void* brrealloc(void* pointer, std::size_t bytes) {
    if (pointer == nullptr) {
        return brmalloc(bytes);
    }
    std::size_t old_size = 0;
    if (!recorded_size(pointer, old_size)) {
        fatal("brrealloc: the pointer was not allocated by brmalloc, brcalloc or brrealloc");
    }
    void* moved = brmalloc(bytes);
    std::memcpy(moved, pointer, std::min(old_size, bytes));
    brfree(pointer);
    return moved;
}

void brfree(void* pointer) {
    if (pointer == nullptr) {
        return;
    }
    {
        Blocks& live = blocks();
        const std::lock_guard lock(live.mutex);
        if (live.sizes.erase(pointer) == 0) {
            fatal("brfree: the pointer was not allocated by brmalloc, brcalloc or brrealloc "
                  "(or was freed already); release it with the function that allocated it");
        }
    }
    std::free(pointer);
}

bool brismalloc(void* pointer) {
    std::size_t size = 0;
    return pointer != nullptr && recorded_size(pointer, size);
}
