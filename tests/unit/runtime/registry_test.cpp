// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Backend selection by BRT_RUNTIME and the CPU thread cap BRT_THREADS. Each case runs in a fresh
// child process (see death_test_style.cpp), since the backend is chosen once per run.
#include <brook/brook.hpp>
#include <brook/brookplus_device.hpp>
#include <brook/kernel_abi.hpp>

#include "cpu_only_kernel.hpp"

#include "death_test.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace {

class BackendSelectionDeathTest : public RuntimeDeathTest {};
class ThreadCapDeathTest : public RuntimeDeathTest {};

using brook::KernelArg;
using brook::KernelInfo;
using brook::ParamInfo;
using brook::ParamKind;

std::mutex seen_mutex;
std::set<std::thread::id> seen_threads;

// kernel void mark(out float o<>): records which threads ran it.
void mark_cpu(const brook::cpu::Frame& frame, std::size_t begin, std::size_t end) {
    {
        const std::lock_guard lock(seen_mutex);
        seen_threads.insert(std::this_thread::get_id());
    }
    float* out = frame.data<float>(0);
    for (std::size_t i = begin; i < end; ++i) {
        out[i] = 1.0f;
    }
}
const ParamInfo mark_params[] = {
    {"o", ParamKind::OutputStream, &brook::element_traits<float>::type, 0},
};
const brook_test::CpuOnlyKernel mark_kernel{"mark", mark_params, {.kernel = &mark_cpu}};

/// Threads that ran a kernel over `n` elements.
std::size_t threads_used(std::size_t n) {
    brook::stream s = brook::make_stream<float>(n);
    const KernelArg args[] = {KernelArg::output_stream(s)};
    brook::run_kernel(mark_kernel, args);
    brook::finish(); // the cpu backend may hold a map's call until the next operation
    return seen_threads.size();
}

/// Runs `name` as BRT_RUNTIME: creating a stream selects the backend.
void use_backend(const char* name) {
    setenv("BRT_RUNTIME", name, 1);
    brook::make_stream<float>(1);
}

TEST_F(BackendSelectionDeathTest, CpuAndAutoRun) {
    for (const char* name : {"cpu", "auto", ""}) {
        EXPECT_EXIT(
            {
                use_backend(name);
                std::exit(0);
            },
            testing::ExitedWithCode(0), "")
            << name;
    }
}

// Mesa's llvmpipe serves gl on machines without a GPU (CI's): `auto` never takes it.
TEST_F(BackendSelectionDeathTest, AutoPassesOverSoftwareRenderers) {
    EXPECT_EXIT(
        {
            setenv("BRT_VERBOSE", "1", 1);
            use_backend("auto");
            std::exit(0);
        },
        testing::ExitedWithCode(0),
        testing::AllOf(testing::HasSubstr("brook: backend "),
                       testing::Not(testing::HasSubstr("llvmpipe"))));
}

// Which backends are built depends on the machine (BROOK_BUILT_BACKENDS, from CMake, out of
// BROOK_BACKEND_FOLDERS, every backend of the project).
TEST_F(BackendSelectionDeathTest, UnknownNameListsBackends) {
    EXPECT_EXIT(use_backend("metal"), testing::ExitedWithCode(1),
                "brook: error: BRT_RUNTIME=metal names no backend \\(use ([a-z]+, )*cpu(, "
                "[a-z]+)*, auto or cal\\); backends that can run here: ([a-z]+(, | and ))*cpu");
}

// Brook+'s `cal`: the first GPU backend that starts (getDevices("cal") lists those), else cpu.
TEST_F(BackendSelectionDeathTest, CalIsAGpuBackendWhenOneStarts) {
    EXPECT_EXIT(
        {
            use_backend("cal");
            unsigned int gpus = 0;
            brook::getDevices("cal", &gpus);
            const bool on_cpu = std::string(brook::backend_name()) == "cpu";
            std::exit(on_cpu == (gpus == 0) ? 0 : 3);
        },
        testing::ExitedWithCode(0), "");
}

TEST_F(BackendSelectionDeathTest, UnbuiltBackendIsAnError) {
    const std::string built = "," + std::string(BROOK_BUILT_BACKENDS) + ",";
    const std::string folders = BROOK_BACKEND_FOLDERS;
    bool any = false;
    for (std::size_t start = 0; start < folders.size();) {
        const std::size_t end = std::min(folders.find(',', start), folders.size());
        const std::string folder = folders.substr(start, end - start);
        start = end + 1;
        if (built.find("," + folder + ",") != std::string::npos) {
            continue;
        }
        any = true;
        EXPECT_EXIT(use_backend(folder.c_str()), testing::ExitedWithCode(1),
                    "BRT_RUNTIME=" + folder + ": the " + folder +
                        " backend is not built in this version; backends that can run here: "
                        "([a-z]+(, | and ))*cpu");
    }
    if (!any) {
        GTEST_SKIP() << "every backend is built";
    }
}

TEST_F(ThreadCapDeathTest, OneThread) {
    EXPECT_EXIT(
        {
            setenv("BRT_THREADS", "1", 1);
            std::exit(threads_used(1 << 20) == 1 ? 0 : 3);
        },
        testing::ExitedWithCode(0), "");
}

TEST_F(ThreadCapDeathTest, SeveralThreads) {
    EXPECT_EXIT(
        {
            setenv("BRT_THREADS", "3", 1);
            std::exit(threads_used(1 << 20) == 3 ? 0 : 3);
        },
        testing::ExitedWithCode(0), "");
}

TEST_F(ThreadCapDeathTest, SmallLaunchesUseOneThread) {
    EXPECT_EXIT(
        {
            setenv("BRT_THREADS", "4", 1);
            std::exit(threads_used(100) == 1 ? 0 : 3);
        },
        testing::ExitedWithCode(0), "");
}

TEST_F(ThreadCapDeathTest, BadValueIsAnError) {
    EXPECT_EXIT(
        {
            setenv("BRT_THREADS", "many", 1);
            brook::make_stream<float>(1);
        },
        testing::ExitedWithCode(1), "brook: error: BRT_THREADS=many is not a positive number");
    EXPECT_EXIT(
        {
            setenv("BRT_THREADS", "0", 1);
            brook::make_stream<float>(1);
        },
        testing::ExitedWithCode(1), "BRT_THREADS=0 is not a positive number");
}

} // namespace
