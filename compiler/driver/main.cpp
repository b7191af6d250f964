// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// brcc's entry point: parses the command line, runs the pipeline and turns a bug in brcc itself
// (an InternalCompilerError or any other exception) into exit code 70, distinct from errors in
// the user's program (1) and usage errors (2).

#include "driver/options.hpp"
#include "driver/pipeline.hpp"
#include "support/diagnostics.hpp"

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
    try {
        brcc::DriverOptions options;
        if (const std::optional<int> exit_code = brcc::parse_command_line(argc, argv, options))
            return *exit_code;
        return brcc::run_pipeline(options);
    } catch (const brcc::InternalCompilerError& error) {
        std::cerr << "brcc: internal compiler error: " << error.what() << "\n";
    } catch (const std::exception& error) {
        std::cerr << "brcc: internal compiler error: " << error.what() << "\n";
    }
    return brcc::exit_internal_error;
}
