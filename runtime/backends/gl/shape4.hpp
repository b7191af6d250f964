// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Regions as the shaders see them (Shape4): 4 components, slowest first, right-aligned, so a
// region of any rank is an ivec4 of extents, one of strides, and an offset.

#include "core/backend.hpp"

#include <array>
#include <cstddef>
#include <utility>

namespace brook::detail::gl {

struct Shape4 {
    std::array<int, 4> extents{1, 1, 1, 1};
    std::array<int, 4> strides{0, 0, 0, 0};
    int offset = 0;
    std::size_t count() const {
        std::size_t n = 1;
        for (const int e : extents) {
            n *= static_cast<std::size_t>(e);
        }
        return n;
    }
};

Shape4 shape_of(const Region& region);

/// A dense row-major shape of `extents`.
Shape4 dense_shape(const std::array<int, 4>& extents);

/// The dense shape of a kernel call's domain, `rank` dimensions of `extents`.
Shape4 domain_shape(int rank, const std::array<std::size_t, 4>& extents);

/// Calls f(i, element) for the region's elements in row-major order (i counts them).
template <class F> void for_each_element(const Shape4& shape, F&& f) {
    std::size_t i = 0;
    for (int a = 0; a < shape.extents[0]; ++a) {
        for (int b = 0; b < shape.extents[1]; ++b) {
            for (int c = 0; c < shape.extents[2]; ++c) {
                const std::size_t row = static_cast<std::size_t>(shape.offset) +
                                        static_cast<std::size_t>(a) * shape.strides[0] +
                                        static_cast<std::size_t>(b) * shape.strides[1] +
                                        static_cast<std::size_t>(c) * shape.strides[2];
                for (int d = 0; d < shape.extents[3]; ++d) {
                    f(i++, row + static_cast<std::size_t>(d) * shape.strides[3]);
                }
            }
        }
    }
}

/// First and one-past-last element a region touches.
std::pair<std::size_t, std::size_t> element_span(const Shape4& shape);

} // namespace brook::detail::gl
