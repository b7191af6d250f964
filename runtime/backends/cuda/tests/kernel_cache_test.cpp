// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The kernel cache: the memory cache, the disk cache across "processes" (fresh KernelCache
// objects), what makes a miss, damaged files, BRT_CUDA_CACHE=0 and folders that cannot be used.
#include "backends/cuda/kernel_cache.hpp"

#include "cuda_test_kernels.hpp"
#include "scoped_environment.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using brook::detail::cuda::CacheOrigin;
using brook::detail::cuda::CompileRequest;
using brook::detail::cuda::KernelCache;
using brook::test::ScopedEnvironment;
using brook::test::cuda::nvrtc;
namespace fs = std::filesystem;

class KernelCacheTest : public testing::Test {
protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "brook-cache-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        root = pattern;
        xdg.emplace("XDG_CACHE_HOME", root.c_str());
        enabled.emplace("BRT_CUDA_CACHE", nullptr);
    }
    void TearDown() override {
        xdg.reset();
        enabled.reset();
        fs::remove_all(root);
    }

    static CompileRequest scale() {
        return {brook::test::cuda::scale_source, "scale.cu", {}, {}, 90};
    }

    /// Compiles `request` with a fresh cache (as a new process would) and says where it came from.
    static CacheOrigin origin_in_new_process(const CompileRequest& request) {
        KernelCache cache(nvrtc());
        CacheOrigin origin{};
        cache.compile_cached(request, &origin);
        return origin;
    }

    static std::size_t files_in(const fs::path& folder) {
        std::error_code error;
        std::size_t count = 0;
        for (auto it = fs::directory_iterator(folder, error);
             !error && it != fs::directory_iterator(); ++it) {
            ++count;
        }
        return count;
    }

    fs::path root;
    std::optional<ScopedEnvironment> xdg;
    std::optional<ScopedEnvironment> enabled;
};

TEST_F(KernelCacheTest, TheFolderFollowsXdgThenHome) {
    EXPECT_EQ(KernelCache::default_folder(), root / "brook" / "cuda");
    {
        const ScopedEnvironment relative("XDG_CACHE_HOME", "relative/cache");
        const ScopedEnvironment home("HOME", "/home/brook");
        EXPECT_EQ(KernelCache::default_folder(), fs::path("/home/brook/.cache/brook/cuda"));
    }
    {
        const ScopedEnvironment unset("XDG_CACHE_HOME", nullptr);
        const ScopedEnvironment home("HOME", nullptr);
        EXPECT_EQ(KernelCache::default_folder(), std::nullopt);
    }
    const ScopedEnvironment disabled("BRT_CUDA_CACHE", "0");
    EXPECT_EQ(KernelCache::default_folder(), std::nullopt);
}

TEST_F(KernelCacheTest, CompilesOnceThenReadsMemoryThenDisk) {
    KernelCache cache(nvrtc());
    CacheOrigin origin{};
    const std::string first = cache.compile_cached(scale(), &origin);
    EXPECT_EQ(origin, CacheOrigin::compiled);
    EXPECT_EQ(cache.compile_cached(scale(), &origin), first);
    EXPECT_EQ(origin, CacheOrigin::memory);
    ASSERT_TRUE(cache.file(scale()));
    EXPECT_TRUE(fs::is_regular_file(*cache.file(scale())));
    EXPECT_EQ(cache.file(scale())->parent_path(), root / "brook" / "cuda");

    KernelCache next_process(nvrtc());
    EXPECT_EQ(next_process.compile_cached(scale(), &origin), first);
    EXPECT_EQ(origin, CacheOrigin::disk);
    // No temporary files are left behind.
    EXPECT_EQ(files_in(root / "brook" / "cuda"), 1u);
}

TEST_F(KernelCacheTest, CompileAndStoreCompilesWhatTheCachesHoldAndFillsThem) {
    KernelCache filler(nvrtc());
    CacheOrigin origin{};
    const std::string cached = filler.compile_cached(scale(), &origin);
    // Compiled again though held, with NVRTC's log (none for this kernel).
    const brook::detail::cuda::Compiled compiled = filler.compile_and_store(scale());
    EXPECT_EQ(compiled.image, cached);
    EXPECT_EQ(compiled.log, "");
    EXPECT_EQ(files_in(root / "brook" / "cuda"), 1u);

    // What brook_cuda_check --cache leaves for the programs: a new process reads the disk.
    fs::remove_all(root / "brook");
    KernelCache check(nvrtc());
    EXPECT_EQ(check.compile_and_store(scale()).image, cached);
    KernelCache program(nvrtc());
    EXPECT_EQ(program.compile_cached(scale(), &origin), cached);
    EXPECT_EQ(origin, CacheOrigin::disk);
}

