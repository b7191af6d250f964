// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// A launch's Frame as the shaders read it (shader_frame.hpp, device/frame.glsl): the header, one
// FrameArg per parameter, then the bytes of each constant, every part at a multiple of 16 bytes,
// written into a batch's arena, whose device address the dispatch pushes.

#include "backends/vulkan/shader_frame.hpp"
#include "backends/vulkan/vulkan_loader.hpp"
#include "core/backend.hpp"

#include <array>
#include <cstddef>
#include <span>

namespace brook::detail::vulkan {

/// A variable output's arrays on the device (0: none): the count pass's counters and the write
/// pass's slots, each already offset so that element i of the domain is at index i.
struct PushArrays {
    VkDeviceAddress counts = 0;
    VkDeviceAddress offsets = 0;
};

/// `extents` of a region of `rank` dimensions as the shaders take positions: slowest first,
/// padded with 1 in front to 4. Stops the program when one is past 2^31 - 1, which the
/// shaders' ivec4 cannot hold; `label` names the call.
std::array<std::int32_t, 4> padded_extents(int rank, const std::array<std::size_t, 4>& extents,
                                           const std::string& label);

/// The header of a stream kernel's launch: its domain, the elements to run and the element
/// flags; the caller adds the division record.
FrameHeader stream_header(const Launch& launch);

/// The size of `launch`'s Frame in bytes.
std::size_t frame_size(const Launch& launch);

/// Writes `launch`'s Frame, starting with `header`, to `host`, which the device reads at
/// `address`. `push` has one entry per parameter, or none.
void write_frame(const Launch& launch, const FrameHeader& header, std::span<const PushArrays> push,
                 std::byte* host, VkDeviceAddress address);

} // namespace brook::detail::vulkan
