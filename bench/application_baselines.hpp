// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The hook through which bench/'s build of an example program (BROOK_BENCH_CUDA; see
// brook_add_application in bench/CMakeLists.txt) times the GPU baseline of its work in the same
// process as Brook. On the cuda and gl backends, once the program has timed Brook and its CPU
// reference, each function here makes the baseline of cuda_applications.hpp from the program's
// own data, times it as the program times Brook (the median of as many warm runs, each one waited
// for; a streaming kernel per call over calls queued back to back, beside Brook's), checks its
// result against the program's CPU result as strictly as the program checks Brook's, and prints
// a line beside the program's `result:` line, which bench/run_bench.py reads:
//
//   gpu: name=<case> backend=<cuda|gl> baseline=<which> brook_ms=<Brook's time> ms=<its time> ...
//
// A baseline whose result is wrong stops the program (exit status 1), as the harness stops on a
// wrong variant. On another backend, or where the CUDA runtime finds no device, they do nothing
// (cuda::baselines_wanted). The functions take the example's own types (its float2 pixels, its
// scene and grid structs) as templates, so that each program's hook is one call, and pass plain
// floats on to nvcc's code.
#include "cuda_applications.hpp"
#include "cuda_baselines.hpp"
#include "example_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace bench::gpu {

/// Whether the baselines run in this process (cuda::baselines_wanted).
inline bool wanted() {
    return cuda::baselines_wanted(brook::backend_name());
}

/// The median time in milliseconds of `runs` warm runs of `baseline`, each waited for.
template <class Baseline> double time_ms(Baseline& baseline, int runs) {
    return example::median_ms(runs, [&] {
        baseline.run();
        cuda::synchronize();
    });
}

/// A variant of a streaming kernel's comparison: one call, queued, and the wait for the calls
/// it queued.
struct Queued {
    std::function<void()> call;
    std::function<void()> wait;
};

/// The medians, in milliseconds per call, of `runs` samples of each of `variants`, taken in turn
/// after one untimed sample of each; a sample is `calls` calls queued back to back and one wait.
/// A streaming kernel of a few microseconds is timed as the harness times SAXPY: a wait after
/// each call would add the device's round trip to every call, and stand in for its bandwidth.
inline std::vector<double> per_call_ms(int runs, int calls, const std::vector<Queued>& variants) {
    const auto sample = [&](const Queued& variant) {
        return example::time_ms([&] {
                   for (int k = 0; k < calls; ++k) {
                       variant.call();
                   }
                   variant.wait();
               }) /
               calls;
    };
    for (const Queued& variant : variants) {
        sample(variant);
    }
    std::vector<std::vector<double>> times(variants.size());
    runs = example::timed_runs(runs);
    for (int run = 0; run < runs; ++run) {
        for (std::size_t v = 0; v < variants.size(); ++v) {
            times[v].push_back(sample(variants[v]));
        }
    }
    std::vector<double> medians;
    for (std::vector<double>& variant_times : times) {
        medians.push_back(example::median_of(std::move(variant_times)));
    }
    return medians;
}

/// The `gpu:` line of one baseline; `fields` are more ` key=value`s. Times to the nanosecond: a
/// streaming kernel's call on a GPU takes microseconds.
inline void report(const char* name, const char* baseline, double brook_ms, double ms,
                   const std::string& fields = {}) {
    std::printf("gpu: name=%s backend=%s baseline=%s brook_ms=%.6f ms=%.6f%s\n", name,
                brook::backend_name(), baseline, brook_ms, ms, fields.c_str());
    std::fflush(stdout);
}

[[noreturn]] inline void mismatch(const char* name, const char* baseline, const std::string& what) {
    std::fprintf(stderr, "%s: GPU baseline %s: %s: MISMATCH\n", name, baseline, what.c_str());
    std::exit(1);
}

/// The x, y (and z) of the example's vectors as plain floats.
template <class Vector> std::vector<float> flat_xy(const std::vector<Vector>& vectors) {
    std::vector<float> floats;
    floats.reserve(2 * vectors.size());
    for (const Vector& v : vectors) {
        floats.insert(floats.end(), {v.x, v.y});
    }
    return floats;
}
template <class Vector> void set_xyz(float (&to)[3], const Vector& v) {
    to[0] = v.x;
    to[1] = v.y;
    to[2] = v.z;
}

/// Segment's `iterations` from the seeded `pixels` (intensity, level) in hand-written CUDA,
/// checked against the C++ result `expected` as examples/segment.br checks Brook's: at most one
/// pixel in 1000 off by more than 1e-3 (a front pixel whose level lands within rounding of 1/2).
template <class Pixel, class Parameters>
void segment(double brook_ms, const std::vector<Pixel>& pixels, long width, long height,
             long iterations, const Parameters& parameters, const std::vector<Pixel>& expected) {
    if (!wanted()) {
        return;
    }
    cuda::SegmentEvolve baseline(
        flat_xy(pixels), static_cast<int>(width), static_cast<int>(height),
        static_cast<int>(iterations),
        {parameters.low, parameters.high, parameters.inverse_k2, parameters.rate});
    const double ms = time_ms(baseline, 3);
    const std::vector<float> got = baseline.result();
    std::size_t differing = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const double error = std::fabs(static_cast<double>(got[2 * i]) - expected[i].x) +
                             std::fabs(static_cast<double>(got[2 * i + 1]) - expected[i].y);
        differing += error <= 1e-3 ? 0 : 1;
    }
    if (differing > expected.size() / 1000) {
        mismatch("segment", "cuda",
                 std::to_string(differing) + " pixels differ from C++ by more than 1e-3");
    }
    report("segment", "cuda", brook_ms, ms);
}

