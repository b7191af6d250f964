// Threads (COMPAT §3.6) on the core and the cpu backend: threads that launch kernels and
// reductions at the same time, each on its own streams and on one they share, get what each
// would get alone; a call that mixes streams of two backends (threads may use different ones)
// stops with a message. The gl backend's threads are tested by the conformance programs
// compat_3_6_threads and compat_3_6_thread_stress.
#include <brook/brook.hpp>
#include <brook/kernel_abi.hpp>

#include "core/registry.hpp"
#include "core/stream_impl.hpp"

#include "death_test.hpp"
#include "hand_kernels.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

namespace {

class ThreadsDeathTest : public RuntimeDeathTest {};

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

TEST_F(ThreadsDeathTest, OneCallCannotMixBackends) {
    // A second backend, as a thread that chose another one would have.
    const std::unique_ptr<brook::detail::Backend> other = brook::detail::create_backend("cpu");
    const brook::ElementType& type = brook::element_traits<float>::type();
    brook::stream foreign(std::make_shared<brook::detail::StreamImpl>(
        *other, type, other->allocate(type, 4), brook::detail::Region::dense(1, {4, 0, 0, 0})));
    brook::stream mine = make_stream<float>(4);
    EXPECT_EXIT(hand::copy<float>(foreign, mine), testing::ExitedWithCode(1),
                "kernel 'copy': input stream 'a' is a stream of the cpu backend, but the call runs "
                "on the cpu backend of its other streams");
    // The outputs' backend runs the call, so the input is the stream out of place.
    EXPECT_EXIT(hand::copy<float>(mine, foreign), testing::ExitedWithCode(1),
                "input stream 'a' is a stream of the cpu backend");
}

} // namespace
