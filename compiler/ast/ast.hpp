// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The Brook AST: thin nodes, behaviour in passes (sema, codegen/*). The parser builds it; sema
// fills the fields marked "sema:" (types, resolved names, call targets) and inserts
// ImplicitConvert nodes, so that every code generator sees explicit conversions.
//
// A translation unit is the file in source order: host text copied through verbatim, the Brook
// constructs found in host code (stream declarations, `void main`), struct typedefs and kernels.

#include "ast/type.hpp"
#include "support/source_manager.hpp"

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace brcc {

enum class NodeKind {
#define EXPR(name) name,
#define STMT(name) name,
#include "ast/ast_nodes.def"
#undef EXPR
#undef STMT
};

enum class BuiltinId {
#define BUILTIN(name) name,
#include "ast/builtins.def"
#undef BUILTIN
};

struct Node {
    explicit Node(NodeKind node_kind, SourceRange node_range)
        : kind(node_kind), range(node_range) {}
    virtual ~Node() = default;
    Node(const Node&) = delete;
    Node& operator=(const Node&) = delete;

    const NodeKind kind;
    SourceRange range;
};

// ---------------------------------------------------------------------------------------------
// Declarations

struct FieldDecl {
    std::string name;
    Type type; ///< float..float4 (int types in issue 3), or a nested struct
    SourceRange range;
};

/// `typedef struct [tag] { float3 o; float3 d; } Ray;` or `struct Ray { ... };` at file scope.
/// Also copied through to the C++ output, where host code uses it.
struct StructDecl {
    std::string name;
    std::string tag; ///< `struct tag`, C's other name for it (empty when it has none)
    std::vector<FieldDecl> fields;
    SourceRange range; ///< the whole typedef, up to and including its `;`
};

/// A named value a NameRef can refer to: a kernel parameter or a local variable.
struct ValueDecl {
    enum class Kind { Param, Local };
    explicit ValueDecl(Kind kind) : decl_kind(kind) {}
    virtual ~ValueDecl() = default;
    ValueDecl(const ValueDecl&) = delete;
    ValueDecl& operator=(const ValueDecl&) = delete;

    const Kind decl_kind;
    std::string name;
    Type type;
    SourceRange range;      ///< the whole declarator
    SourceRange name_range; ///< the name alone
};

/// The kinds of parameter, listed once for brcc and the runtime in include/brook/param_kinds.def:
/// `float a` (Constant), `float a<>` (InputStream; ReduceInput in a reduce function),
/// `out float a<>`, `float a[]` (Gather, rank = number of `[]`, 1-4), `reduce float r<>`
/// (ReduceAccumulator), `vout float r<>` (zero or more values per element, each sent by push)
/// and Brook+'s `out float o[]` (ScatterOutput: the whole stream, written at any position).
enum class ParamKind {
#define BROOK_PARAM_KIND(name, words, is_stream, reads, writes) name,
#include "brook/param_kinds.def"
#undef BROOK_PARAM_KIND
};

struct ParamDecl : ValueDecl {
    ParamDecl() : ValueDecl(Kind::Param) {}
    ParamKind param_kind = ParamKind::Constant;
    int gather_rank = 0; ///< number of `[]` for gathers and scatter outputs, else 0
    /// The size written in each `[]` of a gather (`float t[8]`), 0 where none or not a literal.
    std::vector<unsigned long long> gather_extents;
    /// sema: for gathers and scatter outputs, bit K is set when the body indexes it with K
    /// components (1 to 4).
    unsigned gather_index_widths = 0;
    /// sema: for gathers, some index is a float (in the body or a kernel it is passed to).
    bool gather_float_indices = false;
    bool is_iter = false; ///< written `iter T a<>`: an input stream bound to an iterator
    /// `vout [N]`: each element keeps its first N pushes; 0 for `vout []`, `vout` (no limit).
    std::size_t push_limit = 0;
    /// Written with `<>` (input, output and reduce streams). False for `out float a`, which the
    /// parser accepts as an OutputStream so that sema can report "not a stream".
    bool is_stream_syntax = false;
    int index = 0; ///< position in the parameter list

    /// The rank of a gather's view in generated code: its widest index, at least 1 (the stream
    /// bound at run time decides what an index means, COMPAT.md §1.9; not the brackets).
    int gather_view_rank() const {
        int rank = 1;
        for (int width = 2; width <= 4; ++width) {
            if ((gather_index_widths >> width) & 1u)
                rank = width;
        }
        return rank;
    }
    /// sema: indexof(this parameter) is used, in the body or in a kernel it is passed to, so a
    /// called kernel receives the position of the caller's stream bound to it.
    bool needs_position = false;
    /// sema: the kernel's own body names it somewhere (a read, a write, indexof, push), for the
    /// unused-parameter warning and the backends' limits (BackendGenerator::check_kernel).
    bool named_in_body = false;
};

struct Expr;

struct LocalDecl : ValueDecl {
    LocalDecl() : ValueDecl(Kind::Local) {}
    bool is_const = false;
    /// Brook+'s `shared T name[N];` (BROOKPLUS.md §4.8): N > 0, an array of N elements shared
    /// by the threads of a group; 0 for an ordinary local.
    unsigned long long shared_extent = 0;
    Expr* init = nullptr; ///< may be an InitList for `float2 p = {2, 0};`
};

struct Compound;

/// `kernel void k(...) {...}`, `kernel float4 helper(...) {...}` or `reduce void r(...) {...}`
/// (Brook+'s `void kernel k`, `reduce kernel void r` too).
struct KernelDecl {
    std::string name;
    Type return_type; ///< void for stream kernels and reductions; a value type for helpers
    /// A reduce function: written `reduce void f(...)` (has_reduce_keyword), or with a
    /// `reduce` argument (Brook+'s `kernel void f(float a<>, reduce float r<>)`).
    bool is_reduce = false;
    bool has_reduce_keyword = false; ///< `reduce void f` or `reduce kernel void f`
    /// Brook+'s `Attribute[GroupSize(x, y, z, w)]` before the kernel (BROOKPLUS.md §4.8): the
    /// threads per group, x first; all 0 without one (absent components are 1).
    std::array<unsigned long long, 4> group_size{};
    SourceRange group_size_range;
    bool has_group_size() const { return group_size[0] != 0; }
    std::vector<ParamDecl*> params;
    Compound* body = nullptr;
    SourceRange range; ///< from its first word to the closing brace
    SourceRange name_range;

    // sema:
    /// A helper: a kernel with a non-void return type, callable only from other kernels.
    bool is_helper() const { return !return_type.is_void(); }
    std::vector<const KernelDecl*> callees; ///< kernels it calls, each once, in first-call order
    /// Some parameter needs_position: the body asks the backend for element positions.
    bool uses_indexof = false;
    bool discards = false; ///< the body, or a kernel it calls, may run `discard`
};

// ---------------------------------------------------------------------------------------------
// Expressions

struct Expr : Node {
    using Node::Node;
    Type type; ///< sema: the expression's type (error type after a diagnostic)
};

struct IntLiteral : Expr {
    explicit IntLiteral(SourceRange r) : Expr(NodeKind::IntLiteral, r) {}
    unsigned long long value = 0;
    bool is_unsigned = false; ///< `u` suffix
};

struct FloatLiteral : Expr {
    explicit FloatLiteral(SourceRange r) : Expr(NodeKind::FloatLiteral, r) {}
    double value = 0;
    bool is_float_suffixed = false; ///< `f` suffix: a float even where it meets a double
};

struct BoolLiteral : Expr {
    explicit BoolLiteral(SourceRange r) : Expr(NodeKind::BoolLiteral, r) {}
    bool value = false;
};

struct NameRef : Expr {
    explicit NameRef(SourceRange r) : Expr(NodeKind::NameRef, r) {}
    std::string name;
    const ValueDecl* decl = nullptr; ///< sema
};

enum class UnaryOp { Plus, Minus, Not, BitNot, PreInc, PreDec, PostInc, PostDec };

struct Unary : Expr {
    explicit Unary(SourceRange r) : Expr(NodeKind::Unary, r) {}
    UnaryOp op = UnaryOp::Plus;
    Expr* operand = nullptr;
};

enum class BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    Less,
    Greater,
    LessEqual,
    GreaterEqual,
    Equal,
    NotEqual,
    BitAnd,
    BitOr,
    BitXor,
    LogicalAnd,
    LogicalOr,
    Comma
};

