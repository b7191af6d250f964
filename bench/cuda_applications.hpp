// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The GPU baselines of the paper's applications (cuda_applications.cu, compiled by nvcc): the
// library call or the hand-written CUDA an expert would run for the work each example program in
// examples/ gives Brook, on the same GPU, in the same process (application_baselines.hpp does the
// timing and the checks). As in cuda_baselines.hpp, each class owns its device memory, filled
// when it is made; run() only queues the work on the default stream, synchronize() waits for it,
// and the result is copied back afterwards. The interfaces take plain floats, since nvcc builds
// this part as C++17 and Brook's vector types are C++20.
#include <cstddef>
#include <vector>

namespace bench::cuda {

/// examples/segment.br's iterations: each pixel (intensity, level) takes the Perona-Malik flux of
/// its four neighbours (clamped at the border), its level saturated to [0, 1], kept at 1 once it
/// reached 1/2 and 0 outside the intensity window [low, high]. One thread per pixel in 32x8
/// blocks, whose rows share their neighbours through the L1 cache; two buffers in turn.
class SegmentEvolve {
public:
    struct Parameters {
        float low;
        float high;
        float inverse_k2;
        float rate;
    };
    /// `pixels`: width * height (intensity, level) pairs, row-major.
    SegmentEvolve(const std::vector<float>& pixels, int width, int height, int iterations,
                  Parameters parameters);
    ~SegmentEvolve();
    SegmentEvolve(const SegmentEvolve&) = delete;
    SegmentEvolve& operator=(const SegmentEvolve&) = delete;
    /// All the iterations from the seeded image, which stays as it was.
    void run();
    std::vector<float> result() const;

private:
    int width_;
    int height_;
    int iterations_;
    Parameters parameters_;
    float* seeded_ = nullptr;
    float* buffers_[2] = {nullptr, nullptr};
};

/// cuFFT's forward 2-D complex transform of `channels` signals of height x width, one after
/// another (cuFFT's batched layout, as FFTW is given them), out of place, planned once.
class CufftForward2d {
public:
    /// `signal`: channels * height * width complex values as (real, imaginary) floats.
    CufftForward2d(const float* signal, int width, int height, int channels);
    ~CufftForward2d();
    CufftForward2d(const CufftForward2d&) = delete;
    CufftForward2d& operator=(const CufftForward2d&) = delete;
    void run();
    /// The spectrum, laid out as the signal.
    std::vector<float> result() const;

private:
    std::size_t floats_;
    float* signal_ = nullptr;
    float* spectrum_ = nullptr;
    int plan_ = 0;
};

/// An ascending sort of `values` (a power of two of them) by the bitonic network of
/// examples/sort_search.br: every stage (block, distance) compares value i with value
/// i ^ distance, the pair ascending where i & block is 0. The stages of distance below a
/// 4096-value tile run in shared memory, all of a tile's in one pass (the whole sort up to blocks
/// of 4096, then the end of each later merge); the longer ones go through global memory two at a
/// time, four values per thread. The same compare-exchanges as the example's 190 passes over
/// 2^20 values, in 29 passes (NVIDIA's sortingNetworks sample, with two stages per global pass).
class BitonicSort {
public:
    explicit BitonicSort(const std::vector<float>& values);
    ~BitonicSort();
    BitonicSort(const BitonicSort&) = delete;
    BitonicSort& operator=(const BitonicSort&) = delete;
    /// Sorts the values given, which stay as they were, into the result.
    void run();
    std::vector<float> result() const;

private:
    std::size_t count_;
    float* values_ = nullptr;
    float* sorted_ = nullptr;
};

/// cub::DeviceRadixSort::SortKeys of `values` (floats), out of place, its scratch allocated once.
class CubRadixSort {
public:
    explicit CubRadixSort(const std::vector<float>& values);
    ~CubRadixSort();
    CubRadixSort(const CubRadixSort&) = delete;
    CubRadixSort& operator=(const CubRadixSort&) = delete;
    void run();
    std::vector<float> result() const;

private:
    std::size_t count_;
    float* values_ = nullptr;
    float* sorted_ = nullptr;
    void* scratch_ = nullptr;
    std::size_t scratch_bytes_ = 0;
};

/// The vectorised lower_bound: for each query, one thread, the position of the first of the
/// sorted `keys` that is not less than it, by a branch-free binary search.
class LowerBound {
public:
    LowerBound(const std::vector<float>& keys, const std::vector<float>& queries);
    ~LowerBound();
    LowerBound(const LowerBound&) = delete;
    LowerBound& operator=(const LowerBound&) = delete;
    void run();
    std::vector<int> result() const;

private:
    int key_count_;
    int query_count_;
    float* keys_ = nullptr;
    float* queries_ = nullptr;
    int* positions_ = nullptr;
};

/// examples/sort_search.br's uniform grid of particles in a cells x cells grid over the unit
/// square: each particle's key (its cell's number times the particle count, plus its index),
/// the keys sorted by BitonicSort's network, and where each cell's particles start in them by
/// LowerBound's search.
class UniformGrid {
public:
    /// `positions`: (x, y) of each particle, a power of two of them.
    UniformGrid(const std::vector<float>& positions, int cells);
    ~UniformGrid();
    UniformGrid(const UniformGrid&) = delete;
    UniformGrid& operator=(const UniformGrid&) = delete;
    void run();
    std::vector<float> keys() const;
    std::vector<int> starts() const;

private:
    int particles_;
    int cells_;
    float* positions_ = nullptr;
    float* keys_ = nullptr;
    float* sorted_ = nullptr;
    float* targets_ = nullptr;
    int* starts_ = nullptr;
};

/// examples/tonemap.br's white: cub::DeviceReduce::Max over the image's floats, brought to the
/// host, as the program needs it there to pass its map. Brook takes each channel's largest
/// (a float3 reduction) and then the largest of the three; max being exact and associative, the
/// largest of all the floats is the same value, and CUB reads the float3 image as the flat array
/// of floats it is, with vector loads, as an expert would. Its scratch is allocated once.
class CubMax {
public:
    explicit CubMax(const std::vector<float>& values);
    ~CubMax();
    CubMax(const CubMax&) = delete;
    CubMax& operator=(const CubMax&) = delete;
    /// The reduction and the copy of its value into pinned host memory, queued.
    void run();
    /// The value the last run brought back (once it has been waited for).
    float result() const;

private:
    std::size_t count_;
    float* values_ = nullptr;
    float* largest_ = nullptr;
    float* host_largest_ = nullptr;
    void* scratch_ = nullptr;
    std::size_t scratch_bytes_ = 0;
};

/// examples/tonemap.br's map: each float f of the image (a float3 pixel's channels are treated
/// alike) becomes saturate(f / white)^(1 / 2.2). The image is the flat array of its floats, read
/// and written as float4s, a thread per four; out of place, the HDR image kept.
class ToneMap {
public:
    ToneMap(const std::vector<float>& values, float white);
    ~ToneMap();
    ToneMap(const ToneMap&) = delete;
    ToneMap& operator=(const ToneMap&) = delete;
    void run();
    std::vector<float> result() const;

private:
    std::size_t count_;
    float white_;
    float* hdr_ = nullptr;
    float* display_ = nullptr;
};

/// examples/raytrace.br's trace of one eye ray per pixel through its uniform grid of triangles:
/// the ray's setup, its cells in a 3-D DDA (Amanatides and Woo's, each step one addition),
/// every triangle of a cell tested (the same test as the example's), and the nearest hit shaded.
/// One thread per ray, in 16x8 tiles of pixels, whose rays cross the same cells; triangles as
/// (v0, v1 - v0, v2 - v0) in float4s, read through the read-only cache.
class GridTracer {
public:
    struct Scene {
        std::vector<float> triangles; ///< v0, v1, v2 of each triangle, 9 floats
        std::vector<int> voxels;      ///< (first position in trilist, count) of each cell
        std::vector<int> trilist;     ///< triangle numbers, each cell's in turn
        float origin[3];              ///< the grid's lowest corner
        float cell[3];                ///< a cell's size
        int cells[3];                 ///< cells along each axis
        float eye[3];                 ///< the camera: ray through (x, y) in [-1, 1]^2 is along
        float forward[3];             ///< forward + x right - y up
        float right[3];
        float up[3];
        float light[3]; ///< the directional light's direction
        int width;      ///< pixels
        int height;
    };
    explicit GridTracer(const Scene& scene);
    ~GridTracer();
    GridTracer(const GridTracer&) = delete;
    GridTracer& operator=(const GridTracer&) = delete;
    void run();
    /// (t, u, v, triangle) of each ray's nearest hit, (1e30, 0, 0, -1) for a miss, row-major.
    std::vector<float> hits() const;
    /// Each ray's colour, (r, g, b) floats.
    std::vector<float> colors() const;

private:
    Scene scene_;
    float* triangles_ = nullptr;
    int* voxels_ = nullptr;
    int* trilist_ = nullptr;
    float* hits_ = nullptr;
    float* colors_ = nullptr;
};

} // namespace bench::cuda
