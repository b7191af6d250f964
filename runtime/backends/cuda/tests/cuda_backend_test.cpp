// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The cuda backend (cuda_backend.cpp) through libbrook's public API, on brook_fake_cuda: which
// driver calls streams, copies, launches, reductions and variable outputs make, with what sizes
// and grids, and what stops the program. NVRTC is real, so the kernels (backend_test_kernels.hpp)
// are compiled and cached as on a GPU; the fake only records their launches.
//
// The backend is chosen once per process, so every case runs in a death-test child that selects
// it; the child checks the fake's state in-process (this binary links the fake, and the driver's
// dlopen of the same file shares its state) and exits with 0, or prints what differed and exits
// with 3.
#include <brook/brook.hpp>
#include <brook/kernel_abi.hpp>

#include "backend_test_kernels.hpp"
#include "backends/cuda/device/kernel_frame.hpp"
#include "backends/cuda/device/ordered_reduce.hpp"
#include "core/backend.hpp"
#include "core/registry.hpp"
#include "death_test.hpp"
#include "fake_cuda.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

using brook_test::copy_kernel;
using brook_test::evens_kernel;
using brook_test::sum_kernel;

// ---- The disk cache -------------------------------------------------------------------------

/// A directory for this test program's kernel caches, made by the parent process and handed to
/// its death-test children through the environment (a child re-runs the test body, so anything
/// it computed itself would differ).
class CacheRoot : public testing::Environment {
public:
    static constexpr const char* variable = "BROOK_CUDA_BACKEND_TEST_CACHES";

    void SetUp() override {
        if (std::getenv(variable) != nullptr) {
            return;
        }
        std::string pattern = testing::TempDir() + "brook_cuda_backend_test_XXXXXX";
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        setenv(variable, pattern.c_str(), 1);
        owned_ = pattern;
    }
    void TearDown() override {
        if (!owned_.empty()) {
            std::error_code ignored;
            std::filesystem::remove_all(owned_, ignored);
        }
    }

private:
    std::string owned_;
};

[[maybe_unused]] testing::Environment* const cache_root =
    testing::AddGlobalTestEnvironment(new CacheRoot);

/// $XDG_CACHE_HOME for `name`: "shared" for cases that do not care whether kernels come from
/// the disk cache (so that they compile once per run), the test's own name for those that do.
std::string cache_home(const std::string& name) {
    return std::string(std::getenv(CacheRoot::variable)) + "/" + name;
}

std::string test_name() {
    return testing::UnitTest::GetInstance()->current_test_info()->name();
}

/// Selects the cuda backend on the fake driver, in the child that runs a test's statement.
void use_fake_cuda(const std::string& cache = "shared") {
    setenv("BRT_RUNTIME", "cuda", 1);
    setenv("BRT_CUDA_DRIVER", BROOK_FAKE_CUDA, 1);
    setenv("XDG_CACHE_HOME", cache_home(cache).c_str(), 1);
    unsetenv("BRT_SYNC");
    unsetenv("BRT_VERBOSE");
}

// ---- Checks inside the child ----------------------------------------------------------------

int failures = 0;

template <class Actual, class Expected>
void check_eq(const Actual& actual, const Expected& expected, const std::string& what) {
    if (!(actual == expected)) {
        std::cerr << "check failed: " << what << ": got " << actual << ", expected " << expected
                  << "\n";
        ++failures;
    }
}

/// The child's exit status: 0 when every check passed.
int verdict() {
    return failures == 0 ? 0 : 3;
}

/// The length of the fake's log now, to look at the calls made after it.
std::size_t log_mark() {
    return std::strlen(fake_cuda_log());
}

/// The calls logged since `mark`, one line each, leaving out cuCtxSetCurrent (which every
/// backend entry makes first); only those whose name starts with `entry`.
std::vector<std::string> calls_since(std::size_t mark, std::string_view entry = {}) {
    std::istringstream lines(std::string(fake_cuda_log() + mark));
    std::vector<std::string> calls;
    for (std::string line; std::getline(lines, line);) {
        const std::string_view name = std::string_view(line).substr(0, line.find(' '));
        if (name != "cuCtxSetCurrent" && name.starts_with(entry)) {
            calls.push_back(line);
        }
    }
    return calls;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& line : lines) {
        text += "\n    " + line;
    }
    return text;
}

