// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Prints the AST as an indented tree (`brcc --dump-ast`, and the golden tests of the front end).
// After sema it also shows each expression's type and resolved names.

#include "ast/ast.hpp"

#include <iosfwd>

namespace brcc {

void dump_ast(const TranslationUnit& unit, const SourceManager& sources, std::ostream& out);

} // namespace brcc
