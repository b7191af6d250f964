// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The integer and byte element types (int, uint, char, uchar and fixed, with their vectors): C's
// wrap-around arithmetic on the host vectors, fixed's conversions, their descriptions, and moving
// and printing streams of them.
#include <brook/brook.hpp>

#include "hand_kernels.hpp"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace {

using brook::ElementType;
using brook::make_stream;
using brook::ScalarKind;

std::string printed(const brook::stream& s) {
    testing::internal::CaptureStdout();
    streamPrint(s);
    std::fflush(stdout);
    return testing::internal::GetCapturedStdout();
}

TEST(IntegerVectors, SignedArithmeticWrapsAround) {
    const int4 big(INT_MAX, INT_MIN, INT_MAX, -7);
    const int4 sum = big + int4(1, -1, INT_MAX, 3);
    EXPECT_EQ(sum.x, INT_MIN);
    EXPECT_EQ(sum.y, INT_MAX);
    EXPECT_EQ(sum.z, -2);
    EXPECT_EQ(sum.w, -4);
    const int2 difference = int2(INT_MIN, 0) - int2(1, INT_MIN);
    EXPECT_EQ(difference.x, INT_MAX);
    EXPECT_EQ(difference.y, INT_MIN);
    // 65536 * 65536 = 2^32, which is 0 modulo 2^32; 3 * INT_MAX = 2^32 + 2^31 - 3.
    const int2 product = int2(65536, 3) * int2(65536, INT_MAX);
    EXPECT_EQ(product.x, 0);
    EXPECT_EQ(product.y, INT_MAX - 2);
    EXPECT_EQ((-int2(INT_MIN, 5)).x, INT_MIN);
    EXPECT_EQ((-int2(INT_MIN, 5)).y, -5);
    EXPECT_EQ((int2(INT_MIN, 7) / -1).x, INT_MIN);
    EXPECT_EQ((int2(INT_MIN, 7) / -1).y, -7);
    EXPECT_EQ((int2(INT_MIN, 7) % -1).x, 0);
    // C's division truncates toward zero; % takes the dividend's sign.
    EXPECT_EQ((int2(-7, 7) / 2).x, -3);
    EXPECT_EQ((int2(-7, 7) % 2).x, -1);
    int4 accumulated(INT_MAX);
    accumulated += 1;
    EXPECT_EQ(accumulated.w, INT_MIN);
}

TEST(IntegerVectors, UnsignedAndByteArithmeticWrapsAround) {
    const uint2 u = uint2(0u, 4000000000u) - uint2(1u, 0u) + uint2(0u, 500000000u);
    EXPECT_EQ(u.x, UINT_MAX);
    EXPECT_EQ(u.y, 205032704u); // 4.5e9 - 2^32
    const char2 c = char2(127, -128) + char2(1, -1);
    EXPECT_EQ(c.x, -128);
    EXPECT_EQ(c.y, 127);
    EXPECT_EQ((char2(100, 3) * char2(3, 3)).x, 44); // 300 - 256
    const uchar3 b = uchar3(255, 0, 200) + uchar3(1, 0, 100);
    EXPECT_EQ(b.x, 0);
    EXPECT_EQ(b.z, 44);
    EXPECT_EQ((uchar2(0, 1) - uchar2(1, 1)).x, 255);
    EXPECT_EQ((-uchar2(1, 0)).x, 255);
}

TEST(IntegerVectors, ShiftsAndBitwise) {
    EXPECT_EQ((int2(1, -8) << 3).x, 8);
    EXPECT_EQ((int2(1, -8) >> 1).y, -4); // arithmetic shift of negative values
    // Counts are taken modulo the 32-bit width, as x86 and GPUs do.
    EXPECT_EQ((int2(1, 1) << int2(33, 32)).x, 2);
    EXPECT_EQ((int2(1, 1) << int2(33, 32)).y, 1);
    EXPECT_EQ((uint2(0x80000000u, 1u) >> 31u).x, 1u);
    EXPECT_EQ((uchar2(0xF0, 0x0F) & uchar2(0x3C, 0x3C)).x, 0x30);
    EXPECT_EQ((uchar2(0xF0, 0x0F) | uchar2(0x3C, 0x3C)).y, 0x3F);
    EXPECT_EQ((~uchar2(0x0F, 0)).x, 0xF0);
    EXPECT_EQ((uchar2(200, 1) << uchar2(1, 1)).x, 144); // 400 - 256
    EXPECT_EQ((char2(-1, 3) ^ char2(1, 1)).x, -2);
}

