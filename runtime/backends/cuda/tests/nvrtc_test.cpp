// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// NVRTC itself (it runs without a GPU): CUBIN for sm_80 and sm_90, PTX, in-memory headers,
// options, the message of a compile error, and loading NVRTC and its builtins by path.
#include "backends/cuda/nvrtc_compiler.hpp"

#include "backends/cuda/cuda_driver.hpp"
#include "backends/cuda/cuda_objects.hpp"
#include "cuda_test_kernels.hpp"
#include "fake_cuda.hpp"

#include <gtest/gtest.h>

#include <link.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using brook::detail::cuda::Header;
using brook::detail::cuda::Nvrtc;
using brook::test::cuda::nvrtc;
using brook::test::cuda::scale_source;

constexpr std::string_view elf_magic = "\x7f"
                                       "ELF";

std::string error_of(const std::string& source, const std::string& program, int cc) {
    try {
        nvrtc().compile(source, program, {}, {}, cc);
    } catch (const std::runtime_error& error) {
        return error.what();
    }
    return "";
}

TEST(NvrtcTest, OptionsStartWithTheBaseOnes) {
    const std::vector<std::string> extra = {"-lineinfo"};
    EXPECT_EQ(Nvrtc::options_for(90, false, extra),
              (std::vector<std::string>{"-std=c++20", "-default-device", "--diag-suppress=39",
                                        "--gpu-architecture=sm_90", "-lineinfo"}));
    EXPECT_EQ(Nvrtc::options_for(80, true, {}).back(), "--gpu-architecture=compute_80");
}

TEST(NvrtcTest, CompilesCubinForSm80AndSm90) {
    const auto sm80 = nvrtc().compile(scale_source, "scale.cu", {}, {}, 80);
    const auto sm90 = nvrtc().compile(scale_source, "scale.cu", {}, {}, 90);
    EXPECT_TRUE(sm80.image.starts_with(elf_magic));
    EXPECT_TRUE(sm90.image.starts_with(elf_magic));
    EXPECT_NE(sm80.image, sm90.image);
    EXPECT_EQ(sm80.log, "");
    EXPECT_EQ(sm90.log, "");
    EXPECT_GE(nvrtc().version().first, 12);
}

TEST(NvrtcTest, CompilesPtxForAVirtualArchitecture) {
    const auto ptx = nvrtc().compile_ptx(scale_source, "scale.cu", {}, {}, 80);
    EXPECT_NE(ptx.image.find(".target sm_80"), std::string::npos) << ptx.image;
    EXPECT_NE(ptx.image.find(".entry brook_scale("), std::string::npos) << ptx.image;
}

TEST(NvrtcTest, IncludesHeadersFromMemory) {
    const std::vector<Header> headers = {
        {"brook/prelude.cuh", "#pragma once\n__device__ inline float brook_twice(float x) "
                              "{ return 2.0f * x; }\n"}};
    const std::string source = "#include <brook/prelude.cuh>\n"
                               "extern \"C\" __global__ void brook_twice_all(float* a) {\n"
                               "    a[threadIdx.x] = brook_twice(a[threadIdx.x]);\n}\n";
    const auto compiled = nvrtc().compile(source, "twice.cu", headers, {}, 90);
    EXPECT_TRUE(compiled.image.starts_with(elf_magic));
}

TEST(NvrtcTest, PassesCallerOptions) {
    const std::string source = "#if BROOK_VALUE != 3\n#error BROOK_VALUE is not 3\n#endif\n";
    const std::vector<std::string> options = {"-DBROOK_VALUE=3"};
    EXPECT_NO_THROW(nvrtc().compile(source, "options.cu", {}, options, 90));
    EXPECT_NE(error_of(source, "options.cu", 90).find("BROOK_VALUE is not 3"), std::string::npos);
}

TEST(NvrtcTest, ACompileErrorNamesTheProgramAndQuotesTheLog) {
    const std::string message =
        error_of("__global__ void broken(float* a) { a[0] = undefined_value; }\n", "broken.cu", 90);
    EXPECT_TRUE(message.starts_with("nvrtc: cannot compile broken.cu for sm_90:\n")) << message;
    EXPECT_NE(message.find("broken.cu(1)"), std::string::npos) << message;
    EXPECT_NE(message.find("identifier \"undefined_value\" is undefined"), std::string::npos)
        << message;
}

