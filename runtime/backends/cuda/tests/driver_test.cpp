// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The Driver and the RAII objects of cuda_objects.hpp against brook_fake_cuda: loading, error
// messages, and every allocation paired with its free.
#include "backends/cuda/cuda_driver.hpp"
#include "backends/cuda/cuda_objects.hpp"

#include "fake_cuda.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <dlfcn.h>
#include <memory>
#include <stdexcept>
#include <string>

namespace {

using namespace brook::detail::cuda;

/// The message of the std::runtime_error `action` throws, or "" when it throws none.
template <typename Action> std::string error_of(Action action) {
    try {
        action();
    } catch (const std::runtime_error& error) {
        return error.what();
    }
    return "";
}

class FakeDriverTest : public testing::Test {
protected:
    void SetUp() override {
        fake_cuda_reset();
        driver = std::make_unique<Driver>(BROOK_FAKE_CUDA);
        driver->check(driver->cuInit(0), "cuInit");
    }
    void TearDown() override { EXPECT_EQ(fake_cuda_live_allocations(), 0u); }

    std::unique_ptr<Driver> driver;
};

TEST(DriverLoadTest, BrtCudaDriverChoosesTheLibrary) {
    fake_cuda_reset();
    ASSERT_EQ(setenv("BRT_CUDA_DRIVER", BROOK_FAKE_CUDA, 1), 0);
    EXPECT_EQ(Driver::default_path(), BROOK_FAKE_CUDA);
    const Driver driver;
    EXPECT_EQ(driver.cuInit(0), CUDA_SUCCESS);
    EXPECT_EQ(fake_cuda_call_count("cuInit"), 1);
    ASSERT_EQ(unsetenv("BRT_CUDA_DRIVER"), 0);
    EXPECT_EQ(Driver::default_path(), "libcuda.so.1");
}

TEST(DriverLoadTest, AMissingLibrarySaysThereIsNoDriver) {
    EXPECT_EQ(error_of([] { Driver driver("/nonexistent/libcuda.so.1"); }),
              "no NVIDIA driver (/nonexistent/libcuda.so.1: cannot open shared object file: No "
              "such file or directory)");
}

TEST(DriverLoadTest, TheDefaultLibraryIsMissingOnAMachineWithoutADriver) {
    if (void* real = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) {
        dlclose(real);
        GTEST_SKIP() << "this machine has an NVIDIA driver";
    }
    EXPECT_EQ(error_of([] { Driver driver("libcuda.so.1"); }),
              "no NVIDIA driver (libcuda.so.1: cannot open shared object file: No such file or "
              "directory)");
}

TEST(DriverLoadTest, AMissingEntryPointIsNamed) {
    // libm opens but has none of libcuda's symbols; cuInit is the first one looked up.
    const std::string message = error_of([] { Driver driver("libm.so.6"); });
    EXPECT_TRUE(message.starts_with("cuda: the driver /")) << message;
    EXPECT_TRUE(message.ends_with("libm.so.6 lacks cuInit")) << message;
}

TEST_F(FakeDriverTest, CheckTurnsEveryErrorCodeIntoAMessage) {
    struct Expected {
        CUresult code;
        const char* message;
    };
    const std::array<Expected, 6> cases = {{
        {CUDA_ERROR_INVALID_VALUE, "cuda: copying: CUDA_ERROR_INVALID_VALUE: invalid argument"},
        {CUDA_ERROR_OUT_OF_MEMORY, "cuda: copying: CUDA_ERROR_OUT_OF_MEMORY: out of memory"},
        {CUDA_ERROR_NO_DEVICE,
         "cuda: copying: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected"},
        {CUDA_ERROR_NOT_FOUND, "cuda: copying: CUDA_ERROR_NOT_FOUND: named symbol not found"},
        {CUDA_ERROR_LAUNCH_FAILED,
         "cuda: copying: CUDA_ERROR_LAUNCH_FAILED: unspecified launch failure"},
        // A code the driver has no text for (the fake knows a few) still gives a message.
        {CUDA_ERROR_ECC_UNCORRECTABLE, "cuda: copying: CUresult 214: unknown error"},
    }};
    for (const Expected& expected : cases) {
        EXPECT_EQ(error_of([&] { driver->check(expected.code, "copying"); }), expected.message);
    }
    EXPECT_EQ(error_of([&] { driver->check(CUDA_SUCCESS, "copying"); }), "");
}

TEST_F(FakeDriverTest, DeviceQueriesSeeTheFakeGpu) {
    int count = 0;
    driver->check(driver->cuDeviceGetCount(&count), "cuDeviceGetCount");
    EXPECT_EQ(count, 1);
    CUdevice device = -1;
    driver->check(driver->cuDeviceGet(&device, 0), "cuDeviceGet");
    std::array<char, 64> name{};
    driver->check(driver->cuDeviceGetName(name.data(), static_cast<int>(name.size()), device),
                  "cuDeviceGetName");
    EXPECT_STREQ(name.data(), "Fake GPU");
    int major = 0;
    int minor = -1;
    driver->check(
        driver->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device),
        "major");
    driver->check(
        driver->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device),
        "minor");
    EXPECT_EQ(major * 10 + minor, 90);
}

