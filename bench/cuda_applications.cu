// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The applications' GPU baselines (cuda_applications.hpp): cuFFT and CUB where a library does the
// work, and kernels written for the GPU where the work is the example's own algorithm. Each
// kernel computes what the example's kernels compute, with the same arithmetic, so that its
// result is checked against the same CPU reference, and is laid out as CUDA programmers lay such
// work out: a thread per output element, 2-D tiles where neighbours share data, shared memory
// for the stages of a network that stay inside a tile.
#include "cuda_applications.hpp"
#include "cuda_support.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>
#include <cufft.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace bench::cuda {

namespace {

// cuFFT's statuses beside the CUDA runtime's (cuda_support.cuh).
using bench::cuda::check;
void check(cufftResult status, const char* what) {
    if (status != CUFFT_SUCCESS) {
        std::fprintf(stderr, "bench: cuFFT: %s: status %d\n", what, static_cast<int>(status));
        std::exit(1);
    }
}

/// Stops the program when the kernel just queued could not be launched.
void check_launch(const char* kernel) {
    check(cudaGetLastError(), kernel);
}

unsigned blocks_for(std::size_t threads, unsigned per_block) {
    return static_cast<unsigned>((threads + per_block - 1) / per_block);
}

// ---- Segment -----------------------------------------------------------------------------------

__device__ float conductance(float difference, float inverse_k2) {
    return 1.0f / (1.0f + difference * difference * inverse_k2);
}

__global__ void segment_evolve(const float2* __restrict__ pixels, float2* __restrict__ next,
                               int width, int height, SegmentEvolve::Parameters p) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= width || y >= height) {
        return;
    }
    const int row = y * width;
    const float2 centre = pixels[row + x];
    const float2 up = pixels[max(y - 1, 0) * width + x];
    const float2 down = pixels[min(y + 1, height - 1) * width + x];
    const float2 left = pixels[row + max(x - 1, 0)];
    const float2 right = pixels[row + min(x + 1, width - 1)];
    const float flux = conductance(up.x - centre.x, p.inverse_k2) * (up.y - centre.y) +
                       conductance(down.x - centre.x, p.inverse_k2) * (down.y - centre.y) +
                       conductance(left.x - centre.x, p.inverse_k2) * (left.y - centre.y) +
                       conductance(right.x - centre.x, p.inverse_k2) * (right.y - centre.y);
    const float level = centre.y >= 0.5f ? 1.0f : __saturatef(centre.y + p.rate * flux);
    const bool inside = centre.x >= p.low && centre.x <= p.high;
    next[row + x] = make_float2(centre.x, inside ? level : 0.0f);
}

// ---- The bitonic network -----------------------------------------------------------------------

/// Values per tile of the shared-memory stages: 16 KB of floats, sorted by 1024 threads.
constexpr int bitonic_tile = 4096;
constexpr int bitonic_tile_threads = 1024;
constexpr unsigned bitonic_global_threads = 256;

/// Puts `low` and `high` in ascending order, or in descending order when `ascending` is false.
__device__ void compare_exchange(float& low, float& high, bool ascending) {
    if ((low > high) == ascending) {
        const float swapped = low;
        low = high;
        high = swapped;
    }
}

/// The stages of merges `first_block` to `last_block` whose distances lie inside a tile of
/// `tile` values: all of each merge's stages when the block fits in the tile, else those of
/// distance tile / 2 and below. Each thread block loads its tile from `in`, runs them in shared
/// memory and stores it to `out` (which may be `in`). Value i of the list is ascending in merge
/// `block` where i & block is 0, i counted over the whole list.
__global__ void bitonic_tile_stages(const float* in, float* out, int tile, int first_block,
                                    int last_block) {
    extern __shared__ float values[];
    const int offset = static_cast<int>(blockIdx.x) * tile;
    for (int k = static_cast<int>(threadIdx.x); k < tile; k += static_cast<int>(blockDim.x)) {
        values[k] = in[offset + k];
    }
    __syncthreads();
    for (int block = first_block; block <= last_block; block *= 2) {
        for (int distance = min(block, tile) / 2; distance >= 1; distance /= 2) {
            for (int c = static_cast<int>(threadIdx.x); c < tile / 2;
                 c += static_cast<int>(blockDim.x)) {
                // Comparator c's lower value: c with a zero bit inserted at `distance`.
                const int i = 2 * c - (c & (distance - 1));
                compare_exchange(values[i], values[i + distance], ((offset + i) & block) == 0);
            }
            __syncthreads();
        }
    }
    for (int k = static_cast<int>(threadIdx.x); k < tile; k += static_cast<int>(blockDim.x)) {
        out[offset + k] = values[k];
    }
}

