// The runtime's one way to report misuse: a message on stderr, then exit(1). Output the program
// has already written to stdout is flushed by exit, so a failing run still shows its earlier
// results before the error.
#include "core/errors.hpp"

#include <cstdio>
#include <cstdlib>

namespace brook::detail {

void fatal(const std::string& message) {
    std::fflush(stdout);
    std::fprintf(stderr, "brook: error: %s\n", message.c_str());
    std::exit(1);
}

} // namespace brook::detail