/// cuFFT's transform of FFTW's `signal` (channels * height * width complex floats, FFTW's
/// layout), its relative RMS error against FFTW's `spectrum` at most 1e-5 as for Brook's.
inline void fft(double brook_ms, const float* signal, const float* spectrum, long width,
                long height, int channels) {
    if (!wanted()) {
        return;
    }
    cuda::CufftForward2d baseline(signal, static_cast<int>(width), static_cast<int>(height),
                                  channels);
    const double ms = time_ms(baseline, 5);
    const std::vector<float> got = baseline.result();
    double error_energy = 0.0;
    double energy = 0.0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double error = static_cast<double>(got[i]) - spectrum[i];
        error_energy += error * error;
        energy += static_cast<double>(spectrum[i]) * spectrum[i];
    }
    const double relative_error = std::sqrt(error_energy / energy);
    if (!(relative_error <= 1e-5)) {
        mismatch("fft", "cufft", "relative RMS error " + std::to_string(relative_error));
    }
    report("fft", "cufft", brook_ms, ms);
}

/// The CUDA bitonic sort of the same network and CUB's radix sort of the unsorted `values`, each
/// result identical to std::sort's.
inline void bitonic_sort(double brook_ms, const std::vector<float>& values) {
    if (!wanted()) {
        return;
    }
    std::vector<float> expected = values;
    std::sort(expected.begin(), expected.end());
    cuda::BitonicSort bitonic(values);
    const double bitonic_ms = time_ms(bitonic, 5);
    if (bitonic.result() != expected) {
        mismatch("bitonic_sort", "cuda_bitonic", "not std::sort's order");
    }
    report("bitonic_sort", "cuda_bitonic", brook_ms, bitonic_ms);
    cuda::CubRadixSort radix(values);
    const double radix_ms = time_ms(radix, 5);
    if (radix.result() != expected) {
        mismatch("bitonic_sort", "cub_radix", "not std::sort's order");
    }
    report("bitonic_sort", "cub_radix", brook_ms, radix_ms);
}

/// The uniform grid of `positions` in cells x cells in hand-written CUDA, its sorted keys and
/// cell starts identical to the C++ ones; then the binary search alone: `brook_search` (one run
/// of the program's search over its sorted keys, waited for) timed here against the vectorised
/// lower_bound, with as many queries, over the same sorted keys.
template <class Position, class BrookSearch>
void uniform_grid(double brook_ms, const std::vector<Position>& positions, int cells,
                  const std::vector<float>& expected_keys, const std::vector<int>& expected_starts,
                  BrookSearch&& brook_search) {
    if (!wanted()) {
        return;
    }
    cuda::UniformGrid grid(flat_xy(positions), cells);
    const double ms = time_ms(grid, 5);
    if (grid.keys() != expected_keys || grid.starts() != expected_starts) {
        mismatch("uniform_grid", "cuda", "sorted keys or cell starts differ from C++");
    }
    report("uniform_grid", "cuda", brook_ms, ms);

    const double brook_search_ms = example::median_ms(5, brook_search);
    std::vector<float> queries(expected_starts.size());
    for (std::size_t c = 0; c < queries.size(); ++c) {
        queries[c] = static_cast<float>(c) * static_cast<float>(positions.size());
    }
    cuda::LowerBound search(expected_keys, queries);
    const double search_ms = time_ms(search, 5);
    if (search.result() != expected_starts) {
        mismatch("binary_search", "lower_bound", "positions differ from std::lower_bound's");
    }
    report("binary_search", "lower_bound", brook_search_ms, search_ms,
           " queries=" + std::to_string(queries.size()) +
               " keys=" + std::to_string(expected_keys.size()));
}

