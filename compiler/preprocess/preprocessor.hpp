// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Brook's own macro expansion for kernel code. Host code is left to the C++ compiler (its
// directives are copied through), but kernels must look the same to every backend, so brcc
// tracks `#define`/`#undef` (and -D options) in file order, evaluates `#if/#ifdef/#ifndef/#elif/
// #else/#endif`, and expands object- and function-like macros in the tokens of kernels.

#include "lex/token.hpp"
#include "support/diagnostics.hpp"
#include "support/front_end_limits.hpp"

#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace brcc {

struct PreprocessorOptions {
    std::vector<std::pair<std::string, std::string>> defines; ///< -D NAME[=VALUE]
    std::vector<std::string> include_dirs;                    ///< -I DIR
    FrontEndLimits limits; ///< the parser's and the include reader's nesting limits
};

/// `#include "name"`: the quoted name.
struct QuotedInclude {
    std::string name;
};

/// A GCC line marker, `# 12 "file.h" 1`, as `cpp` writes them: flag 1 enters an included file,
/// flag 2 returns to the file that included it.
struct LineMarker {
    std::string file;
    bool enters = false;
    bool returns = false;
};

struct Macro {
    std::string name;
    bool is_function_like = false;
    bool is_variadic = false;        ///< the last parameter is `...` (__VA_ARGS__)
    std::vector<std::string> params; ///< `__VA_ARGS__` last when variadic
    std::vector<Token> body;
    SourceLocation loc;
};

/// Identifiers and keywords: both can name macros (`#define out`), and in `#if` both are 0.
bool is_identifier_or_keyword(TokenKind kind);

/// The macro table and conditional-block stack of one file, fed in file order: the parser hands
/// it every directive it meets in host code and the token ranges of kernels to expand.
class Preprocessor {
public:
    /// Defines the options' `-D` macros (NAME or NAME(params) = VALUE; the driver passes "1"
    /// for a bare `-D NAME`).
    Preprocessor(SourceManager& sources, const PreprocessorOptions& options,
                 DiagnosticEngine& diags);

    /// Applies one `directive` token: #define, #undef and the conditionals; every other
    /// directive (#include, #pragma, ...) is the C++ compiler's business and is ignored.
    void handle_directive(const Token& directive);
    /// False inside a conditional block that is not taken.
    bool is_active() const { return conditionals_.empty() || conditionals_.back().active; }
    /// Macro-expands a kernel's (or a struct typedef's) tokens. Directives among them are
    /// applied in order and tokens in blocks not taken are dropped. Expanded tokens carry the
    /// location of the macro's use, so diagnostics point at the source line.
    std::vector<Token> expand(std::span<const Token> tokens);
    /// Reports conditional blocks still open at the end of the file.
    void finish();

    const Macro* find_macro(std::string_view name) const;

    /// The name of an `#include "name"` directive; nullopt for any other directive, and for
    /// `#include <name>`, which brcc leaves to the C++ compiler.
    std::optional<QuotedInclude> quoted_include(const Token& directive) const;
    /// The file a quoted include names: beside `includer`, then in each -I directory; empty
    /// when none exists.
    std::string find_include(std::string_view name, std::string_view includer) const;
    /// The line marker a directive is; nullopt for any other directive.
    std::optional<LineMarker> line_marker(const Token& directive) const;

private:
    struct Conditional {
        SourceLocation loc;
        std::string directive; ///< "if", "ifdef" or "ifndef", for the unterminated message
        bool parent_active;
        bool taken; ///< some branch of this block has been taken
        bool seen_else;
        bool active;
    };
    friend class MacroExpander; // macro_expander.cpp

    void define(const std::vector<Token>& tokens, const Token& directive);
    void undefine(const std::vector<Token>& tokens, const Token& directive);
    void conditional(std::string_view name, const std::vector<Token>& tokens,
                     const Token& directive);
    bool evaluate_condition(const std::vector<Token>& tokens, std::string_view directive_name,
                            const Token& directive);
    std::vector<Token> expand_tokens(std::span<const Token> tokens, bool apply_directives);

    SourceManager& sources_;
    DiagnosticEngine& diags_;
    std::vector<std::string> include_dirs_;
    std::unordered_map<std::string, Macro> macros_;
    std::vector<Conditional> conditionals_;
    bool expansion_limit_reported_ = false;
};

} // namespace brcc