TEST(Fixed, ReadsAsAFractionOf255) {
    EXPECT_EQ(static_cast<float>(fixed(0)), 0.0f);
    EXPECT_EQ(static_cast<float>(fixed(255)), 1.0f);
    EXPECT_FLOAT_EQ(static_cast<float>(fixed(51)), 0.2f);
    EXPECT_EQ(sizeof(fixed), 1u);
    EXPECT_EQ(sizeof(fixed4), 4u);
}

TEST(Fixed, WritesSaturateAndRoundToNearest) {
    EXPECT_EQ(fixed(0.5f).x, 128);  // 127.5 rounds up
    EXPECT_EQ(fixed(0.49f).x, 125); // 124.95
    EXPECT_EQ(fixed(1.0f / 255.0f).x, 1);
    EXPECT_EQ(fixed(0.4f / 255.0f).x, 0);
    EXPECT_EQ(fixed(0.6f / 255.0f).x, 1);
    EXPECT_EQ(fixed(2.0f).x, 255);
    EXPECT_EQ(fixed(-3.0f).x, 0);
    EXPECT_EQ(fixed(std::numeric_limits<float>::infinity()).x, 255);
    EXPECT_EQ(fixed(std::nanf("")).x, 0);
    for (int b = 0; b < 256; ++b) {
        const auto bits = static_cast<unsigned char>(b);
        ASSERT_EQ(fixed(static_cast<float>(fixed(bits))).x, bits) << b;
    }
}

TEST(Fixed, VectorsConvertToAndFromFloatVectors) {
    const fixed4 f(float4(0.0f, 0.25f, 1.5f, -1.0f));
    EXPECT_EQ(f.x, 0);
    EXPECT_EQ(f.y, 64); // 63.75
    EXPECT_EQ(f.z, 255);
    EXPECT_EQ(f.w, 0);
    const float4 back = f;
    EXPECT_FLOAT_EQ(back.y, 64.0f / 255.0f);
    EXPECT_EQ(back.z, 1.0f);
    // Kernels' storage has the same bytes and the same conversions.
    const brook::vec<fixed, 2> stored(float2(0.5f, 2.0f));
    EXPECT_EQ(stored.x.x, 128);
    EXPECT_EQ(float2(stored).y, 1.0f);
    // Arithmetic on fixed values happens in float.
    EXPECT_FLOAT_EQ(fixed(1.0f) * 0.5f + fixed(0), 0.5f);
}

TEST(Fixed, HostTypesKeepRawIntegersAndSaturateFloats) {
    fixed2 f;
    f.x = 200;
    f.y = 10;
    const fixed2 raw(static_cast<unsigned char>(100), static_cast<unsigned char>(30));
    EXPECT_EQ(raw.x, 100);
    EXPECT_EQ(raw.y, 30);
    const fixed2 values(0.5f, 2.0f);
    EXPECT_EQ(values.x, 128);
    EXPECT_EQ(values.y, 255);
    const fixed3 first_three(0.0f, 1.0f, 0.2f, 0.4f); // BrookGPU's 4-float form
    EXPECT_EQ(first_three.z, 51);
    EXPECT_FLOAT_EQ(float2(f).x, 200.0f / 255.0f);
    EXPECT_EQ(sizeof(fixed3), 3u);
}

TEST(ShortFixed, ReadsAsAFractionOf65535AndSaturates) {
    EXPECT_EQ(static_cast<float>(shortfixed(65535)), 1.0f);
    EXPECT_EQ(shortfixed(0.5f).x, 32768); // 32767.5 rounds up
    EXPECT_EQ(shortfixed(2.0f).x, 65535);
    EXPECT_EQ(shortfixed(-1.0f).x, 0);
    const shortfixed4 v(static_cast<unsigned short>(65535), static_cast<unsigned short>(1000),
                        static_cast<unsigned short>(0), static_cast<unsigned short>(1));
    EXPECT_FLOAT_EQ(float4(v).y, 1000.0f / 65535.0f);
    EXPECT_EQ(sizeof(shortfixed3), 6u);
}