/// examples/tonemap.br on the GPU, from its HDR `pixels` and the C++ loop's `white`. The
/// reduction: CUB's max of the image's floats, brought to the host as Brook's reduction brings
/// its value, timed as the program times Brook's (the median of 21 warm runs, each waited for),
/// and equal to `white` (max is exact). The map alone, which the program does not time:
/// `brook_map` (one call of the program's tone_map, queued) against the same map in hand-written
/// CUDA and against the device's copy of the image (the bytes the map reads and writes: the
/// bandwidth a streaming kernel can hope for), side by side, each sample as many calls as move
/// 1 GiB; the CUDA map's image within 1e-4 of the C++ arithmetic, as the program checks Brook's.
template <class Pixel, class BrookMap>
void tonemap(double brook_ms, const std::vector<Pixel>& pixels, float white, BrookMap&& brook_map) {
    if (!wanted()) {
        return;
    }
    std::vector<float> values;
    values.reserve(3 * pixels.size());
    for (const Pixel& p : pixels) {
        values.insert(values.end(), {p.x, p.y, p.z});
    }
    cuda::CubMax largest(values);
    const double max_ms = time_ms(largest, 21);
    if (largest.result() != white) {
        mismatch("max_reduction", "cub_max",
                 "largest value " + std::to_string(largest.result()) + ", not " +
                     std::to_string(white));
    }
    report("max_reduction", "cub_max", brook_ms, max_ms);

    cuda::ToneMap map(values, white);
    const std::size_t bytes = values.size() * sizeof(float);
    cuda::DeviceCopy copy(bytes);
    const int calls =
        static_cast<int>(std::max<std::size_t>(1, (std::size_t{1} << 30) / (2 * bytes)));
    const std::vector<double> ms = per_call_ms(21, calls,
                                               {{brook_map, [] { brook::finish(); }},
                                                {[&] { map.run(); }, cuda::synchronize},
                                                {[&] { copy.run(); }, cuda::synchronize}});
    const std::vector<float> got = map.result();
    double max_error = 0.0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double expected = std::pow(std::clamp(values[i] / white, 0.0f, 1.0f), 1.0 / 2.2);
        const double error = std::fabs(got[i] - expected);
        if (!(error <= max_error)) {
            max_error = std::isnan(error) ? INFINITY : error;
        }
    }
    if (!(max_error <= 1e-4)) {
        mismatch("tone_map", "cuda", "max abs error " + std::to_string(max_error));
    }
    if (!copy.correct()) {
        mismatch("tone_map", "device_copy", "the copy differs from its source");
    }
    const std::string size = " pixels=" + std::to_string(pixels.size());
    report("tone_map", "cuda", ms[0], ms[1], size);
    report("tone_map", "device_copy", ms[0], ms[2], size);
}

/// The trace of examples/raytrace.br's scene (its triangles, grid, camera and light) in
/// hand-written CUDA, each pixel's hit and colour checked against the C++ tracer's as the program
/// checks Brook's: at most one pixel in 500 (rays that graze an edge shared by two triangles, or
/// pass within rounding of a cell boundary) with another triangle, t or colour.
template <class Triangle, class Grid, class Camera, class Vector, class Hit, class Color>
void raytrace(double brook_ms, const std::vector<Triangle>& scene, const Grid& grid,
              const Camera& camera, const Vector& light, long width, long height,
              const std::vector<Hit>& expected, const std::vector<Color>& expected_colors) {
    if (!wanted()) {
        return;
    }
    cuda::GridTracer::Scene setup{};
    for (const Triangle& t : scene) {
        setup.triangles.insert(setup.triangles.end(), {t.v0.x, t.v0.y, t.v0.z, t.v1.x, t.v1.y,
                                                       t.v1.z, t.v2.x, t.v2.y, t.v2.z});
    }
    for (const auto& voxel : grid.voxels) {
        setup.voxels.insert(setup.voxels.end(),
                            {static_cast<int>(voxel.x), static_cast<int>(voxel.y)});
    }
    for (const auto& entry : grid.trilist) {
        setup.trilist.push_back(static_cast<int>(entry.trinum));
    }
    set_xyz(setup.origin, grid.origin);
    set_xyz(setup.cell, grid.cell);
    setup.cells[0] = static_cast<int>(grid.cells.x);
    setup.cells[1] = static_cast<int>(grid.cells.y);
    setup.cells[2] = static_cast<int>(grid.cells.z);
    set_xyz(setup.eye, camera.eye);
    set_xyz(setup.forward, camera.forward);
    set_xyz(setup.right, camera.right);
    set_xyz(setup.up, camera.up);
    set_xyz(setup.light, light);
    setup.width = static_cast<int>(width);
    setup.height = static_cast<int>(height);
    cuda::GridTracer tracer(setup);
    const double ms = time_ms(tracer, 5);
    const std::vector<float> hits = tracer.hits();
    const std::vector<float> colors = tracer.colors();
    std::size_t differing = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const bool same_triangle = hits[4 * i + 3] == expected[i].w;
        const bool same_t = std::fabs(hits[4 * i] - expected[i].x) <= 1e-3f * expected[i].x;
        const float color_error = std::max({std::fabs(colors[3 * i] - expected_colors[i].x),
                                            std::fabs(colors[3 * i + 1] - expected_colors[i].y),
                                            std::fabs(colors[3 * i + 2] - expected_colors[i].z)});
        differing += same_triangle && same_t && color_error <= 1e-4f ? 0 : 1;
    }
    if (differing > expected.size() / 500) {
        mismatch("raytrace", "cuda", std::to_string(differing) + " pixels differ from C++");
    }
    report("raytrace", "cuda", brook_ms, ms);
}

} // namespace bench::gpu
