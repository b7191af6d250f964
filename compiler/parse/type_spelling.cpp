// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "parse/type_spelling.hpp"

namespace brcc {

namespace {

/// `signed` is no keyword of brcc's lexer: C++ programs may not use it as a name either.
bool is_signed_keyword(const Token& token) {
    return token.is_identifier("signed");
}

/// `unsigned X` / `signed X`: C's spellings of Brook's integer types. `short` and `long` make a
/// host type, which no Brook type matches.
TypeSpelling match_signedness(std::span<const Token> tokens) {
    const bool is_unsigned = tokens[0].is(TokenKind::kw_unsigned);
    const Token& next = tokens.size() > 1 ? tokens[1] : tokens[0];
    if (next.is_identifier("char"))
        return {2, Type::scalar(is_unsigned ? ScalarType::UChar : ScalarType::Char)};
    if (next.is_identifier("int"))
        return {2, Type::scalar(is_unsigned ? ScalarType::UInt : ScalarType::Int)};
    if (next.is_identifier("short") || next.is_identifier("long"))
        return {2, std::nullopt};
    return {1, Type::scalar(is_unsigned ? ScalarType::UInt : ScalarType::Int)};
}

/// A single name: a built-in type, a struct (by typedef name or tag) or a typedef.
std::optional<Type> named_type(const Token& name, const TranslationUnit& unit) {
    if (std::optional<Type> builtin = Type::builtin_named(name.text))
        return builtin;
    if (const StructDecl* decl = unit.find_struct(name.text))
        return Type::structure(decl);
    if (const Type* aliased = unit.find_typedef(name.text))
        return *aliased;
    return std::nullopt;
}

} // namespace

TypeSpelling match_type_spelling(std::span<const Token> tokens, const TranslationUnit& unit) {
    if (tokens.empty())
        return {};
    const Token& first = tokens[0];
    if (first.is(TokenKind::kw_unsigned) || is_signed_keyword(first))
        return match_signedness(tokens);
    if (first.is(TokenKind::kw_struct)) {
        if (tokens.size() < 2 || !tokens[1].is(TokenKind::identifier))
            return {};
        const StructDecl* decl = unit.find_struct(tokens[1].text);
        return {2, decl ? std::optional<Type>(Type::structure(decl)) : std::nullopt, &tokens[1]};
    }
    if (!first.is(TokenKind::identifier))
        return {};
    return {1, named_type(first, unit), &first};
}

} // namespace brcc
