// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The C++ side of the ABI of brcc's compute shaders (device/frame.glsl, which documents each
// field): a call's Frame and its arguments, laid out as the shaders' scalar-layout blocks read
// them, the entries a kernel's SPIR-V module holds, and the modules a kernel's payload holds.
// Also the block of the backend's own shader, device/vout_scan.comp.

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
    // The entries of device/vout_scan.comp, the backend's own shader.
    scan_chunk_totals = 6,
    scan_chunk_slots = 7,
    scan_counts = 8,
};

/// device/vout_scan.comp's block: the scan of `count` counts (uint64s at `counts`) in chunks of
/// `chunk`, with `slots` holding a word per chunk and one more.
struct ScanBlock {
    std::uint64_t counts = 0;
    std::uint64_t count = 0;
    std::uint64_t chunk = 0;
    std::uint64_t slots = 0;
};
static_assert(sizeof(ScanBlock) == 32);

/// The specialization constants' ids.
inline constexpr std::uint32_t workgroup_size_constant = 0;
inline constexpr std::uint32_t entry_constant = 1;
inline constexpr std::uint32_t checks_constant = 2;

/// A SPIR-V module: its words.
struct SpirvModule {
    const std::uint32_t* words;
    std::size_t word_count;
};

/// A kernel's payload in the generated C++ (KernelInfo's "vulkan" entry), and the backend's own
/// shaders: an array of 32-bit words, the number of modules, then each module as its number of
/// words followed by them. Module 0 runs on every device the backend takes; a reduction's
/// module 1 folds within subgroups first, with the subgroup operations it declares
/// (codegen/vulkan/compute_shader_emitter.cpp), for the devices that have them.
struct SpirvPayload {
    const std::uint32_t* words;

    std::size_t module_count() const { return words[0]; }
    /// Module `index` (< module_count()).
    SpirvModule module(std::size_t index) const {
        const std::uint32_t* at = words + 1;
        for (std::size_t k = 0; k < index; ++k) {
            at += 1 + at[0];
        }
        return {at + 1, at[0]};
    }
};

} // namespace brook::detail::vulkan
