// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// BrookGPU's aligned host memory: C functions (so C host code links them) and an allocator for
// std::vector. Blocks are aligned to 64 bytes (BrookGPU promised 32), so SIMD loads of any
// element type are aligned; the runtime knows its blocks, so brismalloc can tell them from others.

#include <cstddef>
#include <new>

extern "C" {
/// `bytes` of memory (a distinct block for 0); stops the program when out of memory.
void* brmalloc(std::size_t bytes);
/// `count * size` bytes, zero-filled.
void* brcalloc(std::size_t count, std::size_t size);
/// Moves the block at `pointer` (null: none) to one of `bytes`, keeping its contents up to the
/// smaller size; frees the old block.
void* brrealloc(void* pointer, std::size_t bytes);
/// Frees a block of brmalloc, brcalloc or brrealloc (null: nothing).
void brfree(void* pointer);
}

/// True when `pointer` is a live block of brmalloc, brcalloc or brrealloc.
bool brismalloc(void* pointer);

/// A standard allocator on brmalloc: `std::vector<float4, brallocator<float4>>`.
template <class Element> struct brallocator {
    /// The element type, as std::allocator_traits needs.
    using value_type = Element;

    brallocator() noexcept = default;
    /// Rebinding from an allocator of another element type: all brallocators are alike.
    template <class Other> brallocator(const brallocator<Other>&) noexcept {}

    /// `n` elements' worth of brmalloc memory; std::bad_array_new_length when that overflows.
    Element* allocate(std::size_t n) {
        if (n > static_cast<std::size_t>(-1) / sizeof(Element)) {
            throw std::bad_array_new_length();
        }
        return static_cast<Element*>(brmalloc(n * sizeof(Element)));
    }
    /// Frees a block of allocate() with brfree.
    void deallocate(Element* pointer, std::size_t) noexcept { brfree(pointer); }

    /// Always true: memory of one brallocator may be freed by any other.
    template <class Other> bool operator==(const brallocator<Other>&) const noexcept {
        return true;
    }
};

namespace brook {
using ::brfree;
using ::brmalloc;
} // namespace brook
