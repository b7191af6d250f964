// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The vulkan backend through the Backend interface, without brcc: device choice and its
// messages, copies of regions, and kernels written by hand after device/frame.glsl (saxpy.comp,
// sum.comp, positives.comp, slots.comp) run from hand-made KernelInfos and Launches, which
// exercise the backend's own scan of variable outputs too. Every test that needs a device is
// skipped, naming why, where none starts. CTest runs them on lavapipe with the validation layer
// on (any message ends the process with status 1).
#include "core/backend.hpp"
#include "core/registry.hpp"

#include "brook/kernel_abi.hpp"

#include "positives_spirv.hpp"
#include "saxpy_spirv.hpp"
#include "scoped_environment.hpp"
#include "slots_spirv.hpp"
#include "sum_spirv.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace brook::detail {
namespace {

using brook::test::ScopedEnvironment;

/// The backend on the device it chooses (lavapipe here), or why it cannot start.
struct Started {
    std::unique_ptr<Backend> backend;
    std::string why_not;
};

Started start_vulkan() {
    try {
        return {create_backend("vulkan"), ""};
    } catch (const std::runtime_error& error) {
        return {nullptr, error.what()};
    }
}

#define START_VULKAN_OR_SKIP(backend)                                                              \
    Started started_##backend = start_vulkan();                                                    \
    if (!started_##backend.backend) {                                                              \
        GTEST_SKIP() << "no Vulkan device starts here: " << started_##backend.why_not;             \
    }                                                                                              \
    Backend& backend = *started_##backend.backend

#define SKIP_WITHOUT_VULKAN()                                                                      \
    if (const Started started = start_vulkan(); !started.backend) {                                \
        GTEST_SKIP() << "no Vulkan device starts here: " << started.why_not;                       \
    }

template <class T> std::vector<T> read_all(Backend& backend, const Storage& storage) {
    std::vector<T> values(storage.count());
    backend.read(storage, Region::dense(1, {storage.count(), 0, 0, 0}), values.data());
    return values;
}

template <class T>
void write_all(Backend& backend, Storage& storage, const std::vector<T>& values) {
    backend.write(storage, Region::dense(1, {values.size(), 0, 0, 0}), values.data());
}

Region view(std::size_t offset, std::array<std::size_t, 4> extents,
            std::array<std::size_t, 4> strides, int rank) {
    Region region;
    region.offset = offset;
    region.rank = rank;
    region.extents = extents;
    region.strides = strides;
    return region;
}

TEST(VulkanDevice, NamesItsDevice) {
    START_VULKAN_OR_SKIP(backend);
    EXPECT_EQ(backend.name(), "vulkan");
    EXPECT_NE(backend.device().find(", Vulkan 1."), std::string::npos) << backend.device();
    // A CPU implementation (lavapipe) is what `auto` passes over.
    const bool on_the_cpu = backend.device().find(", cpu") != std::string::npos;
    EXPECT_EQ(backend.software_renderer(), on_the_cpu) << backend.device();
}

TEST(VulkanDevice, ADeviceNameThatMatchesNothingIsAnError) {
    SKIP_WITHOUT_VULKAN();
    const ScopedEnvironment device("BRT_VULKAN_DEVICE", "no-such-device-anywhere");
    try {
        create_backend("vulkan");
        FAIL() << "a device named no-such-device-anywhere started";
    } catch (const std::runtime_error& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("vulkan: BRT_VULKAN_DEVICE=no-such-device-anywhere names no "
                               "Vulkan device"),
                  std::string::npos)
            << message;
        EXPECT_NE(message.find("the devices here: "), std::string::npos) << message;
    }
}

TEST(VulkanDevice, ADeviceIsChosenByAPartOfItsName) {
    START_VULKAN_OR_SKIP(backend);
    // The chosen device's first word, in another case, names it again.
    const std::string device = backend.device();
    std::string word = device.substr(0, device.find_first_of(" (,"));
    for (char& c : word)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const ScopedEnvironment named("BRT_VULKAN_DEVICE", word.c_str());
    const std::unique_ptr<Backend> again = create_backend("vulkan");
    EXPECT_EQ(again->device(), device);
}

