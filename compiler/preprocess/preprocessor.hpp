#pragma once
// Brook's own macro expansion for kernel code. Host code is left to the C++ compiler (its
// directives are copied through), but kernels must look the same to every backend, so brcc
// tracks `#define`/`#undef` (and -D options) in file order, evaluates `#if/#ifdef/#ifndef/#elif/
// #else/#endif`, and expands object- and function-like macros in the tokens of kernels.

#include "lex/token.hpp"
#include "support/diagnostics.hpp"

#include <string>
#include <utility>
#include <vector>

namespace brcc {

struct PreprocessorOptions {
    std::vector<std::pair<std::string, std::string>> defines; ///< -D NAME[=VALUE]
    std::vector<std::string> include_dirs;                    ///< -I DIR
};

} // namespace brcc
