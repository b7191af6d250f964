// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Regions and kernel domains as Shape4s, and the span of elements a shape touches.
#include "backends/gl/shape4.hpp"

namespace brook::detail::gl {

Shape4 shape_of(const Region& region) {
    Shape4 shape;
    const int pad = 4 - region.rank;
    for (int d = 0; d < region.rank; ++d) {
        const auto from = static_cast<std::size_t>(d);
        const auto to = static_cast<std::size_t>(d + pad);
        shape.extents[to] = static_cast<int>(region.extents[from]);
        shape.strides[to] = static_cast<int>(region.strides[from]);
    }
    shape.offset = static_cast<int>(region.offset);
    return shape;
}

Shape4 dense_shape(const std::array<int, 4>& extents) {
    Shape4 shape;
    shape.extents = extents;
    int stride = 1;
    for (int d = 3; d >= 0; --d) {
        shape.strides[static_cast<std::size_t>(d)] = stride;
        stride *= extents[static_cast<std::size_t>(d)];
    }
    return shape;
}

Shape4 domain_shape(int rank, const std::array<std::size_t, 4>& extents) {
    Region region;
    region.rank = rank;
    region.extents = extents;
    return dense_shape(shape_of(region).extents);
}

std::pair<std::size_t, std::size_t> element_span(const Shape4& shape) {
    std::size_t last = static_cast<std::size_t>(shape.offset);
    for (std::size_t d = 0; d < 4; ++d) {
        last += static_cast<std::size_t>(shape.extents[d] - 1) *
                static_cast<std::size_t>(shape.strides[d]);
    }
    return {static_cast<std::size_t>(shape.offset), last + 1};
}

} // namespace brook::detail::gl
