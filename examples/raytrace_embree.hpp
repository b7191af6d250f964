// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Intel Embree as the speed reference of the ray tracer (examples/raytrace.br): the same triangles
// and the same eye rays, traced by Embree's own BVH with rtcIntersect1 over OpenMP threads. Kept
// out of raytrace.br so that the Brook program stays readable; plain floats, no Brook types.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace embree_reference {

/// The nearest hit of each ray, as Embree finds it.
struct Hits {
    std::vector<float> t;      ///< distance along the (unit) direction; unused for a miss
    std::vector<int> triangle; ///< the triangle hit, or -1 for a miss
    double build_ms = 0.0;     ///< building Embree's scene (its BVH)
    double trace_ms = 0.0;     ///< tracing every ray once, after an untimed warm-up trace
    int threads = 1;           ///< the OpenMP threads that traced
    std::string error;         ///< empty on success
};

/// Traces a ray from `eye` along each of `directions` (3 floats per ray) through `triangles`
/// (9 floats each: v0, v1, v2), counting hits at distances above `t_min`.
Hits trace(const std::vector<float>& triangles, const float eye[3],
           const std::vector<float>& directions, float t_min);

} // namespace embree_reference
