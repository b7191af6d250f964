// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The top-level split: which parts of a file are host text and which are Brook constructs.

#include "frontend_harness.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace brcc::test {
namespace {

constexpr const char* saxpy_program = R"(#include <stdio.h>

kernel void saxpy (float a, float4 x<>, float4 y<>,
                   out float4 result<>) {
    result = a*x + y;
}

void main (void) {
    float a;
    float4 X[100], Y[100], Result[100];
    float4 x<100>, y<100>, result<100>;
    streamRead(x, X); // copy data from mem to stream
    streamRead(y, Y);
    saxpy(a, x, y, result); // execute kernel on all elements
    streamWrite(result, Result); // copy data from stream to mem
}
)";

TEST(HostScanner, SaxpyItems) {
    Frontend fe(saxpy_program);
    EXPECT_EQ(fe.diagnostics(), "");
    const auto& items = fe.unit().items;
    ASSERT_EQ(items.size(), 7u);
    EXPECT_TRUE(std::holds_alternative<HostText>(items[0]));
    ASSERT_TRUE(std::holds_alternative<KernelDecl*>(items[1]));
    EXPECT_TRUE(std::holds_alternative<HostText>(items[2]));
    ASSERT_TRUE(std::holds_alternative<HostVoidMain>(items[3]));
    EXPECT_EQ(fe.text(std::get<HostVoidMain>(items[3]).void_range), "void");
    EXPECT_TRUE(std::holds_alternative<HostText>(items[4]));
    ASSERT_TRUE(std::holds_alternative<HostStreamDecl>(items[5]));
    EXPECT_TRUE(std::holds_alternative<HostText>(items[6]));

    const auto& decl = std::get<HostStreamDecl>(items[5]);
    EXPECT_FALSE(decl.is_parameter);
    EXPECT_EQ(decl.element_type.name(), "float4");
    EXPECT_EQ(fe.text(decl.type_range), "float4");
    EXPECT_EQ(fe.text(decl.range), "float4 x<100>, y<100>, result<100>");
    ASSERT_EQ(decl.declarators.size(), 3u);
    EXPECT_EQ(decl.declarators[2].name, "result");
    EXPECT_EQ(fe.text(decl.declarators[2].name_range), "result");
    EXPECT_EQ(fe.text(decl.declarators[1].range), "y<100>");
    ASSERT_EQ(decl.declarators[0].extents.size(), 1u);
    EXPECT_EQ(fe.text(decl.declarators[0].extents[0]), "100");

    ASSERT_EQ(fe.unit().kernels.size(), 1u);
    const KernelDecl* kernel = fe.unit().kernels[0];
    EXPECT_EQ(kernel->name, "saxpy");
    EXPECT_EQ(fe.text(kernel->range).substr(0, 12), "kernel void ");
    EXPECT_EQ(fe.text(kernel->range).back(), '}');
    EXPECT_EQ(fe.text(kernel->name_range), "saxpy");

    // The items cover the file in order, without gaps.
    std::uint32_t offset = 0;
    for (const TopLevelItem& item : items) {
        const SourceRange range = std::visit(
            [](const auto& value) -> SourceRange {
                using T = std::decay_t<decltype(value)>;
                if constexpr (std::is_same_v<T, HostVoidMain>)
                    return value.void_range;
                else if constexpr (std::is_same_v<T, KernelPrototype>)
                    return value.decl->range;
                else if constexpr (std::is_pointer_v<T>)
                    return value->range;
                else
                    return value.range;
            },
            item);
        EXPECT_EQ(range.begin.offset, offset);
        offset = range.end.offset;
    }
    EXPECT_EQ(offset, fe.sources().text(fe.unit().main_file).size());
}

TEST(HostScanner, FileScopeHostVariables) {
    // Only names declared at file scope by host declarations: not typedefs, functions, their
    // parameters and locals, struct fields or streams.
    Frontend fe(R"(#include <stdio.h>
const int N = 4;
static const float gain = 2.0f, bias, table[3] = {1, 2, 3};
unsigned int *cursor;
typedef float Real;
struct Pair { float a; float b; } pair;
int twice(int x);
float in<4>;
kernel void k(float a<>, out float b<>) { float local = a; b = local; }
int main() { int inner = 1; return inner; }
)");
    EXPECT_EQ(fe.diagnostics(), "");
    std::vector<std::string> names;
    for (const HostVariable& variable : fe.unit().host_variables)
        names.push_back(variable.name);
    EXPECT_EQ(names, (std::vector<std::string>{"N", "gain", "bias", "table", "cursor"}));
}

