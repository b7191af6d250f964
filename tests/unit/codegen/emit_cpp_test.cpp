// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The C++ generator on hand-built, already checked ASTs (types, resolved names and implicit
// conversions filled in as sema leaves them), so these tests do not depend on the parser or
// sema. They check the shape of the output: host rewrites and `#line`, the kernel body, the CPU
// loop, the stubs, and the expression printer's parenthesisation and Cg forms.

#include "codegen/code_writer.hpp"
#include "codegen/cpp_spelling.hpp"
#include "codegen/emit_cpp.hpp"

#include <gtest/gtest.h>

#include <string>

namespace brcc {
namespace {

Type float_type(int width = 1) {
    return Type::vector(ScalarType::Float, width);
}
Type int_type() {
    return Type::scalar(ScalarType::Int);
}

/// A .br text plus a translation unit built for it by hand.
class UnitBuilder {
public:
    explicit UnitBuilder(std::string text) : text_(std::move(text)) {
        file_ = sources.add_buffer("test.br", text_);
        unit.main_file = file_;
    }

    SourceRange range(std::size_t begin, std::size_t end) const {
        return {{file_, static_cast<std::uint32_t>(begin)},
                {file_, static_cast<std::uint32_t>(end)}};
    }
    /// Offset of the first `needle` at or after `from`.
    std::size_t find(std::string_view needle, std::size_t from = 0) const {
        const std::size_t at = text_.find(needle, from);
        EXPECT_NE(at, std::string::npos) << needle;
        return at;
    }
    SourceRange range_of(std::string_view needle, std::size_t from = 0) const {
        const std::size_t at = find(needle, from);
        return range(at, at + needle.size());
    }
    void host_text(std::size_t begin, std::size_t end) {
        unit.items.emplace_back(HostText{range(begin, end)});
    }

    template <class T> T* make() { return unit.context.make<T>(range(0, 0)); }

    ParamDecl* param(KernelDecl* kernel, std::string name, Type type, ParamKind kind,
                     int gather_rank = 0) {
        auto* decl = unit.context.make<ParamDecl>();
        decl->name = std::move(name);
        decl->type = type;
        decl->param_kind = kind;
        decl->gather_rank = gather_rank;
        decl->index = static_cast<int>(kernel->params.size());
        kernel->params.push_back(decl);
        return decl;
    }
    NameRef* ref(const ValueDecl* decl) {
        auto* node = make<NameRef>();
        node->name = decl->name;
        node->decl = decl;
        node->type = decl->type;
        return node;
    }
    Binary* binary(BinaryOp op, Expr* lhs, Expr* rhs, Type type) {
        auto* node = make<Binary>();
        node->op = op;
        node->lhs = lhs;
        node->rhs = rhs;
        node->type = type;
        return node;
    }
    Unary* unary(UnaryOp op, Expr* operand) {
        auto* node = make<Unary>();
        node->op = op;
        node->operand = operand;
        node->type = operand->type;
        return node;
    }
    ImplicitConvert* convert(Expr* operand, Type type) {
        auto* node = make<ImplicitConvert>();
        node->operand = operand;
        node->type = type;
        return node;
    }
    FloatLiteral* literal(double value) {
        auto* node = make<FloatLiteral>();
        node->value = value;
        node->type = float_type();
        return node;
    }
    Member* swizzle(Expr* base, std::initializer_list<std::uint8_t> components) {
        auto* node = make<Member>();
        node->base = base;
        node->is_swizzle = true;
        node->swizzle_length = static_cast<int>(components.size());
        std::copy(components.begin(), components.end(), node->swizzle.begin());
        node->type = components.size() == 1 ? float_type() : float_type(node->swizzle_length);
        return node;
    }
    Assign* assign(Expr* target, Expr* value, AssignOp op = AssignOp::Assign) {
        auto* node = make<Assign>();
        node->op = op;
        node->target = target;
        node->value = value;
        node->type = target->type;
        return node;
    }
    ExprStmt* statement(Expr* expr) {
        auto* node = make<ExprStmt>();
        node->expr = expr;
        return node;
    }
    KernelDecl* kernel(std::string name, std::size_t begin, std::size_t end) {
        auto* decl = unit.context.make<KernelDecl>();
        decl->name = std::move(name);
        decl->return_type = Type::void_type();
        decl->range = range(begin, end);
        decl->body = make<Compound>();
        unit.kernels.push_back(decl);
        unit.items.emplace_back(decl);
        return decl;
    }