TEST(VulkanDevice, AMissingLoaderIsAnError) {
    const ScopedEnvironment loader("BRT_VULKAN_LOADER", "/nonexistent/libvulkan.so.1");
    try {
        create_backend("vulkan");
        FAIL() << "the backend started without a loader";
    } catch (const std::runtime_error& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("vulkan: no Vulkan loader (/nonexistent/libvulkan.so.1"),
                  std::string::npos)
            << message;
        EXPECT_NE(message.find("install libvulkan1 and your GPU's Vulkan driver"),
                  std::string::npos)
            << message;
    }
}

/// Runs a test body twice where streams are mapped (lavapipe): reading them directly, and
/// through the staging a discrete GPU takes (BRT_VULKAN_MAP_STREAMS=0).
class VulkanStorage : public testing::TestWithParam<const char*> {
protected:
    VulkanStorage() : map_streams_("BRT_VULKAN_MAP_STREAMS", GetParam()) {}

private:
    ScopedEnvironment map_streams_;
};

TEST_P(VulkanStorage, NewStreamsAreZero) {
    START_VULKAN_OR_SKIP(backend);
    // 3 bytes: a size that is no multiple of the 4 that fills work in.
    const std::unique_ptr<Storage> bytes =
        backend.allocate(element_traits<unsigned char>::type(), 3);
    EXPECT_EQ(read_all<unsigned char>(backend, *bytes), std::vector<unsigned char>(3, 0));
    const std::unique_ptr<Storage> floats = backend.allocate(element_traits<float>::type(), 1000);
    EXPECT_EQ(read_all<float>(backend, *floats), std::vector<float>(1000, 0.0f));
    const std::unique_ptr<Storage> empty = backend.allocate(element_traits<float>::type(), 0);
    EXPECT_EQ(empty->count(), 0u);
}

TEST_P(VulkanStorage, RegionsRoundTrip) {
    START_VULKAN_OR_SKIP(backend);
    // A 6 x 5 stream of float2 and the views of it a domain or a stride makes.
    using Element = float2;
    const std::unique_ptr<Storage> storage = backend.allocate(element_traits<Element>::type(), 30);
    std::vector<Element> model(30);
    for (std::size_t i = 0; i < model.size(); ++i) {
        model[i] = Element(static_cast<float>(i), -static_cast<float>(i));
    }
    write_all(backend, *storage, model);

    // Rows 1..3, columns 1, 3: every other element of three rows.
    const Region strided = view(6, {3, 2, 0, 0}, {5, 2, 0, 0}, 2);
    const std::vector<Element> into{{100, 1}, {101, 1}, {102, 1}, {103, 1}, {104, 1}, {105, 1}};
    backend.write(*storage, strided, into.data());
    std::size_t k = 0;
    for (std::size_t row = 0; row < 3; ++row) {
        for (std::size_t column = 0; column < 2; ++column) {
            model[6 + row * 5 + column * 2] = into[k++];
        }
    }
    const std::vector<Element> whole = read_all<Element>(backend, *storage);
    for (std::size_t i = 0; i < model.size(); ++i) {
        EXPECT_EQ(whole[i].x, model[i].x) << i;
        EXPECT_EQ(whole[i].y, model[i].y) << i;
    }

    // A domain of whole rows (contiguous) and one of columns 2..4 of rows 2..5.
    std::vector<Element> rows(10);
    backend.read(*storage, view(10, {2, 5, 0, 0}, {5, 1, 0, 0}, 2), rows.data());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        EXPECT_EQ(rows[i].x, model[10 + i].x) << i;
    }
    std::vector<Element> block(12);
    backend.read(*storage, view(12, {4, 3, 0, 0}, {5, 1, 0, 0}, 2), block.data());
    for (std::size_t row = 0; row < 4; ++row) {
        for (std::size_t column = 0; column < 3; ++column) {
            EXPECT_EQ(block[row * 3 + column].x, model[12 + row * 5 + column].x);
        }
    }

    const std::unique_ptr<Storage> copy = backend.allocate(element_traits<Element>::type(), 30);
    backend.copy(*copy, *storage);
    const std::vector<Element> copied = read_all<Element>(backend, *copy);
    for (std::size_t i = 0; i < model.size(); ++i) {
        EXPECT_EQ(copied[i].x, model[i].x) << i;
        EXPECT_EQ(copied[i].y, model[i].y) << i;
    }
}