TEST(HostScanner, SaxpyDump) {
    Frontend fe(saxpy_program);
    EXPECT_EQ(fe.kernel_dump("saxpy"), R"(  Kernel saxpy : void
    Param a : float constant
    Param x : float4 input stream
    Param y : float4 input stream
    Param result : float4 output stream
    Compound
      ExprStmt
        Assign =
          NameRef result
          Binary +
            Binary *
              NameRef a
              NameRef x
            NameRef y
)");
}

TEST(HostScanner, MulSumExample) {
    Frontend fe(R"(kernel void mul (float a<>, float b<>, out float c<>) {
    c = a * b;
}
reduce void sum (float a<>, reduce float r<>) {
    r += a;
}
int main() {
    float A<50,50>;
    float x<1,50>;
    float T<50,50>;
    float y<50,1>;
    mul(A,x,T);
    sum(T,y);
}
)");
    EXPECT_EQ(fe.diagnostics(), "");
    ASSERT_EQ(fe.unit().kernels.size(), 2u);
    const KernelDecl* sum = fe.unit().kernels[1];
    EXPECT_TRUE(sum->is_reduce);
    EXPECT_FALSE(fe.unit().kernels[0]->is_reduce);
    EXPECT_EQ(sum->params[1]->param_kind, ParamKind::ReduceAccumulator);
    EXPECT_TRUE(sum->params[1]->is_stream_syntax);
    int streams = 0;
    for (const TopLevelItem& item : fe.unit().items) {
        if (const auto* decl = std::get_if<HostStreamDecl>(&item)) {
            ++streams;
            EXPECT_EQ(decl->declarators.at(0).extents.size(), 2u);
        }
    }
    EXPECT_EQ(streams, 4);
}

TEST(HostScanner, StructTypedefsAndStreamsOfThem) {
    Frontend fe(R"(typedef struct ray_t {
    float3 o;
    float3 d;
    float tmax;
} Ray;
typedef struct { float3 a, b; Ray r; } Pair;
Ray r<100>;
Pair p<10, 10>;
)");
    EXPECT_EQ(fe.diagnostics(), "");
    ASSERT_EQ(fe.unit().structs.size(), 2u);
    const StructDecl* ray = fe.unit().structs[0];
    EXPECT_EQ(ray->name, "Ray");
    ASSERT_EQ(ray->fields.size(), 3u);
    EXPECT_EQ(ray->fields[2].name, "tmax");
    EXPECT_EQ(ray->fields[2].type.name(), "float");
    EXPECT_EQ(fe.text(ray->range).substr(0, 14), "typedef struct");
    EXPECT_EQ(fe.text(ray->range).back(), ';');
    const StructDecl* pair = fe.unit().structs[1];
    ASSERT_EQ(pair->fields.size(), 3u);
    EXPECT_EQ(pair->fields[1].name, "b");
    EXPECT_EQ(pair->fields[1].type.name(), "float3");
    EXPECT_EQ(pair->fields[2].type.struct_decl(), ray);
    EXPECT_EQ(fe.dump(), R"(TranslationUnit
  Struct Ray
    Field o : float3
    Field d : float3
    Field tmax : float
  HostText 5:7-6:1
  Struct Pair
    Field a : float3
    Field b : float3
    Field r : Ray
  HostText 6:45-7:1
  HostStreamDecl Ray 7:1
    Stream r<100>
  HostText 7:11-8:1
  HostStreamDecl Pair 8:1
    Stream p<10, 10>
  HostText 8:15-9:1
)");
}

