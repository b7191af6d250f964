// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Streams: creation and its errors, handle semantics, streamRead/streamWrite, streamSwap,
// streamSize, struct element types and brmalloc.
#include <brook/brook.hpp>

#include "death_test.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

namespace {

struct Ray {
    float3 origin;
    float3 direction;
};

} // namespace

// What brcc emits for a struct typedef of a .br file.
template <> struct brook::element_traits<Ray> {
    static const ElementType& type() {
        static const ElementType t{"Ray",
                                   sizeof(Ray),
                                   {{ScalarKind::Float32, 3, offsetof(Ray, origin)},
                                    {ScalarKind::Float32, 3, offsetof(Ray, direction)}}};
        return t;
    }
};

namespace {

class StreamDeathTest : public RuntimeDeathTest {};

using brook::make_stream;

TEST(Stream, Shape) {
    const brook::stream s = make_stream<float4>(3, 5);
    EXPECT_EQ(s.rank(), 2);
    EXPECT_EQ(s.extents(), (std::vector<std::size_t>{3, 5}));
    EXPECT_EQ(s.size(), 15u);
    EXPECT_EQ(s.describe(), "float4<3, 5>");
    EXPECT_EQ(s.element_type().name, "float4");
    const brook::stream four = make_stream<float>(2, 3, 4, 5);
    EXPECT_EQ(four.size(), 120u);
}

TEST(Stream, ExtentsFromRuntimeIntegers) {
    const long rows = 4;
    const unsigned cols = 2;
    const brook::stream s = make_stream<int2>(rows, cols);
    EXPECT_EQ(s.describe(), "int2<4, 2>");
}

TEST(Stream, ZeroExtentMakesAnEmptyStream) {
    const brook::stream s = make_stream<float4>(3, 0);
    EXPECT_EQ(s.describe(), "float4<3, 0>");
    EXPECT_EQ(s.size(), 0u);
    // Reading and writing an empty stream touch no memory, so null pointers are fine.
    streamRead(s, nullptr);
    streamWrite(s, nullptr);
    EXPECT_EQ(streamSize(s).y, 3.0f);
}

TEST_F(StreamDeathTest, NegativeExtentIsAnError) {
    EXPECT_EXIT(make_stream<float>(-2), testing::ExitedWithCode(1),
                "brook: error: cannot create stream float<-2>: .*cannot be negative");
}

TEST_F(StreamDeathTest, RankOutsideOneToFourIsAnError) {
    const long long five[] = {1, 2, 3, 4, 5};
    EXPECT_EXIT(brook::stream(brook::element_traits<float>::type(), five),
                testing::ExitedWithCode(1), "a stream has 1 to 4 dimensions, not 5");
    EXPECT_EXIT(brook::stream(brook::element_traits<float>::type(), {}), testing::ExitedWithCode(1),
                "a stream has 1 to 4 dimensions, not 0");
}

TEST(Stream, ReadWriteRoundTrip) {
    brook::stream s = make_stream<float4>(2, 3);
    float4 in[6];
    for (int i = 0; i < 6; ++i) {
        in[i] = float4(static_cast<float>(i), 1, 2, 3);
    }
    streamRead(s, in);
    float4 out[6];
    streamWrite(s, out);
    for (int i = 0; i < 6; ++i) {
        EXPECT_EQ(out[i].x, static_cast<float>(i));
        EXPECT_EQ(out[i].w, 3.0f);
    }
}

TEST(Stream, ReadWriteNeedsNoAlignment) {
    brook::stream s = make_stream<int>(5);
    std::vector<std::byte> buffer(5 * sizeof(int) + 1);
    for (int i = 0; i < 5; ++i) {
        const auto value = static_cast<std::int32_t>(i * 11);
        std::memcpy(buffer.data() + 1 + i * sizeof(int), &value, sizeof value);
    }
    streamRead(s, buffer.data() + 1);
    int out[5];
    streamWrite(s, out);
    EXPECT_EQ(out[4], 44);
}

TEST(Stream, StructElements) {
    brook::stream s = make_stream<Ray>(2);
    const Ray in[2] = {{float3(1, 2, 3), float3(4, 5, 6)}, {float3(7), float3(8)}};
    streamRead(s, in);
    Ray out[2];
    streamWrite(s, out);
    EXPECT_EQ(out[0].direction.z, 6.0f);
    EXPECT_EQ(out[1].origin.y, 7.0f);
    EXPECT_EQ(s.element_type().component_count(), 6);
    EXPECT_EQ(s.element_type().packed_size(), 24u);
}

TEST(Stream, CopiesShareStorage) {
    brook::stream a = make_stream<float>(3);
    const brook::stream b = a;
    const float values[3] = {1, 2, 3};
    streamRead(a, values);
    float out[3];
    streamWrite(b, out);
    EXPECT_EQ(out[2], 3.0f);
}

TEST(Stream, BorrowedHostMemoryIsUsedInPlace) {
    std::vector<float> host{1, 2, 3, 4, 5, 6};
    {
        const std::array<long long, 2> extents{2, 3};
        const brook::stream s =
            brook::stream::borrow(brook::element_traits<float>::type(), extents, host.data());
        // The cpu backend, the tests' default, keeps streams in host memory.
        ASSERT_TRUE(s.valid());
        EXPECT_EQ(s.describe(), "float<2, 3>");
        std::vector<float> seen(6);
        s.write(seen.data());
        EXPECT_EQ(seen, host);
        const std::vector<float> written{7, 8, 9, 10, 11, 12};
        s.read(written.data());
        EXPECT_EQ(host, written);
        const std::vector<float> corner{0, 0};
        s.domain(int2(1, 1), int2(3, 2)).read(corner.data());
    }
    // The stream is gone and the memory is still the caller's, with every write in it.
    EXPECT_EQ(host, (std::vector<float>{7, 8, 9, 10, 0, 0}));
}

TEST_F(StreamDeathTest, BorrowedMemoryTakesTheExtentsOfAStream) {
    float host[4] = {};
    const std::array<long long, 1> extents{-4};
    EXPECT_EXIT(brook::stream::borrow(brook::element_traits<float>::type(), extents, host),
                testing::ExitedWithCode(1),
                "brook: error: cannot create stream float<-4>: .*cannot be negative");
}

TEST(Stream, NewStreamsAreZero) {
    const brook::stream s = make_stream<float2>(4);
    float2 out[4] = {float2(9.0f), float2(9.0f), float2(9.0f), float2(9.0f)};
    streamWrite(s, out);
    EXPECT_EQ(out[3].y, 0.0f);
}

// Large streams take their memory from the OS as zero pages (the cpu backend maps them); a new
// one reads as zeros wherever it is read, and one made where a written one was freed too: the cpu
// backend keeps the mappings of freed streams under 16 MiB for the next stream of their size (8
// MiB here) and gives larger ones back (20 MiB).
TEST(Stream, NewLargeStreamsAreZero) {
    for (const std::size_t bytes : {std::size_t{8} << 20, std::size_t{20} << 20}) {
        const std::size_t count = bytes / sizeof(float);
        std::vector<float> values(count, 7.0f);
        {
            const brook::stream written = make_stream<float>(count);
            streamRead(written, values.data());
        }
        const brook::stream s = make_stream<float>(count);
        streamWrite(s, values.data());
        EXPECT_EQ(std::count(values.begin(), values.end(), 0.0f), static_cast<long>(count))
            << bytes << " bytes";
    }
}

// The cpu backend maps a large stream from a huge page boundary and advises it onto
// transparent huge pages, where streaming kernels run faster: /proc/self/smaps shows the mapping,
// aligned, with the "hg" (MADV_HUGEPAGE) flag. Whether the OS then backs it with huge pages
// depends on its free memory, so that is not asserted.
TEST(Stream, LargeStreamsAreAdvisedOntoHugePages) {
    if (!std::filesystem::exists("/sys/kernel/mm/transparent_hugepage")) {
        GTEST_SKIP() << "this kernel has no transparent huge pages";
    }
    constexpr std::size_t huge_page = std::size_t{2} << 20;
    constexpr std::size_t count = (std::size_t{24} << 20) / 4 + 3; // not whole pages
    const brook::stream s = make_stream<float>(count);
    const std::vector<float> values(count, 1.0f);
    streamRead(s, values.data());
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t mapped = (count * sizeof(float) + page - 1) / page * page;

    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    std::uintptr_t start = 0;
    std::uintptr_t end = 0;
    bool found = false;
    while (std::getline(smaps, line)) {
        // A mapping's first line is "start-end perms ...", its last "VmFlags: rd wr ...". (A
        // failed match may still have written its first field, so it writes to temporaries.)
        std::uintptr_t first = 0;
        std::uintptr_t last = 0;
        if (std::sscanf(line.c_str(), "%" SCNxPTR "-%" SCNxPTR, &first, &last) == 2) {
            start = first;
            end = last;
            continue;
        }
        if (line.starts_with("VmFlags:") && end - start == mapped &&
            (line + " ").find(" hg ") != std::string::npos) {
            found = true;
            EXPECT_EQ(start % huge_page, 0u) << std::hex << start;
        }
    }
    EXPECT_TRUE(found) << "no mapping of " << mapped << " bytes advised onto huge pages";
}

TEST(Stream, SwapExchangesHandles) {
    brook::stream a = make_stream<float>(2, 2);
    brook::stream b = make_stream<float>(2, 2);
    const brook::stream alias = a;
    const float one[4] = {1, 1, 1, 1};
    const float two[4] = {2, 2, 2, 2};
    streamRead(a, one);
    streamRead(b, two);
    streamSwap(a, b);
    float out[4];
    streamWrite(a, out);
    EXPECT_EQ(out[0], 2.0f);
    // A copy of a keeps the stream a had.
    streamWrite(alias, out);
    EXPECT_EQ(out[3], 1.0f);
    streamWrite(b, out);
    EXPECT_EQ(out[1], 1.0f);
    EXPECT_EQ(b.impl(), alias.impl());
}

TEST(Stream, SwapTakesAnyShapesAndTypes) {
    brook::stream a = make_stream<float>(4);
    brook::stream b = make_stream<float2>(2, 3);
    streamSwap(a, b);
    EXPECT_EQ(a.describe(), "float2<2, 3>");
    EXPECT_EQ(b.describe(), "float<4>");
}

TEST(Stream, SizeIsXLast) {
    const brook::stream one = make_stream<float>(7);
    const float4 s1 = streamSize(one);
    EXPECT_EQ(s1.x, 7.0f);
    EXPECT_EQ(s1.y, 0.0f);
    const brook::stream three = make_stream<float>(2, 3, 4);
    const float4 s3 = streamSize(three);
    EXPECT_EQ(s3.x, 4.0f);
    EXPECT_EQ(s3.y, 3.0f);
    EXPECT_EQ(s3.z, 2.0f);
    EXPECT_EQ(s3.w, 0.0f);
}

TEST_F(StreamDeathTest, EmptyHandleIsAnError) {
    brook::stream empty;
    EXPECT_FALSE(empty.valid());
    float data[1];
    EXPECT_EXIT(streamRead(empty, data), testing::ExitedWithCode(1),
                "brook: error: streamRead: the stream handle is empty");
}

TEST_F(StreamDeathTest, HostArrayShorterThanTheStreamIsAnError) {
    // Issue 16: a host array shorter than the stream was read past its end.
    brook::stream s = make_stream<float>(32);
    float sixteen[16] = {};
    EXPECT_EXIT(streamRead(s, sixteen), testing::ExitedWithCode(1),
                "brook: error: streamRead: the host buffer has 64 bytes, but stream float<32> "
                "needs 128 \\(32 float of 4 bytes\\); pass a buffer that holds the whole stream");
    EXPECT_EXIT(streamWrite(s, sixteen), testing::ExitedWithCode(1),
                "brook: error: streamWrite: the host buffer has 64 bytes, but stream float<32> "
                "needs 128");
    std::vector<float4> few(3);
    brook::stream quads = make_stream<float4>(2, 2);
    EXPECT_EXIT(streamRead(quads, std::span<const float4>(few)), testing::ExitedWithCode(1),
                "streamRead: the host buffer has 48 bytes, but stream float4<2, 2> needs 64");
    EXPECT_EXIT(streamWrite(quads, few), testing::ExitedWithCode(1),
                "streamWrite: the host buffer has 48 bytes, but stream float4<2, 2> needs 64");
    EXPECT_EXIT(streamRead(quads, few.data(), few.size()), testing::ExitedWithCode(1),
                "streamRead: the host buffer has 48 bytes, but stream float4<2, 2> needs 64");
    // Each sized form on its own: std::array, std::vector and std::span by value.
    std::array<float, 16> array{};
    EXPECT_EXIT(streamRead(s, array), testing::ExitedWithCode(1),
                "streamRead: the host buffer has 64 bytes, but stream float<32> needs 128");
    EXPECT_EXIT(streamWrite(s, array), testing::ExitedWithCode(1),
                "streamWrite: the host buffer has 64 bytes, but stream float<32> needs 128");
    std::vector<float> vector(31);
    EXPECT_EXIT(streamRead(s, vector), testing::ExitedWithCode(1),
                "streamRead: the host buffer has 124 bytes, but stream float<32> needs 128");
    EXPECT_EXIT(streamWrite(s, std::span<float>(vector)), testing::ExitedWithCode(1),
                "streamWrite: the host buffer has 124 bytes, but stream float<32> needs 128");
}

TEST(Stream, SizedReadsAndWritesOfWholeStreams) {
    brook::stream s = make_stream<float4>(2);
    // Any element type with enough bytes: four floats per float4, as BrookGPU programs pass.
    const float values[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    streamRead(s, values);
    std::vector<float4> out(2);
    streamWrite(s, out);
    EXPECT_EQ(out[1].w, 8.0f);
    std::array<float4, 3> longer{};
    streamWrite(s, std::span<float4>(longer));
    EXPECT_EQ(longer[0].y, 2.0f);
    float4 counted[2];
    streamWrite(s, counted, 2);
    EXPECT_EQ(counted[1].x, 5.0f);
    // The unsized pointer form stays.
    const void* raw = values;
    streamRead(s, raw);
}

TEST(Stream, DomainIsAViewInXLastOrder) {
    brook::stream s = make_stream<float>(3, 4);
    const float values[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    streamRead(s, values);
    // Columns 1..3 (.x) of rows 1..2 (.y).
    const brook::stream view = s.domain(int2(1, 1), int2(3, 3));
    EXPECT_EQ(view.describe(), "float<2, 2>");
    float out[4];
    streamWrite(view, out);
    EXPECT_EQ(out[0], 5.0f);
    EXPECT_EQ(out[1], 6.0f);
    EXPECT_EQ(out[2], 9.0f);
    EXPECT_EQ(out[3], 10.0f);
    const float zeros[4] = {};
    streamRead(view, zeros);
    float all[12];
    streamWrite(s, all);
    EXPECT_EQ(all[4], 4.0f);
    EXPECT_EQ(all[5], 0.0f);
    EXPECT_EQ(all[10], 0.0f);
    EXPECT_EQ(all[11], 11.0f);
    const brook::stream line = make_stream<float>(10).domain(2, 5);
    EXPECT_EQ(line.size(), 3u);
}

TEST(Stream, SwapOfViewsLeavesTheStreamAlone) {
    brook::stream s = make_stream<float>(4);
    const float values[4] = {1, 2, 3, 4};
    streamRead(s, values);
    brook::stream low = s.domain(0, 2);
    brook::stream high = s.domain(1, 4);
    streamSwap(low, high);
    float out[4];
    streamWrite(s, out);
    EXPECT_EQ(out[0], 1.0f);
    EXPECT_EQ(out[3], 4.0f);
    streamWrite(low, out);
    EXPECT_EQ(out[0], 2.0f);
    EXPECT_EQ(low.size(), 3u);
}

TEST_F(StreamDeathTest, DomainBoundsAreChecked) {
    const brook::stream s = make_stream<float>(3, 4);
    EXPECT_EXIT(
        s.domain(int2(0, 0), int2(5, 3)), testing::ExitedWithCode(1),
        "brook: error: domain \\[0, 0\\] to \\[5, 3\\) of stream float<3, 4> is reversed or "
        "outside the stream");
    EXPECT_EXIT(s.domain(0, 2), testing::ExitedWithCode(1),
                "domain of stream float<3, 4>: the bounds have 1 component but the stream has 2 "
                "dimensions");
}

TEST(Stream, OneDimensionalIterator) {
    const brook::stream s = brook::make_iterator<float>(0.0f, 1.0f, 4);
    float out[4];
    streamWrite(s, out);
    EXPECT_EQ(out[0], 0.0f);
    EXPECT_EQ(out[1], 0.25f);
    EXPECT_EQ(out[3], 0.75f);
    const brook::stream v = brook::make_iterator<float2>(float2(0, 10), float2(4, 14), 2);
    float2 pairs[2];
    streamWrite(v, pairs);
    EXPECT_EQ(pairs[1].x, 2.0f);
    EXPECT_EQ(pairs[1].y, 12.0f);
}

TEST(Stream, TwoDimensionalIteratorVariesXAlongTheLastDimension) {
    const brook::stream s = brook::make_iterator<float2>(float2(0, 0), float2(4, 2), 2, 4);
    float2 out[8];
    streamWrite(s, out);
    EXPECT_EQ(out[1].x, 1.0f); // row 0, column 1
    EXPECT_EQ(out[1].y, 0.0f);
    EXPECT_EQ(out[6].x, 2.0f); // row 1, column 2
    EXPECT_EQ(out[6].y, 1.0f);
}

TEST_F(StreamDeathTest, IteratorNeedsAComponentPerDimension) {
    EXPECT_EXIT(brook::make_iterator<float>(0.0f, 1.0f, 2, 2), testing::ExitedWithCode(1),
                "cannot create iterator float<2, 2>: a 2-D iterator needs a value of 2 components");
}

TEST(Stream, BrmallocIsAligned) {
    void* p = brmalloc(100);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, 0u);
    brfree(p);
    void* empty = brmalloc(0);
    EXPECT_NE(empty, nullptr);
    brfree(empty);
    brfree(nullptr);
}

TEST(ElementType, ComparedByValue) {
    const brook::ElementType copy = brook::element_traits<float4>::type();
    EXPECT_TRUE(copy == brook::element_traits<float4>::type());
    EXPECT_FALSE(brook::element_traits<float4>::type() == brook::element_traits<int4>::type());
    EXPECT_FALSE(brook::element_traits<float>::type() == brook::element_traits<Ray>::type());
}

} // namespace
