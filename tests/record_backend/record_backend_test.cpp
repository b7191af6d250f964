// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The backend seam through the record backend, a backend the runtime knows nothing of until
// BRT_BACKEND_PLUGINS loads it: it is selected by name, gets every launch as the core checked
// and bound it, and keeps the data it was given. Each case runs in a fresh child process, since
// the backend is chosen once per process.
#include <brook/brook.hpp>
#include <brook/kernel_abi.hpp>

#include "death_test.hpp"
#include "hand_kernels.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

class RecordBackendDeathTest : public RuntimeDeathTest {
protected:
    void SetUp() override {
        RuntimeDeathTest::SetUp();
        log_ = testing::TempDir() + "record_backend_" +
               testing::UnitTest::GetInstance()->current_test_info()->name() + ".log";
        std::remove(log_.c_str());
    }
    /// Selects the record backend in the child that runs the test's statement.
    void use_record_backend() const {
        setenv("BRT_BACKEND_PLUGINS", BROOK_RECORD_BACKEND, 1);
        setenv("BRT_RUNTIME", "record", 1);
        setenv("BRT_RECORD_LOG", log_.c_str(), 1);
    }
    std::string recorded() const {
        std::ifstream in(log_);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }

    std::string log_;
};

/// A kernel call, a reduction to a stream and one to a value; 0 when the value is zero bytes.
int copy_and_reduce() {
    brook::stream a = brook::make_stream<float>(2, 3);
    brook::stream b = brook::make_stream<float>(4, 3);
    brook::stream sums = brook::make_stream<float>(1, 3);
    hand::copy<float>(a, b);
    hand::sum<float>(b, sums);
    float total = 1.0f;
    const brook::KernelArg args[] = {brook::KernelArg::input(b),
                                     brook::KernelArg::reduce_target(total)};
    brook::run_reduce(hand::sum_kernel<float>, args);
    return total == 0.0f ? 0 : 3;
}

/// 0 when a domain of a stream reads back what was written into the stream.
int round_trip() {
    const float in[6] = {1, 2, 3, 4, 5, 6};
    float out[2] = {};
    brook::stream a = brook::make_stream<float>(2, 3);
    streamRead(a, in);
    streamWrite(a.domain(brook::int2(1, 0), brook::int2(3, 1)), out);
    brook::finish();
    return out[0] == 2 && out[1] == 3 ? 0 : 3;
}

TEST_F(RecordBackendDeathTest, RecordsEveryLaunchAsTheCoreBoundIt) {
    EXPECT_EXIT(
        {
            use_record_backend();
            std::exit(copy_and_reduce());
        },
        testing::ExitedWithCode(0), "");
    EXPECT_EQ(recorded(), "kernel copy <4,3>: input stream<2,3> output stream<4,3>\n"
                          "reduce sum <4,3> dense to <1,3>: reduce input<4,3> reduce argument\n"
                          "reduce sum <4,3> dense to a value: reduce input<4,3> reduce argument\n");
}

// BRT_SYNC=1: each call returns only after the backend finished it.
TEST_F(RecordBackendDeathTest, SynchronousCallsWaitForTheBackend) {
    EXPECT_EXIT(
        {
            use_record_backend();
            setenv("BRT_SYNC", "1", 1);
            std::exit(copy_and_reduce());
        },
        testing::ExitedWithCode(0), "");
    EXPECT_EQ(recorded(), "kernel copy <4,3>: input stream<2,3> output stream<4,3>\n"
                          "finish\n"
                          "reduce sum <4,3> dense to <1,3>: reduce input<4,3> reduce argument\n"
                          "finish\n"
                          "reduce sum <4,3> dense to a value: reduce input<4,3> reduce argument\n"
                          "finish\n");
}

TEST_F(RecordBackendDeathTest, KeepsTheDataItIsGiven) {
    EXPECT_EXIT(
        {
            use_record_backend();
            std::exit(round_trip());
        },
        testing::ExitedWithCode(0), "");
}

TEST_F(RecordBackendDeathTest, NamesItselfAndIsNeverChosenByAuto) {
    EXPECT_EXIT(
        {
            use_record_backend();
            std::exit(std::string(brook::backend_name()) == "record" ? 0 : 3);
        },
        testing::ExitedWithCode(0), "");
    EXPECT_EXIT(
        {
            use_record_backend();
            setenv("BRT_RUNTIME", "auto", 1);
            std::exit(std::string(brook::backend_name()) != "record" ? 0 : 3);
        },
        testing::ExitedWithCode(0), "");
}

} // namespace