TEST(HostScanner, HostOnlyStructStaysHostText) {
    Frontend fe("typedef struct { double t; char* name; } Timer;\nTimer t;\n");
    EXPECT_EQ(fe.diagnostics(), "");
    EXPECT_TRUE(fe.unit().structs.empty());
    ASSERT_EQ(fe.unit().items.size(), 1u);
    EXPECT_EQ(fe.host_text(), "typedef struct { double t; char* name; } Timer;\nTimer t;\n");
}

TEST(HostScanner, HostOnlyStructUsedInKernelIsReportedOnce) {
    Frontend fe(R"(typedef struct { long t; } Timer;
kernel void k(Timer a<>, out float b<>) { Timer c; b = 1; }
)");
    EXPECT_EQ(fe.errors(), 1u);
    EXPECT_NE(fe.diagnostics().find("test.br:2:15: error: type 'Timer' cannot be used in Brook "
                                    "code: its field 't' has type 'long'"),
              std::string::npos)
        << fe.diagnostics();
}

TEST(HostScanner, HostOnlyStructWithKeywordFieldNamesTheRightField) {
    // `in` and `out` are Brook keywords but ordinary field names: the field that makes the
    // struct host-only is `out`, of type long.
    Frontend fe(R"(typedef struct { float in; long out; } Pair;
kernel void k(Pair a<>, out float b<>) { b = 1; }
)");
    EXPECT_EQ(fe.errors(), 1u);
    EXPECT_NE(fe.diagnostics().find("test.br:2:15: error: type 'Pair' cannot be used in Brook "
                                    "code: its field 'out' has type 'long'"),
              std::string::npos)
        << fe.diagnostics();
    EXPECT_NE(fe.diagnostics().find("test.br:1:33: note: field 'out' is declared here"),
              std::string::npos)
        << fe.diagnostics();
}

TEST(HostScanner, StreamOfHostOnlyStructIsReported) {
    Frontend fe("typedef struct { float a; int* p; } Bad;\nvoid f() { Bad s<10>; Bad t<4>; }\n");
    EXPECT_EQ(fe.errors(), 1u);
    EXPECT_NE(fe.diagnostics().find("test.br:2:12: error: type 'Bad' cannot be used in Brook code: "
                                    "its field 'p' has type 'int *'"),
              std::string::npos)
        << fe.diagnostics();
    EXPECT_NE(fe.diagnostics().find("test.br:1:32: note: field 'p' is declared here"),
              std::string::npos)
        << fe.diagnostics();
}

TEST(HostScanner, HostOnlyStructWithArrayFieldNamesTheArrayType) {
    // Brook's element types hold no arrays: the message names the array type, not its element's
    // (which alone would be a Brook type).
    Frontend fe(
        "struct S { float w, v[4][N + 1]; };\nkernel void k(S a<>, out float b<>) { b = 1; }\n");
    EXPECT_EQ(fe.errors(), 1u);
    EXPECT_NE(fe.diagnostics().find("test.br:2:15: error: type 'S' cannot be used in Brook code: "
                                    "its field 'v' has type 'float[4][N+1]'"),
              std::string::npos)
        << fe.diagnostics();
}

TEST(HostScanner, StreamParametersOfHostFunctions) {
    Frontend fe(
        "void step(float s<>, float4 t<>, int n);\nvoid run(float s<>) { step(s, s, 1); }\n");
    EXPECT_EQ(fe.diagnostics(), "");
    std::vector<std::string> params;
    for (const TopLevelItem& item : fe.unit().items) {
        if (const auto* decl = std::get_if<HostStreamDecl>(&item)) {
            EXPECT_TRUE(decl->is_parameter);
            EXPECT_TRUE(decl->declarators.at(0).extents.empty());
            params.push_back(fe.text(decl->range));
        }
    }
    EXPECT_EQ(params, (std::vector<std::string>{"float s<>", "float4 t<>", "float s<>"}));
}