TEST_P(VulkanStorage, LargeCopiesGoInPieces) {
    START_VULKAN_OR_SKIP(backend);
    // 24 MiB: several arena pieces, more than the ring of batches holds at once.
    const std::size_t count = std::size_t{6} << 20;
    std::vector<int> values(count);
    std::iota(values.begin(), values.end(), -7);
    const std::unique_ptr<Storage> storage = backend.allocate(element_traits<int>::type(), count);
    write_all(backend, *storage, values);
    // Destroyed while its copy may be queued: kept until the copy is done.
    values.assign(count, 0);
    const std::vector<int> back = read_all<int>(backend, *storage);
    for (std::size_t i = 0; i < count; i += 4099) {
        ASSERT_EQ(back[i], static_cast<int>(i) - 7) << i;
    }
    EXPECT_EQ(back[count - 1], static_cast<int>(count) - 8);
}

TEST_P(VulkanStorage, ManyStreamsAliveAtOnceKeepTheirOwnElements) {
    START_VULKAN_OR_SKIP(backend);
    // More streams than the 4,096 allocations many drivers allow, sized 1 to 7 ints so that
    // they share blocks at odd offsets; half freed, then new ones of other sizes among them.
    std::vector<std::unique_ptr<Storage>> streams;
    const auto fill = [&](std::size_t first, std::size_t end, std::size_t sizes) {
        for (std::size_t k = first; k < end; ++k) {
            streams[k] = backend.allocate(element_traits<int>::type(), 1 + k % sizes);
            std::vector<int> values(streams[k]->count());
            std::iota(values.begin(), values.end(), static_cast<int>(k * 10));
            write_all(backend, *streams[k], values);
        }
    };
    streams.resize(6000);
    fill(0, streams.size(), 7);
    for (std::size_t k = 0; k < streams.size(); k += 2) {
        streams[k].reset();
    }
    for (std::size_t k = 0; k < streams.size(); k += 2) {
        fill(k, k + 1, 5);
    }
    for (std::size_t k = 0; k < streams.size(); ++k) {
        const std::vector<int> values = read_all<int>(backend, *streams[k]);
        ASSERT_EQ(values.size(), 1 + k % (k % 2 == 0 ? 5 : 7)) << k;
        for (std::size_t i = 0; i < values.size(); ++i) {
            ASSERT_EQ(values[i], static_cast<int>(k * 10 + i)) << k;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Reads, VulkanStorage, testing::Values("1", "0"),
                         [](const testing::TestParamInfo<const char*>& parameter) {
                             return std::string(parameter.param) == "1" ? "Mapped" : "Staged";
                         });

// The kernels' parameters, as brcc would describe them.
const ParamInfo saxpy_params[] = {
    {"a", ParamKind::Constant, &element_traits<float>::type},
    {"x", ParamKind::InputStream, &element_traits<float>::type},
    {"y", ParamKind::InputStream, &element_traits<float>::type},
    {"result", ParamKind::OutputStream, &element_traits<float>::type},
};
const BackendCode saxpy_code[] = {{"vulkan", saxpy_spirv}};
const KernelInfo saxpy_kernel{"saxpy", saxpy_params, false, saxpy_code};

const ParamInfo sum_params[] = {
    {"x", ParamKind::ReduceInput, &element_traits<float>::type},
    {"r", ParamKind::ReduceAccumulator, &element_traits<float>::type},
};
const BackendCode sum_code[] = {{"vulkan", sum_spirv}};
const KernelInfo sum_kernel{"sum", sum_params, true, sum_code};

const ParamInfo positives_params[] = {
    {"x", ParamKind::InputStream, &element_traits<float>::type},
    {"y", ParamKind::VariableOutput, &element_traits<float>::type},
};
const BackendCode positives_code[] = {{"vulkan", positives_spirv}};
const KernelInfo positives_kernel{"positives", positives_params, false, positives_code};

const ParamInfo slots_params[] = {
    {"counts", ParamKind::InputStream, &element_traits<uint2>::type},
    {"slots", ParamKind::OutputStream, &element_traits<uint2>::type},
    {"values", ParamKind::VariableOutput, &element_traits<float>::type},
};
const BackendCode slots_code[] = {{"vulkan", slots_spirv}};
const KernelInfo slots_kernel{"slots", slots_params, false, slots_code};

Launch launch_of(const KernelInfo& kernel, int rank, std::array<std::size_t, 4> extents) {
    Launch launch;
    launch.kernel = &kernel;
    launch.code = kernel.code_for("vulkan");
    launch.args.resize(kernel.params.size());
    launch.rank = rank;
    launch.extents = extents;
    launch.element_count = 1;
    for (std::size_t d = 0; d < static_cast<std::size_t>(rank); ++d) {
        launch.element_count *= extents[d];
    }
    return launch;
}

TEST(VulkanKernels, SaxpyDense) {
    START_VULKAN_OR_SKIP(backend);
    const std::size_t n = 1000003; // many workgroups, the last one partly idle
    std::vector<float> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i % 1000);
        y[i] = static_cast<float>(i % 7);
    }
    const auto& type = element_traits<float>::type();
    const std::unique_ptr<Storage> xs = backend.allocate(type, n);
    const std::unique_ptr<Storage> ys = backend.allocate(type, n);
    const std::unique_ptr<Storage> results = backend.allocate(type, n);
    write_all(backend, *xs, x);
    write_all(backend, *ys, y);
    const float a = 3.0f;
    Launch launch = launch_of(saxpy_kernel, 1, {n, 0, 0, 0});
    const Region whole = Region::dense(1, {n, 0, 0, 0});
    launch.args[0].constant = &a;
    launch.args[1].stream = {xs.get(), whole};
    launch.args[2].stream = {ys.get(), whole};
    launch.args[3].stream = {results.get(), whole};
    launch.dense = true;
    backend.run_kernel(launch);
    const std::vector<float> out = read_all<float>(backend, *results);
    for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(out[i], a * x[i] + y[i]) << i;
    }
}

