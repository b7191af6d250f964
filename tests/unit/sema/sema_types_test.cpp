// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Sema of the integer, byte and fixed types (issue 3): C's usual arithmetic conversions (char
// and uchar promote to int, unsigned wins over signed), fixed computing as float, shifts, integer
// operators, compound assignments that store back into narrow types, and built-ins. The expected
// trees follow from the C rules, written out by hand.

#include "sema_source_harness.hpp"

namespace brcc::test {
namespace {

class SemaTypesTest : public SemaSourceTest {
protected:
    /// The dump of the statements of a kernel with the given body, after a clean check.
    std::string checked_body(const std::string& body) {
        expect_clean("kernel void k(int n, uint un, char c, uchar uc, fixed fx, float x,\n"
                     "              out float r<>) {\n" +
                     body + "\n}\n");
        const std::string all = dump();
        const std::size_t compound = all.find("    Compound\n");
        if (compound == std::string::npos)
            return all;
        const std::size_t begin = compound + 13;
        return all.substr(begin, all.find("  HostText", begin) - begin);
    }
};

TEST_F(SemaTypesTest, EveryArithmeticTypeButBoolIsAStreamElement) {
    expect_clean(R"(
typedef struct { uchar4 color; fixed alpha; uint id; } Pixel;
kernel void k(int a<>, uint2 b<>, char3 c<>, uchar4 d<>, fixed e<>, fixed4 f[], Pixel p<>,
              out int2 o<>, out fixed3 q<>, out Pixel s<>) {
    o = int2(a, c.y);
    q = fixed3(e, f[0].x, p.alpha);
    s = p;
}
)");
}

TEST_F(SemaTypesTest, CharAndUcharPromoteToInt) {
    EXPECT_EQ(checked_body("int i = c + uc;"), R"(      DeclStmt
        Local i : int
          Binary + : int
            ImplicitConvert : int
              NameRef c : char -> param
            ImplicitConvert : int
              NameRef uc : uchar -> param
)");
}

TEST_F(SemaTypesTest, ShortAndUshortPromoteToIntAndWrapWhenStored) {
    expect_clean("kernel void k(short s<>, ushort u<>, out short r<>) { r = s + u; }\n");
    EXPECT_NE(dump().find(R"(        Assign = : short
          NameRef r : short -> param
          ImplicitConvert : short
            Binary + : int
              ImplicitConvert : int
                NameRef s : short -> param
              ImplicitConvert : int
                NameRef u : ushort -> param
)"),
              std::string::npos)
        << dump();
}

TEST_F(SemaTypesTest, FloatMeetingDoubleIsDoubleAndUnsuffixedLiteralsKeepDoubleValue) {
    // `d / 3.0` divides by the double 3.0 (a double literal, not a float converted); `x / 3.0`
    // stays float; `d * 0.5f` converts the float literal, whose value is a float's.
    expect_clean("kernel void k(double d<>, float x<>, out double r<>, out float f<>) {\n"
                 "    r = d / 3.0 + x + d * 0.5f;\n"
                 "    f = x / 3.0;\n"
                 "}\n");
    const std::string all = dump();
    EXPECT_NE(all.find(R"(Binary / : double
                NameRef d : double -> param
                FloatLiteral 3 : double
)"),
              std::string::npos)
        << all;
    EXPECT_NE(all.find(R"(ImplicitConvert : double
                NameRef x : float -> param
)"),
              std::string::npos)
        << all;
    EXPECT_NE(all.find(R"(ImplicitConvert : double
                FloatLiteral 0.5 : float
)"),
              std::string::npos)
        << all;
    EXPECT_NE(all.find(R"(Binary / : float
            NameRef x : float -> param
            FloatLiteral 3 : float
)"),
              std::string::npos)
        << all;
}

TEST_F(SemaTypesTest, BuiltinsGivenDoublesComputeInDouble) {
    expect_clean("kernel void k(double d<>, float x<>, out double r<>) { r = max(d, x); }\n");
    EXPECT_NE(dump().find("Call max : double"), std::string::npos) << dump();
}

TEST_F(SemaTypesTest, UnsignedWinsOverSigned) {
    EXPECT_EQ(checked_body("uint u = n * un; bool b = c < un;"), R"(      DeclStmt
        Local u : uint
          Binary * : uint
            ImplicitConvert : uint
              NameRef n : int -> param
            NameRef un : uint -> param
      DeclStmt
        Local b : bool
          Binary < : bool
            ImplicitConvert : uint
              NameRef c : char -> param
            NameRef un : uint -> param
)");
}

TEST_F(SemaTypesTest, FixedComputesAsFloat) {
    EXPECT_EQ(checked_body("r = fx * 2; fixed f = fx + fx;"), R"(      ExprStmt
        Assign = : float
          NameRef r : float -> param
          Binary * : float
            ImplicitConvert : float
              NameRef fx : fixed -> param
            ImplicitConvert : float
              IntLiteral 2 : int
      DeclStmt
        Local f : fixed
          ImplicitConvert : fixed
            Binary + : float
              ImplicitConvert : float
                NameRef fx : fixed -> param
              ImplicitConvert : float
                NameRef fx : fixed -> param
)");
}

TEST_F(SemaTypesTest, ShiftHasItsPromotedLeftOperandsType) {
    EXPECT_EQ(checked_body("uint a = un << n; int b = c >> 1u;"), R"(      DeclStmt
        Local a : uint
          Binary << : uint
            NameRef un : uint -> param
            ImplicitConvert : uint
              NameRef n : int -> param
      DeclStmt
        Local b : int
          Binary >> : int
            ImplicitConvert : int
              NameRef c : char -> param
            ImplicitConvert : int
              IntLiteral 1u : uint
)");
}

TEST_F(SemaTypesTest, UnaryOperatorsPromote) {
    EXPECT_EQ(checked_body("int a = -uc; int b = ~c; float f = -fx; uint u = -un;"),
              R"(      DeclStmt
        Local a : int
          Unary - : int
            ImplicitConvert : int
              NameRef uc : uchar -> param
      DeclStmt
        Local b : int
          Unary ~ : int
            ImplicitConvert : int
              NameRef c : char -> param
      DeclStmt
        Local f : float
          Unary - : float
            ImplicitConvert : float
              NameRef fx : fixed -> param
      DeclStmt
        Local u : uint
          Unary - : uint
            NameRef un : uint -> param
)");
}

TEST_F(SemaTypesTest, IntegerOperatorsOnIntegerVectors) {
    EXPECT_EQ(checked_body("uchar2 v = uchar2(1, 2); int2 m = (v & 3) | v % 2;"),
              R"(      DeclStmt
        Local v : uchar2
          Construct uchar2 : uchar2
            ImplicitConvert : uchar
              IntLiteral 1 : int
            ImplicitConvert : uchar
              IntLiteral 2 : int
      DeclStmt
        Local m : int2
          Binary | : int2
            Binary & : int2
              ImplicitConvert : int2
                NameRef v : uchar2 -> local
              IntLiteral 3 : int
            Binary % : int2
              ImplicitConvert : int2
                NameRef v : uchar2 -> local
              IntLiteral 2 : int
)");
}

TEST_F(SemaTypesTest, CompoundAssignmentsStoreBackIntoNarrowTypes) {
    // The operation computes in the promoted type; the store wraps (integers) or saturates
    // (fixed), as an assignment does.
    EXPECT_EQ(checked_body("char d = c; d += 1; fixed f = fx; f *= x; uint u = un; u -= n;"),
              R"(      DeclStmt
        Local d : char
          NameRef c : char -> param
      ExprStmt
        Assign += : char
          NameRef d : char -> local
          IntLiteral 1 : int
      DeclStmt
        Local f : fixed
          NameRef fx : fixed -> param
      ExprStmt
        Assign *= : fixed
          NameRef f : fixed -> local
          NameRef x : float -> param
      DeclStmt
        Local u : uint
          NameRef un : uint -> param
      ExprStmt
        Assign -= : uint
          NameRef u : uint -> local
          ImplicitConvert : uint
            NameRef n : int -> param
)");
}

TEST_F(SemaTypesTest, BuiltinsOnIntegerAndFixedArguments) {
    EXPECT_EQ(checked_body("uint a = min(un, uc); int b = abs(c); float s = sqrt(fx);"),
              R"(      DeclStmt
        Local a : uint
          Call min : uint (built-in)
            NameRef un : uint -> param
            ImplicitConvert : uint
              NameRef uc : uchar -> param
      DeclStmt
        Local b : int
          Call abs : int (built-in)
            ImplicitConvert : int
              NameRef c : char -> param
      DeclStmt
        Local s : float
          Call sqrt : float (built-in)
            ImplicitConvert : float
              NameRef fx : fixed -> param
)");
}

TEST_F(SemaTypesTest, ConditionalArmsPromote) {
    EXPECT_EQ(checked_body("int i = n > 0 ? c : uc;"), R"(      DeclStmt
        Local i : int
          Conditional : int
            Binary > : bool
              NameRef n : int -> param
              IntLiteral 0 : int
            ImplicitConvert : int
              NameRef c : char -> param
            ImplicitConvert : int
              NameRef uc : uchar -> param
)");
}

TEST_F(SemaTypesTest, Mistakes) {
    expect_marked_errors(R"(
kernel void k(int n, char c, fixed fx, float x, out float r<>) {
    int i = fx & 1;     // error: operator '&' needs integer operands, got 'fixed'
    int j = n << x;     // error: operator '<<' needs integer operands, got 'float'
    int k2 = ~fx;       // error: operator '~' needs integer operands, got 'fixed'
    char d = c;
    d += 1.5;
    int m = n;
    m *= fx;
    fixed f = fx;
    f <<= 1;            // error: operator '<<' needs integer operands, got 'fixed'
    bool b = true;
    b += 1;             // error: '+=' computes a 'int' that does not fit the 'bool' target
}
)");
}

} // namespace
} // namespace brcc::test