TEST(HostScanner, StreamsDeclaredInALambdaInsideACall) {
    // The lambda's body is a block, though a call's parentheses enclose it: its declarations
    // are declarations, and only the lambda's own parameter list holds parameters.
    Frontend fe("void f() {\n    std::thread t([&] { float a<8>, b<8>; use(a); });\n"
                "    each([](float4 s<>) { return 0; });\n}\n");
    EXPECT_EQ(fe.diagnostics(), "");
    std::vector<std::string> declarations;
    std::vector<std::string> parameters;
    for (const TopLevelItem& item : fe.unit().items)
        if (const auto* decl = std::get_if<HostStreamDecl>(&item))
            (decl->is_parameter ? parameters : declarations).push_back(fe.text(decl->range));
    EXPECT_EQ(declarations, (std::vector<std::string>{"float a<8>, b<8>"}));
    EXPECT_EQ(parameters, (std::vector<std::string>{"float4 s<>"}));
}

TEST(HostScanner, ExtentsAreHostExpressions) {
    Frontend fe("void f(int n) {\n    float2 a<(n>2?2:3), n*2>, b<f(1, 2)>;\n    float c<n>;\n}\n");
    EXPECT_EQ(fe.diagnostics(), "");
    std::vector<std::string> extents;
    for (const TopLevelItem& item : fe.unit().items)
        if (const auto* decl = std::get_if<HostStreamDecl>(&item))
            for (const StreamDeclarator& declarator : decl->declarators)
                for (const SourceRange& extent : declarator.extents)
                    extents.push_back(fe.text(extent));
    EXPECT_EQ(extents, (std::vector<std::string>{"(n>2?2:3)", "n*2", "f(1, 2)", "n"}));
}

TEST(HostScanner, BrookKeywordsAreHostIdentifiers) {
    const std::string source = R"(#include <fstream>
int in = 1, out = 2, kernel = 3;
std::ofstream out_file;
struct S { int iter; float reduce; };
void g(int inout, int uniform) { int vout = indexof_x(inout); std::ofstream out; }
int kernel_count(int reduce) { return reduce < kernel; }
)";
    Frontend fe(source);
    EXPECT_EQ(fe.diagnostics(), "");
    // `struct S {...};` of Brook types is a Brook struct (C++'s spelling), its fields named like
    // Brook keywords; the rest is host text.
    ASSERT_EQ(fe.unit().items.size(), 3u);
    const StructDecl* s = std::get<const StructDecl*>(fe.unit().items[1]);
    ASSERT_EQ(s->fields.size(), 2u);
    EXPECT_EQ(s->fields[0].name, "iter");
    EXPECT_EQ(s->fields[1].name, "reduce");
    const std::string struct_text = "struct S { int iter; float reduce; };";
    EXPECT_EQ(fe.text(s->range), struct_text);
    std::string rest = source;
    rest.erase(rest.find(struct_text), struct_text.size());
    EXPECT_EQ(fe.host_text(), rest);
}

TEST(HostScanner, CSpellingsOfBrookTypes) {
    Frontend fe(R"(typedef float4 Color;
typedef Color Paint;
typedef struct pair_tag { float a; unsigned char b; } Pair;
struct Span { float lo; float hi; };
void f() { unsigned char a<3>; unsigned b<2>; signed char c<4>; struct Span s<5>; Paint p<6>;
           struct pair_tag q<7>; }
)");
    EXPECT_EQ(fe.diagnostics(), "");
    std::vector<std::string> types;
    for (const TopLevelItem& item : fe.unit().items)
        if (const auto* decl = std::get_if<HostStreamDecl>(&item))
            types.push_back(decl->element_type.name());
    EXPECT_EQ(types, (std::vector<std::string>{"uchar", "uint", "char", "Span", "float4", "Pair"}));
    ASSERT_NE(fe.unit().find_typedef("Paint"), nullptr);
    EXPECT_EQ(fe.unit().find_typedef("Paint")->name(), "float4");
}

TEST(HostScanner, TwoWordVectorNamesOfStreams) {
    Frontend fe("unsigned int4 a<10>; unsigned char2 b<3>, c<4>;\n"
                "void f(unsigned int2 s<>) { signed char3 d<2>; unsigned e<2>; }\n");
    EXPECT_EQ(fe.diagnostics(), "");
    std::vector<std::string> types;
    std::vector<bool> spelled_in_cpp;
    for (const TopLevelItem& item : fe.unit().items) {
        if (const auto* decl = std::get_if<HostStreamDecl>(&item)) {
            types.push_back(decl->element_type.name());
            spelled_in_cpp.push_back(decl->type_spelled_in_cpp);
        }
    }
    EXPECT_EQ(types, (std::vector<std::string>{"uint4", "uchar2", "uint2", "char3", "uint"}));
    EXPECT_EQ(spelled_in_cpp, (std::vector<bool>{false, false, false, false, true}));
}

