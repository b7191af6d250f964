// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The hand-written CPU baselines the Brook versions are measured against: the loops an expert
// would write with OpenMP (`parallel for simd`), compiled for this machine's full vector width
// (bench/CMakeLists.txt), plus STREAM's triad for the memory speed. OpenBLAS is called directly
// from the benchmarks. Every function works on plain float arrays; a float4 stream is 4 floats per
// element in the same order.
#include <array>
#include <cstddef>

namespace bench {

/// out[i] = alpha * x[i] + y[i] for i < count.
void omp_saxpy(float alpha, const float* x, const float* y, float* out, std::size_t count);

/// STREAM's triad in its own precision: a[i] = b[i] + scalar * c[i] over doubles.
void stream_triad(double* a, const double* b, const double* c, double scalar, std::size_t count);

/// y_new[i] = alpha * (A x)[i] + beta * y[i], A row-major rows x columns.
void omp_sgemv(float alpha, const float* a, const float* x, float beta, const float* y,
               float* y_new, std::size_t rows, std::size_t columns);

/// The component-wise sum of `count` float4 elements (4 * count floats).
std::array<float, 4> omp_sum_float4(const float* data, std::size_t count);

/// The synthetic kernel of the paper's Figure 4 on `count` floats: v = a[i], then 43 times
/// v = v * b + c, then out[i] = v. 86 flops per float.
inline constexpr int mad_count = 43;
void omp_mad43(const float* a, float b, float c, float* out, std::size_t count);

/// c = a b for `count` 4x4 row-major matrices (16 floats each).
void omp_mat4mult(const float* a, const float* b, float* c, std::size_t count);

/// One explicit step of a cloth of rows x cols particles (float4 per particle, w unused) joined to
/// their 4 grid neighbours by springs of rest length `rest` (the table1 benchmark's kernel): new
/// velocity, new position, surface normal and each spring's stretch (right, left, down, up).
struct Cloth {
    float rest = 0.0f;
    float stiffness = 0.0f;
    float damping = 0.0f;
    float dt = 0.0f;
    float gravity = 0.0f;
};
void omp_cloth(const Cloth& cloth, const float* pos, const float* vel, std::size_t rows,
               std::size_t cols, float* new_pos, float* new_vel, float* normal, float* strain);

} // namespace bench
