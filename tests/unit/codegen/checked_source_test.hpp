// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// A test fixture for the code generators on Brook source through the real front end: the
// source is parsed and checked, and its kernels are at hand by name.

#include "parse/parser.hpp"
#include "sema/sema.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <string_view>

namespace brcc {

class CheckedSourceTest : public ::testing::Test {
protected:
    /// Parses and checks `source`, which must be free of errors.
    void analyze_source(std::string source) {
        const std::uint32_t file = sources_.add_buffer("test.br", std::move(source));
        unit_ = parse_translation_unit(sources_, file, {}, diags_);
        ASSERT_TRUE(unit_ != nullptr && !diags_.has_errors()) << out_.str();
        ASSERT_TRUE(analyze(*unit_, diags_)) << out_.str();
    }

    const KernelDecl& kernel(std::string_view name) const {
        const KernelDecl* found = unit_->find_kernel(name);
        EXPECT_NE(found, nullptr) << name;
        return *found;
    }

    SourceManager sources_;
    std::ostringstream out_;
    DiagnosticEngine diags_{sources_, out_, false};
    std::unique_ptr<TranslationUnit> unit_;
};

inline bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

} // namespace brcc
