// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The recursive-descent parser for Brook constructs: kernels, reductions and struct typedefs,
// each handed over by the host scanner as its own macro-expanded token list. Private to the
// parse stage; parse_decl.cpp, parse_stmt.cpp and parse_expr.cpp define its members.
//
// Errors use panic mode: the first error in a statement is reported, later ones are not until
// the parser has skipped to the end of that statement (or block). Type names that do not exist
// are reported but are not syntax errors: the declaration gets the error type and parsing goes
// on, so that sema stays quiet about it.

#include "ast/ast.hpp"
#include "lex/token.hpp"
#include "parse/type_spelling.hpp"
#include "support/diagnostics.hpp"
#include "support/front_end_limits.hpp"

#include <string>
#include <unordered_map>
#include <vector>

namespace brcc {

/// A struct typedef with a field of a non-Brook type (`double`, a pointer, `size_t`...): fine
/// for host code, an error only if Brook code uses it.
struct HostStruct {
    std::string field_name;
    std::string field_type;
    SourceRange field_range;
    enum class Why : unsigned char {
        field_type,      ///< field_type is not a Brook type
        field_name,      ///< the field's name is not ASCII
        too_many_leaves, ///< past max_struct_leaves once nested structs are expanded
    };
    Why why = Why::field_type;
    bool reported = false; ///< one mistake, one error
};

/// What every parser of one translation unit shares.
struct ParseContext {
    TranslationUnit& unit;
    DiagnosticEngine& diags;
    FrontEndLimits limits;
    std::unordered_map<std::string, HostStruct> host_structs;
    /// Each Brook struct's fields once its nested structs are expanded, as the generated code
    /// flattens them (GLSL declares one uniform per such field).
    std::unordered_map<const StructDecl*, std::size_t> struct_leaves;
};

/// The most expanded fields a Brook struct may have: nesting multiplies them (a struct of four
/// structs of four ... fields), so a few lines of typedefs could otherwise make brcc write
/// gigabytes. Far above any driver's uniform limit (16384 components on llvmpipe).
inline constexpr std::size_t max_struct_leaves = 65536;

/// Reports (once per struct) that a host-only struct is used as a Brook type at `use`.
void report_host_struct_use(ParseContext& context, const Token& use);

class KernelParser {
public:
    /// `tokens` ends with an end_of_file token placed where the construct ends. A quiet parser
    /// reports nothing: its tokens already gave an error while being expanded.
    KernelParser(ParseContext& context, std::vector<Token> tokens, bool quiet);

    /// kernel_decl; null when not even the kernel's name could be read.
    KernelDecl* parse_kernel();
    bool parse_attribute(KernelDecl& kernel);
    /// struct_typedef; null (and the name recorded in host_structs) when a field is not of a
    /// Brook type, or when the typedef is not of the simple `typedef struct {...} Name;` form.
    const StructDecl* parse_struct_typedef();

private:
    /// Reports each field of `decl` whose name an earlier field has.
    void report_duplicate_fields(const StructDecl& decl);

    // Tokens
    const Token& peek(std::size_t ahead = 0) const;
    const Token& advance();
    bool at(TokenKind kind) const;
    /// An identifier, or a Brook keyword used as a name (`float in;`): is_contextual_keyword.
    bool at_name(std::size_t ahead = 0) const;
    bool accept(TokenKind kind);
    bool expect(TokenKind kind);
    SourceRange range_from(SourceLocation begin) const;

    // Diagnostics and recovery
    /// Starts panic mode; true when the error should be reported (the first of a statement,
    /// not at a stray byte the lexer already reported, not in a quiet parser).
    bool begin_error(const Token& at);
    void error_expected(TokenKind kind);
    /// expected_expression / expected_type / expected_identifier at the current token.
    void error_at_current(DiagId id, std::string_view what = {});
    void skip_statement();
    /// Reports each distinct name of the construct that is not ASCII (GCC accepts UTF-8 names,
    /// GLSL and NVRTC do not), once; a lone non-UTF-8 byte is such a name too.
    void check_names_are_ascii();
    bool enter_nesting();
    void leave_nesting() { --nesting_; }
    /// Counts one operator chained onto an operand; false (reported) past the expression depth.
    bool extend_chain();

    // Types and declarations (parse_decl.cpp)
    bool is_type_name(const Token& token) const;
    TypeSpelling spelling_at(std::size_t ahead) const;
    /// Tokens of the type spelled at peek(ahead) (type_spelling.hpp), or 0 when none is.
    std::size_t type_spelling_length(std::size_t ahead) const;
    std::optional<Type> resolve_type(const Token& token);
    std::optional<Type> parse_type();
    bool parse_return_type(KernelDecl& kernel);
    ParamDecl* parse_parameter(int index);
    bool parse_stream_sizes(ParamDecl& param);
    bool parse_gather_dimension(ParamDecl& param);
    bool parse_push_limit(std::size_t& limit);
    bool parse_parameter_list(KernelDecl& kernel);

    // Statements (parse_stmt.cpp)
    bool is_declaration_start() const;
    /// `shared T ...`: Brook+'s group-shared array.
    bool is_shared_declaration_start() const;
    bool parse_shared_extent(LocalDecl& var);
    Stmt* parse_statement();
    Compound* parse_compound();
    DeclStmt* parse_declaration();
    Expr* parse_initializer();
    Stmt* parse_if();
    Stmt* parse_for();
    Stmt* parse_while();
    Stmt* parse_do_while();
    Stmt* parse_return();
    Stmt* parse_push();

    // Expressions (parse_expr.cpp)
    Expr* parse_expression();
    Expr* parse_assignment();
    Expr* parse_conditional();
    Expr* parse_binary(int min_precedence);
    Expr* parse_unary();
    Expr* parse_postfix(Expr* base);
    Expr* parse_primary();
    Expr* parse_name(const Token& token);
    bool parse_arguments(std::vector<Expr*>& args);
    Expr* parse_int_literal();
    Expr* parse_float_literal();

    /// Counts one level of statement or expression nesting for as long as it lives.
    class Nesting {
    public:
        explicit Nesting(KernelParser& parser) : parser_(parser), ok_(parser.enter_nesting()) {}
        ~Nesting() { parser_.leave_nesting(); }
        Nesting(const Nesting&) = delete;
        Nesting& operator=(const Nesting&) = delete;
        bool ok() const { return ok_; }

    private:
        KernelParser& parser_;
        bool ok_;
    };

    /// The operators a loop chains onto one operand (`a + b + c`, `a, b`, `a.x[i]`): each makes
    /// the tree one level deeper, though the parser does not recurse for it, and counts until
    /// the loop's function returns.
    class Chain {
    public:
        explicit Chain(KernelParser& parser) : parser_(parser) {}
        ~Chain() { parser_.chain_depth_ -= links_; }
        Chain(const Chain&) = delete;
        Chain& operator=(const Chain&) = delete;
        /// One more operator; false once the expression is too deep (reported).
        bool extend() {
            ++links_;
            return parser_.extend_chain();
        }

    private:
        KernelParser& parser_;
        int links_ = 0;
    };

    ParseContext& context_;
    TranslationUnit& unit_;
    DiagnosticEngine& diags_;
    std::vector<Token> tokens_;
    std::size_t pos_ = 0;
    SourceLocation previous_end_; ///< end of the last consumed token
    bool quiet_;
    bool panic_ = false;
    int nesting_ = 0;
    int chain_depth_ = 0; ///< operators chained on the path to the current operand (Chain)
};

} // namespace brcc