TEST(HostScanner, BrookPlusKernelHeads) {
    Frontend fe("void kernel k(float a<>, out float r<>) { r = a; }\n"
                "float4 kernel h(float4 p) { return p; }\n"
                "reduce kernel void sum(float a<>, reduce float r<>) { r += a; }\n"
                "void kernel p(float a<>, out float r<>);\n"
                "void main() {}\n");
    EXPECT_EQ(fe.diagnostics(), "");
    ASSERT_EQ(fe.unit().kernels.size(), 3u);
    EXPECT_EQ(fe.unit().kernels[0]->name, "k");
    EXPECT_EQ(fe.unit().kernels[1]->return_type.name(), "float4");
    EXPECT_TRUE(fe.unit().kernels[2]->is_reduce);
    ASSERT_EQ(fe.unit().prototypes.size(), 1u);
    EXPECT_EQ(fe.unit().prototypes[0]->name, "p");
    EXPECT_EQ(fe.host_text(), "\n\n\n\n main() {}\n");
}

TEST(HostScanner, ComparisonsAndTemplatesAreNotStreams) {
    const std::string source =
        "std::vector<float> v; bool b = x < y; float f = (float) n < 3 ? 1 : 2;\n"
        "std::map<int, float> m; int a = sizeof(float) < 8;\n";
    Frontend fe(source);
    EXPECT_EQ(fe.diagnostics(), "");
    ASSERT_EQ(fe.unit().items.size(), 1u);
    EXPECT_EQ(fe.host_text(), source);
}

TEST(HostScanner, KernelPrototypeDeclaresTheStub) {
    Frontend fe("kernel void f(float a<>, out float b<>);\nint x;\n");
    EXPECT_EQ(fe.diagnostics(), "");
    EXPECT_TRUE(fe.unit().kernels.empty());
    ASSERT_EQ(fe.unit().prototypes.size(), 1u);
    EXPECT_EQ(fe.unit().prototypes[0]->name, "f");
    EXPECT_TRUE(std::holds_alternative<KernelPrototype>(fe.unit().items[0]));
    EXPECT_EQ(fe.host_text(), "\nint x;\n");
}

TEST(HostScanner, StreamPointerParameters) {
    Frontend fe("void twice(float (*cur)<>, float (**all)<>, float s<>) {}\n");
    EXPECT_EQ(fe.diagnostics(), "");
    std::vector<unsigned> depths;
    for (const TopLevelItem& item : fe.unit().items)
        if (const auto* decl = std::get_if<HostStreamDecl>(&item))
            depths.push_back(decl->declarators[0].pointer_depth);
    EXPECT_EQ(depths, (std::vector<unsigned>{1, 2, 0}));
}

/// A folder of header files for the tests of #include, removed at the end of the test.
class HeaderFolder {
public:
    HeaderFolder() : path_(std::filesystem::temp_directory_path() / "brcc_host_scanner_test") {
        std::filesystem::create_directories(path_);
    }
    ~HeaderFolder() { std::filesystem::remove_all(path_); }
    HeaderFolder(const HeaderFolder&) = delete;
    HeaderFolder& operator=(const HeaderFolder&) = delete;

    void write(const std::string& name, const std::string& text) const {
        std::ofstream(path_ / name) << text;
    }
    PreprocessorOptions options() const { return {{}, {path_.string()}, {}}; }

private:
    std::filesystem::path path_;
};

TEST(HostScanner, QuotedIncludesGiveMacrosAndStructs) {
    const HeaderFolder folder;
    folder.write("defs.h", "#define K 3\ntypedef struct { float x; } S;\nint host_only(int);\n");
    Frontend fe("#include \"defs.h\"\nkernel void k(S a<>, out float r<>) { r = a.x * K; }\n",
                folder.options());
    EXPECT_EQ(fe.diagnostics(), "");
    ASSERT_EQ(fe.unit().structs.size(), 1u);
    EXPECT_EQ(fe.unit().structs[0]->name, "S");
    EXPECT_TRUE(std::holds_alternative<HeaderStructTraits>(fe.unit().items[1]));
    EXPECT_EQ(fe.host_text(), "#include \"defs.h\"\n\n");
    EXPECT_NE(fe.kernel_dump("k").find("IntLiteral 3"), std::string::npos);
}