TEST_F(FakeDriverTest, AnInjectedFailureReachesTheMessage) {
    fake_cuda_fail_next("cuMemAlloc_v2", CUDA_ERROR_OUT_OF_MEMORY);
    EXPECT_EQ(error_of([&] { allocate_device(*driver, 64); }),
              "cuda: cannot allocate 64 bytes of device memory: CUDA_ERROR_OUT_OF_MEMORY: out of "
              "memory");
    // Only the next call fails.
    EXPECT_TRUE(allocate_device(*driver, 64));
}

TEST_F(FakeDriverTest, OwnersFreeWhatTheyAllocate) {
    {
        const DeviceMemory device = allocate_device(*driver, 64);
        const PinnedMemory pinned = allocate_pinned(*driver, 32);
        const Stream stream = create_stream(*driver);
        const PrimaryContext context(*driver, 0);
        context.make_current();
        EXPECT_EQ(fake_cuda_live_allocations(), 2u);
        EXPECT_EQ(fake_cuda_live_streams(), 1u);
        EXPECT_EQ(fake_cuda_live_contexts(), 1u);
    }
    EXPECT_EQ(fake_cuda_live_allocations(), 0u);
    EXPECT_EQ(fake_cuda_live_streams(), 0u);
    EXPECT_EQ(fake_cuda_live_contexts(), 0u);
    EXPECT_EQ(fake_cuda_call_count("cuMemFree_v2"), 1);
    EXPECT_EQ(fake_cuda_call_count("cuMemFreeHost"), 1);
    EXPECT_EQ(fake_cuda_call_count("cuStreamDestroy_v2"), 1);
    EXPECT_EQ(fake_cuda_call_count("cuDevicePrimaryCtxRelease_v2"), 1);
}

TEST_F(FakeDriverTest, MovingAnOwnerFreesOnce) {
    DeviceMemory first = allocate_device(*driver, 16);
    DeviceMemory second = allocate_device(*driver, 16);
    const CUdeviceptr kept = first.get();
    second = std::move(first); // frees second's old memory
    EXPECT_EQ(fake_cuda_call_count("cuMemFree_v2"), 1);
    EXPECT_FALSE(first);
    EXPECT_EQ(second.get(), kept);
    DeviceMemory third(std::move(second));
    third.reset();
    EXPECT_EQ(fake_cuda_call_count("cuMemFree_v2"), 2);
    EXPECT_EQ(fake_cuda_live_allocations(), 0u);
}

TEST_F(FakeDriverTest, ZeroBytesAllocateNothing) {
    const DeviceMemory device = allocate_device(*driver, 0);
    const PinnedMemory pinned = allocate_pinned(*driver, 0);
    EXPECT_FALSE(device);
    EXPECT_FALSE(pinned);
    EXPECT_EQ(fake_cuda_call_count("cuMemAlloc_v2"), 0);
    EXPECT_EQ(fake_cuda_call_count("cuMemAllocHost_v2"), 0);
}

