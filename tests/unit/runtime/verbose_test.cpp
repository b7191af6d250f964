// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// BRT_VERBOSE=1 and brook::device_name(): one line at the start naming the backend and what it
// runs on, and the choice `auto` makes. Each case runs in a fresh child process, since the
// backend is chosen once per run.
#include <brook/brook.hpp>

#include "death_test.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace {

class VerboseDeathTest : public RuntimeDeathTest {};

using testing::AllOf;
using testing::AnyOf;
using testing::HasSubstr;
using testing::Not;

// One line however many threads use the backend; device_name() gives the program its text.
TEST_F(VerboseDeathTest, OneLineNamesBackendAndDevice) {
    EXPECT_EXIT(
        {
            setenv("BRT_VERBOSE", "1", 1);
            setenv("BRT_RUNTIME", "cpu", 1);
            setenv("BRT_THREADS", "3", 1);
            brook::make_stream<float>(1);
            std::thread([] { brook::make_stream<float>(1); }).join();
            std::fprintf(stderr, "device_name: %s\n", brook::device_name());
            std::exit(0);
        },
        testing::ExitedWithCode(0),
        // On x86-64 the CPU's level too: the copy a program built for several targets runs.
        testing::MatchesRegex("brook: backend cpu on the host, 3 threads(, x86-64(-v[234])?)?\n"
                              "device_name: the host, 3 threads(, x86-64(-v[234])?)?\n"));
}

TEST_F(VerboseDeathTest, QuietByDefault) {
    EXPECT_EXIT(
        {
            unsetenv("BRT_VERBOSE");
            brook::make_stream<float>(1);
            std::exit(0);
        },
        testing::ExitedWithCode(0), testing::IsEmpty());
}

/// Whether `device` (a device_name()) is one of Mesa's CPU rasterisers, which auto passes over.
bool software_renderer(const std::string& device) {
    for (const char* name : {"llvmpipe", "softpipe", "Software Rasterizer", "swrast"}) {
        if (device.find(name) != std::string::npos) {
            return true;
        }
    }
    return false;
}

// auto takes a hardware GPU backend when one starts, else cpu, and BRT_VERBOSE says which. The
// child then starts every other backend on a thread of its own to learn whether any is hardware
// (on CI, gl is llvmpipe and cuda finds no GPU, so auto must give cpu). It leaves with _Exit:
// the gl context stays with the thread that made it (COMPAT.md 3.6).
TEST_F(VerboseDeathTest, AutoTakesHardwareElseCpu) {
    EXPECT_EXIT(
        {
            setenv("BRT_VERBOSE", "1", 1);
            setenv("BRT_RUNTIME", "auto", 1);
            brook::make_stream<float>(1);
            const std::string chosen = brook::backend_name();
            bool hardware = false;
            std::thread([&] {
                for (const char** target = brook::runtimeTargets(); *target != nullptr; ++target) {
                    if (std::string(*target) == "cpu") {
                        continue;
                    }
                    brook::initialize(*target);
                    hardware = hardware || !software_renderer(brook::device_name());
                    brook::finalize();
                }
            }).join();
            std::fprintf(stderr, "hardware GPU backend: %s\n", hardware ? "yes" : "none");
            std::fflush(stderr);
            std::_Exit(hardware == (chosen != "cpu") ? 0 : 3);
        },
        testing::ExitedWithCode(0),
        AnyOf(AllOf(HasSubstr("brook: backend cpu on the host, "),
                    HasSubstr("hardware GPU backend: none")),
              AllOf(Not(HasSubstr("brook: backend cpu")), Not(HasSubstr("llvmpipe")),
                    HasSubstr("hardware GPU backend: yes"))));
}

} // namespace