/// Stage (block, distance) of the network over the whole list: one comparator per thread.
__global__ void bitonic_global_stage(float* values, int count, int block, int distance) {
    const int c = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (c >= count / 2) {
        return;
    }
    const int i = 2 * c - (c & (distance - 1));
    float low = values[i];
    float high = values[i + distance];
    compare_exchange(low, high, (i & block) == 0);
    values[i] = low;
    values[i + distance] = high;
}

/// Stages (block, distance) and (block, distance / 2) together: each thread holds the four values
/// i, i + distance / 2, i + distance and i + 3 distance / 2 that the two stages exchange among
/// themselves, so the list crosses memory once for both.
__global__ void bitonic_global_two_stages(float* values, int count, int block, int distance) {
    const int q = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (q >= count / 4) {
        return;
    }
    const int half = distance / 2;
    // q with zero bits inserted at `half` and at `distance`.
    const int i = ((q & ~(half - 1)) << 2) | (q & (half - 1));
    const bool ascending = (i & block) == 0;
    float v0 = values[i];
    float v1 = values[i + half];
    float v2 = values[i + distance];
    float v3 = values[i + distance + half];
    compare_exchange(v0, v2, ascending);
    compare_exchange(v1, v3, ascending);
    compare_exchange(v0, v1, ascending);
    compare_exchange(v2, v3, ascending);
    values[i] = v0;
    values[i + half] = v1;
    values[i + distance] = v2;
    values[i + distance + half] = v3;
}

/// Queues the whole network over `count` values (a power of two, 2 or more) from `in` into `out`,
/// which holds them sorted ascending when it has run; `in` is left as it was.
void bitonic_sort(const float* in, float* out, int count) {
    const int tile = std::min(count, bitonic_tile);
    const unsigned tiles = static_cast<unsigned>(count / tile);
    const unsigned tile_threads = static_cast<unsigned>(std::min(tile / 2, bitonic_tile_threads));
    const std::size_t shared = static_cast<std::size_t>(tile) * sizeof(float);
    bitonic_tile_stages<<<tiles, tile_threads, shared>>>(in, out, tile, 2, tile);
    check_launch("bitonic_tile_stages");
    for (int block = 2 * tile; block <= count; block *= 2) {
        int distance = block / 2;
        for (; distance / 2 >= tile; distance /= 4) {
            bitonic_global_two_stages<<<blocks_for(count / 4, bitonic_global_threads),
                                        bitonic_global_threads>>>(out, count, block, distance);
            check_launch("bitonic_global_two_stages");
        }
        if (distance >= tile) {
            bitonic_global_stage<<<blocks_for(count / 2, bitonic_global_threads),
                                   bitonic_global_threads>>>(out, count, block, distance);
            check_launch("bitonic_global_stage");
        }
        bitonic_tile_stages<<<tiles, tile_threads, shared>>>(out, out, tile, block, block);
        check_launch("bitonic_tile_stages");
    }
}

// ---- Search and the uniform grid ---------------------------------------------------------------

constexpr unsigned search_threads = 256;

/// positions[q] = the first position in the `count` sorted keys whose key is not less than
/// queries[q] (count when there is none): halving the range without a branch, the probe's
/// outcome choosing the base, then one last comparison.
__global__ void lower_bounds(const float* __restrict__ keys, int count,
                             const float* __restrict__ queries, int query_count,
                             int* __restrict__ positions) {
    const int q = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (q >= query_count) {
        return;
    }
    const float target = queries[q];
    int base = 0;
    for (int n = count; n > 1;) {
        const int half = n / 2;
        base = __ldg(&keys[base + half]) < target ? base + half : base;
        n -= half;
    }
    positions[q] = base + (__ldg(&keys[base]) < target ? 1 : 0);
}

