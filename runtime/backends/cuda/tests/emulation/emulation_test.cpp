// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Unit tests of the CUDA emulation (cuda_emulation.hpp): the warp shuffles at the warp's edges,
// and the algorithms of device/ run through DeviceBlock, as generated kernels run them, against
// sequential folds and scans. The prefix scan's __shfl_up_sync and __shfl_sync are exercised only
// here: the generated kernels' reductions shuffle down alone.
#include "cuda_emulation.hpp"

#include "brook/cuda/ordered_reduce.hpp"
#include "brook/cuda/prefix_scan.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace bd = brook::cuda::device;
namespace emu = brook::cuda::emulation;

namespace {

constexpr unsigned all_lanes = 0xffffffffu;
constexpr unsigned one[3] = {1, 1, 1};
constexpr unsigned block_256[3] = {256, 1, 1};

/// x -> a x + b, composed in order (mod 2^32): associative, not commutative.
struct Affine {
    unsigned a, b;
    friend bool operator==(const Affine&, const Affine&) = default;
};
Affine compose(Affine first, const Affine& then) {
    return {first.a * then.a, first.a * then.b + first.b};
}
Affine affine(unsigned k) {
    return {k % 3 == 0 ? 3u : 1u, 7 * k + 1};
}

bd::ThreadId me() {
    return bd::ThreadId{threadIdx.x};
}

TEST(CudaEmulation, ShufflesReadTheirSourceLaneOrKeepTheirOwn) {
    const unsigned block[3] = {64, 1, 1};
    std::vector<unsigned> down(64), up(64), index(64);
    std::vector<unsigned long long> wide(64);
    emu::run_cooperative(one, block, [&] {
        const unsigned t = threadIdx.x;
        down[t] = __shfl_down_sync(all_lanes, 100 + t, 5u);
        up[t] = __shfl_up_sync(all_lanes, 100 + t, 3u);
        index[t] = __shfl_sync(all_lanes, 100 + t, 33); // lane 1 of each warp
        wide[t] = __shfl_down_sync(all_lanes, (1ull << 40) * t + t, 1u);
    });
    for (unsigned t = 0; t < 64; ++t) {
        const unsigned lane = t % 32;
        EXPECT_EQ(down[t], 100 + (lane + 5 < 32 ? t + 5 : t)) << t;
        EXPECT_EQ(up[t], 100 + (lane >= 3 ? t - 3 : t)) << t;
        EXPECT_EQ(index[t], 100 + t / 32 * 32 + 1) << t;
        const unsigned long long source = lane + 1 < 32 ? t + 1 : t;
        EXPECT_EQ(wide[t], (1ull << 40) * source + source) << t;
    }
}

TEST(CudaEmulation, BlockReduceFoldsInThreadOrder) {
    for (const unsigned valid : {1u, 5u, 32u, 33u, 100u, 256u}) {
        Affine result{};
        emu::run_cooperative(one, block_256, [&] {
            bd::DeviceBlock ex;
            bd::DeviceBlock::PerThread<Affine> v(ex);
            v[me()] = affine(threadIdx.x);
            const auto folded = bd::block_reduce(ex, v, valid, compose);
            if (threadIdx.x == 0)
                result = folded[me()];
        });
        Affine expected = affine(0);
        for (unsigned k = 1; k < valid; ++k)
            expected = compose(expected, affine(k));
        EXPECT_EQ(result, expected) << valid << " threads";
    }
}

TEST(CudaEmulation, TwoPassReductionOverSeveralBlocksKeepsTheOrder) {
    for (const bd::Size n : {1ull, 1000ull, 1025ull, 5000ull, 20000ull}) {
        const bd::ChunkPlan plan = bd::plan_chunks(n, 256, 4, 4);
        std::vector<Affine> partials(plan.blocks);
        const unsigned grid[3] = {static_cast<unsigned>(plan.blocks), 1, 1};
        emu::run_cooperative(grid, block_256, [&] {
            bd::DeviceBlock ex;
            bd::reduce_chunk<4>(
                ex, n, plan.chunk, blockIdx.x,
                [](bd::Size i) { return affine(static_cast<unsigned>(i)); }, compose,
                &partials[blockIdx.x]);
        });
        Affine result{};
        emu::run_cooperative(one, block_256, [&] {
            bd::DeviceBlock ex;
            bd::reduce_chunk<1>(
                ex, plan.blocks, plan.blocks, 0, [&](bd::Size i) { return partials[i]; }, compose,
                &result);
        });
        Affine expected = affine(0);
        for (bd::Size k = 1; k < n; ++k)
            expected = compose(expected, affine(static_cast<unsigned>(k)));
        EXPECT_EQ(result, expected) << n << " elements in " << plan.blocks << " blocks";
    }
}

TEST(CudaEmulation, ScanChunkIsAnExclusivePrefixSum) {
    const bd::Size n = 3000;
    std::vector<bd::Size> counts(n);
    for (bd::Size i = 0; i < n; ++i)
        counts[i] = (i * 7) % 5;
    std::vector<bd::Size> prefix(n, 0);
    bd::Size total = 0;
    emu::run_cooperative(one, block_256, [&] {
        bd::DeviceBlock ex;
        bd::scan_chunk<4>(
            ex, n, n, 0, 11, [&](bd::Size i) { return counts[i]; },
            [&](bd::Size i, bd::Size value) { prefix[i] = value; }, &total);
    });
    std::vector<bd::Size> expected(n);
    std::exclusive_scan(counts.begin(), counts.end(), expected.begin(), bd::Size{11});
    EXPECT_EQ(prefix, expected);
    EXPECT_EQ(total, std::accumulate(counts.begin(), counts.end(), bd::Size{0}));
}

TEST(CudaEmulation, SequentialRunsVisitEveryThreadOfEveryBlock) {
    const unsigned grid[3] = {3, 2, 1};
    const unsigned block[3] = {4, 1, 1};
    std::vector<int> visits(24, 0);
    emu::run_sequential(grid, block, [&] {
        EXPECT_EQ(gridDim.x, 3u);
        EXPECT_EQ(blockDim.x, 4u);
        ++visits[(blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x];
    });
    EXPECT_EQ(visits, std::vector<int>(24, 1));
}

TEST(CudaEmulationDeathTest, BarriersOutsideACooperativeLaunchAreFatal) {
    EXPECT_DEATH(emu::run_sequential(one, one, [] { __syncthreads(); }),
                 "__syncthreads outside a cooperative launch");
    EXPECT_DEATH(emu::run_sequential(one, one, [] { (void)__shfl_sync(all_lanes, 1u, 0); }),
                 "a warp shuffle outside a cooperative launch");
}

TEST(CudaEmulation, LaunchRefusesUnknownEntryPoints) {
    int frame = 0;
    void* frame_pointer = &frame;
    void* params[] = {&frame_pointer};
    const unsigned block[3] = {32, 1, 1};
    EXPECT_EQ(brook_emulate_launch("saxpy__opencl", nullptr, one, block, params), 1);
    const unsigned too_large[3] = {2048, 1, 1};
    EXPECT_EQ(brook_emulate_launch("saxpy__cuda", nullptr, one, too_large, params), 1);
}

} // namespace
