// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "parse/type_spelling.hpp"

namespace brcc {

namespace {

/// `signed` is no keyword of brcc's lexer: C++ programs may not use it as a name either.
bool is_signed_keyword(const Token& token) {
    return token.is_identifier("signed");
}

/// An integer word C combines with `signed` and `unsigned`, and the Brook types it then names;
/// nullopt for one that makes a host type, which no Brook type matches. Brook+ adds the vector
/// names (`unsigned int4` is uint4).
struct IntegerWord {
    std::string_view word;
    std::optional<ScalarType> signed_type;
    std::optional<ScalarType> unsigned_type;
};

constexpr IntegerWord integer_words[] = {
    {"char", ScalarType::Char, ScalarType::UChar},
    {"int", ScalarType::Int, ScalarType::UInt},
    {"short", ScalarType::Short, ScalarType::UShort},
    {"long", std::nullopt, std::nullopt},
};

/// The width `name` gives `word`: 1 for the word itself, 2 to 4 for `word2`..`word4`, 0 for
/// another name.
int integer_word_width(std::string_view name, std::string_view word) {
    if (!name.starts_with(word))
        return 0;
    const std::string_view rest = name.substr(word.size());
    if (rest.empty())
        return 1;
    if (rest.size() == 1 && rest[0] >= '2' && rest[0] <= '4')
        return rest[0] - '0';
    return 0;
}

/// Whether `tokens[at]` is the `int` C allows after `short` (`short int`, `unsigned short int`).
bool is_int_after_short(std::span<const Token> tokens, std::size_t at) {
    return at < tokens.size() && tokens[at - 1].is_identifier("short") &&
           tokens[at].is_identifier("int");
}

/// `unsigned X` / `signed X`: C's spellings of Brook's integer types, and Brook+'s of their
/// vectors (`unsigned char2`).
TypeSpelling match_signedness(std::span<const Token> tokens) {
    const bool is_unsigned = tokens[0].is(TokenKind::kw_unsigned);
    if (tokens.size() > 1 && tokens[1].is(TokenKind::identifier)) {
        for (const IntegerWord& row : integer_words) {
            const int width = integer_word_width(tokens[1].text, row.word);
            if (width == 0)
                continue;
            const std::optional<ScalarType> scalar =
                is_unsigned ? row.unsigned_type : row.signed_type;
            TypeSpelling spelling{is_int_after_short(tokens, 2) ? 3U : 2U, std::nullopt};
            if (scalar)
                spelling.type = Type::vector(*scalar, width);
            spelling.is_cpp = width == 1;
            return spelling;
        }
    }
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

bool is_too_wide_double(const Type& type) {
    return type.is_arithmetic() && type.scalar_type() == ScalarType::Double && type.width() > 2;
}

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
    if (is_int_after_short(tokens, 1))
        return {2, Type::scalar(ScalarType::Short)};
    return {1, named_type(first, unit), &first};
}

} // namespace brcc