TEST(VulkanKernels, SaxpyGeneralResizesViewsAndRunsRowBlocks) {
    START_VULKAN_OR_SKIP(backend);
    // Domain 4 x 6. x: a 2 x 3 stream resized to it (each element read by a 2 x 2 block); y:
    // a 4 x 6 view into a 5 x 8 stream; the output: a 4 x 6 view with gaps, rows 1..2 only.
    const auto& type = element_traits<float>::type();
    const std::unique_ptr<Storage> xs = backend.allocate(type, 6);
    write_all(backend, *xs, std::vector<float>{1, 2, 3, 4, 5, 6});
    const std::unique_ptr<Storage> ys = backend.allocate(type, 40);
    std::vector<float> y(40);
    std::iota(y.begin(), y.end(), 0.0f);
    write_all(backend, *ys, y);
    const std::unique_ptr<Storage> results = backend.allocate(type, 4 * 12);
    const float a = 10.0f;
    Launch launch = launch_of(saxpy_kernel, 2, {4, 6, 0, 0});
    launch.args[0].constant = &a;
    launch.args[1].stream = {xs.get(), Region::dense(2, {2, 3, 0, 0})};
    launch.args[2].stream = {ys.get(), view(9, {4, 6, 0, 0}, {8, 1, 0, 0}, 2)};
    launch.args[3].stream = {results.get(), view(1, {4, 6, 0, 0}, {12, 2, 0, 0}, 2)};
    launch.first_row = 1;
    launch.end_row = 3;
    backend.run_kernel(launch);
    const std::vector<float> out = read_all<float>(backend, *results);
    for (std::size_t row = 0; row < 4; ++row) {
        for (std::size_t column = 0; column < 6; ++column) {
            const float x = static_cast<float>(row / 2 * 3 + column / 2 + 1);
            const float expected = row >= 1 && row < 3 ? a * x + y[9 + row * 8 + column] : 0.0f;
            EXPECT_EQ(out[1 + row * 12 + column * 2], expected) << row << ", " << column;
        }
    }
}

