// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// streamPrint's format (DESIGN.md §2): programs compare it byte for byte.
#include <brook/brook.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace {

struct Pair {
    float2 a;
    float b;
};

} // namespace

template <> struct brook::element_traits<Pair> {
    static const ElementType& type() {
        static const ElementType t{"Pair",
                                   sizeof(Pair),
                                   {{ScalarKind::Float32, 2, offsetof(Pair, a)},
                                    {ScalarKind::Float32, 1, offsetof(Pair, b)}}};
        return t;
    }
};

namespace {

using brook::make_stream;

std::string printed(const brook::stream& s) {
    testing::internal::CaptureStdout();
    streamPrint(s);
    std::fflush(stdout);
    return testing::internal::GetCapturedStdout();
}

TEST(StreamPrint, ScalarsEndWithASpaceAndRowsWithANewline) {
    brook::stream s = make_stream<float>(2, 3);
    const float values[6] = {1, 2.5f, -3, 123.456f, 0.125f, 10};
    streamRead(s, values);
    EXPECT_EQ(printed(s), "1.00 2.50 -3.00 \n123.46 0.12 10.00 \n");
}

TEST(StreamPrint, VectorsInBracesWithNothingBetween) {
    brook::stream s = make_stream<float2>(2);
    const float2 values[2] = {float2(1, 2), float2(3, -4)};
    streamRead(s, values);
    EXPECT_EQ(printed(s), "{1.00, 2.00}{3.00, -4.00}\n");
}

TEST(StreamPrint, SpecialValues) {
    brook::stream s = make_stream<float>(5);
    const float inf = std::numeric_limits<float>::infinity();
    const float values[5] = {1e-7f, -1e-7f, inf, -inf, std::nanf("")};
    streamRead(s, values);
    EXPECT_EQ(printed(s), "0.00 0.00 inf inf NaN \n");
}

TEST(StreamPrint, StructFieldsAreFlattened) {
    brook::stream s = make_stream<Pair>(1, 2);
    const Pair values[2] = {{float2(1, 2), 3}, {float2(4, 5), 6}};
    streamRead(s, values);
    EXPECT_EQ(printed(s), "{1.00, 2.00, 3.00}{4.00, 5.00, 6.00}\n");
}

TEST(StreamPrint, IntegersPrintAsIntegers) {
    brook::stream s = make_stream<int>(3);
    const int values[3] = {3, -4, 0};
    streamRead(s, values);
    EXPECT_EQ(printed(s), "3 -4 0 \n");
    brook::stream v = make_stream<int2>(1);
    const int2 pair[1] = {int2(7, 8)};
    streamRead(v, pair);
    EXPECT_EQ(printed(v), "{7, 8}\n");
}

TEST(StreamPrint, ThreeDimensionsPrintARowPerLastExtent) {
    brook::stream s = make_stream<float>(2, 2, 1);
    const float values[4] = {1, 2, 3, 4};
    streamRead(s, values);
    EXPECT_EQ(printed(s), "1.00 \n2.00 \n3.00 \n4.00 \n");
}

} // namespace