void check_calls(std::size_t mark, const std::vector<std::string>& expected,
                 const std::string& what, std::string_view entry = {}) {
    const std::vector<std::string> actual = calls_since(mark, entry);
    if (actual != expected) {
        std::cerr << "check failed: " << what << ": the calls were" << joined(actual)
                  << "\n  expected" << joined(expected) << "\n";
        ++failures;
    }
}

std::string dims(const unsigned (&d)[3]) {
    return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]);
}

/// The launches recorded from `first` on, as "kernel grid=X,Y,Z block=X,Y,Z".
std::vector<std::string> launches_since(std::size_t first) {
    std::vector<std::string> launches;
    for (std::size_t i = first; i < fake_cuda_launch_count(); ++i) {
        const FakeCudaLaunch launch = fake_cuda_launch(i);
        launches.push_back(std::string(launch.kernel) + " grid=" + dims(launch.grid) +
                           " block=" + dims(launch.block));
    }
    return launches;
}

void check_launches(std::size_t first, const std::vector<std::string>& expected,
                    const std::string& what) {
    const std::vector<std::string> actual = launches_since(first);
    if (actual != expected) {
        std::cerr << "check failed: " << what << ": the launches were" << joined(actual)
                  << "\n  expected" << joined(expected) << "\n";
        ++failures;
    }
}

/// The backend's launch geometry: blocks of 256 threads, at most 8 blocks per multiprocessor
/// (the fake has 132).
constexpr unsigned block_threads = 256;
constexpr unsigned most_blocks = 132 * 8;

void copy(const brook::stream& a, brook::stream& b) {
    const brook::KernelArg args[] = {brook::KernelArg::input(a),
                                     brook::KernelArg::output_stream(b)};
    brook::run_kernel(copy_kernel, args);
}

float sum_value(const brook::stream& a) {
    float result = 1.0f;
    const brook::KernelArg args[] = {brook::KernelArg::input(a),
                                     brook::KernelArg::reduce_target(result)};
    brook::run_reduce(sum_kernel, args);
    return result;
}

void sum_to(const brook::stream& a, brook::stream& target) {
    const brook::KernelArg args[] = {brook::KernelArg::input(a),
                                     brook::KernelArg::output_stream(target)};
    brook::run_reduce(sum_kernel, args);
}

void evens(const brook::stream& a, brook::stream& e) {
    const brook::KernelArg args[] = {brook::KernelArg::input(a),
                                     brook::KernelArg::output_stream(e)};
    brook::run_kernel(evens_kernel, args);
}

/// "entry bytes=N dir=D", a copy as the fake logs it.
std::string copy_call(const char* entry, std::size_t bytes, const char* dir) {
    return std::string(entry) + " bytes=" + std::to_string(bytes) + " dir=" + dir;
}
std::string to_device(std::size_t bytes) {
    return copy_call("cuMemcpyHtoDAsync_v2", bytes, "htod");
}
std::string to_host(std::size_t bytes) {
    return copy_call("cuMemcpyDtoHAsync_v2", bytes, "dtoh");
}

/// The bytes of a launch's arguments for a kernel of `params` streams and no constants: a Frame,
/// then a FrameArg per parameter, each part starting at a multiple of 16 bytes (the backend's
/// alignment).
std::size_t frame_bytes(std::size_t params) {
    const auto aligned = [](std::size_t bytes) { return (bytes + 15) / 16 * 16; };
    return aligned(aligned(sizeof(brook::cuda::device::Frame)) +
                   params * sizeof(brook::cuda::device::FrameArg));
}

class CudaBackendTest : public RuntimeDeathTest {};

// ---- Selection ------------------------------------------------------------------------------

int starts_on_the_fake() {
    check_eq(std::string(brook::backend_name()), std::string("cuda"), "backend_name()");
    check_eq(fake_cuda_live_contexts(), 1u, "primary contexts retained");
    check_eq(fake_cuda_live_streams(), 1u, "CUDA streams");
    check_eq(fake_cuda_call_count("cuInit"), 1, "cuInit calls");
    return verdict();
}

