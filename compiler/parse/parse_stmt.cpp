// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Statements of kernel bodies: C's statements without goto, switch and labels, plus local
// declarations with initialisers (brace lists included). A statement that fails to parse is
// skipped (skip_statement) and the block goes on with the next one.

#include "parse/kernel_parser.hpp"

namespace brcc {

// A declaration starts with `const`, `void` (an error, reported as such) or a type name followed
// by a name. An unknown name followed by a name (`Foo x`) is taken as a declaration too, so that
// it is reported as an unknown type.
bool KernelParser::is_declaration_start() const {
    if (at(TokenKind::kw_const) || at(TokenKind::kw_void))
        return true;
    // A type spelled with several words or starting with a keyword (`unsigned`, `struct`).
    const std::size_t type_length = type_spelling_length(0);
    if (type_length > 1 || (type_length == 1 && !peek().is(TokenKind::identifier)))
        return true;
    return peek().is(TokenKind::identifier) && at_name(1);
}

// statement := compound_statement | declaration | 'if' ... | 'for' ... | 'while' ... | 'do' ...
//            | 'break' ';' | 'continue' ';' | 'return' [expression] ';' | push_statement
//            | 'discard' ';' | ';' | expression ';'
Stmt* KernelParser::parse_statement() {
    const Nesting nesting(*this);
    if (!nesting.ok())
        return nullptr;
    const Token& first = peek();
    switch (first.kind) {
    case TokenKind::l_brace:
        return parse_compound();
    case TokenKind::kw_if:
        return parse_if();
    case TokenKind::kw_for:
        return parse_for();
    case TokenKind::kw_while:
        return parse_while();
    case TokenKind::kw_do:
        return parse_do_while();
    case TokenKind::kw_return:
        return parse_return();
    case TokenKind::kw_break:
    case TokenKind::kw_continue: {
        advance();
        if (!expect(TokenKind::semi))
            return nullptr;
        if (first.is(TokenKind::kw_break))
            return unit_.context.make<Break>(range_from(first.loc));
        return unit_.context.make<Continue>(range_from(first.loc));
    }
    case TokenKind::semi:
        advance();
        return unit_.context.make<Empty>(range_from(first.loc));
    default:
        break;
    }
    // `push` is no keyword, since C code may well name something so: only `push (` at the
    // start of a statement is the push statement (a helper named push is still callable inside
    // an expression).
    if (first.is_identifier("push") && peek(1).is(TokenKind::l_paren))
        return parse_push();
    // Likewise Brook+'s `syncGroup ( ) ;` (BROOKPLUS.md §4.8).
    if (first.is_identifier("syncGroup") && peek(1).is(TokenKind::l_paren) &&
        peek(2).is(TokenKind::r_paren) && peek(3).is(TokenKind::semi)) {
        for (int token = 0; token < 4; ++token)
            advance();
        return unit_.context.make<SyncGroup>(range_from(first.loc));
    }
    // Likewise `discard ;` (BrookGPU's CPU builds needed a host variable of that name).
    if (first.is_identifier("discard") && peek(1).is(TokenKind::semi)) {
        advance();
        advance();
        return unit_.context.make<Discard>(range_from(first.loc));
    }
    if (is_declaration_start() || is_shared_declaration_start())
        return parse_declaration();
    Expr* expr = parse_expression();
    if (!expr || !expect(TokenKind::semi))
        return nullptr;
    auto* stmt = unit_.context.make<ExprStmt>(range_from(first.loc));
    stmt->expr = expr;
    return stmt;
}

// compound_statement := '{' {statement} '}'
Compound* KernelParser::parse_compound() {
    const SourceLocation begin = peek().loc;
    if (!expect(TokenKind::l_brace))
        return nullptr;
    std::vector<Stmt*> body;
    while (!at(TokenKind::r_brace) && !at(TokenKind::end_of_file)) {
        const std::size_t before = pos_;
        if (Stmt* stmt = parse_statement()) {
            body.push_back(stmt);
            continue;
        }
        skip_statement();
        if (pos_ == before && !at(TokenKind::r_brace) && !at(TokenKind::end_of_file))
            advance(); // a stray token that cannot start anything: never loop on it
        if (diags_.too_many_errors())
            break;
    }
    if (at(TokenKind::end_of_file))
        error_expected(TokenKind::r_brace); // panic stays on: enclosing blocks stay quiet
    else if (!accept(TokenKind::r_brace))
        return nullptr; // stopped at the error limit
    auto* compound = unit_.context.make<Compound>(range_from(begin));
    compound->body = std::move(body);
    return compound;
}

bool KernelParser::is_shared_declaration_start() const {
    return peek().is_identifier("shared") && type_spelling_length(1) > 0;
}

// declaration := ['const'] type init_declarator {',' init_declarator} ';'
//              | 'shared' type identifier '[' integer ']' ';'   (Brook+, BROOKPLUS.md §4.8)
// init_declarator := identifier ['=' initializer]
DeclStmt* KernelParser::parse_declaration() {
    const SourceLocation begin = peek().loc;
    const bool is_shared = is_shared_declaration_start();
    if (is_shared)
        advance();
    const bool is_const = accept(TokenKind::kw_const);
    std::optional<Type> type;
    if (at(TokenKind::kw_void)) {
        advance();
        type = Type::error();
        if (!quiet_ && peek().is(TokenKind::identifier))
            diags_.report(DiagId::void_variable, peek().range()) << peek().text;
    } else {
        type = parse_type();
    }
    if (!type)
        return nullptr;
    std::vector<LocalDecl*> vars;
    do {
        if (!at_name()) {
            error_at_current(DiagId::expected_identifier, "a variable name");
            return nullptr;
        }
        const Token& name = advance();
        auto* var = unit_.context.make<LocalDecl>();
        var->name = name.text;
        var->name_range = name.range();
        var->type = *type;
        var->is_const = is_const;
        if (is_shared) {
            if (!parse_shared_extent(*var))
                return nullptr;
        } else if (at(TokenKind::l_square)) {
            if (begin_error(peek()))
                diags_.report(DiagId::local_array, peek().range());
            return nullptr;
        }
        if (accept(TokenKind::equal)) {
            var->init = parse_initializer();
            if (!var->init)
                return nullptr;
        }
        var->range = range_from(name.loc);
        vars.push_back(var);
    } while (accept(TokenKind::comma));
    if (!expect(TokenKind::semi))
        return nullptr;
    auto* decl = unit_.context.make<DeclStmt>(range_from(begin));
    decl->vars = std::move(vars);
    return decl;
}

// `[N]` of a group-shared array: N an integer literal above 0.
bool KernelParser::parse_shared_extent(LocalDecl& var) {
    const Token& open = peek();
    if (!at(TokenKind::l_square)) {
        if (begin_error(open))
            diags_.report(DiagId::shared_not_array, var.name_range) << var.name;
        return false;
    }
    advance();
    const Token& token = peek();
    const Expr* size = parse_conditional();
    if (size == nullptr)
        return false;
    if (size->kind != NodeKind::IntLiteral || static_cast<const IntLiteral*>(size)->value == 0) {
        if (begin_error(token))
            diags_.report(DiagId::shared_size_not_literal, size->range) << var.name;
        return false;
    }
    var.shared_extent = static_cast<const IntLiteral*>(size)->value;
    if (!expect(TokenKind::r_square))
        return false;
    if (at(TokenKind::l_square)) {
        if (begin_error(peek()))
            diags_.report(DiagId::shared_not_array, var.name_range) << var.name;
        return false;
    }
    return true;
}

// initializer := assignment_expression | '{' [initializer {',' initializer} [',']] '}'
Expr* KernelParser::parse_initializer() {
    if (!at(TokenKind::l_brace))
        return parse_assignment();
    const Nesting nesting(*this);
    if (!nesting.ok())
        return nullptr;
    const SourceLocation begin = advance().loc;
    std::vector<Expr*> elements;
    while (!at(TokenKind::r_brace)) {
        Expr* element = parse_initializer();
        if (!element)
            return nullptr;
        elements.push_back(element);
        if (!accept(TokenKind::comma))
            break;
    }
    if (!expect(TokenKind::r_brace))
        return nullptr;
    auto* list = unit_.context.make<InitList>(range_from(begin));
    list->elements = std::move(elements);
    return list;
}

// if_statement := 'if' '(' expression ')' statement ['else' statement]
Stmt* KernelParser::parse_if() {
    const SourceLocation begin = advance().loc;
    if (!expect(TokenKind::l_paren))
        return nullptr;
    Expr* condition = parse_expression();
    if (!condition || !expect(TokenKind::r_paren))
        return nullptr;
    Stmt* then_branch = parse_statement();
    if (!then_branch)
        return nullptr;
    Stmt* else_branch = nullptr;
    if (accept(TokenKind::kw_else)) {
        else_branch = parse_statement();
        if (!else_branch)
            return nullptr;
    }
    auto* stmt = unit_.context.make<If>(range_from(begin));
    stmt->condition = condition;
    stmt->then_branch = then_branch;
    stmt->else_branch = else_branch;
    return stmt;
}

// for_statement := 'for' '(' (declaration | [expression] ';') [expression] ';' [expression] ')'
//                  statement
Stmt* KernelParser::parse_for() {
    const SourceLocation begin = advance().loc;
    if (!expect(TokenKind::l_paren))
        return nullptr;
    Stmt* init = nullptr;
    if (is_declaration_start()) {
        init = parse_declaration();
        if (!init)
            return nullptr;
    } else if (!accept(TokenKind::semi)) {
        const SourceLocation init_begin = peek().loc;
        Expr* expr = parse_expression();
        if (!expr || !expect(TokenKind::semi))
            return nullptr;
        auto* stmt = unit_.context.make<ExprStmt>(range_from(init_begin));
        stmt->expr = expr;
        init = stmt;
    }
    Expr* condition = nullptr;
    if (!at(TokenKind::semi)) {
        condition = parse_expression();
        if (!condition)
            return nullptr;
    }
    if (!expect(TokenKind::semi))
        return nullptr;
    Expr* step = nullptr;
    if (!at(TokenKind::r_paren)) {
        step = parse_expression();
        if (!step)
            return nullptr;
    }
    if (!expect(TokenKind::r_paren))
        return nullptr;
    Stmt* body = parse_statement();
    if (!body)
        return nullptr;
    auto* stmt = unit_.context.make<For>(range_from(begin));
    stmt->init = init;
    stmt->condition = condition;
    stmt->step = step;
    stmt->body = body;
    return stmt;
}

// while_statement := 'while' '(' expression ')' statement
Stmt* KernelParser::parse_while() {
    const SourceLocation begin = advance().loc;
    if (!expect(TokenKind::l_paren))
        return nullptr;
    Expr* condition = parse_expression();
    if (!condition || !expect(TokenKind::r_paren))
        return nullptr;
    Stmt* body = parse_statement();
    if (!body)
        return nullptr;
    auto* stmt = unit_.context.make<While>(range_from(begin));
    stmt->condition = condition;
    stmt->body = body;
    return stmt;
}

// do_statement := 'do' statement 'while' '(' expression ')' ';'
Stmt* KernelParser::parse_do_while() {
    const SourceLocation begin = advance().loc;
    Stmt* body = parse_statement();
    if (!body || !expect(TokenKind::kw_while) || !expect(TokenKind::l_paren))
        return nullptr;
    Expr* condition = parse_expression();
    if (!condition || !expect(TokenKind::r_paren) || !expect(TokenKind::semi))
        return nullptr;
    auto* stmt = unit_.context.make<DoWhile>(range_from(begin));
    stmt->body = body;
    stmt->condition = condition;
    return stmt;
}

// return_statement := 'return' [expression] ';'
Stmt* KernelParser::parse_return() {
    const SourceLocation begin = advance().loc;
    Expr* value = nullptr;
    if (!at(TokenKind::semi)) {
        value = parse_expression();
        if (!value)
            return nullptr;
    }
    if (!expect(TokenKind::semi))
        return nullptr;
    auto* stmt = unit_.context.make<Return>(range_from(begin));
    stmt->value = value;
    return stmt;
}

// push_statement := 'push' '(' name ')' ';'
Stmt* KernelParser::parse_push() {
    const SourceLocation begin = advance().loc;
    advance(); // (
    if (!at_name()) {
        error_at_current(DiagId::expected_identifier, "a vout stream name");
        return nullptr;
    }
    const Token& name = advance();
    if (!expect(TokenKind::r_paren) || !expect(TokenKind::semi))
        return nullptr;
    auto* stream = unit_.context.make<NameRef>(name.range());
    stream->name = name.text;
    auto* stmt = unit_.context.make<Push>(range_from(begin));
    stmt->stream = stream;
    return stmt;
}

} // namespace brcc