struct Binary : Expr {
    explicit Binary(SourceRange r) : Expr(NodeKind::Binary, r) {}
    BinaryOp op = BinaryOp::Add;
    Expr* lhs = nullptr;
    Expr* rhs = nullptr;
};

enum class AssignOp { Assign, Add, Sub, Mul, Div, Rem, Shl, Shr, BitAnd, BitOr, BitXor };

struct Assign : Expr {
    explicit Assign(SourceRange r) : Expr(NodeKind::Assign, r) {}
    AssignOp op = AssignOp::Assign;
    Expr* target = nullptr;
    Expr* value = nullptr;
};

struct Conditional : Expr {
    explicit Conditional(SourceRange r) : Expr(NodeKind::Conditional, r) {}
    Expr* condition = nullptr;
    Expr* then_value = nullptr;
    Expr* else_value = nullptr;
};

/// `name(args)`: a Cg built-in or a kernel (a helper, or a void kernel writing its `out`
/// arguments back, copy-in/copy-out).
struct Call : Expr {
    explicit Call(SourceRange r) : Expr(NodeKind::Call, r) {}
    std::string callee;
    SourceRange callee_range;
    std::vector<Expr*> args;
    // sema: exactly one of these is set
    std::optional<BuiltinId> builtin;
    const KernelDecl* helper = nullptr; ///< the kernel called, helper or not
};