TEST_F(CudaBackendTest, BrtRuntimeCudaStartsOnTheFakeDriver) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            std::exit(starts_on_the_fake());
        },
        testing::ExitedWithCode(0), "");
}

void start_without_devices() {
    fake_cuda_set_device_count(0);
    brook::backend_name();
}

TEST_F(CudaBackendTest, NoDeviceStopsTheProgram) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            start_without_devices();
        },
        testing::ExitedWithCode(1), "BRT_RUNTIME=cuda: no CUDA device");
}

void start_with_devices_hidden() {
    // What libcuda does when CUDA_VISIBLE_DEVICES hides every GPU.
    fake_cuda_fail_next("cuInit", CUDA_ERROR_NO_DEVICE);
    brook::backend_name();
}

TEST_F(CudaBackendTest, ADriverThatFindsNoDeviceStopsTheProgram) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            start_with_devices_hidden();
        },
        testing::ExitedWithCode(1), "BRT_RUNTIME=cuda: no CUDA device");
}

TEST_F(CudaBackendTest, AMissingDriverStopsTheProgram) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            setenv("BRT_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
            brook::backend_name();
        },
        testing::ExitedWithCode(1), "BRT_RUNTIME=cuda: no NVIDIA driver \\(/nonexistent/");
}

// ---- Memory ---------------------------------------------------------------------------------

int streams_free_their_memory() {
    brook::backend_name();
    const std::size_t before = fake_cuda_live_allocations();
    {
        const std::size_t mark = log_mark();
        const brook::stream a = brook::make_stream<brook::float4>(100);
        const brook::stream b = brook::make_stream<float>(2, 3);
        check_calls(mark,
                    {"cuMemAlloc_v2 bytes=1600", "cuMemsetD8Async bytes=1600",
                     "cuMemAlloc_v2 bytes=24", "cuMemsetD8Async bytes=24"},
                    "making two streams");
        check_eq(fake_cuda_live_allocations(), before + 2, "allocations with two streams");
        const brook::stream view = b.domain(brook::int2(0, 0), brook::int2(2, 1));
        check_eq(fake_cuda_live_allocations(), before + 2, "allocations with a view");
    }
    check_eq(fake_cuda_live_allocations(), before, "allocations after the streams went");

    // The backend keeps one device buffer for the launches' arguments (the Frame), made by the
    // first launch and reused by the next ones; it lives as long as the backend.
    {
        const brook::stream a = brook::make_stream<brook::float4>(1000);
        brook::stream b = brook::make_stream<brook::float4>(1000);
        copy(a, b);
        const int allocations = fake_cuda_call_count("cuMemAlloc_v2");
        copy(a, b);
        check_eq(fake_cuda_call_count("cuMemAlloc_v2"), allocations,
                 "allocations of a second launch");
    }
    check_eq(fake_cuda_live_allocations(), before + 1,
             "allocations after a launch and its streams went (the frame buffer)");
    return verdict();
}

TEST_F(CudaBackendTest, AStreamIsClearedAndItsMemoryFreedWithIt) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            std::exit(streams_free_their_memory());
        },
        testing::ExitedWithCode(0), "");
}

// ---- Copies ---------------------------------------------------------------------------------

int copies_are_single_calls() {
    constexpr std::size_t n = 1000;
    std::vector<brook::float4> in(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto f = static_cast<float>(i);
        in[i] = brook::float4(f, -f, f * 0.5f, 1.0f / (f + 1.0f));
    }
    const brook::stream s = brook::make_stream<brook::float4>(n);

    std::size_t mark = log_mark();
    streamRead(s, in.data());
    check_calls(mark, {to_device(16 * n)}, "streamRead of 1000 float4");

    std::vector<brook::float4> out(n);
    mark = log_mark();
    streamWrite(s, out.data());
    check_calls(mark, {to_host(16 * n), "cuStreamSynchronize"}, "streamWrite of 1000 float4");
    check_eq(std::memcmp(in.data(), out.data(), n * sizeof(brook::float4)), 0,
             "memcmp of the data written and read back");
    return verdict();
}