/// Each particle's key: (its cell's number) * count + its index, exact in a float below 2^24.
__global__ void cell_keys(const float2* __restrict__ positions, int count, float cells,
                          float* __restrict__ keys) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= count) {
        return;
    }
    const float2 p = positions[i];
    const float cell_x = fminf(floorf(p.x * cells), cells - 1.0f);
    const float cell_y = fminf(floorf(p.y * cells), cells - 1.0f);
    keys[i] = (cell_y * cells + cell_x) * static_cast<float>(count) + static_cast<float>(i);
}

// ---- Tone mapping ------------------------------------------------------------------------------

constexpr unsigned map_threads = 256;

/// saturate(value * inverse_white)^(1 / 2.2): the example's arithmetic, but for the division by
/// white, a multiplication by its reciprocal here (within the example's tolerance of 1e-4).
__device__ float display_value(float value, float inverse_white) {
    return powf(__saturatef(value * inverse_white), 1.0f / 2.2f);
}

/// `count` floats from `hdr` to `display`: thread q maps floats 4q to 4q + 3 with one 16-byte
/// load and store (cudaMalloc's arrays are aligned for them); the threads past the last whole
/// float4 map the 1 to 3 floats left, one each.
__global__ void tone_map(const float* __restrict__ hdr, float* __restrict__ display,
                         std::size_t count, float inverse_white) {
    const std::size_t quads = count / 4;
    const std::size_t q = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (q < quads) {
        float4 v = reinterpret_cast<const float4*>(hdr)[q];
        v = make_float4(display_value(v.x, inverse_white), display_value(v.y, inverse_white),
                        display_value(v.z, inverse_white), display_value(v.w, inverse_white));
        reinterpret_cast<float4*>(display)[q] = v;
    } else if (const std::size_t i = 3 * quads + q; i < count) {
        display[i] = display_value(hdr[i], inverse_white);
    }
}

// ---- The grid tracer ---------------------------------------------------------------------------

