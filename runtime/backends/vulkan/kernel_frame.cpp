// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "backends/vulkan/kernel_frame.hpp"

#include "backends/vulkan/vulkan_storage.hpp"
#include "core/errors.hpp"
#include "core/launch.hpp"

#include <cstring>
#include <limits>
#include <string>

namespace brook::detail::vulkan {

namespace {

constexpr std::size_t align16(std::size_t offset) {
    return (offset + 15) / 16 * 16;
}

constexpr std::size_t args_at = align16(sizeof(FrameHeader));

std::size_t constants_at(const Launch& launch) {
    return align16(args_at + launch.args.size() * sizeof(FrameArg));
}

std::size_t constant_size(const Launch& launch, std::size_t param) {
    const ParamInfo& info = launch.kernel->params[param];
    // A bool constant has no stream element type; the stub passes a C++ bool, whose byte is
    // followed by zeros up to the next multiple of 16, so a shader may read it as a uint too.
    return info.element_type != nullptr ? info.element_type().size : sizeof(bool);
}

} // namespace

std::array<std::int32_t, 4> padded_extents(int rank, const std::array<std::size_t, 4>& extents,
                                           const std::string& label) {
    std::array<std::int32_t, 4> padded{1, 1, 1, 1};
    const auto front = static_cast<std::size_t>(4 - rank);
    for (std::size_t d = 0; d < static_cast<std::size_t>(rank); ++d) {
        if (extents[d] > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
            fatal(label + ": a stream of " + std::to_string(extents[d]) +
                  " elements along one dimension is past the vulkan backend's limit of "
                  "2147483647 per dimension; give it more dimensions");
        }
        padded[front + d] = static_cast<std::int32_t>(extents[d]);
    }
    return padded;
}

FrameHeader stream_header(const Launch& launch) {
    FrameHeader header;
    header.element_count = launch.element_count;
    const auto [begin, end] = launch.elements_to_run();
    header.run_begin = begin;
    header.run_end = end;
    header.output_rank = launch.rank;
    header.output_extents = padded_extents(launch.rank, launch.extents, call_label(*launch.kernel));
    if (launch.element_flags != nullptr) {
        header.element_flags = vulkan_storage(*launch.element_flags).address();
    }
    return header;
}

std::size_t frame_size(const Launch& launch) {
    std::size_t size = constants_at(launch);
    for (std::size_t p = 0; p < launch.args.size(); ++p) {
        if (launch.args[p].constant != nullptr) {
            size = align16(size + constant_size(launch, p));
        }
    }
    return size;
}

void write_frame(const Launch& launch, const FrameHeader& header, std::span<const PushArrays> push,
                 std::byte* host, VkDeviceAddress address) {
    std::memset(host, 0, frame_size(launch));
    std::memcpy(host, &header, sizeof header);
    std::size_t constant_at = constants_at(launch);
    for (std::size_t p = 0; p < launch.args.size(); ++p) {
        const BoundArg& bound = launch.args[p];
        FrameArg arg;
        if (bound.constant != nullptr) {
            const std::size_t bytes = constant_size(launch, p);
            std::memcpy(host + constant_at, bound.constant, bytes);
            arg.data = address + constant_at;
            constant_at = align16(constant_at + bytes);
        }
        if (const Storage* storage = bound.stream.storage; storage != nullptr) {
            const Region& region = bound.stream.region;
            const std::size_t size = storage->element_size();
            // A block of rows from first_row on (BoundStream::first_row): the address row 0
            // would have, which the shader never reads, so that row r is where it lies. The
            // sum wraps below the buffer's address like the shader's does.
            const std::size_t before = bound.stream.first_row * region.strides[0];
            arg.data = vulkan_storage(*storage).address() + region.offset * size - before * size;
            arg.rank = region.rank;
            arg.extents = padded_extents(region.rank, region.extents, call_label(*launch.kernel));
            const auto front = static_cast<std::size_t>(4 - region.rank);
            for (std::size_t d = 0; d < static_cast<std::size_t>(region.rank); ++d) {
                arg.strides[front + d] = static_cast<std::int64_t>(region.strides[d]);
            }
        }
        if (p < push.size()) {
            arg.push_counts = push[p].counts;
            arg.push_offsets = push[p].offsets;
        }
        std::memcpy(host + args_at + p * sizeof arg, &arg, sizeof arg);
    }
}

} // namespace brook::detail::vulkan
