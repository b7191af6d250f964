// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Intel Embree 3 tracing the ray tracer's scene (raytrace_embree.hpp).
#include "raytrace_embree.hpp"

#include <embree3/rtcore.h>

#include <chrono>
#include <cstdint>
#include <limits>

#include <omp.h>

namespace embree_reference {

namespace {

double since_ms(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

void trace_all(RTCScene scene, const float eye[3], const std::vector<float>& directions,
               float t_min, Hits& hits) {
    const auto count = static_cast<std::int64_t>(hits.t.size());
#pragma omp parallel
    {
        RTCIntersectContext context;
        rtcInitIntersectContext(&context);
#pragma omp for schedule(dynamic, 256)
        for (std::int64_t i = 0; i < count; ++i) {
            const auto k = static_cast<std::size_t>(i);
            RTCRayHit query{};
            query.ray.org_x = eye[0];
            query.ray.org_y = eye[1];
            query.ray.org_z = eye[2];
            query.ray.dir_x = directions[3 * k];
            query.ray.dir_y = directions[3 * k + 1];
            query.ray.dir_z = directions[3 * k + 2];
            query.ray.tnear = t_min;
            query.ray.tfar = std::numeric_limits<float>::infinity();
            query.ray.mask = ~0u;
            query.hit.geomID = RTC_INVALID_GEOMETRY_ID;
            query.hit.primID = RTC_INVALID_GEOMETRY_ID;
            rtcIntersect1(scene, &context, &query);
            const bool hit = query.hit.geomID != RTC_INVALID_GEOMETRY_ID;
            hits.t[k] = query.ray.tfar;
            hits.triangle[k] = hit ? static_cast<int>(query.hit.primID) : -1;
        }
    }
}

} // namespace

Hits trace(const std::vector<float>& triangles, const float eye[3],
           const std::vector<float>& directions, float t_min) {
    Hits hits;
    const std::size_t triangle_count = triangles.size() / 9;
    // One build thread: the scene is small, and idle TBB workers would compete with OpenMP's.
    RTCDevice device = rtcNewDevice("threads=1");
    if (device == nullptr) {
        hits.error = "rtcNewDevice failed";
        return hits;
    }
    const auto start = std::chrono::steady_clock::now();
    RTCScene scene = rtcNewScene(device);
    RTCGeometry geometry = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
    auto* vertices = static_cast<float*>(
        rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                3 * sizeof(float), 3 * triangle_count));
    auto* indices = static_cast<unsigned*>(
        rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                                3 * sizeof(unsigned), triangle_count));
    for (std::size_t i = 0; i < 9 * triangle_count; ++i) {
        vertices[i] = triangles[i];
    }
    for (std::size_t i = 0; i < 3 * triangle_count; ++i) {
        indices[i] = static_cast<unsigned>(i);
    }
    rtcCommitGeometry(geometry);
    rtcAttachGeometry(scene, geometry);
    rtcReleaseGeometry(geometry);
    rtcCommitScene(scene);
    hits.build_ms = since_ms(start);

    const std::size_t count = directions.size() / 3;
    hits.t.assign(count, 0.0f);
    hits.triangle.assign(count, -1);
    hits.threads = omp_get_max_threads();
    trace_all(scene, eye, directions, t_min, hits); // warm-up: threads and caches
    const auto trace_start = std::chrono::steady_clock::now();
    trace_all(scene, eye, directions, t_min, hits);
    hits.trace_ms = since_ms(trace_start);

    if (rtcGetDeviceError(device) != RTC_ERROR_NONE) {
        hits.error = "Embree reported an error";
    }
    rtcReleaseScene(scene);
    rtcReleaseDevice(device);
    return hits;
}

} // namespace embree_reference
