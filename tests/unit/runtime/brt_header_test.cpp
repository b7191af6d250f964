// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// <brook/brt.hpp> alone gives host code what BrookGPU's brt.hpp gave it (COMPAT.md 2.1): this
// file includes nothing else and is compiled with -fopenmp, so <omp.h> must come too.
#include <brook/brt.hpp>

#include <gtest/gtest.h>

#include <type_traits>

namespace {

static_assert(std::is_same_v<brint64, long long> && std::is_same_v<brook::int64, long long>);
static_assert(FLT_EPSILON > 0.0f && DBL_MAX > 0.0);
#ifdef _OPENMP
static_assert(std::is_same_v<decltype(omp_get_max_threads()), int>);
#endif

BRTTLS int per_thread = 0;

TEST(BrtHeader, GivesBrookGpusNames) {
    BRTALIGNED float local[3] = {1, 2, 3};
    EXPECT_EQ(reinterpret_cast<std::size_t>(local) % 16, 0u);
    per_thread = 1;
    std::vector<float, brallocator<float>> values(100, 1.5f);
    EXPECT_EQ(reinterpret_cast<std::size_t>(values.data()) % 32, 0u);
    EXPECT_TRUE(brismalloc(values.data()));
    char text[8];
    memcpy(text, "brook", 6);
    assert(strlen(text) == 5);
    EXPECT_EQ(sqrtf(16.0f), 4.0f);
    EXPECT_EQ(finite_float(HUGE_VAL), 0.0f);
    EXPECT_EQ(isnan_float(NAN), 1.0f);
    EXPECT_EQ(isinf_float(-HUGE_VAL), 1.0f);
    std::cout << "";
    EXPECT_EQ(per_thread, 1);
}

TEST(BrtHeader, MemoryFunctions) {
    auto* zeros = static_cast<int*>(brcalloc(50, sizeof(int)));
    for (int i = 0; i < 50; ++i) {
        EXPECT_EQ(zeros[i], 0);
        zeros[i] = i;
    }
    auto* grown = static_cast<int*>(brrealloc(zeros, 5000 * sizeof(int)));
    EXPECT_EQ(reinterpret_cast<std::size_t>(grown) % 32, 0u);
    EXPECT_EQ(grown[49], 49);
    EXPECT_FALSE(brismalloc(zeros == grown ? nullptr : zeros));
    auto* shrunk = static_cast<int*>(brrealloc(grown, 10 * sizeof(int)));
    EXPECT_EQ(shrunk[9], 9);
    brfree(shrunk);
    EXPECT_FALSE(brismalloc(shrunk));
    brfree(nullptr);
    void* none = brmalloc(0);
    EXPECT_TRUE(brismalloc(none));
    brfree(none);
}

TEST(BrtHeaderDeathTest, FreeingForeignMemoryIsAnError) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    int local = 0;
    EXPECT_EXIT(brfree(&local), testing::ExitedWithCode(1),
                "brfree: the pointer was not allocated by brmalloc");
    EXPECT_EXIT(brrealloc(&local, 4), testing::ExitedWithCode(1),
                "brrealloc: the pointer was not allocated by brmalloc");
}

} // namespace