TEST(NvrtcTest, ABadOptionIsNamed) {
    const std::vector<std::string> options = {"--no-such-option"};
    try {
        nvrtc().compile(scale_source, "scale.cu", {}, options, 90);
        FAIL() << "compiled with a bad option";
    } catch (const std::runtime_error& error) {
        const std::string message = error.what();
        EXPECT_TRUE(message.starts_with(
            "nvrtc: cannot compile scale.cu for sm_90: NVRTC_ERROR_INVALID_OPTION\n"))
            << message;
        EXPECT_NE(message.find("--no-such-option"), std::string::npos) << message;
    }
}

TEST(NvrtcTest, UnannotatedConstexprFunctionsRunOnTheDevice) {
    const std::string source = "constexpr float twice(float x) { return 2.0f * x; }\n"
                               "extern \"C\" __global__ void brook_twice(float* a) {\n"
                               "    a[threadIdx.x] = twice(a[threadIdx.x]);\n}\n";
    EXPECT_EQ(nvrtc().compile(source, "twice.cu", {}, {}, 90).log, "");
}

TEST(NvrtcTest, WarningsGoToTheLog) {
    const std::string source =
        "extern \"C\" __global__ void brook_unused(float* a) { int unused = 3; a[0] = 1.0f; }\n";
    const auto compiled = nvrtc().compile(source, "unused.cu", {}, {}, 90);
    EXPECT_NE(compiled.log.find("unused"), std::string::npos) << compiled.log;
}

TEST(NvrtcTest, TheFakeDriverFindsKernelsInACubin) {
    fake_cuda_reset();
    const brook::detail::cuda::Driver driver(BROOK_FAKE_CUDA);
    driver.check(driver.cuInit(0), "cuInit");
    const auto cubin = nvrtc().compile(scale_source, "scale.cu", {}, {}, 90);
    const auto module = brook::detail::cuda::load_module(driver, cubin.image, "scale.cu");
    EXPECT_NE(get_function(driver, module, "brook_scale"), nullptr);
    EXPECT_THROW(get_function(driver, module, "brook_scal"), std::runtime_error);
}

TEST(NvrtcLoadTest, AMissingNvrtcNamesEveryCandidate) {
    try {
        Nvrtc missing({"/nonexistent/libnvrtc.so.13", "libnvrtc-missing.so"});
        FAIL() << "loaded a missing NVRTC";
    } catch (const std::runtime_error& error) {
        const std::string message = error.what();
        EXPECT_TRUE(message.starts_with("cannot load NVRTC (/nonexistent/libnvrtc.so.13: "))
            << message;
        EXPECT_NE(message.find("; libnvrtc-missing.so: "), std::string::npos) << message;
    }
}

/// Whether a library whose path starts with `folder` and contains `name` is loaded.
bool loaded_from(const std::string& folder, const std::string& name) {
    struct Search {
        std::string folder;
        std::string name;
        bool found = false;
    } search{folder, name};
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) {
            auto& wanted = *static_cast<Search*>(data);
            const std::string path = info->dlpi_name != nullptr ? info->dlpi_name : "";
            if (path.starts_with(wanted.folder) && path.find(wanted.name) != std::string::npos) {
                wanted.found = true;
            }
            return 0;
        },
        &search);
    return search.found;
}

// NVRTC finds libnvrtc-builtins by file name. Loaded by path from a folder the loader does not
// search, it would fail unless Nvrtc loads the builtins beside it first: this loads both through
// links in a fresh folder and checks that the builtins in use are the ones there. It runs in a
// fresh process, where no NVRTC is loaded yet.
TEST(NvrtcLoadTest, LoadsTheBuiltinsBesideNvrtc) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const std::filesystem::path toolkit = BROOK_CUDA_TOOLKIT_LIBRARY_DIR;
    const std::filesystem::path folder =
        std::filesystem::temp_directory_path() / ("brook-nvrtc-" + std::to_string(getpid()));
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder);
    for (const auto& entry : std::filesystem::directory_iterator(toolkit)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with("libnvrtc.so.") || name.starts_with("libnvrtc-builtins.so.")) {
            std::filesystem::create_symlink(std::filesystem::canonical(entry.path()),
                                            folder / name);
        }
    }
    const std::string versioned = "libnvrtc.so." + std::to_string(CUDA_VERSION / 1000);
    EXPECT_EXIT(
        {
            const Nvrtc linked({(folder / versioned).string()});
            linked.compile(scale_source, "scale.cu", {}, {}, 90);
            const bool beside = loaded_from(folder.string(), "libnvrtc-builtins.so.");
            if (!beside) {
                std::cerr << "the builtins were not loaded from " << folder << "\n";
            }
            std::exit(beside ? 0 : 1);
        },
        testing::ExitedWithCode(0), "");
    std::filesystem::remove_all(folder);
}

} // namespace
