// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Runtime errors (brook/errors.hpp): the message names the .br line of the failing call, the
// default handler exits with status 1 or aborts under BRT_ABORT=1, an installed handler sees
// each error, `brook::throw_error` turns them into brook::error exceptions, and the runtime
// stays usable after one is thrown.
#include <brook/brook.hpp>
#include <brook/errors.hpp>
#include <brook/kernel_abi.hpp>

#include "death_test.hpp"
#include "hand_kernels.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

class ErrorsDeathTest : public RuntimeDeathTest {};

using brook::make_stream;

// Lines of generated code, at the end of this file: brcc's `#line` directives make the
// call's location a .br file and line.
void read_empty_handle_in_saxpy_br();
void copy_mismatched_shapes_in_saxpy_br();

/// Installs `handler` for one test and restores the previous handler after it.
class HandlerScope {
public:
    explicit HandlerScope(brook::error_handler handler)
        : previous_(brook::set_error_handler(handler)) {}
    ~HandlerScope() { brook::set_error_handler(previous_); }
    HandlerScope(const HandlerScope&) = delete;
    HandlerScope& operator=(const HandlerScope&) = delete;

private:
    brook::error_handler previous_;
};

TEST_F(ErrorsDeathTest, MessageNamesTheBrFileAndLineOfTheCall) {
    EXPECT_EXIT(read_empty_handle_in_saxpy_br(), testing::ExitedWithCode(1),
                "saxpy\\.br:14: brook: error: streamRead: the stream handle is empty");
    // An error found deep inside a kernel launch names the launch's line too.
    EXPECT_EXIT(copy_mismatched_shapes_in_saxpy_br(), testing::ExitedWithCode(1),
                "saxpy\\.br:21: brook: error: kernel 'copy': input stream 'a' is float<7>");
}

TEST_F(ErrorsDeathTest, CallsWithoutALocationKeepThePlainMessage) {
    EXPECT_EXIT(streamRead(brook::stream(), nullptr, std::source_location()),
                testing::ExitedWithCode(1), "(^|\n)brook: error: streamRead: the stream handle is");
}

TEST_F(ErrorsDeathTest, AbortWhenAsked) {
    // The child re-runs this body, so it sees the variable too.
    setenv("BRT_ABORT", "1", 1);
    EXPECT_EXIT(streamRead(brook::stream(), nullptr), testing::KilledBySignal(SIGABRT),
                "brook: error: streamRead: the stream handle is empty");
    unsetenv("BRT_ABORT");
}

TEST(Errors, ThrowErrorHandlerThrowsTheMessageAndLocation) {
    const HandlerScope scope(brook::throw_error);
    const std::source_location call = std::source_location::current();
    try {
        streamRead(brook::stream(), nullptr, call);
        FAIL() << "streamRead of an empty handle returned";
    } catch (const brook::error& e) {
        EXPECT_EQ(e.message(), "streamRead: the stream handle is empty (no stream was "
                               "assigned to it)");
        EXPECT_EQ(e.where().line(), call.line());
        EXPECT_STREQ(e.where().file_name(), call.file_name());
        EXPECT_EQ(std::string(e.what()), std::string(call.file_name()) + ":" +
                                              std::to_string(call.line()) +
                                              ": brook: error: " + e.message());
    }
}

TEST(Errors, RuntimeStaysUsableAfterAThrownError) {
    const HandlerScope scope(brook::throw_error);
    brook::stream a = make_stream<float>(7);
    brook::stream wrong = make_stream<float>(10);
    EXPECT_THROW(hand::copy<float>(a, wrong), brook::error);
    // The next launch on this thread binds afresh and runs.
    const float values[3] = {1, 2, 3};
    brook::stream in = make_stream<float>(3);
    brook::stream out = make_stream<float>(3);
    streamRead(in, values);
    hand::copy<float>(in, out);
    EXPECT_EQ(hand::contents<float>(out), (std::vector<float>{1, 2, 3}));
}

void report_and_return(const brook::error& e) {
    std::fprintf(stderr, "handler saw: %s\n", e.message().c_str());
}

TEST_F(ErrorsDeathTest, AHandlerThatReturnsStopsTheProgramAsTheDefaultDoes) {
    const HandlerScope scope(report_and_return);
    EXPECT_EXIT(streamRead(brook::stream(), nullptr), testing::ExitedWithCode(1),
                "handler saw: streamRead: the stream handle is empty.*brook: error: "
                "streamRead: the stream handle is empty");
}

TEST(Errors, SetErrorHandlerReturnsThePreviousOne) {
    const brook::error_handler first = brook::set_error_handler(brook::throw_error);
    EXPECT_EQ(brook::set_error_handler(first), &brook::throw_error);
}

} // namespace

// Generated code, as brcc writes it for saxpy.br.
namespace {

void read_empty_handle_in_saxpy_br() {
#line 14 "saxpy.br"
    streamRead(brook::stream(), nullptr);
}

void copy_mismatched_shapes_in_saxpy_br() {
    brook::stream a = make_stream<float>(7);
    brook::stream b = make_stream<float>(10);
    const brook::KernelArg args[] = {brook::KernelArg::input(a),
                                     brook::KernelArg::output_stream(b)};
#line 21 "saxpy.br"
    brook::run_kernel(hand::copy_kernel<float>, args);
}

} // namespace