TEST_F(CudaBackendTest, StreamReadAndStreamWriteAreOneCopyEachAndRoundTrip) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            std::exit(copies_are_single_calls());
        },
        testing::ExitedWithCode(0), "");
}

/// A copy of 20 MB + 12 bytes: through two 8 MiB pinned buffers, a chunk at a time, waiting
/// for the engine before each chunk (and before each chunk is copied out, on the way back).
int large_copies_go_through_pinned_staging() {
    constexpr std::size_t n = 5 * 1024 * 1024 + 3;
    constexpr std::size_t chunk = std::size_t{8} << 20;
    constexpr std::size_t bytes = n * sizeof(float);
    std::vector<float> in(n);
    for (std::size_t i = 0; i < n; ++i) {
        in[i] = static_cast<float>(i % 1000) * 0.25f;
    }
    const brook::stream s = brook::make_stream<float>(n);

    std::size_t mark = log_mark();
    streamRead(s, in.data());
    check_calls(mark,
                {"cuMemAllocHost_v2 bytes=" + std::to_string(chunk),
                 "cuMemAllocHost_v2 bytes=" + std::to_string(chunk), "cuStreamSynchronize",
                 to_device(chunk), "cuStreamSynchronize", to_device(chunk), "cuStreamSynchronize",
                 to_device(bytes - 2 * chunk)},
                "streamRead of 20 MB");

    std::vector<float> out(n);
    mark = log_mark();
    streamWrite(s, out.data());
    check_calls(mark,
                {"cuStreamSynchronize", to_host(chunk), "cuStreamSynchronize", to_host(chunk),
                 "cuStreamSynchronize", to_host(bytes - 2 * chunk), "cuStreamSynchronize",
                 "cuStreamSynchronize"},
                "streamWrite of 20 MB");
    check_eq(std::memcmp(in.data(), out.data(), bytes), 0,
             "memcmp of the data written and read back");
    return verdict();
}

TEST_F(CudaBackendTest, LargeCopiesGoThroughPinnedStagingAndRoundTrip) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            std::exit(large_copies_go_through_pinned_staging());
        },
        testing::ExitedWithCode(0), "");
}

int domains_copy_row_by_row() {
    // A 4x5 stream of 0..19 and its rows 1..2, columns 1..3: two runs of three floats.
    std::vector<float> all(20);
    for (std::size_t i = 0; i < all.size(); ++i) {
        all[i] = static_cast<float>(i);
    }
    const brook::stream s = brook::make_stream<float>(4, 5);
    streamRead(s, all.data());
    const brook::stream view = s.domain(brook::int2(1, 1), brook::int2(4, 3));

    std::vector<float> part(6);
    std::size_t mark = log_mark();
    streamWrite(view, part.data());
    check_calls(mark, {to_host(12), to_host(12), "cuStreamSynchronize"}, "streamWrite of a domain");
    check_eq(part == std::vector<float>{6, 7, 8, 11, 12, 13}, true, "the domain's elements");

    const std::vector<float> fill{-1, -2, -3, -4, -5, -6};
    mark = log_mark();
    streamRead(view, fill.data());
    check_calls(mark, {to_device(12), to_device(12)}, "streamRead of a domain");
    streamWrite(s, all.data());
    const std::vector<float> expected{0,  1,  2,  3,  4,  5,  -1, -2, -3, 9,
                                      10, -4, -5, -6, 14, 15, 16, 17, 18, 19};
    check_eq(all == expected, true, "the stream after filling the domain");

    // Whole rows of a 2-D stream are contiguous: one copy.
    const brook::stream rows = s.domain(brook::int2(0, 1), brook::int2(5, 3));
    std::vector<float> two_rows(10);
    mark = log_mark();
    streamWrite(rows, two_rows.data());
    check_calls(mark, {to_host(40), "cuStreamSynchronize"}, "streamWrite of whole rows");
    return verdict();
}

TEST_F(CudaBackendTest, ADomainOfA2DStreamIsCopiedRowByRow) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            std::exit(domains_copy_row_by_row());
        },
        testing::ExitedWithCode(0), "");
}

// ---- Launches -------------------------------------------------------------------------------