TEST(VulkanKernels, SumToValue) {
    START_VULKAN_OR_SKIP(backend);
    // Whole numbers, so that any order of the additions gives the same float.
    for (const std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{1000003}}) {
        std::vector<float> x(n);
        double expected = 0;
        for (std::size_t i = 0; i < n; ++i) {
            x[i] = static_cast<float>(i % 13);
            expected += x[i];
        }
        const std::unique_ptr<Storage> xs = backend.allocate(element_traits<float>::type(), n);
        write_all(backend, *xs, x);
        Launch launch = launch_of(sum_kernel, 1, {n, 0, 0, 0});
        launch.args[0].stream = {xs.get(), Region::dense(1, {n, 0, 0, 0})};
        launch.dense = true;
        float result = -1;
        backend.reduce_to_value(launch, 0, &result);
        EXPECT_EQ(result, static_cast<float>(expected)) << n;
    }
}

TEST(VulkanKernels, SumToStreamOfAView) {
    START_VULKAN_OR_SKIP(backend);
    // Input 6 x 40 into a 3 x 4 view of a 4 x 5 stream: each target folds a 2 x 10 box.
    const auto& type = element_traits<float>::type();
    std::vector<float> x(240);
    for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = static_cast<float>(i);
    }
    const std::unique_ptr<Storage> xs = backend.allocate(type, 240);
    write_all(backend, *xs, x);
    const std::unique_ptr<Storage> targets = backend.allocate(type, 20);
    Launch launch = launch_of(sum_kernel, 2, {6, 40, 0, 0});
    launch.args[0].stream = {xs.get(), Region::dense(2, {6, 40, 0, 0})};
    const BoundStream target{targets.get(), view(6, {3, 4, 0, 0}, {5, 1, 0, 0}, 2)};
    backend.reduce_to_stream(launch, 0, target);
    const std::vector<float> out = read_all<float>(backend, *targets);
    for (std::size_t r = 0; r < 3; ++r) {
        for (std::size_t c = 0; c < 4; ++c) {
            float expected = 0;
            for (std::size_t i = 0; i < 2; ++i) {
                for (std::size_t j = 0; j < 10; ++j) {
                    expected += x[(r * 2 + i) * 40 + c * 10 + j];
                }
            }
            EXPECT_EQ(out[6 + r * 5 + c], expected) << r << ", " << c;
        }
    }
    // Outside the view: untouched.
    EXPECT_EQ(out[5], 0.0f);
    EXPECT_EQ(out[10], 0.0f);
}

TEST(VulkanKernels, VariableOutputCountsThenWrites) {
    START_VULKAN_OR_SKIP(backend);
    const auto& type = element_traits<float>::type();
    const std::vector<float> x{1, -2, 3, 0, 5, -6, 7};
    const std::size_t n = x.size();
    const std::unique_ptr<Storage> xs = backend.allocate(type, n);
    write_all(backend, *xs, x);
    // What core/launch.cpp does: the count pass, the scan, the write pass.
    std::vector<std::size_t> counters(n, 0);
    Launch launch = launch_of(positives_kernel, 1, {n, 0, 0, 0});
    launch.args[0].stream = {xs.get(), Region::dense(1, {n, 0, 0, 0})};
    launch.push_counters = {nullptr, counters.data()};
    Launch count = launch;
    count.pass = Launch::Pass::Count;
    backend.run_kernel(count);
    const std::vector<std::size_t> totals = backend.scan_variable_outputs(count);
    ASSERT_EQ(totals, std::vector<std::size_t>{8});
    // The counts stayed on the device.
    EXPECT_EQ(counters, std::vector<std::size_t>(n, 0));
    const std::unique_ptr<Storage> ys = backend.allocate(type, totals[0]);
    launch.args[1].stream = {ys.get(), Region::dense(1, {totals[0], 0, 0, 0})};
    launch.pass = Launch::Pass::Write;
    backend.run_kernel(launch);
    EXPECT_EQ(read_all<float>(backend, *ys), (std::vector<float>{1, 2, 3, 6, 5, 10, 7, 14}));
}

