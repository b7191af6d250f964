// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Unit tests of the CUDA backend's block- and warp-level algorithms, run on the host.
//
// Shared with the device: everything in runtime/backends/cuda/device/ (warp_reduce, block_reduce,
// reduce_chunk, reduce_chunk_any_order, plan_chunks, RowMajorBox, warp_exclusive_scan,
// block_exclusive_scan, count_chunk, scan_chunk): the very templates a CUDA kernel instantiates
// with DeviceBlock. Only the execution adaptor differs: HostBlock (host_block.hpp) runs each step
// for every thread of a simulated block, and the grid passes below are loops over blocks where the
// device launches a grid.
#include "../device/ordered_reduce.hpp"
#include "../device/prefix_scan.hpp"
#include "host_block.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace bd = brook::cuda::device;
using bd::Size;

namespace {

// A 2x2 matrix of unsigned 32-bit integers; the product (mod 2^32, exact) is associative and not
// commutative, so any re-ordering of a fold shows in the result.
struct Mat2 {
    std::uint32_t a, b, c, d;
    friend bool operator==(const Mat2&, const Mat2&) = default;
};

Mat2 multiply(const Mat2& l, const Mat2& r) {
    return {l.a * r.a + l.b * r.c, l.a * r.b + l.b * r.d, l.c * r.a + l.d * r.c,
            l.c * r.b + l.d * r.d};
}

struct MatMul {
    Mat2 operator()(const Mat2& l, const Mat2& r) const { return multiply(l, r); }
};
struct FloatAdd {
    float operator()(float l, float r) const { return l + r; }
};
struct SizeAdd {
    Size operator()(Size l, Size r) const { return l + r; }
};
struct SizeMax {
    Size operator()(Size l, Size r) const { return l < r ? r : l; }
};

void PrintTo(const Mat2& m, std::ostream* os) {
    *os << "[" << m.a << " " << m.b << "; " << m.c << " " << m.d << "]";
}

std::uint32_t word(std::mt19937& rng) {
    return static_cast<std::uint32_t>(rng());
}

// Random matrices with an odd determinant: invertible mod 2^32, so long products never collapse
// to a matrix that hides ordering mistakes (such as zero).
std::vector<Mat2> random_matrices(Size n, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<Mat2> m;
    m.reserve(n);
    while (m.size() < n) {
        const Mat2 x{word(rng), word(rng), word(rng), word(rng)};
        if (((x.a * x.d - x.b * x.c) & 1u) != 0)
            m.push_back(x);
    }
    return m;
}

std::vector<float> random_floats(Size n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (float& x : v)
        x = dist(rng);
    return v;
}

template <class T, class Op> T left_fold(const std::vector<T>& v, Op op) {
    T acc = v.front();
    for (std::size_t i = 1; i < v.size(); ++i)
        acc = op(acc, v[i]);
    return acc;
}

constexpr Size sizes[] = {1, 2, 31, 32, 33, 1000, 1024, 1025, (Size{1} << 20) + 1};
constexpr unsigned block_sizes[] = {32, 256, 1024};
constexpr Size max_blocks_choices[] = {1, 5, 120};
constexpr unsigned items = 4;

std::string where(Size n, unsigned threads, Size max_blocks) {
    return "n=" + std::to_string(n) + " threads=" + std::to_string(threads) +
           " max_blocks=" + std::to_string(max_blocks);
}

// The block-level folds the grid passes call: in row-major order, Items elements per thread and
// tile (reduce_chunk), or in any order (reduce_chunk_any_order, for operators that commute).
template <unsigned Items> struct InOrder {
    template <class... Args> void operator()(Args&&... args) const {
        bd::reduce_chunk<Items>(std::forward<Args>(args)...);
    }
};
struct AnyOrder {
    template <class... Args> void operator()(Args&&... args) const {
        bd::reduce_chunk_any_order(std::forward<Args>(args)...);
    }
};

// The two kernels of the grid reduction: pass 1 over `plan.blocks` blocks, pass 2 in one block.
template <unsigned Items, class Fold = InOrder<Items>, class Load, class Op>
bd::LoadedType<Load> grid_reduce(Size n, unsigned threads, Size max_blocks, Load load, Op op) {
    using T = bd::LoadedType<Load>;
    const bd::ChunkPlan plan = bd::plan_chunks(n, threads, Items, max_blocks);
    EXPECT_LE(plan.blocks, max_blocks);
    std::vector<T> partials(plan.blocks);
    for (Size c = 0; c < plan.blocks; ++c) {
        bd::HostBlock block(threads);
        Fold{}(block, n, plan.chunk, c, load, op, &partials[c]);
    }
    T result{};
    bd::HostBlock block(threads);
    Fold{}(
        block, plan.blocks, plan.blocks, 0, [&partials](Size i) { return partials[i]; }, op,
        &result);
    return result;
}

// The three kernels of the grid scan; returns the grand total.
template <unsigned Items>
Size grid_exclusive_scan(const std::vector<Size>& counts, std::vector<Size>& out, unsigned threads,
                         Size max_blocks) {
    const Size n = counts.size();
    const bd::ChunkPlan plan = bd::plan_chunks(n, threads, Items, max_blocks);
    auto load = [&counts](Size i) { return counts[i]; };
    std::vector<Size> totals(plan.blocks);
    for (Size c = 0; c < plan.blocks; ++c) {
        bd::HostBlock block(threads);
        bd::count_chunk(block, n, plan.chunk, c, load, &totals[c]);
    }
    Size grand_total = 0;
    {
        bd::HostBlock block(threads);
        bd::scan_chunk<Items>(
            block, plan.blocks, plan.blocks, 0, 0, [&totals](Size i) { return totals[i]; },
            [&totals](Size i, Size v) { totals[i] = v; }, &grand_total);
    }
    out.assign(n, ~Size{0});
    for (Size c = 0; c < plan.blocks; ++c) {
        bd::HostBlock block(threads);
        bd::scan_chunk<Items>(
            block, n, plan.chunk, c, totals[c], load, [&out](Size i, Size v) { out[i] = v; },
            nullptr);
    }
    return grand_total;
}

// ------------------------------------------------------------------------------------------------

TEST(OrderedReduce, MatrixOperatorIsNotCommutative) {
    const std::vector<Mat2> m = random_matrices(33, 1);
    std::vector<Mat2> reversed(m.rbegin(), m.rend());
    EXPECT_NE(left_fold(m, MatMul{}), left_fold(reversed, MatMul{}));
    EXPECT_NE(multiply(m[0], m[1]), multiply(m[1], m[0]));
}

TEST(OrderedReduce, WarpReduceFoldsLeadingLanesInOrder) {
    for (unsigned threads : block_sizes) {
        const std::vector<Mat2> m = random_matrices(threads, 2);
        for (unsigned valid = 1; valid <= bd::warp_size; ++valid) {
            bd::HostBlock block(threads);
            bd::PerThread<bd::HostBlock, Mat2> v(block);
            block.each([&](bd::ThreadId t) {
                if (t.lane() < valid)
                    v[t] = m[t.index];
            });
            const auto r = bd::warp_reduce(block, v, valid, MatMul{});
            for (unsigned w = 0; w < threads / bd::warp_size; ++w) {
                const auto first = m.begin() + w * bd::warp_size;
                const std::vector<Mat2> lanes(first, first + valid);
                EXPECT_EQ(r[bd::ThreadId{w * bd::warp_size}], left_fold(lanes, MatMul{}))
                    << "threads=" << threads << " valid=" << valid << " warp=" << w;
            }
        }
    }
}

TEST(OrderedReduce, BlockReduceFoldsLeadingThreadsInOrder) {
    for (unsigned threads : block_sizes) {
        const std::vector<Mat2> m = random_matrices(threads, 3);
        for (unsigned valid :
             {1u, 2u, 31u, 32u, 33u, 63u, 64u, 65u, 255u, 256u, 257u, 1000u, 1023u, 1024u}) {
            if (valid > threads)
                continue;
            bd::HostBlock block(threads);
            bd::PerThread<bd::HostBlock, Mat2> v(block);
            block.each([&](bd::ThreadId t) {
                if (t.index < valid)
                    v[t] = m[t.index];
            });
            const auto r = bd::block_reduce(block, v, valid, MatMul{});
            const std::vector<Mat2> used(m.begin(), m.begin() + valid);
            EXPECT_EQ(r[bd::ThreadId{0}], left_fold(used, MatMul{}))
                << "threads=" << threads << " valid=" << valid;
        }
    }
}

TEST(OrderedReduce, BlockReduceCanBeCalledTwiceInARow) {
    bd::HostBlock block(256);
    bd::PerThread<bd::HostBlock, Size> v(block);
    block.each([&](bd::ThreadId t) { v[t] = t.index; });
    auto add = [](Size a, Size b) { return a + b; };
    const auto first = bd::block_reduce(block, v, 256, add);
    const auto second = bd::block_reduce(block, v, 100, add);
    EXPECT_EQ(first[bd::ThreadId{0}], Size{255 * 256 / 2});
    EXPECT_EQ(second[bd::ThreadId{0}], Size{99 * 100 / 2});
}

TEST(OrderedReduce, PlanChunksCoversAllElementsWithWholeTiles) {
    for (Size n : sizes)
        for (unsigned threads : block_sizes)
            for (Size max_blocks : max_blocks_choices) {
                const bd::ChunkPlan plan = bd::plan_chunks(n, threads, items, max_blocks);
                EXPECT_EQ(plan.chunk % (Size{threads} * items), 0u);
                EXPECT_LE(plan.blocks, max_blocks);
                EXPECT_GE(plan.blocks * plan.chunk, n);
                EXPECT_LT((plan.blocks - 1) * plan.chunk, n) << where(n, threads, max_blocks);
            }
}

TEST(OrderedReduce, GridReduceOfMatricesEqualsTheLeftFold) {
    for (Size n : sizes) {
        const std::vector<Mat2> m = random_matrices(n, 4);
        const Mat2 expected = left_fold(m, MatMul{});
        auto load = [&m](Size i) { return m[i]; };
        for (unsigned threads : block_sizes)
            for (Size max_blocks : max_blocks_choices)
                EXPECT_EQ(grid_reduce<items>(n, threads, max_blocks, load, MatMul{}), expected)
                    << where(n, threads, max_blocks);
    }
}

TEST(OrderedReduce, GridReduceWithOneOrThreeItemsPerThread) {
    for (Size n : {Size{1}, Size{33}, Size{1025}, Size{100000}}) {
        const std::vector<Mat2> m = random_matrices(n, 5);
        const Mat2 expected = left_fold(m, MatMul{});
        auto load = [&m](Size i) -> const Mat2& { return m[i]; };
        for (unsigned threads : block_sizes) {
            EXPECT_EQ(grid_reduce<1>(n, threads, 7, load, MatMul{}), expected) << n;
            EXPECT_EQ(grid_reduce<3>(n, threads, 7, load, MatMul{}), expected) << n;
        }
    }
}

TEST(OrderedReduce, GridReduceOfFloatsIsTheSum) {
    for (Size n : sizes) {
        const std::vector<float> v = random_floats(n, 6);
        double sum = 0, magnitude = 0;
        for (float x : v) {
            sum += x;
            magnitude += std::fabs(x);
        }
        auto load = [&v](Size i) { return v[i]; };
        for (unsigned threads : block_sizes)
            for (Size max_blocks : max_blocks_choices) {
                const float got = grid_reduce<items>(n, threads, max_blocks, load, FloatAdd{});
                EXPECT_NEAR(got, sum, 1e-6 * magnitude + 1e-7) << where(n, threads, max_blocks);
            }
    }
}

TEST(AnyOrderReduce, GridReduceOfIntegersIsExact) {
    for (Size n : sizes) {
        std::vector<Size> v(n);
        std::mt19937_64 rng(n);
        for (Size& x : v)
            x = rng() >> 8;
        const Size sum = std::accumulate(v.begin(), v.end(), Size{0});
        const Size largest = *std::max_element(v.begin(), v.end());
        auto load = [&v](Size i) { return v[i]; };
        for (unsigned threads : block_sizes)
            for (Size max_blocks : max_blocks_choices) {
                EXPECT_EQ((grid_reduce<items, AnyOrder>(n, threads, max_blocks, load, SizeAdd{})),
                          sum)
                    << where(n, threads, max_blocks);
                EXPECT_EQ((grid_reduce<items, AnyOrder>(n, threads, max_blocks, load, SizeMax{})),
                          largest)
                    << where(n, threads, max_blocks);
            }
    }
}

TEST(AnyOrderReduce, GridReduceOfFloatsIsTheSum) {
    for (Size n : sizes) {
        const std::vector<float> v = random_floats(n, 8);
        double sum = 0, magnitude = 0;
        for (float x : v) {
            sum += x;
            magnitude += std::fabs(x);
        }
        auto load = [&v](Size i) { return v[i]; };
        for (unsigned threads : block_sizes) {
            const float got = grid_reduce<items, AnyOrder>(n, threads, 120, load, FloatAdd{});
            EXPECT_NEAR(got, sum, 1e-6 * magnitude + 1e-7) << where(n, threads, 120);
        }
    }
}

TEST(OrderedReduce, RowMajorBoxIsDenseOnlyWhenItsElementsAreAdjacent) {
    // A 10x9 array: the whole of it, whole rows, one row's columns, a column range, a column.
    EXPECT_TRUE((bd::RowMajorBox{2, 0, {10, 9, 1, 1}, {9, 1, 0, 0}}.dense()));
    EXPECT_TRUE((bd::RowMajorBox{2, 2 * 9, {7, 9, 1, 1}, {9, 1, 0, 0}}.dense()));
    EXPECT_TRUE((bd::RowMajorBox{2, 2 * 9 + 3, {1, 5, 1, 1}, {9, 1, 0, 0}}.dense()));
    EXPECT_FALSE((bd::RowMajorBox{2, 3, {10, 5, 1, 1}, {9, 1, 0, 0}}.dense()));
    EXPECT_FALSE((bd::RowMajorBox{2, 3, {10, 1, 1, 1}, {9, 1, 0, 0}}.dense()));
    // 1-D, and a 5x1x4 box whose middle extent is 1 (its stride does not matter).
    EXPECT_TRUE((bd::RowMajorBox{1, 7, {100, 1, 1, 1}, {1, 0, 0, 0}}.dense()));
    EXPECT_TRUE((bd::RowMajorBox{3, 0, {5, 1, 4, 1}, {4, 123, 1, 0}}.dense()));
    EXPECT_FALSE((bd::RowMajorBox{3, 0, {5, 1, 4, 1}, {8, 4, 1, 0}}.dense()));
}

TEST(OrderedReduce, RowMajorBoxVisitsTheSubRectangleInRowMajorOrder) {
    // A 7x5 box at row 2, column 3 of a 10x9 array.
    const bd::RowMajorBox box{2, 2 * 9 + 3, {7, 5, 1, 1}, {9, 1, 0, 0}};
    ASSERT_EQ(box.count(), 35u);
    for (Size r = 0; r < box.count(); ++r)
        EXPECT_EQ(box.offset(r), (2 + r / 5) * 9 + 3 + r % 5);
}

TEST(OrderedReduce, GridReduceOfASubBox) {
    // 2-D: rows [3, 700) and columns [5, 1500) of a 713x1531 array.
    const Size rows = 713, cols = 1531;
    const std::vector<Mat2> m = random_matrices(rows * cols, 7);
    const bd::RowMajorBox box{2, 3 * cols + 5, {697, 1495, 1, 1}, {cols, 1, 0, 0}};
    std::vector<Mat2> inside;
    for (Size y = 3; y < 700; ++y)
        for (Size x = 5; x < 1500; ++x)
            inside.push_back(m[y * cols + x]);
    const Mat2 expected = left_fold(inside, MatMul{});
    auto load = [&](Size i) { return m[box.offset(i)]; };
    for (unsigned threads : block_sizes)
        EXPECT_EQ(grid_reduce<items>(box.count(), threads, 120, load, MatMul{}), expected)
            << threads;

    // 3-D: a 1x3x1 box, a thin slab of a 4x5x6 array (one element in the last dimension).
    const bd::RowMajorBox slab{3, 1 * 30 + 1 * 6 + 4, {1, 3, 1, 1}, {30, 6, 1, 0}};
    const Mat2 slab_expected = multiply(multiply(m[40], m[46]), m[52]);
    auto slab_load = [&](Size i) { return m[slab.offset(i)]; };
    EXPECT_EQ(grid_reduce<items>(slab.count(), 32, 4, slab_load, MatMul{}), slab_expected);
}

// ------------------------------------------------------------------------------------------------

std::vector<Size> random_counts(Size n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<Size> dist(0, 5);
    std::vector<Size> v(n);
    for (Size& x : v)
        x = dist(rng);
    // A few huge counts so sums cross 32 bits.
    for (Size i = 0; i < n; i += 997)
        v[i] = Size{1} << 33;
    return v;
}

TEST(PrefixScan, WarpAndBlockExclusiveScan) {
    for (unsigned threads : block_sizes) {
        const std::vector<Size> counts = random_counts(threads, 8);
        bd::HostBlock block(threads);
        bd::PerThread<bd::HostBlock, Size> warp_x(block), block_x(block);
        block.each([&](bd::ThreadId t) { warp_x[t] = block_x[t] = counts[t.index]; });
        const auto warp_total = bd::warp_exclusive_scan(block, warp_x);
        const auto block_total = bd::block_exclusive_scan(block, block_x);

        std::vector<Size> expected(threads);
        std::exclusive_scan(counts.begin(), counts.end(), expected.begin(), Size{0});
        const Size total = std::accumulate(counts.begin(), counts.end(), Size{0});
        for (unsigned i = 0; i < threads; ++i) {
            const bd::ThreadId t{i};
            const Size warp_base = expected[t.warp() * bd::warp_size];
            const Size warp_end = t.warp() + 1 < threads / bd::warp_size
                                      ? expected[(t.warp() + 1) * bd::warp_size]
                                      : total;
            EXPECT_EQ(warp_x[t], expected[i] - warp_base) << threads << " " << i;
            EXPECT_EQ(warp_total[t], warp_end - warp_base) << threads << " " << i;
            EXPECT_EQ(block_x[t], expected[i]) << threads << " " << i;
            EXPECT_EQ(block_total[t], total) << threads << " " << i;
        }
    }
}

TEST(PrefixScan, GridExclusiveScanEqualsStdExclusiveScan) {
    for (Size n : sizes) {
        const std::vector<Size> counts = random_counts(n, 9);
        std::vector<Size> expected(n);
        std::exclusive_scan(counts.begin(), counts.end(), expected.begin(), Size{0});
        const Size total = std::accumulate(counts.begin(), counts.end(), Size{0});
        for (unsigned threads : block_sizes)
            for (Size max_blocks : max_blocks_choices) {
                std::vector<Size> out;
                EXPECT_EQ(grid_exclusive_scan<items>(counts, out, threads, max_blocks), total)
                    << where(n, threads, max_blocks);
                EXPECT_EQ(out, expected) << where(n, threads, max_blocks);
            }
        std::vector<Size> out;
        EXPECT_EQ(grid_exclusive_scan<3>(counts, out, 64, 9), total) << n;
        EXPECT_EQ(out, expected) << n;
    }
}

TEST(PrefixScan, ScanChunkWorksInPlace) {
    std::vector<Size> v = random_counts(5000, 10);
    std::vector<Size> expected(v.size());
    std::exclusive_scan(v.begin(), v.end(), expected.begin(), Size{7});
    Size total = 0;
    bd::HostBlock block(64);
    bd::scan_chunk<items>(
        block, v.size(), v.size(), 0, 7, [&v](Size i) { return v[i]; },
        [&v](Size i, Size x) { v[i] = x; }, &total);
    EXPECT_EQ(v, expected);
    EXPECT_EQ(total, expected.back() - 7 + random_counts(5000, 10).back());
}

} // namespace