int grids_cover_the_elements() {
    for (const std::size_t n : {std::size_t{1}, std::size_t{255}, std::size_t{256},
                                std::size_t{257}, std::size_t{1000000}}) {
        const brook::stream a = brook::make_stream<brook::float4>(n);
        brook::stream b = brook::make_stream<brook::float4>(n);
        const std::size_t first = fake_cuda_launch_count();
        copy(a, b);
        // The grid-stride loop runs `iterations` times; the grid must not be larger than needed.
        const std::size_t grid =
            std::min<std::size_t>((n + block_threads - 1) / block_threads, most_blocks);
        check_launches(first, {"copy__cuda grid=" + std::to_string(grid) + ",1,1 block=256,1,1"},
                       "copy over " + std::to_string(n) + " elements");
        const std::size_t threads = grid * block_threads;
        const std::size_t iterations = (n + threads - 1) / threads;
        check_eq(threads * iterations >= n && threads * (iterations - 1) < n, true,
                 "the grid-stride loop over " + std::to_string(n) + " elements");
    }
    check_eq(fake_cuda_call_count("cuModuleLoadData"), 1, "modules loaded for five launches");
    return verdict();
}

TEST_F(CudaBackendTest, AKernelLaunchesBlocksOf256OverAGridThatCoversItsElements) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            std::exit(grids_cover_the_elements());
        },
        testing::ExitedWithCode(0), "");
}

/// A launch of no elements, straight to the backend: the core never makes one from the public
/// API (every stream a kernel reads or writes has elements), but the backend must not trip on it.
int zero_elements_do_nothing() {
    brook::detail::Backend& backend = brook::detail::current_backend();
    brook::detail::Launch launch;
    launch.kernel = &copy_kernel.info();
    launch.args.resize(2);
    launch.rank = 1;
    launch.element_count = 0;
    const std::size_t mark = log_mark();
    backend.run_kernel(launch);
    check_calls(mark, {}, "a launch of no elements");
    check_eq(fake_cuda_launch_count(), 0u, "launches");
    return verdict();
}

TEST_F(CudaBackendTest, ALaunchOfNoElementsDoesNothing) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            std::exit(zero_elements_do_nothing());
        },
        testing::ExitedWithCode(0), "");
}

int reduction_to_a_value_runs_two_passes() {
    constexpr std::size_t n = 10000000;
    const brook::stream a = brook::make_stream<float>(n);
    brook::finish();
    const std::size_t before = fake_cuda_live_allocations();
    const std::size_t mark = log_mark();
    sum_value(a);
    // ordered_reduce.hpp's plan for 10^7 elements in at most 1056 chunks of whole tiles of
    // 256 threads x 4 items: 9766 tiles, 10 per chunk, so 977 chunks of 10240 elements.
    const brook::cuda::device::ChunkPlan plan =
        brook::cuda::device::plan_chunks(n, block_threads, 4, most_blocks);
    check_eq(plan.blocks, 977u, "chunks of the plan");
    check_eq(plan.chunk, 10240u, "elements per chunk");
    check_launches(0,
                   {"sum__cuda_reduce_chunks grid=977,1,1 block=256,1,1",
                    "sum__cuda_reduce_partials grid=1,1,1 block=256,1,1"},
                   "a reduction to a value");
    // The result, the frame buffer (made by the first launch), the one box and the partials (a
    // float per chunk).
    check_calls(mark,
                {"cuMemAlloc_v2 bytes=4", "cuMemAlloc_v2 bytes=" + std::to_string(frame_bytes(2)),
                 "cuMemAlloc_v2 bytes=" + std::to_string(sizeof(brook::cuda::device::RowMajorBox)),
                 "cuMemAlloc_v2 bytes=" + std::to_string(977 * sizeof(float))},
                "allocations", "cuMemAlloc_v2");
    check_calls(mark, {to_host(sizeof(float))}, "reading the result", "cuMemcpyDtoHAsync_v2");
    // The frame buffer stays; the result, the box and the partials go.
    check_eq(fake_cuda_live_allocations(), before + 1, "allocations after the reduction");
    return verdict();
}

TEST_F(CudaBackendTest, AReductionToAValueFoldsChunksThenPartials) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            std::exit(reduction_to_a_value_runs_two_passes());
        },
        testing::ExitedWithCode(0), "");
}