__device__ float3 operator+(float3 a, float3 b) {
    return make_float3(a.x + b.x, a.y + b.y, a.z + b.z);
}
__device__ float3 operator-(float3 a, float3 b) {
    return make_float3(a.x - b.x, a.y - b.y, a.z - b.z);
}
__device__ float3 operator*(float k, float3 a) {
    return make_float3(k * a.x, k * a.y, k * a.z);
}
__device__ float dot(float3 a, float3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
__device__ float3 cross(float3 a, float3 b) {
    return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
__device__ float3 normalize(float3 a) {
    return rsqrtf(dot(a, a)) * a;
}
__device__ float3 xyz(float4 a) {
    return make_float3(a.x, a.y, a.z);
}

/// The tracer's constants, as the example's kernels take them.
struct TraceSetup {
    float3 origin;
    float3 cell;
    int3 cells;
    float3 eye;
    float3 forward;
    float3 right;
    float3 up;
    float3 light;
    int width;
    int height;
};

/// A direction component that is not zero: the example nudges those below 1e-7 to 1e-7.
__device__ float nudged(float c) {
    return fabsf(c) < 1e-7f ? 1e-7f : c;
}

/// The grid cell along one axis where a ray enters at `entry` (relative to the grid's corner).
__device__ int entry_cell(float entry, float cell, int cells) {
    return static_cast<int>(fminf(fmaxf(floorf(entry / cell), 0.0f), cells - 1.0f));
}

/// One axis of Amanatides and Woo's DDA for a ray from `o` along `d` in cell `here`: the ray's t
/// at its next cell boundary along the axis, the t it takes to cross a cell, and the step.
struct Axis {
    float exit;
    float crossing;
    int step;
};
__device__ Axis axis_of(float o, float d, float origin, float cell, int here) {
    const float lower = origin + static_cast<float>(here) * cell;
    return {(lower + (d >= 0.0f ? cell : 0.0f) - o) / d, cell / fabsf(d), d > 0.0f ? 1 : -1};
}

/// Moves `here` one cell along the axis and its boundary one cell on; whether it left the grid.
__device__ bool advance(int& here, Axis& axis, int cells) {
    here += axis.step;
    axis.exit += axis.crossing;
    return here < 0 || here >= cells;
}

/// The nearest hit (t, u, v, triangle) of the ray from `o` along `d` among the triangles of the
/// cells it crosses, tested as krnWalk tests them. The cell and the DDA's state are held per
/// axis in named registers: arrays indexed by the axis chosen at run time would go to local
/// memory.
__device__ float4 trace_ray(float3 o, float3 d, const TraceSetup& s,
                            const float4* __restrict__ triangles, const int2* __restrict__ voxels,
                            const int* __restrict__ trilist) {
    float4 best = make_float4(1e30f, 0.0f, 0.0f, -1.0f);
    const float3 corner =
        make_float3(s.origin.x + s.cell.x * s.cells.x, s.origin.y + s.cell.y * s.cells.y,
                    s.origin.z + s.cell.z * s.cells.z);
    const float3 t0 =
        make_float3((s.origin.x - o.x) / d.x, (s.origin.y - o.y) / d.y, (s.origin.z - o.z) / d.z);
    const float3 t1 =
        make_float3((corner.x - o.x) / d.x, (corner.y - o.y) / d.y, (corner.z - o.z) / d.z);
    const float t_enter =
        fmaxf(fmaxf(fminf(t0.x, t1.x), fminf(t0.y, t1.y)), fmaxf(fminf(t0.z, t1.z), 0.0f));
    const float t_leave = fminf(fminf(fmaxf(t0.x, t1.x), fmaxf(t0.y, t1.y)), fmaxf(t0.z, t1.z));
    if (!(t_enter < t_leave)) {
        return best;
    }
    const float3 entry = o + t_enter * d - s.origin;
    int3 here = make_int3(entry_cell(entry.x, s.cell.x, s.cells.x),
                          entry_cell(entry.y, s.cell.y, s.cells.y),
                          entry_cell(entry.z, s.cell.z, s.cells.z));
    Axis x = axis_of(o.x, d.x, s.origin.x, s.cell.x, here.x);
    Axis y = axis_of(o.y, d.y, s.origin.y, s.cell.y, here.y);
    Axis z = axis_of(o.z, d.z, s.origin.z, s.cell.z, here.z);
    for (;;) {
        const int2 list = voxels[(here.z * s.cells.y + here.y) * s.cells.x + here.x];
        for (int k = list.x; k < list.x + list.y; ++k) {
            const int index = __ldg(&trilist[k]);
            const float3 v0 = xyz(__ldg(&triangles[3 * index]));
            const float3 edge1 = xyz(__ldg(&triangles[3 * index + 1]));
            const float3 edge2 = xyz(__ldg(&triangles[3 * index + 2]));
            const float3 pvec = cross(d, edge2);
            const float inv_det = 1.0f / dot(edge1, pvec);
            const float3 tvec = o - v0;
            const float u = dot(tvec, pvec) * inv_det;
            const float3 qvec = cross(tvec, edge1);
            const float v = dot(d, qvec) * inv_det;
            const float t = dot(edge2, qvec) * inv_det;
            if (u >= 0.0f && v >= 0.0f && u + v <= 1.0f && t > 1e-4f && t < best.x) {
                best = make_float4(t, u, v, static_cast<float>(index));
            }
        }
        // The example's choice among equal exits: x, then y, then z.
        const float t_exit = fminf(x.exit, fminf(y.exit, z.exit));
        const bool outside = x.exit == t_exit   ? advance(here.x, x, s.cells.x)
                             : y.exit == t_exit ? advance(here.y, y, s.cells.y)
                                                : advance(here.z, z, s.cells.z);
        if (best.x <= t_exit || outside) {
            return best;
        }
    }
}

/// The example's `shade`: diffuse light on the nearest hit, the sky's colour for a miss.
__device__ float3 shade(float3 d, float4 hit, const TraceSetup& s,
                        const float4* __restrict__ triangles) {
    if (hit.w < 0.0f) {
        const float3 horizon = make_float3(0.9f, 0.95f, 1.0f);
        const float3 zenith = make_float3(0.4f, 0.6f, 0.9f);
        return horizon + __saturatef(-d.y) * (zenith - horizon);
    }
    const int index = static_cast<int>(hit.w);
    float3 normal = normalize(cross(xyz(triangles[3 * index + 1]), xyz(triangles[3 * index + 2])));
    normal = dot(normal, d) > 0.0f ? -1.0f * normal : normal;
    const float3 albedo =
        hit.w < 2.0f ? make_float3(0.8f, 0.8f, 0.75f) : make_float3(0.9f, 0.45f, 0.3f);
    return (0.2f + 0.8f * __saturatef(dot(normal, s.light))) * albedo;
}

__global__ void trace(TraceSetup s, const float4* __restrict__ triangles,
                      const int2* __restrict__ voxels, const int* __restrict__ trilist,
                      float4* __restrict__ hits, float4* __restrict__ colors) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= s.width || y >= s.height) {
        return;
    }
    const float px = (static_cast<float>(x) + 0.5f) / static_cast<float>(s.width) * 2.0f - 1.0f;
    const float py = (static_cast<float>(y) + 0.5f) / static_cast<float>(s.height) * 2.0f - 1.0f;
    const float3 unit = normalize(s.forward + px * s.right - py * s.up);
    const float3 d = make_float3(nudged(unit.x), nudged(unit.y), nudged(unit.z));
    const float4 hit = trace_ray(s.eye, d, s, triangles, voxels, trilist);
    const float3 color = shade(d, hit, s, triangles);
    hits[y * s.width + x] = hit;
    colors[y * s.width + x] = make_float4(color.x, color.y, color.z, 0.0f);
}

