// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The fixture of the sema tests that run on Brook source text through the real front end:
// whole programs that must check cleanly, and mistakes whose diagnostics must land on the line
// marked `// error: text`, with no other diagnostic (the format of tests/diagnostics).

#include "ast/ast_dump.hpp"
#include "parse/parser.hpp"
#include "sema/sema.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace brcc::test {

class SemaSourceTest : public ::testing::Test {
protected:
    /// Parses and analyzes `source`; true when neither reported an error.
    bool analyze_source(std::string source) {
        const std::uint32_t file = sources_.add_buffer("test.br", std::move(source));
        unit_ = parse_translation_unit(sources_, file, {}, diags_);
        EXPECT_EQ(diags_.error_count(), 0u) << "the parser reported errors:\n" << out_.str();
        if (!unit_ || diags_.has_errors())
            return false;
        return analyze(*unit_, diags_);
    }

    void expect_clean(std::string source) {
        EXPECT_TRUE(analyze_source(std::move(source))) << out_.str();
    }

    /// Every line marked `// error: text` must get one error containing text at that line, and
    /// there must be no other error.
    void expect_marked_errors(const std::string& source) {
        std::vector<std::pair<unsigned, std::string>> expected;
        std::istringstream lines(source);
        std::string line;
        for (unsigned number = 1; std::getline(lines, line); ++number) {
            const auto mark = line.find("// error: ");
            if (mark != std::string::npos)
                expected.emplace_back(number, line.substr(mark + 10));
        }
        EXPECT_FALSE(analyze_source(source));
        std::vector<std::pair<unsigned, std::string>> reported;
        std::istringstream output(out_.str());
        while (std::getline(output, line)) {
            const std::string prefix = "test.br:";
            const auto error = line.find(": error: ");
            if (line.rfind(prefix, 0) != 0 || error == std::string::npos)
                continue;
            reported.emplace_back(std::stoul(line.substr(prefix.size())), line.substr(error + 9));
        }
        ASSERT_EQ(reported.size(), expected.size()) << out_.str();
        for (std::size_t i = 0; i < expected.size(); ++i) {
            EXPECT_EQ(reported[i].first, expected[i].first) << out_.str();
            EXPECT_NE(reported[i].second.find(expected[i].second), std::string::npos)
                << "expected '" << expected[i].second << "' in '" << reported[i].second << "'";
        }
    }

    const KernelDecl* kernel(std::string_view name) const { return unit_->find_kernel(name); }
    /// The AST dump after sema.
    std::string dump() const {
        std::ostringstream out;
        dump_ast(*unit_, sources_, out);
        return out.str();
    }

    SourceManager sources_;
    std::ostringstream out_;
    DiagnosticEngine diags_{sources_, out_, false};
    std::unique_ptr<TranslationUnit> unit_;
};

} // namespace brcc::test
