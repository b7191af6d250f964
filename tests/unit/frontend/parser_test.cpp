// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The kernel parser: parameters, statements, expressions and their precedence, read through
// the AST dump.

#include "frontend_harness.hpp"

#include <gtest/gtest.h>

namespace brcc::test {
namespace {

/// Dump of the statements of `body` inside a kernel with parameters `params`.
std::string statements(const std::string& body,
                       const std::string& params = "float a<>, float b<>, out float r<>") {
    Frontend fe("kernel void k(" + params + ") {\n" + body + "\n}\n");
    EXPECT_EQ(fe.diagnostics(), "");
    const std::string dump = fe.kernel_dump("k");
    const std::size_t compound = dump.find("    Compound\n");
    return compound == std::string::npos ? dump : dump.substr(compound + 13);
}

/// Dump of one expression, as the value assigned in `r = expression;`.
std::string expression(const std::string& text) {
    const std::string dump = statements("r = " + text + ";");
    // Drop "ExprStmt", "Assign =" and "NameRef r", and re-indent from zero.
    std::string result;
    std::size_t line_begin = 0;
    int line = 0;
    while (line_begin < dump.size()) {
        const std::size_t end = dump.find('\n', line_begin);
        if (++line > 3)
            result += dump.substr(line_begin + 10, end - line_begin - 10) + "\n";
        line_begin = end + 1;
    }
    return result;
}

TEST(Parser, ParameterKinds) {
    Frontend fe("typedef struct { float3 o; } Ray;\n"
                "kernel void k(float c, const float4 v, float s<>, out float2 o<>, out float x,\n"
                "              float g1[], float g2[][], Ray r<>, float g4[][][][]) {}\n"
                "reduce void sum(float a<>, reduce float r<>, float k) { r += a; }\n"
                "kernel float3 helper(float3 p, float s) { return p * s; }\n");
    EXPECT_EQ(fe.diagnostics(), "");
    EXPECT_EQ(fe.kernel_dump("k"), R"(  Kernel k : void
    Param c : float constant
    Param v : float4 constant
    Param s : float input stream
    Param o : float2 output stream
    Param x : float output stream (no <>)
    Param g1 : float gather 1-D
    Param g2 : float gather 2-D
    Param r : Ray input stream
    Param g4 : float gather 4-D
    Compound
)");
    const KernelDecl* k = fe.unit().kernels[0];
    EXPECT_EQ(k->params[4]->index, 4);
    EXPECT_TRUE(k->params[3]->is_stream_syntax);
    EXPECT_FALSE(k->params[4]->is_stream_syntax);
    EXPECT_EQ(fe.text(k->params[3]->range), "out float2 o<>");
    EXPECT_EQ(fe.text(k->params[3]->name_range), "o");
    EXPECT_EQ(fe.text(k->params[5]->range), "float g1[]");
    const KernelDecl* sum = fe.unit().kernels[1];
    EXPECT_TRUE(sum->is_reduce);
    EXPECT_EQ(sum->params[2]->param_kind, ParamKind::Constant);
    const KernelDecl* helper = fe.unit().kernels[2];
    EXPECT_TRUE(helper->is_helper());
    EXPECT_EQ(helper->return_type.name(), "float3");
}

TEST(Parser, Declarations) {
    EXPECT_EQ(statements("float x = 1, y;\nconst float k = 2.0;\nfloat2 p = {2, 0};\nint i;"),
              R"(      DeclStmt
        Local x : float
          IntLiteral 1
        Local y : float
      DeclStmt
        Local const k : float
          FloatLiteral 2
      DeclStmt
        Local p : float2
          InitList
            IntLiteral 2
            IntLiteral 0
      DeclStmt
        Local i : int
)");
}

TEST(Parser, ControlFlow) {
    EXPECT_EQ(statements("if (a > 0) r = 1; else { r = 2; }\n"
                         "for (int i = 0; i < 4; i++) { if (i == 2) continue; break; }\n"
                         "for (;;) ;\nwhile (a) a -= 1;\ndo { r += 1; } while (r < 3);\nreturn;"),
              R"(      If
        Binary >
          NameRef a
          IntLiteral 0
        ExprStmt
          Assign =
            NameRef r
            IntLiteral 1
        Else
          Compound
            ExprStmt
              Assign =
                NameRef r
                IntLiteral 2
      For
        Init
          DeclStmt
            Local i : int
              IntLiteral 0
        Condition
          Binary <
            NameRef i
            IntLiteral 4
        Step
          Unary ++ (postfix)
            NameRef i
        Body
          Compound
            If
              Binary ==
                NameRef i
                IntLiteral 2
              Continue
            Break
      For
        Body
          Empty
      While
        NameRef a
        ExprStmt
          Assign -=
            NameRef a
            IntLiteral 1
      DoWhile
        Compound
          ExprStmt
            Assign +=
              NameRef r
              IntLiteral 1
        Binary <
          NameRef r
          IntLiteral 3
      Return
)");
}

TEST(Parser, ForWithExpressionInit) {
    EXPECT_EQ(statements("int i; for (i = 0, r = 0; i < 2; ++i, --r) {}"), R"(      DeclStmt
        Local i : int
      For
        Init
          ExprStmt
            Binary ,
              Assign =
                NameRef i
                IntLiteral 0
              Assign =
                NameRef r
                IntLiteral 0
        Condition
          Binary <
            NameRef i
            IntLiteral 2
        Step
          Binary ,
            Unary ++ (prefix)
              NameRef i
            Unary -- (prefix)
              NameRef r
        Body
          Compound
)");
}

TEST(Parser, Precedence) {
    EXPECT_EQ(expression("a + b * 2 - a / b % 3"), R"(Binary -
  Binary +
    NameRef a
    Binary *
      NameRef b
      IntLiteral 2
  Binary %
    Binary /
      NameRef a
      NameRef b
    IntLiteral 3
)");
    EXPECT_EQ(expression("a || b && a | b ^ a & b == a < b << 1"), R"(Binary ||
  NameRef a
  Binary &&
    NameRef b
    Binary |
      NameRef a
      Binary ^
        NameRef b
        Binary &
          NameRef a
          Binary ==
            NameRef b
            Binary <
              NameRef a
              Binary <<
                NameRef b
                IntLiteral 1
)");
    EXPECT_EQ(expression("a < b ? a : b > 0 ? b : 0"), R"(Conditional
  Binary <
    NameRef a
    NameRef b
  NameRef a
  Conditional
    Binary >
      NameRef b
      IntLiteral 0
    NameRef b
    IntLiteral 0
)");
    EXPECT_EQ(expression("-a * !b + ~1"), R"(Binary +
  Binary *
    Unary -
      NameRef a
    Unary !
      NameRef b
  Unary ~
    IntLiteral 1
)");
}

TEST(Parser, AssignmentIsRightAssociative) {
    EXPECT_EQ(statements("float x, y; x = y = a; x *= y += 2;"), R"(      DeclStmt
        Local x : float
        Local y : float
      ExprStmt
        Assign =
          NameRef x
          Assign =
            NameRef y
            NameRef a
      ExprStmt
        Assign *=
          NameRef x
          Assign +=
            NameRef y
            IntLiteral 2
)");
}

TEST(Parser, PostfixCastsConstructorsCalls) {
    EXPECT_EQ(expression("(float)g[1][2].x + float4(a, b, 0, 1).w + dot(v.xyz, (float3)v)"),
              R"(Binary +
  Binary +
    Cast float
      Member .x
        Subscript
          NameRef g
          IntLiteral 1
          IntLiteral 2
    Member .w
      Construct float4
        NameRef a
        NameRef b
        IntLiteral 0
        IntLiteral 1
  Call dot
    Member .xyz
      NameRef v
    Cast float3
      NameRef v
)");
}

TEST(Parser, LiteralsAndIndexof) {
    EXPECT_EQ(expression("1.5f + .5 + 1e-3 + 7u + 0x10 + 010 + true + indexof(a).x + indexof b"),
              R"(Binary +
  Binary +
    Binary +
      Binary +
        Binary +
          Binary +
            Binary +
              Binary +
                FloatLiteral 1.5
                FloatLiteral 0.5
              FloatLiteral 0.001
            IntLiteral 7u
          IntLiteral 16
        IntLiteral 8
      BoolLiteral true
    Member .x
      Indexof
        NameRef a
  Indexof
    NameRef b
)");
}

TEST(Parser, ParenthesesKeepTheirRange) {
    Frontend fe("kernel void k(float a<>, out float r<>) { r = (a + 1) * 2; }\n");
    const auto* stmt = static_cast<const ExprStmt*>(fe.unit().kernels[0]->body->body[0]);
    const auto* assign = static_cast<const Assign*>(stmt->expr);
    const auto* mul = static_cast<const Binary*>(assign->value);
    EXPECT_EQ(fe.text(mul->lhs->range), "(a + 1)");
    EXPECT_EQ(fe.text(mul->range), "(a + 1) * 2");
    EXPECT_EQ(fe.text(stmt->range), "r = (a + 1) * 2;");
}

TEST(Parser, IntersectTriangleFromThePaper) {
    Frontend fe(R"(typedef struct { float3 o; float3 d; float tmax; } Ray;
typedef struct { float3 v0, v1, v2; } Triangle;
typedef struct { float4 state; } RayState;
typedef struct { float trinum; } GridTrilist;
typedef struct { float4 data; } Hit;

kernel void krnIntersectTriangle(Ray ray<>, Triangle tris[],
                                 RayState oldraystate<>,
                                 GridTrilist trilist[],
                                 out Hit candidatehit<>) {
    float idx, det, inv_det;
    float3 edge1, edge2, pvec, tvec, qvec;
    if(oldraystate.state.y > 0) {
        idx = trilist[oldraystate.state.w].trinum;
        edge1 = tris[idx].v1 - tris[idx].v0;
        edge2 = tris[idx].v2 - tris[idx].v0;
        pvec = cross(ray.d, edge2);
        det = dot(edge1, pvec);
        inv_det = 1.0f/det;
        tvec = ray.o - tris[idx].v0;
        candidatehit.data.y = dot( tvec, pvec ) * inv_det;
        qvec = cross( tvec, edge1 );
        candidatehit.data.z = dot( ray.d, qvec ) * inv_det;
        candidatehit.data.x = dot( edge2, qvec ) * inv_det;
        candidatehit.data.w = idx;
    } else {
        candidatehit.data = float4(0,0,0,-1);
    }
}
)");
    EXPECT_EQ(fe.diagnostics(), "");
    ASSERT_EQ(fe.unit().structs.size(), 5u);
    ASSERT_EQ(fe.unit().kernels.size(), 1u);
    const KernelDecl* kernel = fe.unit().kernels[0];
    ASSERT_EQ(kernel->params.size(), 5u);
    EXPECT_EQ(kernel->params[1]->param_kind, ParamKind::Gather);
    EXPECT_EQ(kernel->params[1]->type.name(), "Triangle");
    EXPECT_EQ(kernel->params[4]->param_kind, ParamKind::OutputStream);
    const std::string dump = fe.kernel_dump("krnIntersectTriangle");
    EXPECT_NE(dump.find(R"(          ExprStmt
            Assign =
              NameRef idx
              Member .trinum
                Subscript
                  NameRef trilist
                  Member .w
                    Member .state
                      NameRef oldraystate
)"),
              std::string::npos)
        << dump;
    EXPECT_NE(dump.find(R"(              Assign =
                Member .data
                  NameRef candidatehit
                Construct float4
                  IntLiteral 0
                  IntLiteral 0
                  IntLiteral 0
                  Unary -
                    IntLiteral 1
)"),
              std::string::npos)
        << dump;
}

TEST(Parser, VoidParameterListAndEmptyBody) {
    Frontend fe("kernel float one(void) { return 1.0; }\n");
    EXPECT_EQ(fe.diagnostics(), "");
    EXPECT_TRUE(fe.unit().kernels.at(0)->params.empty());
}

// ---------------------------------------------------------------------------------------------
// Issue 3: integer and byte types, variable outputs, Brook keywords as names

TEST(Parser, IntegerByteAndFixedTypes) {
    Frontend fe("kernel void k(int a<>, uint2 b<>, char3 c[], uchar4 d, fixed e<>,\n"
                "              out fixed4 f<>) {\n"
                "    uint u = 1u; char ch = 'a'; uchar3 v; fixed2 x;\n"
                "}\n");
    EXPECT_EQ(fe.diagnostics(), "");
    EXPECT_EQ(fe.kernel_dump("k"), R"(  Kernel k : void
    Param a : int input stream
    Param b : uint2 input stream
    Param c : char3 gather 1-D
    Param d : uchar4 constant
    Param e : fixed input stream
    Param f : fixed4 output stream
    Compound
      DeclStmt
        Local u : uint
          IntLiteral 1u
      DeclStmt
        Local ch : char
          IntLiteral 97
      DeclStmt
        Local v : uchar3
      DeclStmt
        Local x : fixed2
)");
}

TEST(Parser, TypeNamesAreExact) {
    for (const char* name : {"uint", "char4", "uchar2", "fixed3", "int4", "bool2", "short",
                             "ushort4", "double", "double2"})
        EXPECT_TRUE(Type::builtin_named(name).has_value()) << name;
    for (const char* name : {"uint5", "char1", "uchar0", "fixed44", "unsigned", "fixedd", "long",
                             "shortfixedd", "short5", "doubles"})
        EXPECT_FALSE(Type::builtin_named(name).has_value()) << name;
    EXPECT_EQ(Type::builtin_named("short")->scalar_type(), ScalarType::Short);
    EXPECT_EQ(Type::builtin_named("ushort3")->scalar_type(), ScalarType::UShort);
    EXPECT_EQ(Type::builtin_named("double2")->scalar_type(), ScalarType::Double);
    EXPECT_EQ(Type::builtin_named("uchar4")->scalar_type(), ScalarType::UChar);
    EXPECT_EQ(Type::builtin_named("uchar4")->width(), 4);
    EXPECT_EQ(Type::builtin_named("fixed")->scalar_type(), ScalarType::Fixed);
    EXPECT_EQ(Type::builtin_named("shortfixed3")->scalar_type(), ScalarType::ShortFixed);
    EXPECT_FALSE(Type::builtin_named("shortfixed5").has_value());
}

TEST(Parser, VariableOutputAndPush) {
    Frontend fe("kernel void k(float a<>, vout float2 v<>) {\n"
                "    v = float2(a, 1);\n"
                "    if (a > 0) push(v);\n"
                "    push (v) ;\n"
                "}\n");
    EXPECT_EQ(fe.diagnostics(), "");
    EXPECT_EQ(fe.kernel_dump("k"), R"(  Kernel k : void
    Param a : float input stream
    Param v : float2 variable output
    Compound
      ExprStmt
        Assign =
          NameRef v
          Construct float2
            NameRef a
            IntLiteral 1
      If
        Binary >
          NameRef a
          IntLiteral 0
        Push
          NameRef v
      Push
        NameRef v
)");
    const KernelDecl* k = fe.unit().kernels[0];
    EXPECT_EQ(k->params[1]->param_kind, ParamKind::VariableOutput);
    EXPECT_TRUE(k->params[1]->is_stream_syntax);
    EXPECT_EQ(fe.text(k->params[1]->range), "vout float2 v<>");
    const auto* push = k->body->body[2];
    EXPECT_EQ(fe.text(push->range), "push (v) ;");
}

TEST(Parser, PushIsAnOrdinaryNameElsewhere) {
    // Only `push (` at the start of a statement is the push statement.
    EXPECT_EQ(statements("float push = a; r = push + 1;"), R"(      DeclStmt
        Local push : float
          NameRef a
      ExprStmt
        Assign =
          NameRef r
          Binary +
            NameRef push
            IntLiteral 1
)");
}

TEST(Parser, MalformedPush) {
    Frontend fe("kernel void k(float a<>, vout float v<>) { push(1); push(v) }\n");
    EXPECT_NE(fe.diagnostics().find("1:49: error: expected a vout stream name before '1'"),
              std::string::npos)
        << fe.diagnostics();
    EXPECT_NE(fe.diagnostics().find("1:61: error: expected ';' before '}'"), std::string::npos)
        << fe.diagnostics();
    EXPECT_EQ(fe.errors(), 2u);
}

TEST(Parser, BrookKeywordsAsNames) {
    // Struct fields, parameters and locals may be spelled like Brook's keywords, which mean
    // nothing where a name stands.
    Frontend fe("typedef struct { float in; float2 out, iter; int kernel; } S;\n"
                "kernel void k(S s<>, float inout<>, out float uniform<>) {\n"
                "    float in = s.in, vout = s.out.y, reduce = s.iter.x, indexof = 1;\n"
                "    uniform = in + vout * reduce - inout + indexof + indexof(inout).x;\n"
                "}\n");
    EXPECT_EQ(fe.diagnostics(), "");
    const std::string dump = fe.dump();
    EXPECT_EQ(dump.substr(0, dump.find("  HostText")), R"(TranslationUnit
  Struct S
    Field in : float
    Field out : float2
    Field iter : float2
    Field kernel : int
)");
    const KernelDecl* k = fe.unit().kernels[0];
    EXPECT_EQ(k->params[1]->name, "inout");
    EXPECT_EQ(k->params[1]->param_kind, ParamKind::InputStream);
    EXPECT_EQ(k->params[2]->name, "uniform");
    EXPECT_EQ(k->params[2]->param_kind, ParamKind::OutputStream);
    const std::string body = fe.kernel_dump("k");
    EXPECT_NE(body.find("Local indexof : float"), std::string::npos) << body;
    EXPECT_NE(body.find("            NameRef indexof\n"), std::string::npos) << body;
    EXPECT_NE(body.find("Indexof\n"), std::string::npos) << body;
}

// ---------------------------------------------------------------------------------------------
// Brook+'s kernel language (BROOKPLUS.md §4)

TEST(Parser, TwoWordVectorNames) {
    Frontend fe("kernel unsigned int3 h(unsigned char3 c) { return (unsigned int3)c; }\n"
                "kernel void k(unsigned int4 a<>, unsigned char2 b[], signed char4 s,\n"
                "              out signed int2 r<>) {\n"
                "    unsigned char4 v = (unsigned char4)a; unsigned int2 w;\n"
                "}\n");
    EXPECT_EQ(fe.diagnostics(), "");
    EXPECT_EQ(fe.kernel_dump("k"), R"(  Kernel k : void
    Param a : uint4 input stream
    Param b : uchar2 gather 1-D
    Param s : char4 constant
    Param r : int2 output stream
    Compound
      DeclStmt
        Local v : uchar4
          Cast uchar4
            NameRef a
      DeclStmt
        Local w : uint2
)");
    EXPECT_EQ(fe.unit().kernels.at(0)->return_type.name(), "uint3");
    EXPECT_EQ(fe.text(fe.unit().kernels.at(1)->params[0]->range), "unsigned int4 a<>");
}

TEST(Parser, TwoWordNamesOfHostTypesAreUnknown) {
    Frontend fe("kernel void k(unsigned long4 a<>, out float r<>) { r = 1; }\n");
    EXPECT_EQ(fe.diagnostics().substr(0, fe.diagnostics().find('\n')),
              "test.br:1:15: error: unknown type name 'unsigned long4'");
}

TEST(Parser, CSpellingsOfShorts) {
    Frontend fe("kernel void k(short int a<>, unsigned short int b<>, signed short c<>,\n"
                "              unsigned short2 d<>, ushort4 e<>, out short r<>) {\n"
                "    unsigned short u = b;\n"
                "    r = (short int)a + (signed short)c + (short)u;\n"
                "}\n");
    EXPECT_EQ(fe.diagnostics(), "");
    const KernelDecl& k = *fe.unit().kernels.at(0);
    EXPECT_EQ(k.params[0]->type.name(), "short");
    EXPECT_EQ(k.params[1]->type.name(), "ushort");
    EXPECT_EQ(k.params[2]->type.name(), "short");
    EXPECT_EQ(k.params[3]->type.name(), "ushort2");
    EXPECT_EQ(k.params[4]->type.name(), "ushort4");
}

TEST(Parser, DoubleVectorsStopAtTwo) {
    Frontend fe("kernel void k(double2 a<>, double3 b<>, out double r<>) {\n"
                "    double4 v = double4(1.0, 2, 3, 4);\n"
                "    r = a.x;\n"
                "}\n");
    EXPECT_EQ(fe.errors(), 3u) << fe.diagnostics();
    for (const char* where : {"1:28: error: type 'double3'", "2:5: error: type 'double4'",
                              "2:17: error: type 'double4'"})
        EXPECT_NE(fe.diagnostics().find(where), std::string::npos) << fe.diagnostics();
    EXPECT_NE(fe.diagnostics().find("Brook+ limits doubles to double and double2"),
              std::string::npos);
}

TEST(Parser, SizedStreamParametersMeanUnsizedOnes) {
    Frontend fe("kernel void k(float a<2, 3>, iter float t<4>, out float4 r<1, 2, 3, 4>,\n"
                "              out int s<(2 + 1) * 4, 1 << 3, -1>) {}\n"
                "reduce void sum(float a<10>, reduce float r<1>) { r += a; }\n");
    EXPECT_EQ(fe.diagnostics(), "");
    EXPECT_EQ(fe.kernel_dump("k"), R"(  Kernel k : void
    Param a : float input stream
    Param t : float input stream iter
    Param r : float4 output stream
    Param s : int output stream
    Compound
)");
    const KernelDecl* k = fe.unit().kernels[0];
    for (const ParamDecl* param : k->params)
        EXPECT_TRUE(param->is_stream_syntax) << param->name;
    EXPECT_EQ(fe.text(k->params[0]->range), "float a<2, 3>");
    EXPECT_EQ(fe.unit().kernels[1]->params[1]->param_kind, ParamKind::ReduceAccumulator);
}

TEST(Parser, MalformedStreamSizes) {
    const std::pair<const char*, const char*> cases[] = {
        {"float a<n>", "1:23: error: size of stream argument 'a' is not an integer constant"},
        {"float a<2.0>", "1:23: error: size of stream argument 'a' is not an integer constant"},
        {"float a<2, >", "1:26: error: expected a stream extent before '>'"},
        {"float a<, 2>", "1:23: error: expected a stream extent before ','"},
        {"float a<2 3>", "1:25: error: expected '>' before '3'"},
        {"float a<1, 2, 3, 4, 5>", "1:21: error: stream argument 'a' has 5 sizes"},
    };
    for (const auto& [param, error] : cases) {
        Frontend fe(std::string("kernel void k(") + param + ", out float r<>) { r = 1; }\n");
        EXPECT_EQ(fe.errors(), 1u) << param;
        EXPECT_NE(fe.diagnostics().find(std::string("test.br:") + error), std::string::npos)
            << fe.diagnostics();
    }
}

TEST(Parser, ReduceMarkings) {
    Frontend fe("reduce void a(float x<>, reduce float r<>) { r += x; }\n"
                "reduce kernel void b(float x<>, reduce float r<>) { r += x; }\n"
                "kernel void c(float x<>, reduce float r<>) { r += x; }\n"
                "kernel void d(reduce float r, float x<>) { r += x; }\n"
                "void kernel e(float x<>, out float r<>) { r = x; }\n"
                "kernel void f(float x<>, out float r<>) { r = x; }\n");
    EXPECT_EQ(fe.diagnostics(), "");
    ASSERT_EQ(fe.unit().kernels.size(), 6u);
    const bool reduce[] = {true, true, true, true, false, false};
    const bool keyword[] = {true, true, false, false, false, false};
    for (std::size_t i = 0; i < 6; ++i) {
        const KernelDecl& kernel = *fe.unit().kernels[i];
        EXPECT_EQ(kernel.is_reduce, reduce[i]) << kernel.name;
        EXPECT_EQ(kernel.has_reduce_keyword, keyword[i]) << kernel.name;
    }
    EXPECT_EQ(fe.text(fe.unit().kernels[1]->range).substr(0, 20), "reduce kernel void b");
    EXPECT_EQ(fe.text(fe.unit().kernels[4]->range).substr(0, 13), "void kernel e");
    EXPECT_EQ(fe.host_text(), "\n\n\n\n\n\n");
}

} // namespace
} // namespace brcc::test