/// `float4(x, y, 0, 1)`: a vector (or scalar) constructor; arguments' components fill the result.
struct Construct : Expr {
    explicit Construct(SourceRange r) : Expr(NodeKind::Construct, r) {}
    Type constructed;
    std::vector<Expr*> args;
};

/// `(float)i`, `(int)x`, `(float3)v` written by the user.
struct Cast : Expr {
    explicit Cast(SourceRange r) : Expr(NodeKind::Cast, r) {}
    Type target;
    Expr* operand = nullptr;
};

/// Inserted by sema wherever a value changes type: int to float, scalar to vector (broadcast),
/// vector to a narrower vector is *not* implicit. `type` is the target type.
struct ImplicitConvert : Expr {
    explicit ImplicitConvert(SourceRange r) : Expr(NodeKind::ImplicitConvert, r) {}
    Expr* operand = nullptr;
};

/// `base.name`: a struct field or a swizzle (`.xyz`, `.rgba`, repeats allowed on reads).
struct Member : Expr {
    explicit Member(SourceRange r) : Expr(NodeKind::Member, r) {}
    Expr* base = nullptr;
    std::string member;
    SourceRange member_range;
    // sema:
    bool is_swizzle = false;
    std::array<std::uint8_t, 4>
        swizzle{}; ///< component indices (x=0 .. w=3), `swizzle_length` used
    int swizzle_length = 0;
    int field_index = -1; ///< for struct fields
    /// sema made it to widen an operand or value (BROOKPLUS.md §4.9), not the program.
    bool is_implicit_widening = false;
};

/// `base[i]` or `base[i][j]...`: the parser collects one postfix chain of subscripts into one
/// node. On a gather: one subscript per dimension (C order, `g[y][x]`) or one float/floatN
/// subscript (`g[float2(x, y)]`, x is the last dimension). On a vector: one component.
struct Subscript : Expr {
    explicit Subscript(SourceRange r) : Expr(NodeKind::Subscript, r) {}
    Expr* base = nullptr;
    std::vector<Expr*> indices;
    // sema:
    const ParamDecl* gather = nullptr; ///< set when base names a gather parameter
    /// Set when base names a scatter output: the target of `o[i] = v`, the only use sema allows.
    const ParamDecl* scatter = nullptr;
    /// Set when base names a group-shared array (`shared float4 s[16];`).
    const LocalDecl* shared = nullptr;
};