TEST_F(KernelCacheTest, EveryInputIsPartOfTheKey) {
    const CompileRequest base = scale();
    ASSERT_EQ(origin_in_new_process(base), CacheOrigin::compiled);
    ASSERT_EQ(origin_in_new_process(base), CacheOrigin::disk);

    CompileRequest options = base;
    options.options = {"-DBROOK_UNUSED=1"};
    CompileRequest arch = base;
    arch.compute_capability = 80;
    CompileRequest source = base;
    source.source += "\n// another kernel\n";
    CompileRequest header = base;
    header.headers = {{"unused.cuh", "// one text"}};
    CompileRequest header_text = header;
    header_text.headers[0].text = "// another text";
    for (const CompileRequest* request : {&options, &arch, &source, &header, &header_text}) {
        EXPECT_EQ(origin_in_new_process(*request), CacheOrigin::compiled);
    }
    // Moving text between the source and a header changes the key too.
    CompileRequest moved = header;
    moved.source = base.source + "// one text";
    moved.headers[0].text = "";
    KernelCache cache(nvrtc());
    EXPECT_NE(cache.key(moved), cache.key(header));
}

TEST_F(KernelCacheTest, ADamagedFileIsAMiss) {
    const CompileRequest request = scale();
    KernelCache cache(nvrtc());
    const std::string image = cache.compile_cached(request);
    const fs::path file = *cache.file(request);
    std::string contents;
    {
        std::ifstream in(file, std::ios::binary);
        contents.assign(std::istreambuf_iterator<char>(in), {});
    }
    const auto write = [&](const std::string& text) {
        std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
    };
    std::string flipped = contents;
    flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x5a);
    const std::vector<std::string> damaged = {
        "",
        "garbage",
        contents.substr(0, 30),
        contents.substr(0, contents.size() - 1),
        contents + "x",
        flipped,
        // A size field claiming more than the file holds must not make a huge allocation.
        contents.substr(0, contents.find('\n') + 33) + "ffffffffffffffff" +
            contents.substr(contents.find('\n') + 49),
    };
    for (const std::string& text : damaged) {
        write(text);
        KernelCache fresh(nvrtc());
        CacheOrigin origin{};
        EXPECT_EQ(fresh.compile_cached(request, &origin), image);
        EXPECT_EQ(origin, CacheOrigin::compiled);
        // The compile replaced the damaged file with a good one.
        EXPECT_EQ(origin_in_new_process(request), CacheOrigin::disk);
    }
}

TEST_F(KernelCacheTest, BrtCudaCacheZeroDisablesTheDiskCache) {
    const ScopedEnvironment disabled("BRT_CUDA_CACHE", "0");
    EXPECT_EQ(origin_in_new_process(scale()), CacheOrigin::compiled);
    EXPECT_EQ(origin_in_new_process(scale()), CacheOrigin::compiled);
    EXPECT_EQ(files_in(root), 0u);
}

TEST_F(KernelCacheTest, AFolderThatCannotBeCreatedIsNotUsed) {
    // A regular file where a folder should be: unwritable even for root.
    std::ofstream(root / "file") << "not a folder";
    const fs::path folder = root / "file" / "cuda";
    for (int process = 0; process < 2; ++process) {
        KernelCache cache(nvrtc(), folder);
        CacheOrigin origin{};
        EXPECT_FALSE(cache.compile_cached(scale(), &origin).empty());
        EXPECT_EQ(origin, CacheOrigin::compiled);
    }
}

TEST_F(KernelCacheTest, CompileErrorsAreNotCached) {
    CompileRequest broken = scale();
    broken.source = "__global__ void broken() { undefined_value; }\n";
    KernelCache cache(nvrtc());
    EXPECT_THROW(cache.compile_cached(broken), std::runtime_error);
    EXPECT_THROW(cache.compile_cached(broken), std::runtime_error);
    EXPECT_EQ(files_in(root / "brook" / "cuda"), 0u);
}

TEST_F(KernelCacheTest, ConcurrentWritersLeaveOneGoodFile) {
    std::vector<std::string> images(4);
    {
        std::vector<std::jthread> writers;
        for (std::string& image : images) {
            writers.emplace_back(
                [&image] { image = KernelCache(nvrtc()).compile_cached(scale()); });
        }
    }
    for (const std::string& image : images) {
        EXPECT_EQ(image, images.front());
    }
    EXPECT_EQ(files_in(root / "brook" / "cuda"), 1u);
    EXPECT_EQ(origin_in_new_process(scale()), CacheOrigin::disk);
}

} // namespace