float3 float3_of(const float (&v)[3]) {
    return make_float3(v[0], v[1], v[2]);
}

} // namespace

SegmentEvolve::SegmentEvolve(const std::vector<float>& pixels, int width, int height,
                             int iterations, Parameters parameters)
    : width_(width), height_(height), iterations_(iterations), parameters_(parameters),
      seeded_(device_copy_of(pixels)), buffers_{device_array<float>(pixels.size()),
                                                device_array<float>(pixels.size())} {}
SegmentEvolve::~SegmentEvolve() {
    cudaFree(seeded_);
    cudaFree(buffers_[0]);
    cudaFree(buffers_[1]);
}
void SegmentEvolve::run() {
    const dim3 threads(32, 8);
    const dim3 blocks(blocks_for(static_cast<std::size_t>(width_), threads.x),
                      blocks_for(static_cast<std::size_t>(height_), threads.y));
    const float* from = seeded_;
    for (int iteration = 0; iteration < iterations_; ++iteration) {
        float* to = buffers_[iteration % 2];
        segment_evolve<<<blocks, threads>>>(reinterpret_cast<const float2*>(from),
                                            reinterpret_cast<float2*>(to), width_, height_,
                                            parameters_);
        check_launch("segment_evolve");
        from = to;
    }
}
std::vector<float> SegmentEvolve::result() const {
    const float* last = iterations_ == 0 ? seeded_ : buffers_[(iterations_ - 1) % 2];
    return host_copy_of(last, 2 * static_cast<std::size_t>(width_) * height_);
}

CufftForward2d::CufftForward2d(const float* signal, int width, int height, int channels)
    : floats_(2 * static_cast<std::size_t>(width) * height * channels),
      signal_(device_copy_of(signal, floats_)), spectrum_(device_array<float>(floats_)) {
    int extents[2] = {height, width};
    const int distance = width * height;
    cufftHandle plan = 0;
    check(cufftPlanMany(&plan, 2, extents, nullptr, 1, distance, nullptr, 1, distance, CUFFT_C2C,
                        channels),
          "cufftPlanMany");
    plan_ = plan;
}
CufftForward2d::~CufftForward2d() {
    cufftDestroy(plan_);
    cudaFree(signal_);
    cudaFree(spectrum_);
}
void CufftForward2d::run() {
    check(cufftExecC2C(plan_, reinterpret_cast<cufftComplex*>(signal_),
                       reinterpret_cast<cufftComplex*>(spectrum_), CUFFT_FORWARD),
          "cufftExecC2C");
}
std::vector<float> CufftForward2d::result() const {
    return host_copy_of(spectrum_, floats_);
}

BitonicSort::BitonicSort(const std::vector<float>& values)
    : count_(values.size()), values_(device_copy_of(values)), sorted_(device_array<float>(count_)) {
}
BitonicSort::~BitonicSort() {
    cudaFree(values_);
    cudaFree(sorted_);
}
void BitonicSort::run() {
    bitonic_sort(values_, sorted_, static_cast<int>(count_));
}
std::vector<float> BitonicSort::result() const {
    return host_copy_of(sorted_, count_);
}