/// `{2, 0}` as a local's initialiser.
struct InitList : Expr {
    explicit InitList(SourceRange r) : Expr(NodeKind::InitList, r) {}
    std::vector<Expr*> elements;
};

/// `indexof(s)` / `indexof s`: the float4 position of the current element in stream `s`.
struct Indexof : Expr {
    explicit Indexof(SourceRange r) : Expr(NodeKind::Indexof, r) {}
    NameRef* stream = nullptr;
};

/// Brook+'s `instanceInGroup()` (BROOKPLUS.md §4.8): int4(i, 0, 0, 0), i the thread's number in
/// its group. Sema makes it from the call.
struct InstanceInGroup : Expr {
    explicit InstanceInGroup(SourceRange r) : Expr(NodeKind::InstanceInGroup, r) {}
};

// ---------------------------------------------------------------------------------------------
// Statements

struct Stmt : Node {
    using Node::Node;
};

struct Compound : Stmt {
    explicit Compound(SourceRange r) : Stmt(NodeKind::Compound, r) {}
    std::vector<Stmt*> body;
};

/// `float a = 1, b;` (several declarators share the type).
struct DeclStmt : Stmt {
    explicit DeclStmt(SourceRange r) : Stmt(NodeKind::DeclStmt, r) {}
    std::vector<LocalDecl*> vars;
};

struct ExprStmt : Stmt {
    explicit ExprStmt(SourceRange r) : Stmt(NodeKind::ExprStmt, r) {}
    Expr* expr = nullptr;
};

struct If : Stmt {
    explicit If(SourceRange r) : Stmt(NodeKind::If, r) {}
    Expr* condition = nullptr;
    Stmt* then_branch = nullptr;
    Stmt* else_branch = nullptr; ///< may be null
};

struct For : Stmt {
    explicit For(SourceRange r) : Stmt(NodeKind::For, r) {}
    Stmt* init = nullptr;      ///< DeclStmt, ExprStmt or null
    Expr* condition = nullptr; ///< may be null
    Expr* step = nullptr;      ///< may be null
    Stmt* body = nullptr;
};

struct While : Stmt {
    explicit While(SourceRange r) : Stmt(NodeKind::While, r) {}
    Expr* condition = nullptr;
    Stmt* body = nullptr;
};

struct DoWhile : Stmt {
    explicit DoWhile(SourceRange r) : Stmt(NodeKind::DoWhile, r) {}
    Stmt* body = nullptr;
    Expr* condition = nullptr;
};

struct Break : Stmt {
    explicit Break(SourceRange r) : Stmt(NodeKind::Break, r) {}
};

struct Continue : Stmt {
    explicit Continue(SourceRange r) : Stmt(NodeKind::Continue, r) {}
};

struct Return : Stmt {
    explicit Return(SourceRange r) : Stmt(NodeKind::Return, r) {}
    Expr* value = nullptr; ///< may be null
};

/// `push(r);` on a `vout` parameter: appends r's current value to the variable output.
struct Push : Stmt {
    explicit Push(SourceRange r) : Stmt(NodeKind::Push, r) {}
    NameRef* stream = nullptr;
};

struct Empty : Stmt {
    explicit Empty(SourceRange r) : Stmt(NodeKind::Empty, r) {}
};

/// `discard;` in a map kernel (or a kernel it calls): ends the element, whose outputs all keep
/// their old values.
struct Discard : Stmt {
    explicit Discard(SourceRange r) : Stmt(NodeKind::Discard, r) {}
};

/// Brook+'s `syncGroup();` (BROOKPLUS.md §4.8): waits until every thread of the group reaches
/// it; the shared array's and scatter output's writes made before are then visible to them.
struct SyncGroup : Stmt {
    explicit SyncGroup(SourceRange r) : Stmt(NodeKind::SyncGroup, r) {}
};