    std::string emit(std::vector<std::string> backends = {"cpu"}) {
        CodegenOptions options;
        options.source_name = "test.br";
        options.backends = std::move(backends);
        return emit_cpp(unit, sources, options);
    }

    SourceManager sources;
    TranslationUnit unit;

private:
    std::string text_;
    std::uint32_t file_ = 0;
};

bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

constexpr std::string_view saxpy_source =
    "#include <cstdio>\n"
    "kernel void saxpy(float a, float4 x<>, float4 y<>, out float4 result<>) {\n"
    "    result = a * x + y;\n"
    "}\n"
    "void main(void) {\n"
    "    float4 x<100>, y<10, n>;\n"
    "    saxpy(2.0f, x, y, x);\n"
    "}\n";

/// The paper's SAXPY kernel and a main that declares streams.
std::string emit_saxpy(std::vector<std::string> backends = {"cpu"}) {
    UnitBuilder b{std::string(saxpy_source)};
    const std::size_t kernel_begin = b.find("kernel");
    const std::size_t kernel_end = b.find("}\n") + 1;
    b.host_text(0, kernel_begin);
    KernelDecl* saxpy = b.kernel("saxpy", kernel_begin, kernel_end);
    const ParamDecl* a = b.param(saxpy, "a", float_type(), ParamKind::Constant);
    const ParamDecl* x = b.param(saxpy, "x", float_type(4), ParamKind::InputStream);
    const ParamDecl* y = b.param(saxpy, "y", float_type(4), ParamKind::InputStream);
    const ParamDecl* result = b.param(saxpy, "result", float_type(4), ParamKind::OutputStream);
    Expr* product =
        b.binary(BinaryOp::Mul, b.convert(b.ref(a), float_type(4)), b.ref(x), float_type(4));
    saxpy->body->body.push_back(b.statement(
        b.assign(b.ref(result), b.binary(BinaryOp::Add, product, b.ref(y), float_type(4)))));

    const SourceRange void_range = b.range_of("void main");
    b.host_text(kernel_end, void_range.begin.offset);
    b.unit.items.emplace_back(
        HostVoidMain{b.range(void_range.begin.offset, void_range.begin.offset + 4)});
    const std::size_t decl_begin = b.find("float4 x<100>");
    b.host_text(void_range.begin.offset + 4, decl_begin);
    HostStreamDecl decl;
    decl.element_type = float_type(4);
    decl.type_range = b.range(decl_begin, decl_begin + 6);
    decl.declarators.push_back({"x", b.range_of("x<100>"), {b.range_of("100")}, {}});
    decl.declarators.push_back(
        {"y", b.range_of("y<10"), {b.range_of("10,"), b.range_of("n>")}, {}});
    decl.declarators[1].extents[0].end.offset -= 1; // "10"
    decl.declarators[1].extents[1].end.offset -= 1; // "n"
    const std::size_t decl_end = b.find(";", decl_begin);
    decl.range = b.range(decl_begin, decl_end);
    b.unit.items.emplace_back(decl);
    b.host_text(decl_end, saxpy_source.size());
    return b.emit(std::move(backends));
}

TEST(EmitCpp, StartsWithTheBrookHeadersAndMapsHostLines) {
    const std::string out = emit_saxpy();
    EXPECT_EQ(out.find("// Generated by brcc"), 0u);
    EXPECT_TRUE(contains(out, "#include <brook/brook.hpp>\n#include <brook/kernel_abi.hpp>\n"
                              "#include <brook/cpu_kernel.hpp>\n"));
    EXPECT_TRUE(contains(out, "#line 1 \"test.br\"\n#include <cstdio>\n"));
    EXPECT_TRUE(contains(out, "#line 2 \"test.br\"\nnamespace {\n"));
}

TEST(EmitCpp, RewritesMainAndStreamDeclarations) {
    const std::string out = emit_saxpy();
    EXPECT_TRUE(contains(out, "} // namespace\n\n#ifndef BRCC_STUB_saxpy\n"));
    EXPECT_TRUE(contains(out, "}\n\n#line 5 \"test.br\"\nint main(void) {\n"));
    EXPECT_TRUE(contains(out, "    ::brook::stream x = ::brook::make_stream<float4>(100), "
                              "y = ::brook::make_stream<float4>(10, n);\n"));
    EXPECT_TRUE(contains(out, "    saxpy(2.0f, x, y, x);\n"));
}

TEST(EmitCpp, SaxpyBodyTakesInputsByValueAndOutputsByReference) {
    const std::string out = emit_saxpy();
    EXPECT_TRUE(contains(out, "[[gnu::always_inline]] inline void saxpy__body(\n"
                              "        [[maybe_unused]] const float& a,\n"
                              "        [[maybe_unused]] const ::brook::vec<float, 4> x,\n"
                              "        [[maybe_unused]] const ::brook::vec<float, 4> y,\n"
                              "        [[maybe_unused]] ::brook::vec<float, 4>& result) {\n"
                              "#line 1 \"test.br\"\n" // each statement at its .br line
                              "    result = ::brook::vec<float, 4>(a) * x + y;\n"
                              "}\n"));
}

TEST(EmitCpp, SaxpyLoopHasADenseArrayLoopAndAGeneralOne) {
    const std::string out = emit_saxpy();
    EXPECT_TRUE(contains(out, "void saxpy__cpu(const ::brook::cpu::Frame& frame, std::size_t "
                              "begin, std::size_t end) {\n"
                              "    float p0_a = frame.constant<float>(0);\n"
                              "    if (frame.dense) {\n"));
    EXPECT_TRUE(contains(out, "        #pragma omp simd\n"
                              "        for (std::size_t i = begin; i < end; ++i)\n"
                              "            saxpy__body(p0_a, p1_x[i], p2_y[i], p3_result[i]);\n"));
    // The general loop addresses the same names through resizing views, a row at a time: an
    // array loop where every stream is contiguous along the row, the views' loop elsewhere and
    // for calls whose elements a write mask or query tracks.
    EXPECT_TRUE(contains(
        out,
        "    ::brook::cpu::ResizedView<const ::brook::vec<float, 4>> p1_x(frame, 1);\n"
        "    ::brook::cpu::ResizedView<const ::brook::vec<float, 4>> p2_y(frame, 2);\n"
        "    ::brook::cpu::ResizedView<::brook::vec<float, 4>> p3_result(frame, 3);\n"
        "    for (::brook::cpu::OutputRows rows(frame, begin, end); rows.more(); rows.next()) "
        "{\n"
        "        const std::size_t row = rows.first();\n"
        "        const std::size_t row_stop = rows.stop();\n"
        "        const ::brook::vec<float, 4>* const p1_x_row = p1_x.unit_run(rows.position(), "
        "row);\n"
        "        const ::brook::vec<float, 4>* const p2_y_row = p2_y.unit_run(rows.position(), "
        "row);\n"
        "        ::brook::vec<float, 4>* const p3_result_row = p3_result.unit_run("
        "rows.position(), row);\n"
        "        if (p1_x_row != nullptr && p2_y_row != nullptr && p3_result_row != nullptr && "
        "frame.element_flags == nullptr) {\n"
        "            #pragma omp simd\n"
        "            for (std::size_t i = row; i < row_stop; ++i)\n"
        "                saxpy__body(p0_a, p1_x_row[i - row], p2_y_row[i - row], "
        "p3_result_row[i - row]);\n"
        "        } else {\n"
        "            for (std::size_t i = row; i < row_stop; ++i) {\n"
        "                if (::brook::cpu::skips_element(frame, i)) {\n"
        "                    continue;\n"
        "                }\n"
        "                saxpy__body(p0_a, p1_x[i], p2_y[i], p3_result[i]);\n"
        "                ::brook::cpu::mark_written(frame, i);\n"
        "            }\n"
        "        }\n"
        "    }\n"))
        << out;
}

TEST(EmitCpp, SaxpyStubLaunchesThroughTheRuntime) {
    const std::string out = emit_saxpy();
    // Per parameter: kind, element type, gather rank, whether the body reads and writes it.
    EXPECT_TRUE(contains(out, "{\"a\", ::brook::ParamKind::Constant, "
                              "&::brook::element_traits<float>::type, 0, true, false},\n"));
    EXPECT_TRUE(
        contains(out, "{\"result\", ::brook::ParamKind::OutputStream, "
                      "&::brook::element_traits<::brook::vec<float, 4>>::type, 0, false, true},\n"))
        << out;
    EXPECT_TRUE(contains(out, "const ::brook::BackendCode saxpy__backends[] = {\n"
                              "    {\"cpu\", &saxpy__cpu_code},\n"
                              "};\n"
                              "const ::brook::KernelInfo saxpy__info{\"saxpy\", saxpy__params, "
                              "false, saxpy__backends, false};\n"))
        << out;
    // BrookGPU's signature: constants by const reference, streams as handles by value (a view
    // made in the call, `.domain()`, binds too). saxpy__launch runs the call for both stubs.
    EXPECT_TRUE(contains(out, "void saxpy__launch(const float& a, ::brook::stream x, "
                              "::brook::stream y, ::brook::stream result, "
                              "const ::std::source_location& brook_call_site) {\n"
                              "    const ::brook::KernelArg brook_args[] = {\n"
                              "        ::brook::KernelArg::constant_value(a),\n"
                              "        ::brook::KernelArg::input(x),\n"
                              "        ::brook::KernelArg::input(y),\n"
                              "        ::brook::KernelArg::output_stream(result),\n"
                              "    };\n"
                              "    ::brook::run_kernel(saxpy__info, brook_args, brook_call_site);\n"
                              "}\n"))
        << out;
    // Host code calls a template stub that takes the call's location, defined once per
    // translation unit however many prototypes and headers declare it.
    const std::size_t located =
        out.find("#ifndef BRCC_STUB_saxpy\n#define BRCC_STUB_saxpy\n"
                 "void saxpy__launch(const float& a, ::brook::stream x, ::brook::stream y, "
                 "::brook::stream result, const ::std::source_location& brook_call_site);\n"
                 "template <class BrookCallSite = ::std::source_location>\n"
                 "void saxpy(const float& a, ::brook::stream x, ::brook::stream y, "
                 "::brook::stream result, BrookCallSite brook_call_site = "
                 "BrookCallSite::current()) {\n"
                 "    saxpy__launch(a, ::std::move(x), ::std::move(y), ::std::move(result), "
                 "brook_call_site);\n}\n"
                 // The kernel as a value, which host code that names it uncalled reaches.
                 "inline void saxpy__value(const float& a, ::brook::stream x, ::brook::stream y, "
                 "::brook::stream result) {\n"
                 "    saxpy__launch(a, ::std::move(x), ::std::move(y), ::std::move(result), "
                 "::std::source_location());\n}\n#endif\n");
    // The exact signature, for hand-written declarations, comes after all host code: a
    // non-template seen by a call would win over the template.
    const std::size_t exact = out.find("void saxpy(const float& a, ::brook::stream x, "
                                       "::brook::stream y, ::brook::stream result) {\n"
                                       "    saxpy__launch(a, ::std::move(x), ::std::move(y), "
                                       "::std::move(result), ::std::source_location());\n}\n");
    ASSERT_NE(located, std::string::npos) << out;
    ASSERT_NE(exact, std::string::npos) << out;
    EXPECT_LT(located, exact);
}

TEST(EmitCpp, ReductionGetsFoldCombineAndTwoStubs) {
    const std::string source = "reduce void sum(float a<>, reduce float r<>) {\n    r += a;\n}\n";
    UnitBuilder b{source};
    KernelDecl* sum = b.kernel("sum", 0, source.size() - 1);
    sum->is_reduce = true;
    const ParamDecl* a = b.param(sum, "a", float_type(), ParamKind::ReduceInput);
    const ParamDecl* r = b.param(sum, "r", float_type(), ParamKind::ReduceAccumulator);
    sum->body->body.push_back(b.statement(b.assign(b.ref(r), b.ref(a), AssignOp::Add)));
    const std::string out = b.emit();
    EXPECT_TRUE(contains(out, "    r += a;\n"));
    // `r += a` commutes, so the fold may take the elements in the order that vectorises.
    EXPECT_TRUE(contains(out, "    ::brook::cpu::fold_box<::brook::cpu::FoldOrder::Commutative>("
                              "frame.args[0].stream, box, *static_cast<float*>(accumulator),\n"
                              "        [&](const float& value, float& result) { sum__body(value, "
                              "result); });\n"));
    EXPECT_TRUE(contains(out, "    sum__body(*static_cast<const float*>(value), "
                              "*static_cast<float*>(accumulator));\n"));
    EXPECT_TRUE(contains(out, "{\"a\", ::brook::ParamKind::ReduceInput,"));
    EXPECT_TRUE(contains(out, "const ::brook::cpu::KernelCode sum__cpu_code{.fold = &sum__fold, "
                              ".combine = &sum__combine};"));
    // A host variable target first, then a stream target.
    const std::size_t value_stub = out.find("void sum(::brook::stream a, float& r) {\n");
    const std::size_t stream_stub = out.find("void sum(::brook::stream a, ::brook::stream r) {\n");
    ASSERT_NE(value_stub, std::string::npos);
    ASSERT_NE(stream_stub, std::string::npos);
    EXPECT_LT(value_stub, stream_stub);
    EXPECT_TRUE(contains(out, "::brook::KernelArg::reduce_target(r),\n"));
    EXPECT_TRUE(contains(out, "::brook::run_reduce(sum__info, brook_args, brook_call_site);\n"));
}

TEST(EmitCpp, VariableOutputKernelRunsACountPassAndAWritePass) {
    const std::string source = "kernel void k(float a<>, out float o<>, vout float v<>) {}\n";
    UnitBuilder b{source};
    KernelDecl* k = b.kernel("k", 0, source.size() - 1);
    b.param(k, "a", float_type(), ParamKind::InputStream);
    b.param(k, "o", float_type(), ParamKind::OutputStream);
    const ParamDecl* v = b.param(k, "v", float_type(), ParamKind::VariableOutput);
    auto* push = b.make<Push>();
    push->stream = b.ref(v);
    k->body->body.push_back(push);
    const std::string out = b.emit();
    EXPECT_TRUE(contains(out, "[[maybe_unused]] float& v,\n"
                              "        [[maybe_unused]] ::brook::cpu::VariableOutput<float>& "
                              "v__vout) {\n"
                              "#line 1 \"test.br\"\n"
                              "    v__vout.push(v);\n"));
    // Count pass: the ordinary output goes to a scratch local.
    EXPECT_TRUE(contains(out,
                         "    if (frame.counting) {\n"
                         "        for (std::size_t i = begin; i < end; ++i) {\n"
                         "            float p1_o_value{};\n"
                         "            float p2_v{};\n"
                         "            ::brook::cpu::VariableOutput<float> p2_v__vout(frame, 2, "
                         "i, 0);\n"
                         "            k__body(p0_a[i], p1_o_value, p2_v, p2_v__vout);\n"));
    EXPECT_TRUE(contains(out, "        k__body(p0_a[i], p1_o[i], p2_v, p2_v__vout);\n"));
    EXPECT_TRUE(contains(out, "{\"v\", ::brook::ParamKind::VariableOutput,"));
    // A vout by reference: the runtime replaces the caller's handle with the result.
    EXPECT_TRUE(contains(out, "void k(::brook::stream a, ::brook::stream o, "
                              "::brook::stream& v) {\n"));
}

TEST(EmitCpp, FixedStreamsAreBytesConvertedAroundTheBody) {
    const std::string source = "kernel void k(fixed a<>, out fixed o<>) {}\n";
    UnitBuilder b{source};
    KernelDecl* k = b.kernel("k", 0, source.size() - 1);
    const Type fixed = Type::scalar(ScalarType::Fixed);
    const ParamDecl* a = b.param(k, "a", fixed, ParamKind::InputStream);
    const ParamDecl* o = b.param(k, "o", fixed, ParamKind::OutputStream);
    k->body->body.push_back(b.statement(b.assign(b.ref(o), b.ref(a))));
    const std::string out = b.emit();
    EXPECT_TRUE(contains(out,
                         "{\"a\", ::brook::ParamKind::InputStream, "
                         "&::brook::element_traits<::brook::fixed>::type, 0, true, false},\n"));
    EXPECT_TRUE(
        contains(out, "        for (std::size_t i = begin; i < end; ++i) {\n"
                      "            float p1_o_value{};\n"
                      "            k__body(::brook::lang::convert<float>(p0_a[i]), "
                      "p1_o_value);\n"
                      "            p1_o[i] = ::brook::lang::convert<::brook::fixed>(p1_o_value);\n"
                      "        }\n"));
}

TEST(EmitCpp, CudaSaxpyIsAnNvrtcProgramWithAGridStrideEntryPoint) {
    const std::string out = emit_saxpy({"cuda"});
    EXPECT_TRUE(
        contains(out, "{\"cuda\", R\"brook_cuda(// Generated by brcc from kernel 'saxpy'."));
    EXPECT_TRUE(contains(out, "#include \"brook/kernel_language.hpp\"\n"
                              "#include \"brook/cuda/kernel_frame.hpp\"\n"));
    // The body is the CPU backend's, printed by the same printer.
    EXPECT_TRUE(contains(out, "__forceinline__ void saxpy__body(\n"
                              "        [[maybe_unused]] const float& a,\n"
                              "        [[maybe_unused]] const ::brook::vec<float, 4> x,\n"
                              "        [[maybe_unused]] const ::brook::vec<float, 4> y,\n"
                              "        [[maybe_unused]] ::brook::vec<float, 4>& result) {\n"
                              "    result = ::brook::vec<float, 4>(a) * x + y;\n"
                              "}\n"));
    EXPECT_TRUE(contains(out, "extern \"C\" __global__ void saxpy__cuda(const "
                              "::brook::cuda::device::Frame* brook_frame_pointer) {\n"));
    // The output is only written, so its local starts empty; it is stored after the body.
    // A dense call reads the element pointers from the Frame once, before its loop.
    EXPECT_TRUE(contains(out,
                         "    const ::brook::vec<float, 4>* const p1_x_data = "
                         "::brook::cuda::device::element_data<const ::brook::vec<float, 4>>(frame, "
                         "1);\n"))
        << out;
    EXPECT_TRUE(contains(out, "        ::brook::vec<float, 4> p3_result{};\n"
                              "        saxpy__body(p0_a, p1_x_data[i], p2_y_data[i], "
                              "p3_result);\n"
                              "        p3_result_data[i] = p3_result;\n"))
        << out;
    EXPECT_TRUE(contains(out,
                         "        ::brook::cuda::device::resized_element<::brook::vec<float, 4>>("
                         "frame, 3, i) = p3_result;\n"));
}

TEST(EmitCpp, CudaReductionHasAChunkPassAndAPartialsPass) {
    const std::string source = "reduce void sum(float a<>, reduce float r<>) {\n    r += a;\n}\n";
    UnitBuilder b{source};
    KernelDecl* sum = b.kernel("sum", 0, source.size() - 1);
    sum->is_reduce = true;
    const ParamDecl* a = b.param(sum, "a", float_type(), ParamKind::ReduceInput);
    const ParamDecl* r = b.param(sum, "r", float_type(), ParamKind::ReduceAccumulator);
    sum->body->body.push_back(b.statement(b.assign(b.ref(r), b.ref(a), AssignOp::Add)));
    const std::string out = b.emit({"cuda"});
    EXPECT_TRUE(contains(out, "#include \"brook/cuda/ordered_reduce.hpp\"\n"));
    EXPECT_TRUE(contains(out, "    const auto op = [&](float left, const float& right) {\n"
                              "        sum__body(right, left);\n"
                              "        return left;\n"
                              "    };\n"));
    EXPECT_TRUE(contains(out, "extern \"C\" __global__ void sum__cuda_reduce_chunks("));
    // `+=` commutes, so the passes fold in any order; a dense box loads without index arithmetic.
    EXPECT_TRUE(contains(out, "    if (box.dense())\n"
                              "        ::brook::cuda::device::reduce_chunk_any_order(block, "
                              "box.count(), chunk, blockIdx.x,\n"
                              "            [&](::brook::cuda::device::Index r) { return "
                              "input[box.base + r]; }, op, out);\n"));
    EXPECT_TRUE(contains(out, "extern \"C\" __global__ void sum__cuda_reduce_partials("));
}

TEST(EmitCpp, CudaReductionThatDoesNotCommuteKeepsTheRowMajorOrder) {
    const std::string source = "reduce void diff(float a<>, reduce float r<>) {\n    r -= a;\n}\n";
    UnitBuilder b{source};
    KernelDecl* diff = b.kernel("diff", 0, source.size() - 1);
    diff->is_reduce = true;
    const ParamDecl* a = b.param(diff, "a", float_type(), ParamKind::ReduceInput);
    const ParamDecl* r = b.param(diff, "r", float_type(), ParamKind::ReduceAccumulator);
    diff->body->body.push_back(b.statement(b.assign(b.ref(r), b.ref(a), AssignOp::Sub)));
    const std::string out = b.emit({"cuda"});
    EXPECT_TRUE(contains(out, "::brook::cuda::device::reduce_chunk<::brook::cuda::device::"
                              "grid_items>(block, box.count(), chunk, blockIdx.x,\n"));
    EXPECT_FALSE(contains(out, "reduce_chunk_any_order"));
}

TEST(EmitCpp, CudaVariableOutputKernelHasCountAndWriteEntryPoints) {
    const std::string source = "kernel void k(float a<>, out float o<>, vout float v<>) {}\n";
    UnitBuilder b{source};
    KernelDecl* k = b.kernel("k", 0, source.size() - 1);
    b.param(k, "a", float_type(), ParamKind::InputStream);
    b.param(k, "o", float_type(), ParamKind::OutputStream);
    const ParamDecl* v = b.param(k, "v", float_type(), ParamKind::VariableOutput);
    auto* push = b.make<Push>();
    push->stream = b.ref(v);
    k->body->body.push_back(push);
    const std::string out = b.emit({"cuda"});
    EXPECT_TRUE(contains(out, "    v__vout.push(v);\n"));
    EXPECT_TRUE(contains(out, "::brook::cuda::device::VariableOutput<float> p2_v__vout(frame, 2, "
                              "i, 0, counting);\n"));
    EXPECT_TRUE(contains(out, "p2_v__vout.finish();\n"));
    EXPECT_TRUE(contains(out, "extern \"C\" __global__ void k__cuda_count("));
    EXPECT_TRUE(contains(out, "extern \"C\" __global__ void k__cuda_write("));
}

TEST(EmitCpp, IteratorsAndReduceOperatorsInHostCode) {
    const std::string source = "iter float2 s<h, w> = iter(float2(0, 0), float2(1, 2));\n"
                               "reduce void add(float a<>, reduce float r<>) {}\n"
                               "streamScatterOp(d, i, v, add);\n";
    UnitBuilder b{source};
    HostIteratorDecl iterator;
    iterator.element_type = float_type(2);
    iterator.declarator = {"s", b.range_of("s<"), {b.range_of("h"), b.range_of("w")}, {}};
    iterator.declarator.name_range.end.offset -= 1;
    iterator.begin_value = b.range_of("float2(0, 0)");
    iterator.end_value = b.range_of("float2(1, 2)");
    iterator.range = b.range(0, b.find(";"));
    b.unit.items.emplace_back(iterator);
    b.host_text(b.find(";"), b.find("reduce"));
    KernelDecl* add = b.kernel("add", b.find("reduce"), b.find("}\n") + 1);
    add->is_reduce = true;
    b.param(add, "a", float_type(), ParamKind::ReduceInput);
    b.param(add, "r", float_type(), ParamKind::ReduceAccumulator);
    const std::size_t call = b.find("streamScatterOp");
    b.host_text(b.find("}\n") + 1, b.find("add)", call));
    b.unit.items.emplace_back(HostReduceOperator{"add", b.range_of("add", call), add});
    b.host_text(b.find(");", call), source.size());
    const std::string out = b.emit();
    EXPECT_TRUE(contains(out, "::brook::stream s = ::brook::make_iterator<::brook::vec<float, 2>>("
                              "float2(0, 0), float2(1, 2), h, w);\n"));
    EXPECT_TRUE(contains(out, "streamScatterOp(d, i, v, add__info);\n"));
}

/// Prints one statement of a kernel body `out float4 o<>` with locals of the given types.
class BodyPrinterTest : public ::testing::Test {
protected:
    BodyPrinterTest() : b("kernel void k(out float4 o<>) {}\n") {
        kernel = b.kernel("k", 0, 30);
        o = b.param(kernel, "o", float_type(4), ParamKind::OutputStream);
    }
    const LocalDecl* local(std::string name, Type type) {
        auto* decl = b.unit.context.make<LocalDecl>();
        decl->name = std::move(name);
        decl->type = type;
        return decl;
    }
    /// The printed statement, after the `#line` that maps it to its line of the .br file.
    std::string body_of(Expr* expr) {
        kernel->body->body.push_back(b.statement(expr));
        const std::string out = b.emit();
        const std::size_t directive = out.find(") {\n#line ", out.find("k__body")) + 4;
        const std::size_t begin = out.find('\n', directive) + 1;
        return out.substr(begin, out.find("\n}\n", begin) - begin);
    }

