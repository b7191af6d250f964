// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Runs the front end on a string and keeps what the tests look at: the translation unit, its
// AST dump and the diagnostics text.

#include "ast/ast_dump.hpp"
#include "lex/lexer.hpp"
#include "parse/parser.hpp"

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>

namespace brcc::test {

class Frontend {
public:
    explicit Frontend(std::string source, PreprocessorOptions options = {})
        : diags_(sources_, diagnostics_, false, 1000) {
        file_ = sources_.add_buffer("test.br", std::move(source));
        unit_ = parse_translation_unit(sources_, file_, options, diags_);
    }

    const TranslationUnit& unit() const { return *unit_; }
    TranslationUnit& unit() { return *unit_; }
    const SourceManager& sources() const { return sources_; }
    std::string diagnostics() const { return diagnostics_.str(); }
    unsigned errors() const { return diags_.error_count(); }
    std::string dump() const {
        std::ostringstream out;
        dump_ast(*unit_, sources_, out);
        return out.str();
    }
    std::string text(SourceRange range) const { return std::string(sources_.text(range)); }
    /// Concatenates every item's source text: host text verbatim, Brook items by their range.
    std::string host_text() const {
        std::string result;
        for (const TopLevelItem& item : unit_->items)
            if (const auto* host = std::get_if<HostText>(&item))
                result += text(host->range);
        return result;
    }
    /// The body of the named kernel, dumped alone.
    std::string kernel_dump(std::string_view name) const {
        const std::string all = dump();
        const std::size_t begin = all.find(" " + std::string(name) + " : ");
        if (begin == std::string::npos)
            return {};
        const std::size_t line = all.rfind('\n', begin) + 1;
        std::size_t end = all.find("\n  Kernel ", begin);
        const std::size_t reduce = all.find("\n  Reduce ", begin);
        const std::size_t next_item = all.find("\n  Host", begin);
        end = std::min({end, reduce, next_item});
        return all.substr(line, end == std::string::npos ? std::string::npos : end + 1 - line);
    }

private:
    SourceManager sources_;
    std::ostringstream diagnostics_;
    DiagnosticEngine diags_;
    std::uint32_t file_ = 0;
    std::unique_ptr<TranslationUnit> unit_;
};

/// Lexes a string; the diagnostics go to `diagnostics`.
inline std::vector<Token> lex_string(const std::string& source, std::string& diagnostics) {
    SourceManager sources;
    std::ostringstream out;
    DiagnosticEngine diags(sources, out, false, 1000);
    const std::uint32_t file = sources.add_buffer("test.br", source);
    std::vector<Token> tokens = lex_file(sources, file, diags);
    diagnostics = out.str();
    return tokens;
}

} // namespace brcc::test