TEST(HostScanner, BrookHeaderIncludesBecomeTheirHeaders) {
    const HeaderFolder folder;
    folder.write("ops.brhi", "kernel void op(float a<>, out float r<>);\n");
    Frontend fe("#include \"ops.brhi\"\nint x;\n", folder.options());
    EXPECT_EQ(fe.diagnostics(), "");
    ASSERT_TRUE(std::holds_alternative<HostInclude>(fe.unit().items[0]));
    EXPECT_EQ(std::get<HostInclude>(fe.unit().items[0]).header, "ops.hpp");
    ASSERT_EQ(fe.unit().brook_headers.size(), 1u);
    EXPECT_EQ(fe.unit().brook_headers[0].include_name, "ops.hpp");
    EXPECT_EQ(fe.unit().prototypes.size(), 1u);
    EXPECT_EQ(fe.host_text(), "\nint x;\n");
}

TEST(HostScanner, CppOutputIncludesAreGivenBack) {
    Frontend fe("# 1 \"main.br\"\n# 1 \"defs.h\" 1\ntypedef struct { float x; } S;\n"
                "int hidden;\n# 2 \"main.br\" 2\nint shown;\n");
    EXPECT_EQ(fe.diagnostics(), "");
    ASSERT_EQ(fe.unit().structs.size(), 1u);
    const auto* include = std::get_if<HostInclude>(&fe.unit().items[1]);
    ASSERT_NE(include, nullptr);
    EXPECT_EQ(include->header, "defs.h");
    EXPECT_EQ(fe.host_text(), "# 1 \"main.br\"\n\nint shown;\n");
}

TEST(HostScanner, VoidMainOnlyAtFileScope) {
    Frontend fe("struct A { void main(); };\nvoid main() {}\n");
    int mains = 0;
    for (const TopLevelItem& item : fe.unit().items)
        mains += std::holds_alternative<HostVoidMain>(item) ? 1 : 0;
    EXPECT_EQ(mains, 1);
}

TEST(HostScanner, EmptyInput) {
    Frontend fe("");
    EXPECT_EQ(fe.diagnostics().substr(0, 39), "test.br:1:1: error: input file is empty");
    Frontend comments("// only a comment\n/* and another */\n");
    EXPECT_EQ(comments.errors(), 1u);
}

// ---------------------------------------------------------------------------------------------
// Iterators and the reduce operators of streamGatherOp / streamScatterOp

TEST(HostScanner, IteratorDeclarations) {
    const std::string source = "int main() {\n"
                               "    iter float s<N + 1> = iter(0.0f, f(1, 2));\n"
                               "    iter float2 t<3, W> = iter(float2(0, 0), float2(1, (2)));\n"
                               "    int iter = 3; iter++;\n"
                               "}\n";
    Frontend fe(source);
    EXPECT_EQ(fe.diagnostics(), "");
    std::vector<const HostIteratorDecl*> iterators;
    for (const TopLevelItem& item : fe.unit().items)
        if (const auto* decl = std::get_if<HostIteratorDecl>(&item))
            iterators.push_back(decl);
    ASSERT_EQ(iterators.size(), 2u);
    const HostIteratorDecl& s = *iterators[0];
    EXPECT_EQ(s.element_type.name(), "float");
    EXPECT_EQ(s.declarator.name, "s");
    ASSERT_EQ(s.declarator.extents.size(), 1u);
    EXPECT_EQ(fe.text(s.declarator.extents[0]), "N + 1");
    EXPECT_EQ(fe.text(s.begin_value), "0.0f");
    EXPECT_EQ(fe.text(s.end_value), "f(1, 2)");
    EXPECT_EQ(fe.text(s.range), "iter float s<N + 1> = iter(0.0f, f(1, 2))");
    const HostIteratorDecl& t = *iterators[1];
    EXPECT_EQ(t.element_type.name(), "float2");
    ASSERT_EQ(t.declarator.extents.size(), 2u);
    EXPECT_EQ(fe.text(t.declarator.extents[1]), "W");
    EXPECT_EQ(fe.text(t.begin_value), "float2(0, 0)");
    EXPECT_EQ(fe.text(t.end_value), "float2(1, (2))");
    // The `;` and everything else stay host text.
    EXPECT_EQ(fe.host_text(), "int main() {\n    ;\n    ;\n    int iter = 3; iter++;\n}\n");
    EXPECT_NE(fe.dump().find("  HostIteratorDecl float2 3:5\n"
                             "    Stream t<3, W>\n"
                             "    Begin float2(0, 0)\n"
                             "    End float2(1, (2))\n"),
              std::string::npos)
        << fe.dump();
}

