#pragma once
// Runtime misuse (bad shapes, wrong element types, an unknown backend) is a programming error
// that a Brook program cannot recover from, as in the original runtime: the message goes to
// stderr and the program stops with status 1.

#include <string>

namespace brook::detail {

/// Prints `brook: error: <message>` to stderr and exits with status 1.
[[noreturn]] void fatal(const std::string& message);

} // namespace brook::detail