/// The exclusive scan of `counts`, as the core's host scan makes it.
std::vector<std::uint64_t> first_slots(const std::vector<std::uint64_t>& counts) {
    std::vector<std::uint64_t> slots(counts.size());
    std::exclusive_scan(counts.begin(), counts.end(), slots.begin(), std::uint64_t{0});
    return slots;
}

/// A call of slots.comp over `counts` as core/launch.cpp makes it (its count pass, the scan and
/// its write pass), and what the scan gave: each element's first slot, as the write pass read
/// it, and the variable output's size.
class SlotsCall {
public:
    SlotsCall(Backend& backend, const std::vector<std::uint64_t>& counts)
        : backend_(&backend), n_(counts.size()), counters_(n_, 0),
          counts_(backend.allocate(element_traits<uint2>::type(), n_)),
          slots_(backend.allocate(element_traits<uint2>::type(), n_)),
          values_(backend.allocate(element_traits<float>::type(), 1)),
          launch_(launch_of(slots_kernel, 1, {n_, 0, 0, 0})) {
        write_all(backend, *counts_, counts);
        const Region whole = Region::dense(1, {n_, 0, 0, 0});
        launch_.args[0].stream = {counts_.get(), whole};
        launch_.args[1].stream = {slots_.get(), whole};
        launch_.push_counters = {nullptr, nullptr, counters_.data()};
    }

    void count() {
        Launch count = launch_;
        count.pass = Launch::Pass::Count;
        backend_->run_kernel(count);
    }
    std::size_t scan() {
        Launch count = launch_;
        count.pass = Launch::Pass::Count;
        const std::vector<std::size_t> totals = backend_->scan_variable_outputs(count);
        EXPECT_EQ(totals.size(), 1u);
        return totals.empty() ? 0 : totals[0];
    }
    /// The write pass; slots.comp pushes nothing, so the variable output is one element.
    std::vector<std::uint64_t> write() {
        Launch write = launch_;
        write.pass = Launch::Pass::Write;
        write.args[2].stream = {values_.get(), Region::dense(1, {1, 0, 0, 0})};
        backend_->run_kernel(write);
        return read_all<std::uint64_t>(*backend_, *slots_);
    }

    /// The core's host counters of the call, which the backend leaves alone but for a block of
    /// rows.
    std::vector<std::size_t>& host_counters() { return counters_; }
    Launch& launch() { return launch_; }

private:
    Backend* backend_;
    std::size_t n_;
    std::vector<std::size_t> counters_;
    std::unique_ptr<Storage> counts_;
    std::unique_ptr<Storage> slots_;
    std::unique_ptr<Storage> values_;
    Launch launch_;
};

TEST(VulkanKernels, VariableOutputScanOnTheDevice) {
    START_VULKAN_OR_SKIP(backend);
    // Sizes about one tile (1024 counts, which a workgroup scans at once), and sizes whose
    // chunks span many tiles and many workgroups, with runs of zero counts.
    for (const std::size_t n :
         {std::size_t{1}, std::size_t{255}, std::size_t{1023}, std::size_t{1024}, std::size_t{1025},
          std::size_t{4097}, std::size_t{100000}, std::size_t{1000003}}) {
        std::vector<std::uint64_t> counts(n);
        for (std::size_t i = 0; i < n; ++i) {
            counts[i] = (i / 1000) % 3 == 1 ? 0 : (i * 7919) % 5;
        }
        SlotsCall call(backend, counts);
        call.count();
        const std::uint64_t total = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
        EXPECT_EQ(call.scan(), total) << n;
        EXPECT_EQ(call.host_counters(), std::vector<std::size_t>(n, 0)) << n;
        EXPECT_EQ(call.write(), first_slots(counts)) << n;
    }
}

TEST(VulkanKernels, VariableOutputScanOfZeroCounts) {
    START_VULKAN_OR_SKIP(backend);
    const std::size_t n = 300000;
    SlotsCall call(backend, std::vector<std::uint64_t>(n, 0));
    call.count();
    EXPECT_EQ(call.scan(), 0u);
    EXPECT_EQ(call.write(), std::vector<std::uint64_t>(n, 0));
}