TEST(ElementTypes, Descriptions) {
    const auto check = [](const ElementType& type, const char* name, std::size_t size,
                          ScalarKind kind, int components) {
        EXPECT_EQ(type.name, name);
        EXPECT_EQ(type.size, size);
        ASSERT_EQ(type.fields.size(), 1u);
        EXPECT_EQ(type.fields[0].scalar, kind);
        EXPECT_EQ(type.component_count(), components);
        EXPECT_EQ(type.packed_size(), size);
    };
    check(brook::element_traits<uint>::type(), "uint", 4, ScalarKind::UInt32, 1);
    check(brook::element_traits<uint3>::type(), "uint3", 12, ScalarKind::UInt32, 3);
    check(brook::element_traits<int4>::type(), "int4", 16, ScalarKind::Int32, 4);
    check(brook::element_traits<char>::type(), "char", 1, ScalarKind::Int8, 1);
    check(brook::element_traits<char4>::type(), "char4", 4, ScalarKind::Int8, 4);
    check(brook::element_traits<uchar>::type(), "uchar", 1, ScalarKind::UInt8, 1);
    check(brook::element_traits<uchar2>::type(), "uchar2", 2, ScalarKind::UInt8, 2);
    check(brook::element_traits<fixed>::type(), "fixed", 1, ScalarKind::Fixed8, 1);
    check(brook::element_traits<fixed3>::type(), "fixed3", 3, ScalarKind::Fixed8, 3);
    check(brook::element_traits<brook::vec<fixed, 3>>::type(), "fixed3", 3, ScalarKind::Fixed8, 3);
    check(brook::element_traits<shortfixed>::type(), "shortfixed", 2, ScalarKind::Fixed16, 1);
    check(brook::element_traits<shortfixed4>::type(), "shortfixed4", 8, ScalarKind::Fixed16, 4);
    check(brook::element_traits<short>::type(), "short", 2, ScalarKind::Int16, 1);
    check(brook::element_traits<short3>::type(), "short3", 6, ScalarKind::Int16, 3);
    check(brook::element_traits<ushort>::type(), "ushort", 2, ScalarKind::UInt16, 1);
    check(brook::element_traits<ushort4>::type(), "ushort4", 8, ScalarKind::UInt16, 4);
    check(brook::element_traits<double>::type(), "double", 8, ScalarKind::Float64, 1);
    check(brook::element_traits<double2>::type(), "double2", 16, ScalarKind::Float64, 2);
    // Plain char and signed char are both Brook's char.
    EXPECT_EQ(brook::element_traits<signed char>::type(), brook::element_traits<char>::type());
    EXPECT_FALSE(brook::element_traits<uchar>::type() == brook::element_traits<char>::type());
    EXPECT_EQ(brook::scalar_size(ScalarKind::Fixed8), 1u);
    EXPECT_EQ(brook::scalar_size(ScalarKind::Fixed16), 2u);
    EXPECT_EQ(brook::scalar_size(ScalarKind::UInt32), 4u);
}

TEST(ElementTypes, ReadWriteRoundTrip) {
    brook::stream ints = make_stream<int3>(2, 2);
    const int3 int_values[4] = {int3(INT_MIN, -1, 0), int3(1, 2, 3), int3(INT_MAX, 5, 6),
                                int3(-7, 8, -9)};
    streamRead(ints, int_values);
    const std::vector<int3> int_out = hand::contents<int3>(ints);
    EXPECT_EQ(int_out[0].x, INT_MIN);
    EXPECT_EQ(int_out[2].x, INT_MAX);
    EXPECT_EQ(int_out[3].z, -9);

    brook::stream bytes = make_stream<uchar3>(3);
    const uchar3 byte_values[3] = {uchar3(0, 1, 2), uchar3(253, 254, 255), uchar3(7, 8, 9)};
    streamRead(bytes, byte_values);
    const std::vector<uchar3> byte_out = hand::contents<uchar3>(bytes);
    EXPECT_EQ(byte_out[1].z, 255);
    EXPECT_EQ(byte_out[2].x, 7);

    // A view of a byte stream: the element size (1) is applied to the strides.
    brook::stream chars = make_stream<char>(3, 4);
    const signed char char_values[12] = {-128, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 127};
    streamRead(chars, char_values);
    signed char middle[4];
    streamWrite(chars.domain(int2(1, 1), int2(3, 3)), middle);
    EXPECT_EQ(middle[0], 3);
    EXPECT_EQ(middle[1], 4);
    EXPECT_EQ(middle[2], 7);
    EXPECT_EQ(middle[3], 8);

    brook::stream fractions = make_stream<fixed2>(2);
    const fixed2 fixed_values[2] = {fixed2(0.0f, 1.0f), fixed2(0.004f, 0.5f)}; // 1.02 rounds to 1
    streamRead(fractions, fixed_values);
    const std::vector<fixed2> fixed_out = hand::contents<fixed2>(fractions);
    EXPECT_EQ(fixed_out[1].x, 1);
    EXPECT_EQ(fixed_out[1].y, 128);

    brook::stream unsigned_stream = make_stream<uint>(2);
    const unsigned unsigned_values[2] = {0u, UINT_MAX};
    streamRead(unsigned_stream, unsigned_values);
    EXPECT_EQ(hand::contents<unsigned>(unsigned_stream)[1], UINT_MAX);
}

