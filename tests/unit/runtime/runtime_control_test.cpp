// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Runtime control (brook/runtime_control.hpp): the list of targets, the per-thread choice made by
// initialize and kept until finalize, BrookGPU's names, and the misuses that stop a program.
// Each case runs in a fresh child process, since a choice holds for the rest of a thread.
#include <brook/brook.hpp>

#include "death_test.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

class RuntimeControlDeathTest : public RuntimeDeathTest {};

/// A target other than cpu that starts here, or null.
const char* other_target() {
    const char** targets = brook::runtimeTargets();
    return targets[0] != nullptr ? targets[1] : nullptr;
}

TEST_F(RuntimeControlDeathTest, TargetsStartWithCpuAndAreAccepted) {
    EXPECT_EXIT(
        {
            const char** targets = brook::runtimeTargets();
            if (std::strcmp(targets[0], "cpu") != 0) {
                std::exit(3);
            }
            for (int i = 0; targets[i] != nullptr; ++i) {
                if (std::strcmp(brook::initialize(targets[i])->name(), targets[i]) != 0) {
                    std::exit(4);
                }
                brook::finalize();
            }
            std::exit(brruntimes() == targets ? 0 : 5);
        },
        testing::ExitedWithCode(0), "");
}

TEST_F(RuntimeControlDeathTest, InitializeBeatsTheEnvironment) {
    EXPECT_EXIT(
        {
            setenv("BRT_RUNTIME", "no-such-backend", 1);
            brook::initialize("cpu");
            brook::make_stream<float>(2);
            std::exit(std::string(brook::backend_name()) == "cpu" ? 0 : 3);
        },
        testing::ExitedWithCode(0), "");
}

// The worker starts the other backend itself, and the child leaves with _Exit: until gl serves
// several threads (COMPAT.md 3.6) its context stays with the thread that made it, and stopping
// it at exit on the main thread would abort.
TEST_F(RuntimeControlDeathTest, ThreadsChooseTheirOwnBackend) {
    EXPECT_EXIT(
        {
            brook::initialize("cpu");
            bool apart = true;
            std::thread worker([&] {
                const char* other = other_target();
                if (other != nullptr) {
                    brook::initialize(other);
                    brook::make_stream<float>(2);
                    apart = std::string(brook::backend_name()) == other;
                }
            });
            worker.join();
            std::_Exit(apart && std::string(brook::backend_name()) == "cpu" ? 0 : 3);
        },
        testing::ExitedWithCode(0), "");
}

TEST_F(RuntimeControlDeathTest, UsedThreadKeepsItsBackendUntilFinalize) {
    if (other_target() == nullptr) {
        GTEST_SKIP() << "only cpu can start here";
    }
    EXPECT_EXIT(
        {
            brook::make_stream<float>(1);
            brook::Runtime* kept = brook::initialize(other_target());
            const bool same = std::string(kept->name()) == "cpu" && brsetruntime("cpu") == 1;
            brook::finalize();
            const bool changed =
                std::string(brook::initialize(other_target())->name()) == other_target();
            std::exit(same && changed ? 0 : 3);
        },
        testing::ExitedWithCode(0),
        testing::HasSubstr("ignored: this thread already runs on cpu; call brook::finalize()"));
}

TEST_F(RuntimeControlDeathTest, BrookGpuNamesOfGl) {
    bool gl_starts = false;
    for (const char** target = brook::runtimeTargets(); *target != nullptr; ++target) {
        gl_starts = gl_starts || std::string(*target) == "gl";
    }
    for (const char* name : {"ogl", "gles", "gles:2.0", "ogl:x"}) {
        const auto select = [&] {
            setenv("BRT_RUNTIME", name, 1);
            brook::make_stream<float>(1);
            std::exit(std::string(brook::backend_name()) == "gl" ? 0 : 3);
        };
        if (gl_starts) {
            EXPECT_EXIT(select(), testing::ExitedWithCode(0), "") << name;
        } else {
            // It names gl, which says why it cannot start.
            EXPECT_EXIT(select(), testing::ExitedWithCode(1),
                        testing::HasSubstr(std::string("BRT_RUNTIME=") + name + ": "))
                << name;
        }
    }
}

TEST_F(RuntimeControlDeathTest, OtherBrookGpuBackendsAreErrors) {
    for (const char* name : {"dx9", "ctm", "oglx"}) {
        EXPECT_EXIT(
            {
                setenv("BRT_RUNTIME", name, 1);
                brook::make_stream<float>(1);
            },
            testing::ExitedWithCode(1),
            testing::HasSubstr(std::string("BRT_RUNTIME=") + name + " names no backend"))
            << name;
    }
    EXPECT_EXIT(brook::initialize("dx9"), testing::ExitedWithCode(1),
                testing::HasSubstr("brook::initialize(\"dx9\") names no backend"));
    EXPECT_EXIT(brook::initialize(nullptr), testing::ExitedWithCode(1),
                testing::HasSubstr("the runtime name is null"));
}

TEST_F(RuntimeControlDeathTest, FinalizeNeedsTheThreadsStreamsGone) {
    EXPECT_EXIT(
        {
            brook::stream s = brook::make_stream<float>(4);
            brook::stream view = s.domain(1, 3);
            brook::finalize();
        },
        testing::ExitedWithCode(1),
        testing::HasSubstr("brook::finalize: 2 stream(s) this thread created still exist"));
    EXPECT_EXIT(
        {
            { brook::stream s = brook::make_stream<float>(4); }
            brook::finalize();
            std::exit(0);
        },
        testing::ExitedWithCode(0), "");
}

TEST_F(RuntimeControlDeathTest, SetRuntimeRefusesNull) {
    EXPECT_EXIT(brook::setRuntime(nullptr), testing::ExitedWithCode(1),
                testing::HasSubstr("use brook::finalize()"));
}

TEST(RuntimeControl, MicrosecondsAreMonotonic) {
    const brook::int64 start = brook::microseconds();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const brook::int64 later = brmicroseconds();
    EXPECT_GE(later - start, 2000);
}

} // namespace