int reduction_to_a_stream_has_a_row_per_target() {
    namespace device = brook::cuda::device;
    const brook::stream a = brook::make_stream<float>(4, 6);
    brook::stream target = brook::make_stream<float>(2, 3);
    const std::size_t mark = log_mark();
    sum_to(a, target);
    // Six boxes of 2x2 elements: one chunk each.
    const device::ChunkPlan plan = device::plan_chunks(4, block_threads, 4, most_blocks / 6);
    check_eq(plan.blocks, device::Size{1}, "chunks per box");
    check_launches(0,
                   {"sum__cuda_reduce_chunks grid=1,6,1 block=256,1,1",
                    "sum__cuda_reduce_partials grid=1,6,1 block=256,1,1"},
                   "a reduction to a 2x3 stream");
    // The dense results go into the target in one device-to-device copy.
    check_calls(mark, {"cuMemcpyDtoDAsync_v2 bytes=24 dir=dtod"}, "storing the results",
                "cuMemcpyDtoDAsync_v2");
    return verdict();
}

TEST_F(CudaBackendTest, AReductionToAStreamHasAGridRowPerTargetElement) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            std::exit(reduction_to_a_stream_has_a_row_per_target());
        },
        testing::ExitedWithCode(0), "");
}

int variable_outputs_count_then_write() {
    constexpr std::size_t n = 1000;
    const brook::stream a = brook::make_stream<float>(n);
    brook::stream e = brook::make_stream<float>(1);
    const std::size_t mark = log_mark();
    evens(a, e);
    const std::string grid = "grid=" + std::to_string((n + 255) / 256) + ",1,1 block=256,1,1";
    // The counts become slots on the device (device/vout_scan.cu, one chunk of 1000 here).
    const std::string scan = " grid=1,1,1 block=256,1,1";
    check_launches(0,
                   {"evens__cuda_count " + grid, "brook_vout_count_chunks" + scan,
                    "brook_vout_scan_totals" + scan, "brook_vout_scan_chunks" + scan,
                    "evens__cuda_write " + grid},
                   "a kernel with a vout");
    // Only the vout's size comes back to the host; nothing goes down but the launches' frames.
    check_calls(mark, {to_host(8)}, "copies to the host", "cuMemcpyDtoHAsync_v2");
    const std::vector<std::string> uploads = calls_since(mark, "cuMemcpyHtoDAsync_v2");
    check_eq(std::count(uploads.begin(), uploads.end(), to_device(8 * n)), 0,
             "copies of counts or slots to the device");
    // The fake runs no kernel, so nothing was pushed.
    check_eq(e.size(), 0u, "elements of the vout stream");
    return verdict();
}

TEST_F(CudaBackendTest, AKernelWithAVoutCountsScansAndWritesOnTheDevice) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            std::exit(variable_outputs_count_then_write());
        },
        testing::ExitedWithCode(0), "");
}

int sync_waits_after_every_launch() {
    const brook::stream a = brook::make_stream<brook::float4>(10);
    brook::stream b = brook::make_stream<brook::float4>(10);
    copy(a, b);
    const std::size_t mark = log_mark();
    copy(a, b);
    check_calls(mark,
                {to_device(frame_bytes(2)),
                 "cuLaunchKernel kernel=copy__cuda grid=1,1,1 block=256,1,1 shared=0",
                 "cuStreamSynchronize"},
                "a launch with BRT_SYNC=1");
    return verdict();
}

TEST_F(CudaBackendTest, BrtSyncWaitsAfterEveryLaunch) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            setenv("BRT_SYNC", "1", 1);
            std::exit(sync_waits_after_every_launch());
        },
        testing::ExitedWithCode(0), "");
}