    UnitBuilder b;
    KernelDecl* kernel = nullptr;
    const ParamDecl* o = nullptr;
};

TEST_F(BodyPrinterTest, ParenthesisesOnlyWherePrecedenceNeedsIt) {
    const LocalDecl* a = local("a", float_type());
    const LocalDecl* c = local("c", float_type());
    Expr* sum = b.binary(BinaryOp::Add, b.ref(a), b.ref(c), float_type());
    Expr* difference =
        b.binary(BinaryOp::Sub, b.ref(a), b.binary(BinaryOp::Sub, b.ref(c), b.ref(a), float_type()),
                 float_type());
    Expr* product = b.binary(BinaryOp::Mul, sum, difference, float_type());
    Expr* negated = b.unary(UnaryOp::Minus, b.unary(UnaryOp::Minus, b.ref(a)));
    EXPECT_EQ(body_of(b.assign(b.swizzle(b.ref(o), {0}),
                               b.binary(BinaryOp::Add, product, negated, float_type()))),
              "    o.x = (a + c) * (a - (c - a)) + -(-a);");
}

TEST_F(BodyPrinterTest, WriteMasksAndSwizzlesGoThroughThePrelude) {
    Expr* value = b.swizzle(b.ref(o), {3, 3});
    EXPECT_EQ(body_of(b.assign(b.swizzle(b.ref(o), {0, 2}), value, AssignOp::Mul)),
              "    ::brook::lang::assign_mask<0, 2>(o, ::brook::lang::swizzle<0, 2>(o) * "
              "(::brook::lang::swizzle<3, 3>(o)));");
}

TEST_F(BodyPrinterTest, FloatRemainderIsFmodAndLiteralsAreExact) {
    const LocalDecl* a = local("a", float_type());
    Expr* remainder = b.binary(BinaryOp::Rem, b.ref(a), b.literal(0.1), float_type());
    EXPECT_EQ(body_of(b.assign(b.swizzle(b.ref(o), {1}), remainder)),
              "    o.y = ::brook::lang::fmod(a, 0.1f);");
}

TEST_F(BodyPrinterTest, SignedIntArithmeticWrapsThroughThePrelude) {
    const LocalDecl* i = local("i", int_type());
    const LocalDecl* j = local("j", int_type());
    Expr* sum = b.binary(BinaryOp::Add, b.ref(i), b.unary(UnaryOp::Minus, b.ref(j)), int_type());
    Expr* product = b.binary(BinaryOp::Mul, sum, b.ref(j), int_type());
    EXPECT_EQ(body_of(b.assign(b.ref(i), product, AssignOp::Sub)),
              "    ::brook::lang::wrapping_sub_assign(i, ::brook::lang::wrapping_mul("
              "::brook::lang::wrapping_add(i, ::brook::lang::wrapping_neg(j)), j));");
}

TEST_F(BodyPrinterTest, IntIncrementAndBitwiseOperators) {
    const LocalDecl* i = local("i", int_type());
    Expr* masked = b.binary(BinaryOp::BitAnd, b.ref(i),
                            b.binary(BinaryOp::Shl, b.ref(i), b.ref(i), int_type()), int_type());
    Expr* increment = b.unary(UnaryOp::PostInc, b.ref(i));
    EXPECT_EQ(body_of(b.binary(BinaryOp::Comma, masked, increment, int_type())),
              "    i & (i << i), ::brook::lang::wrapping_post_increment(i);");
}

TEST_F(BodyPrinterTest, ComparisonsOfComparisonsKeepTheirParentheses) {
    // `a == b == c` and `a < b == c` parse as the .br meant, but GCC's -Wparentheses warns on
    // them in the generated file, which a program's own build may treat as an error.
    const LocalDecl* i = local("i", int_type());
    const LocalDecl* a = local("a", float_type());
    const Type boolean = Type::scalar(ScalarType::Bool);
    Expr* masked = b.binary(BinaryOp::BitAnd, b.ref(i), b.ref(i), int_type());
    Expr* is_zero = b.binary(BinaryOp::Equal, masked, b.ref(i), boolean);
    Expr* below = b.binary(BinaryOp::Less, b.ref(a), b.ref(a), boolean);
    EXPECT_EQ(body_of(b.binary(BinaryOp::Equal, is_zero, below, boolean)),
              "    ((i & i) == i) == (a < a);");
}

TEST(CppSpelling, FloatLiteralsRoundTripAndKeywordsAreRenamed) {
    EXPECT_EQ(cpp_float_literal(1.0), "1.0f");
    EXPECT_EQ(cpp_float_literal(0.1), "0.1f");
    EXPECT_EQ(cpp_float_literal(1e30), "1e+30f");
    EXPECT_EQ(cpp_float_literal(16777217.0), "16777216.0f");
    EXPECT_EQ(cpp_identifier("new"), "brook_kw_new");
    EXPECT_EQ(cpp_identifier("speed"), "speed");
    EXPECT_EQ(cpp_type_name(Type::vector(ScalarType::Int, 3)), "::brook::vec<int, 3>");
    EXPECT_EQ(cpp_type_name(int_type()), "int");
}

TEST(CodeWriter, ResynchronisesLinesAfterRewrittenText) {
    CodeWriter out("a.br");
    out.generated("// header\n");
    out.source("int x;\n", 1);
    out.source("int y", 2);
    out.source(" = 0;\nint z;\n", 4); // a rewrite spanning lines 2-4 ended mid-line
    EXPECT_EQ(out.text(), "// header\n#line 1 \"a.br\"\nint x;\nint y = 0;\n#line 5 \"a.br\"\n"
                          "int z;\n");
}

} // namespace
} // namespace brcc
