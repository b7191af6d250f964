// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The cpu backend's choice of streaming stores (brook::cpu::Frame::streaming_stores): asked for
// a dense call that moves more bytes than the last-level cache holds, at most 32 MiB
// (BRT_CPU_STREAM_STORES=1: every dense call; =0: none), and writes no stream it also reads.
// What the generated loops do with it is the conformance programs' to show
// (conformance.cpu_streaming_stores.*).

#include <brook/brook.hpp>
#include <brook/kernel_abi.hpp>

#include "cpu_only_kernel.hpp"
#include "death_test.hpp"
#include "hand_kernels.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace {

using brook::KernelArg;
using brook::make_stream;
using brook::ParamInfo;
using brook::ParamKind;
using brook::cpu::Frame;

/// What the last call of `noted_copy` was asked: 1 for streaming stores, 0 for plain ones.
std::atomic<int> last_streaming{-1};

// kernel void copy(float a<>, out float b<>) { b = a; }, noting the call's choice.
void noted_copy_cpu(const Frame& frame, std::size_t begin, std::size_t end) {
    last_streaming = frame.streaming_stores ? 1 : 0;
    hand::copy_cpu<float>(frame, begin, end);
}
const brook_test::CpuOnlyKernel noted_copy{
    "copy", hand::copy_params<float>, {.kernel = &noted_copy_cpu}};

/// Runs noted_copy from `a` into `b`: whether it was asked for streaming stores.
int streaming_of_copy(const brook::stream& a, brook::stream& b) {
    last_streaming = -1;
    const KernelArg args[] = {KernelArg::input(a), KernelArg::output_stream(b)};
    brook::run_kernel(noted_copy, args);
    // Whatever it was asked, the copy is a copy.
    const std::vector<float> got = hand::contents<float>(b);
    const std::vector<float> want = hand::contents<float>(a);
    if (got.size() == want.size() && got != want) {
        return -2;
    }
    return last_streaming.load();
}

/// A stream of `rows` x `columns` numbers 0, 1, 2, ...
brook::stream counting(std::size_t rows, std::size_t columns) {
    std::vector<float> values(rows * columns);
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = static_cast<float>(i);
    }
    brook::stream s = make_stream<float>(rows, columns);
    streamRead(s, values.data());
    return s;
}

/// In a death test's child: with BRT_CPU_STREAM_STORES set to `setting` (unset where null),
/// prints what a dense copy of `rows` x 100 floats was asked, and exits.
[[noreturn]] void report_dense_copy(const char* setting, std::size_t rows = 64) {
    if (setting != nullptr) {
        setenv("BRT_CPU_STREAM_STORES", setting, 1);
    } else {
        unsetenv("BRT_CPU_STREAM_STORES");
    }
    const brook::stream a = counting(rows, 100);
    brook::stream b = make_stream<float>(rows, 100);
    std::fprintf(stderr, "dense %d\n", streaming_of_copy(a, b));
    std::exit(0);
}

class StreamingStoresDeathTest : public RuntimeDeathTest {
protected:
    void SetUp() override {
        RuntimeDeathTest::SetUp();
        // Asked of the environment: asking the runtime would start the backend, in the child
        // too, before the test sets its own BRT_CPU_STREAM_STORES.
        const char* runtime = std::getenv("BRT_RUNTIME");
        if (runtime != nullptr && *runtime != '\0' && std::string_view(runtime) != "cpu") {
            GTEST_SKIP() << "BRT_RUNTIME=" << runtime << ": streaming stores are the cpu backend's";
        }
    }
};

TEST_F(StreamingStoresDeathTest, ForcedOnEveryDenseCallThatWritesNoStreamItReads) {
    EXPECT_EXIT(
        {
            setenv("BRT_CPU_STREAM_STORES", "1", 1);
            const brook::stream a = counting(64, 100);
            brook::stream b = make_stream<float>(64, 100);
            const int dense = streaming_of_copy(a, b);
            // In place: each line is read before it is written anyway.
            const int in_place = streaming_of_copy(b, b);
            // Not dense: the input is resized to the output's shape.
            const brook::stream small = counting(8, 10);
            const int resized = streaming_of_copy(small, b);
            std::fprintf(stderr, "dense %d, in place %d, resized %d\n", dense, in_place, resized);
            std::exit(0);
        },
        testing::ExitedWithCode(0), "dense 1, in place 0, resized 0");
}

TEST_F(StreamingStoresDeathTest, OffForEveryCallWhenSwitchedOff) {
    EXPECT_EXIT(report_dense_copy("0"), testing::ExitedWithCode(0), "dense 0");
}

TEST_F(StreamingStoresDeathTest, ByDefaultACallSmallerThanTheCacheWritesThroughIt) {
    EXPECT_EXIT(report_dense_copy(nullptr), testing::ExitedWithCode(0), "dense 0");
}

TEST_F(StreamingStoresDeathTest, ByDefaultACallMovingMoreThan32MiBStreams) {
    // 2 x 16.8 MB: above the cap on the threshold, whatever the cache.
    EXPECT_EXIT(report_dense_copy(nullptr, 42'000), testing::ExitedWithCode(0), "dense 1");
}

TEST_F(StreamingStoresDeathTest, AnyOtherSettingIsAnError) {
    EXPECT_EXIT(
        {
            setenv("BRT_CPU_STREAM_STORES", "yes", 1);
            brook::stream a = make_stream<float>(4);
        },
        testing::ExitedWithCode(1),
        "BRT_CPU_STREAM_STORES=yes is neither 0 \\(never\\) nor 1 \\(every dense call\\); leave "
        "it unset for the default");
}

} // namespace