TEST_F(FakeDriverTest, CopiesGoThroughDeviceMemory) {
    const Stream stream = create_stream(*driver);
    const DeviceMemory a = allocate_device(*driver, 4 * sizeof(float));
    const DeviceMemory b = allocate_device(*driver, 4 * sizeof(float));
    const std::array<float, 4> in = {1, 2, 3, 4};
    std::array<float, 4> out = {};
    driver->check(driver->cuMemcpyHtoDAsync(a.get(), in.data(), sizeof in, stream.get()), "htod");
    driver->check(driver->cuMemcpyDtoDAsync(b.get(), a.get(), sizeof in, stream.get()), "dtod");
    driver->check(driver->cuMemcpyDtoHAsync(out.data(), b.get(), sizeof out, stream.get()), "dtoh");
    driver->check(driver->cuStreamSynchronize(stream.get()), "synchronize");
    EXPECT_EQ(out, in);
    const std::string log = fake_cuda_log();
    EXPECT_NE(log.find("cuMemcpyHtoDAsync_v2 bytes=16 dir=htod\n"), std::string::npos) << log;
    EXPECT_NE(log.find("cuMemcpyDtoHAsync_v2 bytes=16 dir=dtoh\n"), std::string::npos) << log;
    // Past the end of an allocation is an error, as on a GPU.
    EXPECT_EQ(driver->cuMemcpyHtoDAsync(a.get() + 4, in.data(), sizeof in, stream.get()),
              CUDA_ERROR_INVALID_VALUE);
}

TEST_F(FakeDriverTest, ModulesFindTheirKernelsByName) {
    const std::string ptx = ".version 8.0\n.target sm_90\n.visible .entry brook_saxpy(\n)\n{\n}\n";
    const Module module = load_module(*driver, ptx, "saxpy.br");
    EXPECT_EQ(fake_cuda_live_modules(), 1u);
    EXPECT_NE(get_function(*driver, module, "brook_saxpy"), nullptr);
    EXPECT_EQ(error_of([&] { get_function(*driver, module, "brook_sax"); }),
              "cuda: no kernel brook_sax in its module: CUDA_ERROR_NOT_FOUND: named symbol not "
              "found");
}

TEST_F(FakeDriverTest, LaunchesAreRecorded) {
    const std::string ptx = ".visible .entry brook_fill(\n)\n";
    const Module module = load_module(*driver, ptx, "fill.br");
    const Stream stream = create_stream(*driver);
    CUfunction function = get_function(*driver, module, "brook_fill");
    driver->check(
        driver->cuLaunchKernel(function, 40, 2, 1, 256, 1, 1, 128, stream.get(), nullptr, nullptr),
        "launch");
    ASSERT_EQ(fake_cuda_launch_count(), 1u);
    const FakeCudaLaunch launch = fake_cuda_launch(0);
    EXPECT_STREQ(launch.kernel, "brook_fill");
    EXPECT_EQ(launch.grid[0], 40u);
    EXPECT_EQ(launch.grid[1], 2u);
    EXPECT_EQ(launch.block[0], 256u);
    EXPECT_EQ(launch.shared_bytes, 128u);
    EXPECT_EQ(launch.stream, stream.get());
    EXPECT_NE(std::string(fake_cuda_log())
                  .find("cuLaunchKernel kernel=brook_fill grid=40,2,1 block=256,1,1 shared=128"),
              std::string::npos);
}

TEST(FakeDriverInitTest, CallsBeforeCuInitFail) {
    fake_cuda_reset();
    const Driver driver(BROOK_FAKE_CUDA);
    int count = 0;
    EXPECT_EQ(driver.cuDeviceGetCount(&count), CUDA_ERROR_NOT_INITIALIZED);
}

} // namespace
