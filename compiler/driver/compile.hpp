#pragma once
// Building the program: the generated C++ goes to the C++ compiler with Brook's headers and
// library (from the install layout next to brcc, or else from the build tree).

#include "driver/options.hpp"

#include <string>

namespace brcc {

/// Compiles `cpp_source` into the executable `program`; returns the exit code (0, or
/// exit_input_errors when the C++ compiler fails; its messages go to stderr as they are).
int compile_program(const std::string& cpp_source, const std::string& program,
                    const DriverOptions& options);

} // namespace brcc
