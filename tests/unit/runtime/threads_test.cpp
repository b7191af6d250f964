// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Threads (COMPAT §3.6) on the core and the cpu backend: threads that launch kernels and
// reductions at the same time, each on its own streams and on one they share, get what each
// would get alone. The gl backend's threads are tested by the conformance programs
// compat_3_6_threads and compat_3_6_thread_stress.
#include <brook/brook.hpp>
#include <brook/kernel_abi.hpp>

#include "hand_kernels.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <vector>

namespace {

using brook::make_stream;
using hand::contents;

TEST(Threads, ConcurrentLaunchesGetTheirOwnResults) {
    constexpr int thread_count = 8;
    const std::vector<float> shared_values{1, 2, 3, 4};
    brook::stream shared = make_stream<float>(4);
    streamRead(shared, shared_values.data());
    std::vector<int> mismatches(thread_count, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < thread_count; ++t) {
        threads.emplace_back([t, &mismatches, shared] {
            for (int round = 0; round < 40; ++round) {
                // Sizes differ between threads and rounds, so storage is freed and made anew.
                const auto n = static_cast<std::size_t>(64 + 29 * t + round);
                std::vector<float> values(n);
                float expected = 0.0f;
                for (std::size_t i = 0; i < n; ++i) {
                    values[i] = static_cast<float>((i * 3 + static_cast<std::size_t>(t)) % 17);
                    expected += values[i];
                }
                brook::stream a = make_stream<float>(static_cast<long long>(n));
                brook::stream b = make_stream<float>(static_cast<long long>(n));
                streamRead(a, values.data());
                hand::copy<float>(a, b);
                mismatches[static_cast<std::size_t>(t)] += contents<float>(b) != values;
                mismatches[static_cast<std::size_t>(t)] += hand::sum_value<float>(b) != expected;
                mismatches[static_cast<std::size_t>(t)] += hand::sum_value<float>(shared) != 10.0f;
            }
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    EXPECT_EQ(mismatches, std::vector<int>(thread_count, 0));
}

// Streams of a size the cpu backend maps (4 MiB or more) and keeps when they are freed, made,
// written and freed on several threads at once: a mapping one thread frees may go to a stream that
// another makes, and that stream starts as zeros all the same.
TEST(Threads, LargeStreamsMadeAndFreedAtOnceStartAsZeros) {
    constexpr int thread_count = 4;
    constexpr std::size_t count = (std::size_t{6} << 20) / sizeof(float);
    std::vector<int> mismatches(thread_count, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < thread_count; ++t) {
        threads.emplace_back([t, &mismatches] {
            const std::vector<float> values(count, static_cast<float>(t + 1));
            std::vector<float> out(count);
            for (int round = 0; round < 6; ++round) {
                brook::stream s = make_stream<float>(static_cast<long long>(count));
                streamWrite(s, out.data());
                mismatches[static_cast<std::size_t>(t)] +=
                    std::count(out.begin(), out.end(), 0.0f) != static_cast<long>(count);
                streamRead(s, values.data());
                streamWrite(s, out.data());
                mismatches[static_cast<std::size_t>(t)] += out != values;
            }
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    EXPECT_EQ(mismatches, std::vector<int>(thread_count, 0));
}

} // namespace