// ---------------------------------------------------------------------------------------------
// Host code

/// Host C/C++ text, copied to the output unchanged (directives included).
struct HostText {
    SourceRange range;
};

/// One declared stream: `x<100, n*2>`; extents are host expressions kept as source text. An
/// empty extent list (`float s<>`) is a host function's stream parameter.
struct StreamDeclarator {
    std::string name;
    SourceRange name_range;
    std::vector<SourceRange> extents;
    SourceRange range;
    unsigned pointer_depth = 0; ///< a parameter `float (*p)<>` is 1, `float (**p)<>` 2
    /// Not a stream: an ordinary declarator of the same declaration (`total` and `v[2] = {1,
    /// 2}` in `float a<8>, total, v[2] = {1, 2};`), kept as `range`'s text.
    bool plain = false;
};

/// `float4 x<100>, y<100>;` in host code, or `float s<>` (or `float (*p)<>`) in a host
/// function's parameter list.
struct HostStreamDecl {
    Type element_type;
    SourceRange type_range;
    /// C++ spells the element type as `type_range` does; not so Brook+'s `unsigned int4`.
    bool type_spelled_in_cpp = true;
    std::vector<StreamDeclarator> declarators;
    bool is_parameter = false;
    SourceRange range; ///< what the rewrite replaces (up to, not including, the `;`)
};

/// `void main(` at file scope: C++ requires `int main`, so the `void` is rewritten.
struct HostVoidMain {
    SourceRange void_range;
};

/// `iter float s<N> = iter(a, b);` in host code: a stream whose element i is a + (b - a) * i / N
/// (DESIGN.md §2). `begin_value` and `end_value` are host expressions kept as source text.
struct HostIteratorDecl {
    Type element_type;
    StreamDeclarator declarator;
    SourceRange begin_value;
    SourceRange end_value;
    SourceRange range; ///< what the rewrite replaces (up to, not including, the `;`)
};

/// The operator argument of `streamGatherOp(dst, index, src, op)` / `streamScatterOp(...)`: the
/// name of a reduce function, rewritten to refer to that function's KernelInfo.
struct HostReduceOperator {
    std::string name;
    SourceRange range;                  ///< the name
    const KernelDecl* reduce = nullptr; ///< sema: the reduce function it names
};

/// `k.domainOffset(` or `k.domainSize(` in host code: Brook+'s per-call execution domain
/// (BROOKPLUS.md §3.2), which its kernel objects took. When `k` names a kernel it is rewritten
/// to the runtime's setter for that kernel (`::brook::set_call_domain_size("k", `); otherwise
/// it is some other object's member and stays as written.
struct HostKernelDomain {
    std::string kernel;
    bool size = false;                ///< domainSize; else domainOffset
    SourceRange range;                ///< from the name to the `(` included
    const KernelDecl* decl = nullptr; ///< sema: the kernel `kernel` names, if any
};

/// A token of host code that C++ would take otherwise than BrookGPU did, and the text it is
/// rewritten to:
/// - an integer literal with a leading zero and an 8 or 9 (`0718`): not C; the value BrookGPU
///   read, its octal prefix in decimal (`57`), suffix kept;
/// - a kernel named as a value, not called (`(inverse ? ifft : fft)(a, b)`, `&k`, a table of
///   kernels): its stub of BrookGPU's signature, `k__value`, which is not overloaded, so the
///   name has a type.
struct HostRewrite {
    SourceRange range;
    std::string text; ///< the replacement text
};

/// `kernel void k(...);` or `reduce void r(...);`: declares the host stub of a kernel defined
/// later in the file or in another file (COMPAT.md §1.7). `decl` has no body.
struct KernelPrototype {
    KernelDecl* decl = nullptr;
};