TEST(VulkanKernels, VariableOutputScanPast32Bits) {
    START_VULKAN_OR_SKIP(backend);
    // Counts of 2^40 and more: every sum past 32 bits, the total near 2^56.
    const std::size_t n = 70001;
    std::vector<std::uint64_t> counts(n);
    for (std::size_t i = 0; i < n; ++i) {
        counts[i] = (std::uint64_t{1} << 40) + i;
    }
    SlotsCall call(backend, counts);
    call.count();
    EXPECT_EQ(call.scan(), std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}));
    EXPECT_EQ(call.write(), first_slots(counts));
}

TEST(VulkanKernels, VariableOutputCallsBetweenAnotherCallsPasses) {
    START_VULKAN_OR_SKIP(backend);
    // Two calls, as two threads may interleave them: each keeps its own counts on the device.
    std::vector<std::uint64_t> counts_a(5000), counts_b(3000);
    for (std::size_t i = 0; i < counts_a.size(); ++i) {
        counts_a[i] = i % 3;
    }
    for (std::size_t i = 0; i < counts_b.size(); ++i) {
        counts_b[i] = 10 + i % 7;
    }
    SlotsCall a(backend, counts_a);
    SlotsCall b(backend, counts_b);
    a.count();
    b.count();
    const std::size_t total_b = b.scan();
    const std::size_t total_a = a.scan();
    EXPECT_EQ(total_a, std::accumulate(counts_a.begin(), counts_a.end(), std::uint64_t{0}));
    EXPECT_EQ(total_b, std::accumulate(counts_b.begin(), counts_b.end(), std::uint64_t{0}));
    EXPECT_EQ(b.write(), first_slots(counts_b));
    EXPECT_EQ(a.write(), first_slots(counts_a));
}

TEST(VulkanKernels, VariableOutputRowBlocksUseTheHostCounters) {
    START_VULKAN_OR_SKIP(backend);
    // Rows [300, 700) of 1000, as the mpi backend runs a rank's block: the count pass fills the
    // block's host counters, the caller scans them (here from slot 0), the write pass reads
    // the slots from there.
    const std::size_t n = 1000;
    std::vector<std::uint64_t> counts(n);
    for (std::size_t i = 0; i < n; ++i) {
        counts[i] = i % 4;
    }
    SlotsCall call(backend, counts);
    call.launch().first_row = 300;
    call.launch().end_row = 700;
    call.count();
    std::vector<std::size_t> expected_counters(n, 0);
    std::copy(counts.begin() + 300, counts.begin() + 700, expected_counters.begin() + 300);
    EXPECT_EQ(call.host_counters(), expected_counters);
    std::vector<std::size_t>& counters = call.host_counters();
    std::exclusive_scan(counters.begin() + 300, counters.begin() + 700, counters.begin() + 300,
                        std::size_t{0});
    const std::vector<std::uint64_t> slots = call.write();
    for (std::size_t i = 0; i < n; ++i) {
        EXPECT_EQ(slots[i], i >= 300 && i < 700 ? counters[i] : 0u) << i;
    }
}

TEST(VulkanKernels, ManyLaunchesFromSeveralBatches) {
    START_VULKAN_OR_SKIP(backend);
    // More dispatches than a batch holds: each adds 1 to the stream, in order.
    const auto& type = element_traits<float>::type();
    const std::size_t n = 4096;
    const std::unique_ptr<Storage> values = backend.allocate(type, n);
    const std::unique_ptr<Storage> ones = backend.allocate(type, n);
    write_all(backend, *ones, std::vector<float>(n, 1.0f));
    const float a = 1.0f;
    Launch launch = launch_of(saxpy_kernel, 1, {n, 0, 0, 0});
    const Region whole = Region::dense(1, {n, 0, 0, 0});
    launch.args[0].constant = &a;
    launch.args[1].stream = {ones.get(), whole};
    launch.args[2].stream = {values.get(), whole};
    launch.args[3].stream = {values.get(), whole};
    launch.dense = true;
    for (int k = 0; k < 300; ++k) {
        backend.run_kernel(launch);
    }
    backend.finish();
    EXPECT_EQ(read_all<float>(backend, *values), std::vector<float>(n, 300.0f));
}

} // namespace
} // namespace brook::detail