TEST(ElementTypes, ShortsAndDoublesRoundTripAndPrint) {
    brook::stream shorts = make_stream<short2>(2);
    const short2 short_values[2] = {short2(-32768, 32767), short2(0, -1)};
    streamRead(shorts, short_values);
    EXPECT_EQ(hand::contents<short2>(shorts)[0].x, -32768);
    EXPECT_EQ(printed(shorts), "{-32768, 32767}{0, -1}\n");

    brook::stream halves = make_stream<ushort>(2);
    const ushort ushort_values[2] = {0, 65535};
    streamRead(halves, ushort_values);
    EXPECT_EQ(printed(halves), "0 65535 \n");

    // streamPrint's %3.2f, as for floats; the values keep double's precision.
    brook::stream doubles = make_stream<double2>(1);
    const double2 double_values[1] = {double2(1.0 / 3.0, 1e-7)};
    streamRead(doubles, double_values);
    EXPECT_EQ(hand::contents<double2>(doubles)[0].x, 1.0 / 3.0);
    EXPECT_EQ(hand::contents<double2>(doubles)[0].y, 1e-7);
    EXPECT_EQ(printed(doubles), "{0.33, 0.00}\n");

    // BrookGPU's field lists name them too, and survive a round trip.
    EXPECT_EQ(brook::getElementSize(brook::__BRTSHORT3), 6);
    EXPECT_EQ(brook::getElementSize(brook::__BRTUSHORT), 2);
    EXPECT_EQ(brook::getElementSize(brook::__BRTDOUBLE2), 16);
    EXPECT_EQ(brook::getElementSize(static_cast<brook::StreamType>(41)), 0);
    EXPECT_EQ(brook::getStreamType(static_cast<double2*>(nullptr))[0], brook::__BRTDOUBLE2);
    EXPECT_EQ(brook::getStreamType(static_cast<ushort4*>(nullptr))[0], brook::__BRTUSHORT4);
}

TEST(ElementTypes, PrintIntegersAsIntegersAndFixedAsFloats) {
    brook::stream ints = make_stream<int>(2, 2);
    const int int_values[4] = {-3, 0, INT_MAX, INT_MIN};
    streamRead(ints, int_values);
    EXPECT_EQ(printed(ints), "-3 0 \n2147483647 -2147483648 \n");

    brook::stream unsigned_stream = make_stream<uint2>(1);
    const uint2 unsigned_values[1] = {uint2(UINT_MAX, 7u)};
    streamRead(unsigned_stream, unsigned_values);
    EXPECT_EQ(printed(unsigned_stream), "{4294967295, 7}\n");

    brook::stream chars = make_stream<char3>(1);
    const char3 char_values[1] = {char3(-128, 0, 127)};
    streamRead(chars, char_values);
    EXPECT_EQ(printed(chars), "{-128, 0, 127}\n");

    brook::stream bytes = make_stream<uchar>(3);
    const uchar byte_values[3] = {0, 128, 255};
    streamRead(bytes, byte_values);
    EXPECT_EQ(printed(bytes), "0 128 255 \n");

    brook::stream fractions = make_stream<fixed4>(1);
    const fixed4 fixed_values[1] = {fixed4(0, 255, 128, 64)};
    streamRead(fractions, fixed_values);
    // 128 / 255 = 0.502, 64 / 255 = 0.251.
    EXPECT_EQ(printed(fractions), "{0.00, 1.00, 0.50, 0.25}\n");
}

TEST(ElementTypes, KernelsAndReductionsOnIntegers) {
    brook::stream a = make_stream<int2>(3);
    const int2 values[3] = {int2(INT_MAX, 1), int2(1, 2), int2(5, 3)};
    streamRead(a, values);
    brook::stream b = make_stream<int2>(6);
    hand::copy<int2>(a, b);
    EXPECT_EQ(hand::contents<int2>(b)[1].x, INT_MAX); // 3 -> 6 repeats
    const int2 total = hand::sum_value<int2>(a);
    EXPECT_EQ(total.x, INT_MIN + 5); // wraps around
    EXPECT_EQ(total.y, 6);
}

} // namespace