/// An `#include "x.brh"` (or `.brhi`) line, rewritten to include the header brcc makes from it,
/// or the text a `cpp` run copied from an included file, between its line markers, given back
/// as one `#include "file"`.
struct HostInclude {
    std::string header; ///< the name the rewritten line includes
    SourceRange range;  ///< what the line replaces, up to (not including) its last newline
};

/// A struct typedef of a header the file includes (not a Brook header, whose C++ header has
/// them): the C++ compiler sees the typedef, brcc adds the element_traits that streams of it need.
struct HeaderStructTraits {
    const StructDecl* decl = nullptr;
    SourceRange range; ///< empty: where the traits go, after the include
};

using TopLevelItem =
    std::variant<HostText, HostStreamDecl, HostVoidMain, HostIteratorDecl, HostReduceOperator,
                 HostKernelDomain, const StructDecl*, KernelDecl*, HostRewrite, KernelPrototype,
                 HostInclude, HeaderStructTraits>;

/// `typedef float4 Color;` at file scope, of any Brook scalar, vector or struct type (chains
/// resolved). It stays host text too: host code uses the name as well.
struct TypedefDecl {
    std::string name;
    Type type;
};

/// Owns every node; the tree itself uses plain pointers.
class ASTContext {
public:
    template <class T, class... Args> T* make(Args&&... args) {
        auto node = std::make_unique<T>(std::forward<Args>(args)...);
        T* raw = node.get();
        if constexpr (std::is_base_of_v<Node, T>)
            nodes_.push_back(std::move(node));
        else if constexpr (std::is_base_of_v<ValueDecl, T>)
            values_.push_back(std::move(node));
        else if constexpr (std::is_same_v<T, KernelDecl>)
            kernels_.push_back(std::move(node));
        else
            structs_.push_back(std::move(node));
        return raw;
    }

private:
    std::vector<std::unique_ptr<Node>> nodes_;
    std::vector<std::unique_ptr<ValueDecl>> values_;
    std::vector<std::unique_ptr<KernelDecl>> kernels_;
    std::vector<std::unique_ptr<StructDecl>> structs_;
};

/// The parameter of the kernel being checked or printed that the argument `arg` names, through
/// implicit conversions, or null: what a called kernel's stream or gather parameter is bound to.
const ParamDecl* bound_parameter(const Expr& arg);

/// A Brook header a file includes: the file found, and the name of the C++ header that the
/// rewritten `#include` names (`blend.hpp` for `#include "blend.brh"`).
struct BrookHeader {
    std::string path;
    std::string include_name;
};

/// A variable or constant declared at file scope in host code (`const int N = 4;`), found so
/// that a kernel naming it is told why it cannot.
struct HostVariable {
    std::string name;
    SourceRange name_range;
};

struct TranslationUnit {
    ASTContext context;
    std::uint32_t main_file = 0;
    std::vector<TopLevelItem> items; ///< in source order
    std::vector<const StructDecl*> structs;
    std::vector<KernelDecl*> kernels;
    std::vector<TypedefDecl> typedefs;
    std::vector<KernelDecl*> prototypes;    ///< in the file and in the headers it includes
    std::vector<BrookHeader> brook_headers; ///< each `.brh`/`.brhi` the file includes
    /// Host variables at file scope, in the file and in the headers it includes.
    std::vector<HostVariable> host_variables;
    /// The heads of the file's host function definitions (`float norm(const float4* v)`) that a
    /// C++ file can declare from brcc's `-h` header: external, spelled with C and Brook types
    /// alone; not main.
    std::vector<SourceRange> host_function_heads;
    /// Host code asks a stream for its errors (`s.error()`, `s.errorLog()`): the file's streams
    /// then record the errors of the calls they take part in (BROOKPLUS.md §2.4).
    bool queries_stream_errors = false;

    const KernelDecl* find_kernel(std::string_view name) const;
    /// The struct named `name` by its typedef name or its tag.
    const StructDecl* find_struct(std::string_view name) const;
    /// The type a file-scope `typedef` names `name`, resolved through chains.
    const Type* find_typedef(std::string_view name) const;
};

} // namespace brcc
