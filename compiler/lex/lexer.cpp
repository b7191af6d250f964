// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "lex/lexer.hpp"

// The lexer walks the file's bytes once. At the first token of a line a `#` starts a directive:
// everything up to the end of the line (following backslash-newlines, and skipping comments and
// quoted text, which may hide a newline or a quote) becomes one `directive` token, which the
// preprocessor re-lexes with lex_directive when it needs the pieces. Numbers are scanned like
// C's pp-numbers so that a bad suffix is one error, not a number followed by an identifier; a
// run of stray bytes is one error, and a NUL byte means the input is not text at all, which is
// reported once instead of lexing the garbage.

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace brcc {

namespace {

struct Punctuator {
    TokenKind kind;
    std::string_view spelling;
};

constexpr Punctuator punctuators[] = {
#define BRCC_PUNCT(name, spelling) {TokenKind::name, spelling},
    BRCC_PUNCTUATORS(BRCC_PUNCT)
#undef BRCC_PUNCT
};

struct Keyword {
    TokenKind kind;
    std::string_view spelling;
};

constexpr Keyword keywords[] = {
#define BRCC_KW(name) {TokenKind::kw_##name, #name},
    BRCC_KEYWORDS(BRCC_KW)
#undef BRCC_KW
};

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_hex_digit(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_ident_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
           static_cast<unsigned char>(c) >= 0x80; // UTF-8 identifiers, as GCC accepts them
}
bool is_ident_char(char c) {
    return is_ident_start(c) || is_digit(c);
}
bool is_horizontal_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

class Lexer {
public:
    /// Lexes text[begin, end) of `file`. Without `diags` it only records that something failed
    /// (lex_single_token). In a directive, backslash-newlines are blanks and `#` is a punctuator.
    Lexer(std::string_view text, std::uint32_t file, std::uint32_t begin, std::uint32_t end,
          DiagnosticEngine* diags, bool in_directive)
        : text_(text), file_(file), pos_(begin), end_(end), diags_(diags),
          in_directive_(in_directive) {}

    Token next();
    bool failed() const { return failed_; }

private:
    char peek(std::uint32_t ahead = 0) const {
        return pos_ + ahead < end_ ? text_[pos_ + ahead] : '\0';
    }
    SourceLocation location(std::uint32_t offset) const { return {file_, offset}; }
    void error(DiagId id, std::uint32_t begin, std::uint32_t end, std::string_view arg = {},
               std::string_view arg2 = {});
    /// Skips blanks and comments, noting them in `token.space_before`.
    void skip_blanks(Token& token);
    std::uint32_t newline_splice_length(std::uint32_t at) const;
    void lex_directive_line(Token& token);
    void lex_number(Token& token);
    void lex_quoted(Token& token, char quote);
    void lex_raw_string(Token& token);
    void lex_identifier(Token& token);
    void lex_punctuator_or_stray(Token& token);

    std::string_view text_;
    std::uint32_t file_;
    std::uint32_t pos_;
    std::uint32_t end_;
    DiagnosticEngine* diags_;
    bool in_directive_;
    bool at_line_start_ = true;
    bool failed_ = false;
};

void Lexer::error(DiagId id, std::uint32_t begin, std::uint32_t end, std::string_view arg,
                  std::string_view arg2) {
    failed_ = true;
    if (!diags_)
        return;
    diags_->report(id, SourceRange{location(begin), location(end)}) << arg << arg2;
}

// A backslash followed by a newline (optionally `\r\n`): its length, or 0.
std::uint32_t Lexer::newline_splice_length(std::uint32_t at) const {
    if (at >= end_ || text_[at] != '\\')
        return 0;
    std::uint32_t i = at + 1;
    while (i < end_ && (text_[i] == ' ' || text_[i] == '\t' || text_[i] == '\r'))
        ++i; // GCC accepts blanks between the backslash and the newline, with a warning
    return i < end_ && text_[i] == '\n' ? i + 1 - at : 0;
}

void Lexer::skip_blanks(Token& token) {
    while (pos_ < end_) {
        const char c = text_[pos_];
        if (is_horizontal_space(c)) {
            ++pos_;
        } else if (c == '\n') {
            ++pos_;
            at_line_start_ = true;
        } else if (const std::uint32_t splice = newline_splice_length(pos_)) {
            pos_ += splice;
        } else if (c == '/' && peek(1) == '/') {
            while (pos_ < end_ && text_[pos_] != '\n')
                ++pos_;
        } else if (c == '/' && peek(1) == '*') {
            const std::uint32_t start = pos_;
            pos_ += 2;
            while (pos_ < end_ && !(text_[pos_] == '*' && peek(1) == '/'))
                ++pos_;
            if (pos_ >= end_) {
                error(DiagId::unterminated_comment, start, start + 2);
                pos_ = end_;
            } else {
                pos_ += 2;
            }
        } else {
            return;
        }
        token.space_before = true;
    }
}

Token Lexer::next() {
    Token token;
    skip_blanks(token);
    token.at_line_start = at_line_start_;
    token.loc = location(pos_);
    const std::uint32_t start = pos_;
    if (pos_ >= end_) {
        token.kind = TokenKind::end_of_file;
        return token;
    }
    const char c = text_[pos_];
    if (c == '#' && at_line_start_ && !in_directive_) {
        lex_directive_line(token);
    } else if (is_digit(c) || (c == '.' && is_digit(peek(1)))) {
        lex_number(token);
    } else if (c == '"' || c == '\'') {
        lex_quoted(token, c);
    } else if (is_ident_start(c)) {
        lex_identifier(token);
    } else {
        lex_punctuator_or_stray(token);
    }
    at_line_start_ = false;
    token.length = pos_ - start;
    token.text = std::string(text_.substr(start, pos_ - start));
    return token;
}

// directive: '#' ... end of line, continued by backslash-newlines. Comments and quoted text are
// skipped as units so that `/* ... */` spanning lines continues the directive as in C.
void Lexer::lex_directive_line(Token& token) {
    token.kind = TokenKind::directive;
    while (pos_ < end_ && text_[pos_] != '\n') {
        const char c = text_[pos_];
        if (const std::uint32_t splice = newline_splice_length(pos_)) {
            pos_ += splice;
        } else if (c == '/' && peek(1) == '/') {
            while (pos_ < end_ && text_[pos_] != '\n')
                ++pos_;
        } else if (c == '/' && peek(1) == '*') {
            const std::uint32_t start = pos_;
            pos_ += 2;
            while (pos_ < end_ && !(text_[pos_] == '*' && peek(1) == '/'))
                ++pos_;
            if (pos_ >= end_)
                error(DiagId::unterminated_comment, start, start + 2);
            else
                pos_ += 2;
        } else if (c == '"' || c == '\'') {
            // Quoted text, without diagnostics: `#error don't` is legal.
            ++pos_;
            while (pos_ < end_ && text_[pos_] != c && text_[pos_] != '\n') {
                if (text_[pos_] == '\\' && pos_ + 1 < end_)
                    ++pos_;
                ++pos_;
            }
            if (pos_ < end_ && text_[pos_] == c)
                ++pos_;
        } else {
            ++pos_;
        }
    }
    // A trailing `\r` of a CRLF file is not part of the directive.
    while (pos_ > token.loc.offset + 1 && text_[pos_ - 1] == '\r')
        --pos_;
}

// pp-number: digits, letters, `_` and `.`, and a sign after an exponent letter. Classified as an
// int or float literal with a valid suffix; anything left over is an invalid suffix.
void Lexer::lex_number(Token& token) {
    const std::uint32_t start = pos_;
    bool is_float = false;
    bool bad = false;
    if (text_[pos_] == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
        pos_ += 2;
        const std::uint32_t digits = pos_;
        while (is_hex_digit(peek()))
            ++pos_;
        if (pos_ == digits) {
            error(DiagId::hex_literal_has_no_digits, start, pos_);
            bad = true;
        }
    } else {
        while (is_digit(peek()))
            ++pos_;
        if (peek() == '.') {
            is_float = true;
            ++pos_;
            while (is_digit(peek()))
                ++pos_;
        }
        if ((peek() == 'e' || peek() == 'E') &&
            (is_digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-')))) {
            is_float = true;
            pos_ += 1;
            if (peek() == '+' || peek() == '-')
                ++pos_;
            const std::uint32_t digits = pos_;
            while (is_digit(peek()))
                ++pos_;
            if (pos_ == digits) {
                error(DiagId::exponent_has_no_digits, start, pos_);
                bad = true;
            }
        }
        if (const std::size_t octal =
                is_float || bad ? 0 : misread_octal_prefix(text_.substr(start, pos_ - start));
            octal != 0 && diags_) {
            // The digits alone (the suffix comes next), so their decimal is the value.
            const std::string_view digits = text_.substr(start, pos_ - start);
            diags_->report(DiagId::misread_octal_literal,
                           SourceRange{location(start), location(pos_)})
                << digits << digits.substr(0, octal) << misread_octal_in_decimal(digits);
        }
    }
    const std::uint32_t suffix = pos_;
    if (is_float) {
        if (peek() == 'f' || peek() == 'F' || peek() == 'l' || peek() == 'L')
            ++pos_;
    } else {
        int u = 0;
        int l = 0;
        while ((peek() == 'u' || peek() == 'U') || (peek() == 'l' || peek() == 'L')) {
            if (peek() == 'u' || peek() == 'U') {
                if (++u > 1)
                    break;
            } else if (++l > 2) {
                break;
            }
            ++pos_;
        }
    }
    if (is_ident_char(peek()) || peek() == '.') {
        while (is_ident_char(peek()) || peek() == '.' ||
               ((peek() == '+' || peek() == '-') &&
                (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E')))
            ++pos_;
        if (!bad)
            error(DiagId::invalid_number_suffix, suffix, pos_, text_.substr(suffix, pos_ - suffix),
                  is_float ? "floating" : "integer");
    }
    token.kind = is_float ? TokenKind::float_literal : TokenKind::int_literal;
}

void Lexer::lex_quoted(Token& token, char quote) {
    const std::uint32_t start = pos_;
    ++pos_;
    while (pos_ < end_ && text_[pos_] != quote && text_[pos_] != '\n') {
        if (text_[pos_] == '\\' && pos_ + 1 < end_) {
            if (const std::uint32_t splice = newline_splice_length(pos_)) {
                pos_ += splice;
                continue;
            }
            ++pos_;
        }
        ++pos_;
    }
    token.kind = quote == '"' ? TokenKind::string_literal : TokenKind::char_literal;
    if (pos_ >= end_ || text_[pos_] != quote) {
        // Like C: the literal ends at the end of the line; one error, lexing goes on.
        while (pos_ > start + 1 && text_[pos_ - 1] == '\r')
            --pos_;
        error(quote == '"' ? DiagId::unterminated_string : DiagId::unterminated_char, start,
              start + 1);
        return;
    }
    ++pos_;
    if (quote == '\'' && pos_ - start == 2)
        error(DiagId::empty_char_literal, start, pos_);
}

// R"delim( ... )delim" (C++ host code): the body may hold quotes and newlines.
void Lexer::lex_raw_string(Token& token) {
    const std::uint32_t start = pos_;
    ++pos_; // the opening quote
    const std::uint32_t delimiter = pos_;
    while (pos_ < end_ && text_[pos_] != '(' && pos_ - delimiter <= 16 && text_[pos_] != '\n')
        ++pos_;
    token.kind = TokenKind::string_literal;
    if (pos_ >= end_ || text_[pos_] != '(') {
        error(DiagId::unterminated_string, start, start + 1);
        return;
    }
    const std::string closing = ")" + std::string(text_.substr(delimiter, pos_ - delimiter)) + "\"";
    const std::size_t close = text_.substr(0, end_).find(closing, pos_);
    if (close == std::string_view::npos) {
        error(DiagId::unterminated_string, start, start + 1);
        pos_ = end_;
        return;
    }
    pos_ = static_cast<std::uint32_t>(close + closing.size());
}

void Lexer::lex_identifier(Token& token) {
    const std::uint32_t start = pos_;
    while (pos_ < end_ && is_ident_char(text_[pos_]))
        ++pos_;
    const std::string_view word = text_.substr(start, pos_ - start);
    // Encoding prefixes of string and character literals: L"..", u8'..', R"(..)" and so on.
    if (word == "L" || word == "u" || word == "U" || word == "u8") {
        if (peek() == '"' || peek() == '\'') {
            lex_quoted(token, peek());
            return;
        }
    }
    if ((word == "R" || word == "LR" || word == "uR" || word == "UR" || word == "u8R") &&
        peek() == '"') {
        lex_raw_string(token);
        return;
    }
    token.kind = TokenKind::identifier;
    for (const Keyword& keyword : keywords) {
        if (keyword.spelling == word) {
            token.kind = keyword.kind;
            return;
        }
    }
}

void Lexer::lex_punctuator_or_stray(Token& token) {
    const std::string_view rest = text_.substr(pos_, end_ - pos_);
    const Punctuator* best = nullptr;
    for (const Punctuator& punct : punctuators)
        if (rest.starts_with(punct.spelling) &&
            (!best || punct.spelling.size() > best->spelling.size()))
            best = &punct;
    if (best) {
        token.kind = best->kind;
        pos_ += static_cast<std::uint32_t>(best->spelling.size());
        return;
    }
    // A run of bytes that start no token is one error: binary junk must not flood the output.
    const std::uint32_t start = pos_;
    token.kind = TokenKind::unknown;
    const auto stray = [&](std::uint32_t at) {
        const char b = text_[at];
        if (is_horizontal_space(b) || b == '\n' || is_ident_char(b) || b == '"' || b == '\'')
            return false;
        const std::string_view tail = text_.substr(at, end_ - at);
        for (const Punctuator& punct : punctuators)
            if (tail.starts_with(punct.spelling))
                return false;
        return newline_splice_length(at) == 0;
    };
    ++pos_;
    while (pos_ < end_ && stray(pos_))
        ++pos_;
    const auto byte = static_cast<unsigned char>(text_[start]);
    std::string shown;
    if (byte >= 0x20 && byte < 0x7f) {
        shown = std::string(1, static_cast<char>(byte));
    } else {
        std::array<char, 8> buffer{};
        std::snprintf(buffer.data(), buffer.size(), "\\x%02x", byte);
        shown = buffer.data();
    }
    error(DiagId::stray_character, start, start + 1, shown);
}

} // namespace

std::string_view token_kind_name(TokenKind kind) {
    switch (kind) {
    case TokenKind::end_of_file:
        return "end of file";
    case TokenKind::identifier:
        return "identifier";
    case TokenKind::int_literal:
        return "integer constant";
    case TokenKind::float_literal:
        return "floating constant";
    case TokenKind::char_literal:
        return "character constant";
    case TokenKind::string_literal:
        return "string literal";
    case TokenKind::directive:
        return "preprocessor directive";
    case TokenKind::unknown:
        return "stray character";
#define BRCC_KW(name)                                                                              \
    case TokenKind::kw_##name:                                                                     \
        return #name;
        BRCC_KEYWORDS(BRCC_KW)
#undef BRCC_KW
#define BRCC_PUNCT(name, spelling)                                                                 \
    case TokenKind::name:                                                                          \
        return spelling;
        BRCC_PUNCTUATORS(BRCC_PUNCT)
#undef BRCC_PUNCT
    }
    return "token";
}

std::vector<Token> lex_file(const SourceManager& sources, std::uint32_t file,
                            DiagnosticEngine& diags) {
    const std::string_view text = sources.text(file);
    const auto size = static_cast<std::uint32_t>(text.size());
    std::vector<Token> tokens;
    if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
        const SourceLocation at{file, static_cast<std::uint32_t>(nul)};
        diags.report(DiagId::input_not_text, SourceRange{at, {file, at.offset + 1}});
        Token eof;
        eof.loc = {file, size};
        eof.at_line_start = true;
        tokens.push_back(eof);
        return tokens;
    }
    Lexer lexer(text, file, 0, size, &diags, false);
    do {
        tokens.push_back(lexer.next());
    } while (!tokens.back().is(TokenKind::end_of_file));
    return tokens;
}

std::vector<Token> lex_directive(const SourceManager& sources, const Token& directive,
                                 DiagnosticEngine* diags) {
    const std::string_view text = sources.text(directive.loc.file);
    // Skip the `#` itself.
    Lexer lexer(text, directive.loc.file, directive.loc.offset + 1,
                directive.loc.offset + directive.length, diags, true);
    std::vector<Token> tokens;
    do {
        tokens.push_back(lexer.next());
    } while (!tokens.back().is(TokenKind::end_of_file));
    return tokens;
}

std::optional<Token> lex_single_token(std::string_view spelling) {
    const auto size = static_cast<std::uint32_t>(spelling.size());
    Lexer lexer(spelling, 0, 0, size, nullptr, true);
    Token token = lexer.next();
    if (lexer.failed() || token.is(TokenKind::end_of_file) || token.length != size)
        return std::nullopt;
    return token;
}

std::size_t misread_octal_prefix(std::string_view literal) {
    if (literal.size() < 2 || literal[0] != '0' || literal[1] == 'x' || literal[1] == 'X')
        return 0;
    std::size_t digits = 1;
    while (digits < literal.size() && literal[digits] >= '0' && literal[digits] <= '9')
        ++digits;
    const std::size_t prefix = literal.find_first_of("89");
    return prefix < digits ? prefix : 0;
}

std::string misread_octal_in_decimal(std::string_view literal) {
    const std::size_t octal = misread_octal_prefix(literal);
    std::size_t suffix = octal;
    while (suffix < literal.size() && literal[suffix] >= '0' && literal[suffix] <= '9')
        ++suffix;
    const std::string prefix(literal.substr(0, octal));
    return std::to_string(std::strtoull(prefix.c_str(), nullptr, 8)) +
           std::string(literal.substr(suffix));
}

std::string with_decimal_literals(std::string_view text) {
    std::string out;
    Lexer lexer(text, 0, 0, static_cast<std::uint32_t>(text.size()), nullptr, true);
    std::size_t copied = 0;
    for (Token token = lexer.next(); !token.is(TokenKind::end_of_file); token = lexer.next()) {
        if (!token.is(TokenKind::int_literal) || misread_octal_prefix(token.text) == 0)
            continue;
        out += text.substr(copied, token.loc.offset - copied);
        out += misread_octal_in_decimal(token.text);
        copied = token.loc.offset + token.length;
    }
    return out + std::string(text.substr(copied));
}

} // namespace brcc