CubRadixSort::CubRadixSort(const std::vector<float>& values)
    : count_(values.size()), values_(device_copy_of(values)), sorted_(device_array<float>(count_)) {
    check(cub::DeviceRadixSort::SortKeys(nullptr, scratch_bytes_, values_, sorted_,
                                         static_cast<int>(count_)),
          "cub::DeviceRadixSort::SortKeys (sizing)");
    check(cudaMalloc(&scratch_, scratch_bytes_), "cudaMalloc");
}
CubRadixSort::~CubRadixSort() {
    cudaFree(values_);
    cudaFree(sorted_);
    cudaFree(scratch_);
}
void CubRadixSort::run() {
    check(cub::DeviceRadixSort::SortKeys(scratch_, scratch_bytes_, values_, sorted_,
                                         static_cast<int>(count_)),
          "cub::DeviceRadixSort::SortKeys");
}
std::vector<float> CubRadixSort::result() const {
    return host_copy_of(sorted_, count_);
}

LowerBound::LowerBound(const std::vector<float>& keys, const std::vector<float>& queries)
    : key_count_(static_cast<int>(keys.size())), query_count_(static_cast<int>(queries.size())),
      keys_(device_copy_of(keys)), queries_(device_copy_of(queries)),
      positions_(device_array<int>(queries.size())) {}
LowerBound::~LowerBound() {
    cudaFree(keys_);
    cudaFree(queries_);
    cudaFree(positions_);
}
void LowerBound::run() {
    lower_bounds<<<blocks_for(static_cast<std::size_t>(query_count_), search_threads),
                   search_threads>>>(keys_, key_count_, queries_, query_count_, positions_);
    check_launch("lower_bounds");
}
std::vector<int> LowerBound::result() const {
    return host_copy_of(positions_, static_cast<std::size_t>(query_count_));
}

UniformGrid::UniformGrid(const std::vector<float>& positions, int cells)
    : particles_(static_cast<int>(positions.size() / 2)), cells_(cells),
      positions_(device_copy_of(positions)),
      keys_(device_array<float>(static_cast<std::size_t>(particles_))),
      sorted_(device_array<float>(static_cast<std::size_t>(particles_))),
      starts_(device_array<int>(static_cast<std::size_t>(cells) * cells)) {
    // Cell c's particles start at the first key of at least c * particles.
    std::vector<float> targets(static_cast<std::size_t>(cells) * cells);
    for (std::size_t c = 0; c < targets.size(); ++c) {
        targets[c] = static_cast<float>(c) * static_cast<float>(particles_);
    }
    targets_ = device_copy_of(targets);
}
UniformGrid::~UniformGrid() {
    cudaFree(positions_);
    cudaFree(keys_);
    cudaFree(sorted_);
    cudaFree(targets_);
    cudaFree(starts_);
}
void UniformGrid::run() {
    cell_keys<<<blocks_for(static_cast<std::size_t>(particles_), search_threads), search_threads>>>(
        reinterpret_cast<const float2*>(positions_), particles_, static_cast<float>(cells_), keys_);
    check_launch("cell_keys");
    bitonic_sort(keys_, sorted_, particles_);
    const int cell_count = cells_ * cells_;
    lower_bounds<<<blocks_for(static_cast<std::size_t>(cell_count), search_threads),
                   search_threads>>>(sorted_, particles_, targets_, cell_count, starts_);
    check_launch("lower_bounds");
}
std::vector<float> UniformGrid::keys() const {
    return host_copy_of(sorted_, static_cast<std::size_t>(particles_));
}
std::vector<int> UniformGrid::starts() const {
    return host_copy_of(starts_, static_cast<std::size_t>(cells_) * cells_);
}