int a_kernel_reading_its_output_reads_a_copy() {
    std::vector<brook::float4> in(10, brook::float4(1, 2, 3, 4));
    brook::stream a = brook::make_stream<brook::float4>(10);
    streamRead(a, in.data());
    brook::stream half = a.domain(0, 5);
    copy(half, half); // compiles the kernel and makes the frame buffer
    const std::size_t mark = log_mark();
    copy(a, half);
    // The output overlaps the input elsewhere than element for element, so the input is
    // snapshotted into a new stream before the launch, in one device-to-device copy, and freed
    // after it (cuMemFree waits for the device, so the launch has read it by then).
    check_calls(mark,
                {"cuMemAlloc_v2 bytes=160", "cuMemsetD8Async bytes=160",
                 "cuMemcpyDtoDAsync_v2 bytes=160 dir=dtod", to_device(frame_bytes(2)),
                 "cuMemFree_v2"},
                "the snapshot", "cuMem");
    return verdict();
}

int swapped_streams_exchange_contents() {
    const std::vector<float> one{1, 2, 3};
    const std::vector<float> two{4, 5, 6};
    brook::stream a = brook::make_stream<float>(3);
    brook::stream b = brook::make_stream<float>(3);
    streamRead(a, one.data());
    streamRead(b, two.data());
    const std::size_t mark = log_mark();
    streamSwap(a, b);
    check_calls(mark, {}, "streamSwap (it exchanges the handles)");
    std::vector<float> out(3);
    streamWrite(a, out.data());
    check_eq(out == two, true, "a after the swap");
    streamWrite(b, out.data());
    check_eq(out == one, true, "b after the swap");
    return verdict();
}

TEST_F(CudaBackendTest, StreamCopiesStayOnTheDevice) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            std::exit(a_kernel_reading_its_output_reads_a_copy());
        },
        testing::ExitedWithCode(0), "");
    EXPECT_EXIT(
        {
            use_fake_cuda();
            std::exit(swapped_streams_exchange_contents());
        },
        testing::ExitedWithCode(0), "");
}

TEST_F(CudaBackendTest, BrtVerboseNamesTheDevice) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            setenv("BRT_VERBOSE", "1", 1);
            std::exit(std::string(brook::backend_name()) == "cuda" ? 0 : 3);
        },
        testing::ExitedWithCode(0),
        "brook: backend cuda on Fake GPU, compute capability 9\\.0, NVRTC [0-9]+\\.[0-9]+");
}

// ---- Compilation ----------------------------------------------------------------------------

int launch_twice() {
    const brook::stream a = brook::make_stream<brook::float4>(10);
    brook::stream b = brook::make_stream<brook::float4>(10);
    copy(a, b);
    copy(a, b);
    check_eq(fake_cuda_call_count("cuModuleLoadData"), 1, "modules loaded");
    check_eq(fake_cuda_live_modules(), 1u, "modules live");
    // Once each, for both launches: copy__cuda_warps (absent: copy has no loop to spread over a
    // warp) and copy__cuda.
    check_eq(fake_cuda_call_count("cuModuleGetFunction"), 2, "functions looked up");
    check_eq(fake_cuda_launch_count(), 2u, "launches");
    return verdict();
}

TEST_F(CudaBackendTest, TheFirstLaunchCompilesAndTheNextReuseTheModule) {
    EXPECT_EXIT(
        {
            use_fake_cuda(test_name());
            setenv("BRT_VERBOSE", "1", 1);
            std::exit(launch_twice());
        },
        testing::ExitedWithCode(0), "brook: cuda: copy compiled \\(");
}

TEST_F(CudaBackendTest, ASecondProcessReadsTheKernelFromTheDiskCache) {
    EXPECT_EXIT(
        {
            use_fake_cuda(test_name());
            setenv("BRT_VERBOSE", "1", 1);
            std::exit(launch_twice());
        },
        testing::ExitedWithCode(0), "brook: cuda: copy compiled \\(");
    EXPECT_EXIT(
        {
            use_fake_cuda(test_name());
            setenv("BRT_VERBOSE", "1", 1);
            std::exit(launch_twice());
        },
        testing::ExitedWithCode(0), "brook: cuda: copy read from the disk cache \\(");
}

// ---- Errors ---------------------------------------------------------------------------------

void make_a_stream_without_memory() {
    brook::backend_name();
    fake_cuda_fail_next("cuMemAlloc_v2", CUDA_ERROR_OUT_OF_MEMORY);
    const brook::stream a = brook::make_stream<float>(100);
}

