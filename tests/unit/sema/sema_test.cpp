// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Sema on kernels built node by node: the types it gives, the conversions it inserts, what it
// resolves, and the one diagnostic each mistake gets.

#include "ast_builder.hpp"

#include <gtest/gtest.h>

namespace brcc::test {
namespace {

using K = ParamKind;

class SemaTest : public ::testing::Test, public AstBuilder {
protected:
    /// Runs sema expecting no error.
    void expect_ok() {
        EXPECT_TRUE(analyze()) << diagnostics();
        EXPECT_EQ(error_count(), 0u) << diagnostics();
    }
    /// Runs sema expecting exactly one error whose message contains `text`.
    void expect_error(const std::string& text) {
        EXPECT_FALSE(analyze());
        EXPECT_EQ(error_count(), 1u) << diagnostics();
        EXPECT_NE(diagnostics().find(text), std::string::npos) << diagnostics();
    }
};

/// The conversion sema put in `slot`, checking it converts to `type`.
const Expr* converted(const Expr* slot, Type type) {
    EXPECT_EQ(slot->kind, NodeKind::ImplicitConvert);
    if (slot->kind != NodeKind::ImplicitConvert)
        return slot;
    EXPECT_EQ(slot->type, type);
    return static_cast<const ImplicitConvert*>(slot)->operand;
}

// ---------------------------------------------------------------------------------------------
// Arithmetic and conversions

TEST_F(SemaTest, SaxpyNeedsNoConversion) {
    auto* product = binary(BinaryOp::Mul, ref("alpha"), ref("x"));
    auto* sum = binary(BinaryOp::Add, product, ref("y"));
    auto* store = assign(ref("result"), sum);
    kernel("saxpy", Type::void_type(),
           {constant(float_type(), "alpha"), in(float_type(4), "x"), in(float_type(4), "y"),
            out(float_type(4), "result")},
           {stmt(store)});
    expect_ok();
    EXPECT_EQ(product->type, float_type(4));
    EXPECT_EQ(product->lhs->kind, NodeKind::NameRef); // the scalar broadcasts in the operator
    EXPECT_EQ(sum->type, float_type(4));
    EXPECT_EQ(store->value, sum);
    EXPECT_EQ(store->type, float_type(4));
    const auto* alpha = static_cast<const NameRef*>(product->lhs);
    ASSERT_NE(alpha->decl, nullptr);
    EXPECT_EQ(alpha->decl->name, "alpha");
}

TEST_F(SemaTest, IntOperandOfFloatOperationConverts) {
    auto* product = binary(BinaryOp::Mul, ref("x"), lit(2));
    stream_kernel({stmt(assign(ref("result"), product))});
    expect_ok();
    EXPECT_EQ(product->type, float_type(4));
    EXPECT_EQ(converted(product->rhs, float_type())->kind, NodeKind::IntLiteral);
}

TEST_F(SemaTest, IntVectorMeetsFloatVector) {
    auto* sum = binary(BinaryOp::Add, ref("i"), ref("x"));
    stream_kernel({decl(int_type(4), "i", lit(1)), stmt(assign(ref("result"), sum))});
    expect_ok();
    EXPECT_EQ(sum->type, float_type(4));
    converted(sum->lhs, float_type(4));
}

TEST_F(SemaTest, BoolInArithmeticTakesPartnerType) {
    auto* sum = binary(BinaryOp::Add, boolean(true), flt(1));
    auto* bools = binary(BinaryOp::Add, boolean(true), boolean(true));
    stream_kernel({decl(float_type(), "a", sum), decl(int_type(), "b", bools)});
    expect_ok();
    EXPECT_EQ(sum->type, float_type());
    converted(sum->lhs, float_type());
    EXPECT_EQ(bools->type, int_type());
}

TEST_F(SemaTest, ScalarInitialiserBroadcasts) {
    auto* v = decl(float_type(4), "v", lit(0));
    stream_kernel({v, stmt(assign(ref("result"), ref("v")))});
    expect_ok();
    EXPECT_EQ(converted(v->vars[0]->init, float_type(4))->kind, NodeKind::IntLiteral);
}

/// The swizzle sema put in `slot` to widen a value (BROOKPLUS.md §4.9), checked to repeat the
/// value's last component up to `width`.
const Member* widened(const Expr* slot, int from, int width) {
    EXPECT_EQ(slot->kind, NodeKind::Member);
    const auto* member = static_cast<const Member*>(slot);
    EXPECT_TRUE(member->is_swizzle && member->is_implicit_widening);
    EXPECT_EQ(member->swizzle_length, width);
    for (int i = 0; i < width; ++i)
        EXPECT_EQ(member->swizzle[static_cast<std::size_t>(i)], std::min(i, from - 1));
    return member;
}

TEST_F(SemaTest, MixedWidthsWidenTheShorterOfOneBaseType) {
    auto* sum = binary(BinaryOp::Add, ref("a"), ref("x"));
    stream_kernel({decl(float_type(3), "a", lit(0)), decl(float_type(3), "s", sum)});
    expect_ok();
    EXPECT_EQ(sum->type, float_type(4));
    EXPECT_EQ(widened(sum->lhs, 3, 4)->type, float_type(4));
}

TEST_F(SemaTest, MixedBaseTypesTakeTheHigherRankedOperandsType) {
    auto* sum = binary(BinaryOp::Add, ref("i"), member(ref("x"), "xy"));
    stream_kernel({decl(int_type(4), "i", lit(0)), decl(float_type(2), "s", sum)});
    expect_ok();
    EXPECT_EQ(sum->type, float_type(2));
    EXPECT_EQ(converted(converted(sum->lhs, float_type(2)), int_type(2))->type, int_type(4));
}

TEST_F(SemaTest, AssignmentNarrowsVectors) {
    auto* a = decl(float_type(3), "a", ref("x"));
    stream_kernel({a});
    expect_ok();
    converted(a->vars[0]->init, float_type(3));
}

TEST_F(SemaTest, AssignmentWidensVectorsRepeatingTheLastComponent) {
    auto* assignment = assign(ref("result"), ref("a"));
    stream_kernel({decl(float_type(3), "a", lit(0)), stmt(assignment)});
    expect_ok();
    widened(assignment->value, 3, 4);
}

TEST_F(SemaTest, AssignmentNeverWidensToALowerRankedBaseType) {
    stream_kernel({decl(float_type(2), "f", lit(0)), decl(int_type(4), "i", ref("f"))});
    expect_error("cannot convert 'float2' to 'int4' implicitly: pick components with a "
                 "swizzle such as '.xyzw'");
}

TEST_F(SemaTest, RemainderOnFloatsBitwiseOnIntsOnly) {
    auto* rem = binary(BinaryOp::Rem, ref("x"), flt(2));
    auto* shift = binary(BinaryOp::Shl, lit(1), lit(3));
    stream_kernel({decl(float_type(4), "r", rem), decl(int_type(), "s", shift)});
    expect_ok();
    EXPECT_EQ(rem->type, float_type(4));
    EXPECT_EQ(shift->type, int_type());
}

TEST_F(SemaTest, BitwiseOperatorsNeedInts) {
    stream_kernel({decl(float_type(4), "b", binary(BinaryOp::BitAnd, ref("x"), lit(1)))});
    expect_error("operator '&' needs integer operands, got 'float4'");
}

TEST_F(SemaTest, ComparisonsGiveBoolOfTheWidth) {
    auto* scalar = binary(BinaryOp::Less, lit(1), flt(2));
    auto* vector = binary(BinaryOp::Equal, ref("x"), lit(0));
    stream_kernel({decl(bool_type(), "a", scalar), decl(bool_type(4), "b", vector)});
    expect_ok();
    EXPECT_EQ(scalar->type, bool_type());
    converted(scalar->lhs, float_type());
    EXPECT_EQ(vector->type, bool_type(4));
    converted(vector->rhs, float_type());
}

TEST_F(SemaTest, LogicalOperatorsTakeScalars) {
    auto* both = binary(BinaryOp::LogicalAnd, lit(1), flt(2));
    stream_kernel({decl(bool_type(), "a", both)});
    expect_ok();
    EXPECT_EQ(both->type, bool_type());
    converted(both->lhs, bool_type());
    converted(both->rhs, bool_type());
}

TEST_F(SemaTest, LogicalOperatorsOnVectorsWorkPerComponent) {
    auto* either = binary(BinaryOp::LogicalOr, ref("x"), lit(1));
    stream_kernel({decl(bool_type(4), "b", either)});
    expect_ok();
    EXPECT_EQ(either->type, bool_type(4));
    converted(either->lhs, bool_type(4));
    converted(either->rhs, bool_type());
}

TEST_F(SemaTest, CompoundAssignmentWidensTheValueOnly) {
    auto* add = assign(ref("result"), lit(1), AssignOp::Add);
    stream_kernel({stmt(assign(ref("result"), ref("x"))), stmt(add)});
    expect_ok();
    EXPECT_EQ(add->type, float_type(4));
    converted(add->value, float_type());
}

TEST_F(SemaTest, CompoundAssignmentTruncatesIntoAnInteger) {
    auto* add = assign(ref("i"), flt(1.5), AssignOp::Add);
    stream_kernel({decl(int_type(), "i", lit(0)), stmt(add)});
    expect_ok();
    EXPECT_EQ(add->op, AssignOp::Assign);
    EXPECT_EQ(converted(add->value, int_type())->kind, NodeKind::Binary);
}

TEST_F(SemaTest, CompoundAssignmentWidensANarrowerValue) {
    auto* add = assign(ref("result"), ref("h"), AssignOp::Add);
    stream_kernel({decl(float_type(2), "h", lit(0)), stmt(add)});
    expect_ok();
    widened(add->value, 2, 4);
}

TEST_F(SemaTest, CompoundAssignmentCannotWidenTheResult) {
    // The float2 ranks above the int3 target, so it sets the result's width.
    stream_kernel({decl(float_type(2), "h", lit(0)), decl(int_type(3), "n", lit(0)),
                   stmt(assign(ref("n"), ref("h"), AssignOp::Add))});
    expect_error("'+=' computes a 'float2' that does not fit the 'int3' target");
}

TEST_F(SemaTest, OneMistakeOneError) {
    stream_kernel({stmt(
        assign(ref("result"), binary(BinaryOp::Add, binary(BinaryOp::Mul, ref("nope"), lit(2)),
                                     call("length", {ref("nope")}))))});
    EXPECT_FALSE(analyze());
    EXPECT_EQ(error_count(), 2u) << diagnostics(); // each use of the unknown name, nothing else
    EXPECT_NE(diagnostics().find("use of undeclared identifier 'nope'"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Names and scopes

TEST_F(SemaTest, UnknownName) {
    stream_kernel({stmt(assign(ref("result"), ref("y")))});
    expect_error("use of undeclared identifier 'y'");
}

TEST_F(SemaTest, RedeclarationInOneScopeButShadowingInABlock) {
    stream_kernel({decl(float_type(), "a"), block({decl(float_type(), "a")})});
    expect_ok();
}

TEST_F(SemaTest, RedeclarationInOneScope) {
    stream_kernel({decl(float_type(), "a"), decl(float_type(), "a")});
    EXPECT_FALSE(analyze());
    EXPECT_NE(diagnostics().find("redefinition of 'a'"), std::string::npos) << diagnostics();
    EXPECT_NE(diagnostics().find("note: 'a' was declared here"), std::string::npos);
}

TEST_F(SemaTest, LocalCannotRedeclareAParameter) {
    stream_kernel({decl(float_type(), "x")});
    expect_error("redefinition of 'x'");
}

TEST_F(SemaTest, ForScopeEndsWithTheLoop) {
    stream_kernel({for_stmt(decl(int_type(), "i", lit(0)), binary(BinaryOp::Less, ref("i"), lit(3)),
                            unary(UnaryOp::PostInc, ref("i")), block({})),
                   stmt(assign(ref("result"), ref("i")))});
    expect_error("use of undeclared identifier 'i'");
}

// ---------------------------------------------------------------------------------------------
// Assignment targets

TEST_F(SemaTest, CannotAssignToInputStream) {
    stream_kernel({stmt(assign(ref("x"), lit(1)))});
    expect_error("cannot assign to input stream 'x'");
}

TEST_F(SemaTest, CannotAssignToGather) {
    stream_kernel({stmt(assign(subscript(ref("g"), {lit(0)}), flt(1)))},
                  {gather(float_type(), "g", 1)});
    expect_error("cannot assign to gather argument 'g'");
}

TEST_F(SemaTest, CannotAssignToConstant) {
    stream_kernel({stmt(unary(UnaryOp::PreInc, member(ref("c"), "y")))},
                  {constant(float_type(2), "c")});
    expect_error("cannot assign to constant argument 'c'");
}

TEST_F(SemaTest, CannotAssignToConstLocal) {
    stream_kernel(
        {decl(float_type(), "k", flt(1), true), stmt(assign(ref("k"), flt(2), AssignOp::Mul))});
    expect_error("cannot assign to const variable 'k'");
}

TEST_F(SemaTest, CannotAssignToReduceInput) {
    kernel("sum", Type::void_type(),
           {in(float_type(), "a"), param(K::ReduceAccumulator, float_type(), "r")},
           {stmt(assign(ref("a"), ref("r")))}, true);
    expect_error("cannot assign to input stream 'a' of a reduce function");
}

TEST_F(SemaTest, CannotAssignToAValue) {
    stream_kernel({stmt(assign(binary(BinaryOp::Add, ref("result"), lit(1)), lit(2)))});
    expect_error("expression is not assignable");
}

// ---------------------------------------------------------------------------------------------
// Members

TEST_F(SemaTest, Swizzles) {
    auto* xy = member(ref("x"), "xy");
    auto* bgr = member(ref("x"), "bgr");
    auto* repeat = member(ref("x"), "xxyy");
    auto* scalar = member(flt(1), "xxx");
    stream_kernel({decl(float_type(2), "a", xy), decl(float_type(3), "b", bgr),
                   decl(float_type(4), "c", repeat), decl(float_type(3), "d", scalar)});
    expect_ok();
    EXPECT_TRUE(xy->is_swizzle);
    EXPECT_EQ(xy->swizzle_length, 2);
    EXPECT_EQ(xy->type, float_type(2));
    EXPECT_EQ(bgr->swizzle[0], 2);
    EXPECT_EQ(bgr->swizzle[1], 1);
    EXPECT_EQ(bgr->swizzle[2], 0);
    EXPECT_EQ(repeat->swizzle[1], 0);
    EXPECT_EQ(repeat->swizzle[3], 1);
    EXPECT_EQ(scalar->type, float_type(3));
    EXPECT_EQ(scalar->field_index, -1);
}

TEST_F(SemaTest, SwizzleOutOfRange) {
    stream_kernel(
        {decl(float_type(2), "a", flt(0)), decl(float_type(), "b", member(ref("a"), "z"))});
    expect_error("invalid swizzle '.z' on a 'float2': use 1 to 4 of the components .x and .y");
}

TEST_F(SemaTest, SwizzleMixesSets) {
    stream_kernel({decl(float_type(2), "a", member(ref("x"), "xg"))});
    expect_error("swizzle '.xg' mixes the .xyzw and .rgba sets");
}

TEST_F(SemaTest, WriteMasks) {
    auto* mask = assign(member(ref("result"), "zx"), flt(1));
    stream_kernel({stmt(mask)});
    expect_ok();
    EXPECT_EQ(mask->type, float_type(2));
    converted(mask->value, float_type(2));
}

TEST_F(SemaTest, WriteMaskCannotRepeat) {
    stream_kernel({stmt(assign(member(ref("result"), "xx"), flt(1)))});
    expect_error("write mask '.xx' names a component twice");
}

TEST_F(SemaTest, StructFields) {
    StructDecl* ray = structure("Ray", {{"o", float_type(3), {}}, {"d", float_type(3), {}}});
    auto* field = member(ref("r"), "d");
    kernel("k", Type::void_type(), {in(Type::structure(ray), "r"), out(float_type(3), "result")},
           {stmt(assign(ref("result"), field))});
    expect_ok();
    EXPECT_EQ(field->field_index, 1);
    EXPECT_FALSE(field->is_swizzle);
    EXPECT_EQ(field->type, float_type(3));
}

TEST_F(SemaTest, UnknownStructField) {
    StructDecl* ray = structure("Ray", {{"o", float_type(3), {}}});
    kernel("k", Type::void_type(), {in(Type::structure(ray), "r"), out(float_type(3), "result")},
           {stmt(assign(ref("result"), member(ref("r"), "q")))});
    expect_error("struct 'Ray' has no field named 'q'");
}

// ---------------------------------------------------------------------------------------------
// Subscripts

TEST_F(SemaTest, GatherIndexedPerDimensionOrByVector) {
    auto* c_style = subscript(ref("g"), {ref("y"), lit(2)});
    auto* vector = subscript(ref("g"), {construct(float_type(2), {flt(1), flt(2)})});
    stream_kernel({decl(float_type(), "y", flt(1)),
                   stmt(assign(ref("result"), binary(BinaryOp::Add, c_style, vector)))},
                  {gather(float_type(4), "g", 2)});
    expect_ok();
    EXPECT_EQ(c_style->type, float_type(4));
    ASSERT_NE(c_style->gather, nullptr);
    EXPECT_EQ(c_style->gather->name, "g");
    EXPECT_EQ(vector->type, float_type(4));
    EXPECT_EQ(vector->gather, c_style->gather);
    EXPECT_EQ(static_cast<const NameRef*>(c_style->base)->decl, c_style->gather);
}

TEST_F(SemaTest, GatherWithTooManySubscripts) {
    stream_kernel({stmt(assign(ref("result"),
                               subscript(ref("g"), {lit(0), lit(1), lit(2), lit(3), lit(4)})))},
                  {gather(float_type(4), "g", 2)});
    expect_error("too many subscripts for gather 'g': a stream has at most 4 dimensions, so index "
                 "it with up to 4 subscripts or one vector");
}

// COMPAT.md §1.9: the bound stream's rank decides what an index means, so any width is accepted
// and recorded for the runtime's check.
TEST_F(SemaTest, GatherIndexWidthsAreRecorded) {
    auto* offset = subscript(ref("g"), {flt(1)});
    auto* position =
        subscript(ref("g"), {construct(float_type(4), {flt(1), flt(2), flt(3), flt(4)})});
    stream_kernel({stmt(assign(ref("result"), binary(BinaryOp::Add, offset, position)))},
                  {gather(float_type(4), "g", 2)});
    expect_ok();
    ASSERT_NE(offset->gather, nullptr);
    EXPECT_EQ(offset->gather->gather_index_widths, (1u << 1) | (1u << 4));
    EXPECT_EQ(offset->gather->gather_view_rank(), 4);
}

TEST_F(SemaTest, GatherMustBeIndexed) {
    stream_kernel({stmt(assign(ref("result"), ref("g")))}, {gather(float_type(4), "g", 1)});
    expect_error("gather argument 'g' must be indexed");
}

TEST_F(SemaTest, StreamCannotBeIndexed) {
    kernel("k", Type::void_type(), {in(float_type(), "a"), out(float_type(), "b")},
           {stmt(assign(ref("b"), subscript(ref("a"), {lit(1)})))});
    expect_error("input stream 'a' cannot be indexed: the kernel sees one element; declare a "
                 "gather such as 'float a[]' to read any element");
}

TEST_F(SemaTest, VectorComponentSubscript) {
    auto* component = subscript(ref("x"), {lit(1)});
    stream_kernel({decl(float_type(), "a", component)});
    expect_ok();
    EXPECT_EQ(component->type, float_type());
    EXPECT_EQ(component->gather, nullptr);
}

// ---------------------------------------------------------------------------------------------
// Built-ins

TEST_F(SemaTest, BuiltinResultTypes) {
    auto* d = call("dot", {ref("x"), ref("x")});
    auto* l = call("length", {member(ref("x"), "xyz")});
    auto* c = call("cross", {member(ref("x"), "xyz"), member(ref("x"), "zyx")});
    auto* n = call("isnan", {ref("x")});
    auto* m = call("max", {lit(1), lit(2)});
    stream_kernel({decl(float_type(), "a", d), decl(float_type(), "b", l),
                   decl(float_type(3), "c", c), decl(bool_type(4), "e", n),
                   decl(int_type(), "f", m)});
    expect_ok();
    EXPECT_EQ(d->builtin, BuiltinId::dot);
    EXPECT_EQ(d->helper, nullptr);
    EXPECT_EQ(d->type, float_type());
    EXPECT_EQ(l->type, float_type());
    EXPECT_EQ(c->type, float_type(3));
    EXPECT_EQ(n->type, bool_type(4));
    EXPECT_EQ(m->type, int_type());
}

TEST_F(SemaTest, BuiltinScalarArgumentsBroadcast) {
    auto* clamped = call("clamp", {ref("x"), lit(0), flt(1)});
    auto* mixed = call("lerp", {ref("x"), ref("x"), flt(0.5)});
    stream_kernel({stmt(assign(ref("result"), clamped)), stmt(assign(ref("result"), mixed))});
    expect_ok();
    EXPECT_EQ(clamped->type, float_type(4));
    EXPECT_EQ(clamped->args[0]->kind, NodeKind::NameRef);
    EXPECT_EQ(converted(clamped->args[1], float_type(4))->kind, NodeKind::IntLiteral);
    EXPECT_EQ(converted(clamped->args[2], float_type(4))->kind, NodeKind::FloatLiteral);
    converted(mixed->args[2], float_type(4));
}

TEST_F(SemaTest, AllAndAnyTakeBools) {
    auto* all = call("all", {ref("x")});
    stream_kernel({decl(bool_type(), "a", all)});
    expect_ok();
    EXPECT_EQ(all->type, bool_type());
    converted(all->args[0], bool_type(4));
}

TEST_F(SemaTest, BuiltinArity) {
    stream_kernel({decl(float_type(), "a", call("dot", {ref("x")}))});
    expect_error("built-in 'dot' expects 2 arguments, got 1");
}

TEST_F(SemaTest, CrossNeedsFloat3) {
    stream_kernel({stmt(assign(ref("result"), call("cross", {ref("x"), ref("x")})))});
    expect_error("argument 1 of 'cross' has type 'float4': expected a float3");
}

TEST_F(SemaTest, BuiltinWidthMismatch) {
    stream_kernel({stmt(assign(ref("result"), call("max", {ref("x"), member(ref("x"), "xy")})))});
    expect_error("arguments of 'max' have different widths ('float4' and 'float2')");
}

// ---------------------------------------------------------------------------------------------
// Helper kernels and the call graph

TEST_F(SemaTest, HelperCalledBeforeItsDeclaration) {
    auto* use = call("scale", {ref("x"), lit(2)});
    KernelDecl* k = stream_kernel({stmt(assign(ref("result"), use))});
    KernelDecl* scale =
        kernel("scale", float_type(4), {constant(float_type(4), "v"), constant(float_type(), "s")},
               {ret(binary(BinaryOp::Mul, ref("v"), ref("s")))});
    expect_ok();
    EXPECT_EQ(use->helper, scale);
    EXPECT_FALSE(use->builtin.has_value());
    EXPECT_EQ(use->type, float_type(4));
    converted(use->args[1], float_type());
    ASSERT_EQ(k->callees.size(), 1u);
    EXPECT_EQ(k->callees[0], scale);
}

TEST_F(SemaTest, HelperArgumentCount) {
    stream_kernel({stmt(assign(ref("result"), call("f", {ref("x"), lit(1), lit(2)})))});
    kernel("f", float_type(4), {constant(float_type(4), "a"), constant(float_type(), "b")},
           {ret(ref("a"))});
    expect_error("kernel 'f' expects 2 arguments, got 3");
}

TEST_F(SemaTest, UnknownFunction) {
    stream_kernel({stmt(assign(ref("result"), call("frobnicate", {ref("x")})))});
    expect_error("use of undeclared function 'frobnicate'");
}

TEST_F(SemaTest, CallsStreamKernelWithOutArguments) {
    auto* inner = call("twice", {ref("x"), ref("result")});
    stream_kernel({stmt(inner)});
    kernel("twice", Type::void_type(), {in(float_type(4), "a"), out(float_type(4), "b")},
           {stmt(assign(ref("b"), binary(BinaryOp::Mul, ref("a"), lit(2))))});
    expect_ok();
    EXPECT_EQ(inner->type, Type::void_type());
    EXPECT_EQ(inner->args[1]->kind, NodeKind::NameRef); // an lvalue, not converted
}

TEST_F(SemaTest, DirectRecursion) {
    stream_kernel({stmt(assign(ref("result"), call("f", {flt(1)})))});
    kernel("f", float_type(), {constant(float_type(), "a")},
           {ret(binary(BinaryOp::Add, call("f", {ref("a")}), flt(1)))});
    expect_error("recursive call to 'f': GPUs cannot run recursion");
}

TEST_F(SemaTest, MutualRecursionReportedOnce) {
    stream_kernel({stmt(assign(ref("result"), call("f", {flt(1)})))});
    kernel("f", float_type(), {constant(float_type(), "a")}, {ret(call("g", {ref("a")}))});
    kernel("g", float_type(), {constant(float_type(), "a")}, {ret(call("f", {ref("a")}))});
    expect_error("recursive call to 'f'");
}

TEST_F(SemaTest, HelperMustReturn) {
    stream_kernel({stmt(assign(ref("result"), call("f", {flt(1)})))});
    kernel("f", float_type(), {constant(float_type(), "a")}, {if_stmt(ref("a"), ret(ref("a")))});
    expect_error("helper kernel 'f' can reach its end without returning a value");
}

TEST_F(SemaTest, HelperReturnsOnEveryBranch) {
    auto* value = ret(lit(1));
    stream_kernel({stmt(assign(ref("result"), call("f", {flt(1)})))});
    kernel("f", float_type(), {constant(float_type(), "a")},
           {if_stmt(ref("a"), ret(ref("a")), value)});
    expect_ok();
    converted(value->value, float_type());
}

TEST_F(SemaTest, HelperTakesStreamsButNoVout) {
    kernel("f", float_type(),
           {in(float_type(), "a"), param(ParamKind::VariableOutput, float_type(), "v")},
           {ret(ref("a"))});
    expect_error("argument 'v' of helper kernel 'f' cannot be a vout or reduce argument");
}

// ---------------------------------------------------------------------------------------------
// Kernel shapes

TEST_F(SemaTest, KernelNeedsAnOutput) {
    kernel("k", Type::void_type(), {in(float_type(), "a")}, {});
    expect_error("kernel 'k' has no output stream");
}

TEST_F(SemaTest, OutArgumentMustBeAStream) {
    ParamDecl* result = out(float_type(), "result");
    result->is_stream_syntax = false;
    kernel("k", Type::void_type(), {in(float_type(), "a"), result}, {});
    expect_error("out argument 'result' is not a stream: declare it 'out float result<>'");
}

TEST_F(SemaTest, ReduceFunction) {
    auto* add = assign(ref("r"), ref("a"), AssignOp::Add);
    kernel("sum", Type::void_type(),
           {in(float_type(), "a"), param(K::ReduceAccumulator, float_type(), "r"),
            constant(float_type(), "scale")},
           {stmt(add)}, true);
    expect_ok();
    EXPECT_EQ(add->type, float_type());
}

TEST_F(SemaTest, ReduceNeedsOneAccumulatorAndOneStream) {
    kernel("sum", Type::void_type(),
           {in(float_type(), "a"), in(float_type(), "b"),
            param(K::ReduceAccumulator, float_type(), "r")},
           {}, true);
    expect_error(
        "reduce function 'sum' must have exactly one reduce argument and one input stream");
}

TEST_F(SemaTest, ReduceTypesMustMatch) {
    kernel("sum", Type::void_type(),
           {in(float_type(), "a"), param(K::ReduceAccumulator, float_type(2), "r")}, {}, true);
    expect_error("reduce argument 'r' has type 'float2' but input stream 'a' has type 'float'");
}

TEST_F(SemaTest, BoolIsNotAStreamElement) {
    kernel("k", Type::void_type(), {in(bool_type(), "a"), out(float_type(), "b")}, {});
    expect_error("argument 'a' has element type 'bool'");
}

TEST_F(SemaTest, VoidKernelCannotReturnAValue) {
    stream_kernel({ret(lit(1))});
    expect_error("kernel 'k' cannot return a value");
}

TEST_F(SemaTest, KernelNamedLikeABuiltin) {
    kernel("dot", float_type(), {constant(float_type(), "a")}, {ret(ref("a"))});
    expect_error("kernel 'dot' has the name of a Cg built-in function");
}

// ---------------------------------------------------------------------------------------------
// Statements and other expressions

TEST_F(SemaTest, VectorConditionMeansAny) {
    auto* branch = if_stmt(ref("x"), stmt(assign(ref("result"), lit(1))));
    auto* loop = while_stmt(lit(1), break_stmt());
    stream_kernel({branch, loop});
    expect_ok();
    ASSERT_EQ(branch->condition->kind, NodeKind::Call);
    const auto* any = static_cast<const Call*>(branch->condition);
    EXPECT_EQ(any->builtin, BuiltinId::any);
    EXPECT_EQ(any->type, bool_type());
    converted(any->args[0], bool_type(4));
    converted(loop->condition, bool_type());
}

TEST_F(SemaTest, ComponentwiseSelect) {
    auto* select = conditional(binary(BinaryOp::Greater, ref("x"), lit(0)), ref("x"), lit(0));
    stream_kernel({stmt(assign(ref("result"), select))});
    expect_ok();
    EXPECT_EQ(select->type, float_type(4));
    EXPECT_EQ(select->condition->type, bool_type(4));
    EXPECT_EQ(select->then_value->kind, NodeKind::NameRef);
    converted(select->else_value, float_type(4));
}

TEST_F(SemaTest, BreakOutsideLoop) {
    stream_kernel({break_stmt()});
    expect_error("'break' is not inside a loop");
}

TEST_F(SemaTest, Constructors) {
    auto* v = construct(float_type(4), {member(ref("x"), "xy"), lit(0), flt(1)});
    stream_kernel({stmt(assign(ref("result"), v))});
    expect_ok();
    EXPECT_EQ(v->type, float_type(4));
    EXPECT_EQ(v->args[0]->kind, NodeKind::Member);
    converted(v->args[1], float_type());
}

TEST_F(SemaTest, ConstructorComponentCount) {
    stream_kernel({stmt(assign(ref("result"), construct(float_type(4), {ref("x"), flt(1)})))});
    expect_error("'float4' constructor needs 4 components, got 5");
}

TEST_F(SemaTest, BraceInitialiser) {
    auto* p = decl(float_type(2), "p", init_list({lit(2), flt(0)}));
    stream_kernel({p});
    expect_ok();
    const auto* list = static_cast<const InitList*>(p->vars[0]->init);
    EXPECT_EQ(list->type, float_type(2));
    converted(list->elements[0], float_type());
    EXPECT_EQ(list->elements[1]->kind, NodeKind::FloatLiteral);
}

TEST_F(SemaTest, CastsMayNarrowButNotWiden) {
    auto* narrow = cast(float_type(3), ref("x"));
    stream_kernel(
        {decl(float_type(3), "a", narrow), decl(int_type(), "i", cast(int_type(), flt(2)))});
    expect_ok();
    EXPECT_EQ(narrow->type, float_type(3));
}

TEST_F(SemaTest, CastCannotWiden) {
    stream_kernel({stmt(assign(ref("result"), cast(float_type(4), member(ref("x"), "xy"))))});
    expect_error("cannot cast 'float2' to 'float4'");
}

TEST_F(SemaTest, Indexof) {
    auto* position = indexof("x");
    KernelDecl* k = stream_kernel({stmt(assign(ref("result"), position))});
    expect_ok();
    EXPECT_EQ(position->type, float_type(4));
    EXPECT_EQ(position->stream->decl, k->params[0]);
    EXPECT_TRUE(k->uses_indexof);
}

TEST_F(SemaTest, IndexofNeedsAStream) {
    stream_kernel({stmt(assign(ref("result"), indexof("c")))}, {constant(float_type(), "c")});
    expect_error("indexof needs a stream argument of this kernel, but 'c' is a constant argument");
}

} // namespace
} // namespace brcc::test
