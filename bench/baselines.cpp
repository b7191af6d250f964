// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The OpenMP baselines. Each loop is the straightforward parallel, vectorised version: the
// outer loop split across threads, the inner work left to the compiler's vectoriser through
// `omp simd`. Reductions use OpenMP's own `reduction` clause, which may combine per-thread results
// in any order; that is what an expert would write, and the benchmarks check results with a
// tolerance that allows for it.
#include "baselines.hpp"

#include <algorithm>
#include <cmath>

namespace bench {

void omp_saxpy(float alpha, const float* x, const float* y, float* out, std::size_t count) {
#pragma omp parallel for simd schedule(static)
    for (std::size_t i = 0; i < count; ++i) {
        out[i] = alpha * x[i] + y[i];
    }
}

void stream_triad(double* a, const double* b, const double* c, double scalar, std::size_t count) {
#pragma omp parallel for simd schedule(static)
    for (std::size_t i = 0; i < count; ++i) {
        a[i] = b[i] + scalar * c[i];
    }
}

void omp_sgemv(float alpha, const float* a, const float* x, float beta, const float* y,
               float* y_new, std::size_t rows, std::size_t columns) {
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < rows; ++i) {
        const float* row = a + i * columns;
        float dot = 0.0f;
#pragma omp simd reduction(+ : dot)
        for (std::size_t j = 0; j < columns; ++j) {
            dot += row[j] * x[j];
        }
        y_new[i] = alpha * dot + beta * y[i];
    }
}

std::array<float, 4> omp_sum_float4(const float* data, std::size_t count) {
    // The reduction an expert writes: the float4s as one array of floats, each thread folding a
    // contiguous block into `lanes` interleaved accumulators (8 float4s in flight, so that the
    // vector additions form independent chains and the loop runs at load speed), one parallel
    // pass, then the accumulators of the same component added up.
    constexpr std::size_t lanes = 32;
    const std::size_t floats = 4 * count;
    const std::size_t groups = floats / lanes;
    std::array<float, 4> total{};
#pragma omp parallel
    {
        float partial[lanes] = {};
#pragma omp for schedule(static) nowait
        for (std::size_t group = 0; group < groups; ++group) {
            const float* values = data + group * lanes;
#pragma omp simd
            for (std::size_t k = 0; k < lanes; ++k) {
                partial[k] += values[k];
            }
        }
#pragma omp critical
        for (std::size_t k = 0; k < lanes; ++k) {
            total[k % 4] += partial[k];
        }
    }
    for (std::size_t i = groups * lanes; i < floats; ++i) {
        total[i % 4] += data[i];
    }
    return total;
}

void omp_mad43(const float* a, float b, float c, float* out, std::size_t count) {
#pragma omp parallel for simd schedule(static)
    for (std::size_t i = 0; i < count; ++i) {
        float v = a[i];
        for (int k = 0; k < mad_count; ++k) {
            v = v * b + c;
        }
        out[i] = v;
    }
}

void omp_mat4mult(const float* a, const float* b, float* c, std::size_t count) {
#pragma omp parallel for schedule(static)
    for (std::size_t m = 0; m < count; ++m) {
        const float* am = a + 16 * m;
        const float* bm = b + 16 * m;
        float* cm = c + 16 * m;
        for (int i = 0; i < 4; ++i) {
#pragma omp simd
            for (int j = 0; j < 4; ++j) {
                cm[4 * i + j] = am[4 * i] * bm[j] + am[4 * i + 1] * bm[4 + j] +
                                am[4 * i + 2] * bm[8 + j] + am[4 * i + 3] * bm[12 + j];
            }
        }
    }
}

namespace {

struct Vec3 {
    float x, y, z;
};

Vec3 operator+(Vec3 a, Vec3 b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
Vec3 operator-(Vec3 a, Vec3 b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
Vec3 operator*(Vec3 a, float s) {
    return {a.x * s, a.y * s, a.z * s};
}
float length(Vec3 v) {
    return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}
Vec3 cross(Vec3 a, Vec3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

Vec3 load(const float* data, std::size_t index) {
    return {data[4 * index], data[4 * index + 1], data[4 * index + 2]};
}

void store(float* data, std::size_t index, Vec3 v, float w) {
    data[4 * index] = v.x;
    data[4 * index + 1] = v.y;
    data[4 * index + 2] = v.z;
    data[4 * index + 3] = w;
}

} // namespace

// The same arithmetic as table1.br's cloth kernel, neighbour for neighbour; a neighbour past the
// edge is the particle itself (Brook's gather clamps), a spring of length 0 that pulls nothing.
void omp_cloth(const Cloth& cloth, const float* pos, const float* vel, std::size_t rows,
               std::size_t cols, float* new_pos, float* new_vel, float* normal, float* strain) {
#pragma omp parallel for schedule(static)
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t c = 0; c < cols; ++c) {
            const std::size_t i = r * cols + c;
            const Vec3 here = load(pos, i);
            const Vec3 d[4] = {load(pos, r * cols + std::min(c + 1, cols - 1)) - here,
                               load(pos, r * cols + (c == 0 ? 0 : c - 1)) - here,
                               load(pos, std::min(r + 1, rows - 1) * cols + c) - here,
                               load(pos, (r == 0 ? 0 : r - 1) * cols + c) - here};
            Vec3 force{0.0f, -cloth.gravity, 0.0f};
            float stretch[4];
            for (int k = 0; k < 4; ++k) {
                const float len = length(d[k]);
                stretch[k] = len / cloth.rest;
                if (len > 1e-6f) {
                    force = force + d[k] * (cloth.stiffness * (len - cloth.rest) / len);
                }
            }
            const Vec3 v = (load(vel, i) + force * cloth.dt) * cloth.damping;
            store(new_vel, i, v, 0.0f);
            store(new_pos, i, here + v * cloth.dt, 1.0f);
            const Vec3 n = cross(d[0] - d[1], d[2] - d[3]);
            store(normal, i, n * (1.0f / length(n)), 0.0f);
            strain[4 * i] = stretch[0];
            strain[4 * i + 1] = stretch[1];
            strain[4 * i + 2] = stretch[2];
            strain[4 * i + 3] = stretch[3];
        }
    }
}

} // namespace bench