CubMax::CubMax(const std::vector<float>& values)
    : count_(values.size()), values_(device_copy_of(values)), largest_(device_array<float>(1)) {
    check(cub::DeviceReduce::Max(nullptr, scratch_bytes_, values_, largest_, count_),
          "cub::DeviceReduce::Max (sizing)");
    check(cudaMalloc(&scratch_, scratch_bytes_), "cudaMalloc");
    check(cudaMallocHost(&host_largest_, sizeof(float)), "cudaMallocHost");
}
CubMax::~CubMax() {
    cudaFree(values_);
    cudaFree(largest_);
    cudaFree(scratch_);
    cudaFreeHost(host_largest_);
}
void CubMax::run() {
    check(cub::DeviceReduce::Max(scratch_, scratch_bytes_, values_, largest_, count_),
          "cub::DeviceReduce::Max");
    check(cudaMemcpyAsync(host_largest_, largest_, sizeof(float), cudaMemcpyDeviceToHost),
          "cudaMemcpyAsync");
}
float CubMax::result() const {
    return *host_largest_;
}

ToneMap::ToneMap(const std::vector<float>& values, float white)
    : count_(values.size()), white_(white), hdr_(device_copy_of(values)),
      display_(device_array<float>(values.size())) {}
ToneMap::~ToneMap() {
    cudaFree(hdr_);
    cudaFree(display_);
}
void ToneMap::run() {
    // One thread per float4, and one per float left after the last.
    const std::size_t threads = count_ / 4 + count_ % 4;
    tone_map<<<blocks_for(threads, map_threads), map_threads>>>(hdr_, display_, count_,
                                                                1.0f / white_);
    check_launch("tone_map");
}
std::vector<float> ToneMap::result() const {
    return host_copy_of(display_, count_);
}

GridTracer::GridTracer(const Scene& scene) : scene_(scene) {
    // (v0, v1 - v0, v2 - v0) of each triangle: the edges every test and the shading compute.
    const std::size_t count = scene.triangles.size() / 9;
    std::vector<float> packed(12 * count, 0.0f);
    for (std::size_t t = 0; t < count; ++t) {
        const float* v = &scene.triangles[9 * t];
        for (int a = 0; a < 3; ++a) {
            packed[12 * t + a] = v[a];
            packed[12 * t + 4 + a] = v[3 + a] - v[a];
            packed[12 * t + 8 + a] = v[6 + a] - v[a];
        }
    }
    triangles_ = device_copy_of(packed);
    voxels_ = device_copy_of(scene.voxels);
    trilist_ = device_copy_of(scene.trilist);
    const std::size_t rays = static_cast<std::size_t>(scene.width) * scene.height;
    hits_ = device_array<float>(4 * rays);
    colors_ = device_array<float>(4 * rays);
}
GridTracer::~GridTracer() {
    cudaFree(triangles_);
    cudaFree(voxels_);
    cudaFree(trilist_);
    cudaFree(hits_);
    cudaFree(colors_);
}
void GridTracer::run() {
    const Scene& s = scene_;
    const TraceSetup setup{float3_of(s.origin),
                           float3_of(s.cell),
                           make_int3(s.cells[0], s.cells[1], s.cells[2]),
                           float3_of(s.eye),
                           float3_of(s.forward),
                           float3_of(s.right),
                           float3_of(s.up),
                           float3_of(s.light),
                           s.width,
                           s.height};
    const dim3 threads(16, 8);
    const dim3 blocks(blocks_for(static_cast<std::size_t>(s.width), threads.x),
                      blocks_for(static_cast<std::size_t>(s.height), threads.y));
    trace<<<blocks, threads>>>(
        setup, reinterpret_cast<const float4*>(triangles_), reinterpret_cast<const int2*>(voxels_),
        trilist_, reinterpret_cast<float4*>(hits_), reinterpret_cast<float4*>(colors_));
    check_launch("trace");
}
std::vector<float> GridTracer::hits() const {
    return host_copy_of(hits_, 4 * static_cast<std::size_t>(scene_.width) * scene_.height);
}
std::vector<float> GridTracer::colors() const {
    const std::vector<float> padded =
        host_copy_of(colors_, 4 * static_cast<std::size_t>(scene_.width) * scene_.height);
    std::vector<float> colors;
    colors.reserve(padded.size() / 4 * 3);
    for (std::size_t i = 0; i < padded.size(); i += 4) {
        colors.insert(colors.end(), {padded[i], padded[i + 1], padded[i + 2]});
    }
    return colors;
}

} // namespace bench::cuda
