// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The C++ side of the ABI of brcc's compute shaders (device/frame.glsl, which documents each
// field): a call's Frame and its arguments, laid out as the shaders' scalar-layout blocks read
// them, and the entries a kernel's SPIR-V module holds.

#include <array>
#include <cstddef>
#include <cstdint>

namespace brook::detail::vulkan {

struct FrameArg {
    std::uint64_t data = 0;
    std::array<std::int64_t, 4> strides{};
    std::array<std::int32_t, 4> extents{1, 1, 1, 1};
    std::int32_t rank = 0;
    std::int32_t reserved = 0;
    std::uint64_t push_counts = 0;
    std::uint64_t push_offsets = 0;
};
static_assert(sizeof(FrameArg) == 80 && offsetof(FrameArg, push_counts) == 64);

struct FrameHeader {
    std::uint64_t element_count = 0;
    std::uint64_t run_begin = 0;
    std::uint64_t run_end = 0;
    std::uint64_t element_flags = 0;
    std::uint64_t division_record = 0;
    std::uint64_t reduce_chunk = 0;
    std::uint64_t partials = 0;
    std::uint64_t results = 0;
    std::uint64_t reduce_blocks = 0;
    std::array<std::int32_t, 4> output_extents{1, 1, 1, 1};
    std::array<std::int32_t, 4> reduce_targets{1, 1, 1, 1};
    std::int32_t output_rank = 0;
    std::int32_t reserved = 0;
    // FrameArg args[] follow.
};
static_assert(sizeof(FrameHeader) == 112 && offsetof(FrameHeader, output_extents) == 72);

/// Specialization constant 1: the entry a pipeline runs.
enum class Entry : std::int32_t {
    dense = 0,
    general = 1,
    count = 2,
    write = 3,
    reduce_chunks = 4,
    reduce_partials = 5,
};

/// The specialization constants' ids.
inline constexpr std::uint32_t workgroup_size_constant = 0;
inline constexpr std::uint32_t entry_constant = 1;
inline constexpr std::uint32_t checks_constant = 2;

/// A kernel's payload in the generated C++ (KernelInfo's "vulkan" entry): an array of 32-bit
/// words, the first the number of SPIR-V words that follow it.
struct SpirvModule {
    const std::uint32_t* words;
    std::size_t word_count;

    static SpirvModule from_payload(const void* payload) {
        const auto* words = static_cast<const std::uint32_t*>(payload);
        return {words + 1, words[0]};
    }
};

} // namespace brook::detail::vulkan