TEST(HostScanner, MalformedIterators) {
    Frontend fe("void f() {\n"
                "    iter float a<4> = iter(0.0f);\n"
                "    iter float b<4> = iter(0.0f, 1.0f, 2.0f);\n"
                "    iter float c<4>;\n"
                "    iter long d<4> = iter(0.0, 1.0);\n"
                "}\n");
    const std::string expected = "malformed iterator declaration: write it as 'iter float s<N> "
                                 "= iter(begin, end);'";
    for (const char* where : {"2:5: error: ", "3:5: error: ", "4:5: error: "})
        EXPECT_NE(fe.diagnostics().find(where + expected), std::string::npos) << fe.diagnostics();
    EXPECT_NE(fe.diagnostics().find("5:10: error: unknown type name 'long'"), std::string::npos)
        << fe.diagnostics();
    EXPECT_EQ(fe.errors(), 4u);
}

TEST(HostScanner, ReduceOperatorsOfGatherAndScatterOps) {
    const std::string source =
        "int main() {\n"
        "    streamGatherOp(dst, index, src, fetch);\n"
        "    streamScatterOp(dst, f(index, 2), src.domain(int(1), 3), add);\n"
        "    other(dst, index, src, add);\n"
        "    streamScatterOp(dst, index, src, table[add]);\n"
        "    streamGatherOp(dst, index, src, ops.add);\n"
        "}\n";
    Frontend fe(source);
    EXPECT_EQ(fe.diagnostics(), "");
    std::vector<std::string> names;
    std::vector<std::string> spellings;
    for (const TopLevelItem& item : fe.unit().items) {
        if (const auto* op = std::get_if<HostReduceOperator>(&item)) {
            names.push_back(op->name);
            spellings.push_back(fe.text(op->range));
            EXPECT_EQ(op->reduce, nullptr); // sema resolves it
        }
    }
    EXPECT_EQ(names, (std::vector<std::string>{"fetch", "add"}));
    EXPECT_NE(fe.dump().find("  HostReduceOperator add 3:62\n"), std::string::npos) << fe.dump();
    EXPECT_EQ(spellings, names);
    std::string covered;
    for (const TopLevelItem& item : fe.unit().items) {
        if (const auto* text = std::get_if<HostText>(&item))
            covered += fe.text(text->range);
        else if (const auto* op = std::get_if<HostReduceOperator>(&item))
            covered += "<" + op->name + ">";
    }
    std::string expected = source;
    expected.replace(expected.find("fetch"), 5, "<fetch>");
    expected.replace(expected.find("add);"), 3, "<add>");
    EXPECT_EQ(covered, expected);
}

TEST(HostScanner, BrookKeywordsAsStreamNames) {
    Frontend fe("void f() { float in<10>, out<10>; }\n");
    EXPECT_EQ(fe.diagnostics(), "");
    ASSERT_EQ(fe.unit().items.size(), 3u);
    const auto* decl = std::get_if<HostStreamDecl>(&fe.unit().items[1]);
    ASSERT_NE(decl, nullptr);
    ASSERT_EQ(decl->declarators.size(), 2u);
    EXPECT_EQ(decl->declarators[0].name, "in");
    EXPECT_EQ(decl->declarators[1].name, "out");
}

} // namespace
} // namespace brcc::test