TEST_F(CudaBackendTest, OutOfDeviceMemoryStopsWithTheDriversError) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            make_a_stream_without_memory();
        },
        testing::ExitedWithCode(1),
        "cuda: cannot allocate 400 bytes of device memory: CUDA_ERROR_OUT_OF_MEMORY");
}

void launch_failing() {
    const brook::stream a = brook::make_stream<brook::float4>(10);
    brook::stream b = brook::make_stream<brook::float4>(10);
    fake_cuda_fail_next("cuLaunchKernel", CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
    copy(a, b);
}

TEST_F(CudaBackendTest, AFailedLaunchNamesTheKernelAndTheLimits) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            launch_failing();
        },
        testing::ExitedWithCode(1),
        "kernel 'copy' needs more registers or shared memory than a block of 256 threads may have "
        "on this GPU: 32 registers per thread \\(CU_FUNC_ATTRIBUTE_NUM_REGS; the device has 65536 "
        "per block.*runs at most 1024 threads per block.*BRT_RUNTIME=cpu "
        "\\(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES\\)");
}

/// A kernel compiled to too many registers for blocks of 256 threads, whose grid-stride loop
/// runs in blocks of any size: it launches again in blocks as large as it may have, and later
/// calls launch so at once.
int too_many_registers_for_256_threads_launch_smaller_blocks() {
    const brook::stream a = brook::make_stream<brook::float4>(1000);
    brook::stream b = brook::make_stream<brook::float4>(1000);
    fake_cuda_set_function_attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 200);
    fake_cuda_fail_next("cuLaunchKernel", CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
    copy(a, b);
    copy(a, b);
    check_launches(0,
                   {"copy__cuda grid=4,1,1 block=192,1,1", "copy__cuda grid=4,1,1 block=192,1,1"},
                   "launches after one out of resources");
    return verdict();
}

TEST_F(CudaBackendTest, AKernelWithTooManyRegistersForItsBlocksRunsInSmallerOnes) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            std::exit(too_many_registers_for_256_threads_launch_smaller_blocks());
        },
        testing::ExitedWithCode(0), "");
}

void reduction_out_of_resources() {
    const brook::stream a = brook::make_stream<float>(1000);
    fake_cuda_set_function_attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 128);
    fake_cuda_set_function_attribute(CU_FUNC_ATTRIBUTE_NUM_REGS, 255);
    fake_cuda_fail_next("cuLaunchKernel", CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
    sum_value(a);
}

TEST_F(CudaBackendTest, AReductionWithTooManyRegistersForItsBlocksNamesTheLimits) {
    // A reduction's blocks cooperate in a plan made for 256 threads: no smaller blocks.
    EXPECT_EXIT(
        {
            use_fake_cuda();
            reduction_out_of_resources();
        },
        testing::ExitedWithCode(1),
        "reduce 'sum' needs more registers or shared memory than a block of 256 threads may have "
        "on this GPU: 255 registers per thread.*runs at most 128 threads per block");
}

void stream_write_failing() {
    const brook::stream a = brook::make_stream<float>(10);
    std::vector<float> out(10);
    fake_cuda_fail_next("cuStreamSynchronize", CUDA_ERROR_ILLEGAL_ADDRESS);
    streamWrite(a, out.data());
}

TEST_F(CudaBackendTest, AFaultSeenByStreamWriteNamesStreamWrite) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            stream_write_failing();
        },
        testing::ExitedWithCode(1), "streamWrite: .*CUDA_ERROR_ILLEGAL_ADDRESS");
}

void launch_without_cuda_code() {
    const brook::stream a = brook::make_stream<brook::float4>(10);
    brook::stream b = brook::make_stream<brook::float4>(10);
    const brook::KernelArg args[] = {brook::KernelArg::input(a),
                                     brook::KernelArg::output_stream(b)};
    brook::run_kernel(brook_test::copy_without_cuda, args);
}

TEST_F(CudaBackendTest, AKernelBuiltWithoutCudaStopsTheProgram) {
    EXPECT_EXIT(
        {
            use_fake_cuda();
            launch_without_cuda_code();
        },
        testing::ExitedWithCode(1), "kernel 'copy' has no code for the cuda backend");
}

} // namespace
