// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// brcc's command line (DESIGN.md §1): what the user asked for, parsed and checked.

#include "support/front_end_limits.hpp"

#include <optional>
#include <string>
#include <vector>

namespace brcc {

struct DriverOptions {
    std::vector<std::string> inputs;       ///< .br/.bri, .brh/.brhi, and C++ sources or objects
    std::string output;                    ///< -o; empty: the default for the mode
    bool emit_cpp = false;                 ///< --emit-cpp: write the C++ only
    std::string emit_kernels;              ///< --emit-kernels=BACKEND: its kernel sources
    bool dump_ast = false;                 ///< --dump-ast: print the checked AST only
    std::string dump_after;                ///< --dump-after=PASS: print the AST after it, stop
    std::vector<std::string> include_dirs; ///< -I DIR
    std::vector<std::string> defines;      ///< -D NAME[=VALUE]
    std::string optimization = "2";        ///< -O LEVEL
    bool portable = false;                 ///< --portable: no -march=native
    /// --target=A,B: the CPU instruction sets (cpu_targets.hpp), lowest first; empty: native.
    std::vector<std::string> targets;
    std::vector<std::string> backends; ///< --backends=LIST
    /// After `--` (but the C/C++ sources there, which are inputs): for every compile and the link.
    std::vector<std::string> compiler_args;

    // Options shaped like nvcc's and gcc's (docs/brcc.md).
    bool compile_only = false;  ///< -c: an object per input, no program
    std::string kernels_header; ///< -h FILE: a header declaring every Brook source's kernels
    /// -f..., -m..., -l..., -L..., -Wl,... and each piece of -Xcompiler A,B: for the C++
    /// compiler, in command-line order.
    std::vector<std::string> host_args;
    /// Every -W... and -w (but -Wl,/-Wa,/-Wp,), in command-line order: they set brcc's own
    /// kernel warnings and go to the C++ compiler as well.
    std::vector<std::string> warning_flags;
    bool dependencies_only = false;              ///< -M: print the dependencies, build nothing
    bool dependencies_too = false;               ///< -MD: write a depfile beside the build
    std::string dependency_file;                 ///< -MF FILE
    std::vector<std::string> dependency_targets; ///< -MT TARGET and -MQ's quoted TARGET
    bool user_headers_only = false;              ///< -MM/-MMD: leave out system headers
    bool phony_dependencies = false;             ///< -MP: a phony target per header
    bool verbose = false;                        ///< -v: print each command before running it
    bool dry_run = false;                        ///< --dryrun: print the commands, run none
    bool keep = false;                           ///< -keep: keep the intermediate files
    std::string keep_dir;                        ///< -keep-dir DIR: where (default: .)
    std::string standard = "c++20";              ///< -std=: the C++ dialect, C++20 or later
    bool debug = false;                          ///< -g: debug information
    std::string color = "auto";                  ///< --color=auto|always|never
    /// -fbracket-depth=, -fexpression-depth=, -fmax-include-depth= (taken out of host_args)
    FrontEndLimits limits;

    // Set by programs that embed brcc's pipeline (the Python module), never by the command line.
    /// Export the kernels' table from the generated C++ (CodegenOptions::kernel_table).
    bool kernel_table = false;
    /// The brcc whose Brook headers and library a build uses (find_brook); empty: the running
    /// executable, which is brcc itself.
    std::string brook_of;
};

/// Exit codes (DESIGN.md §1).
enum ExitCode : int {
    exit_success = 0,
    exit_input_errors = 1,
    exit_usage = 2,
    exit_internal_error = 70,
};

/// The backends brcc can embed kernel code for.
const std::vector<std::string>& known_backends();

/// The C++ compiler flags that tune the generated code: those of the --target (-march=native
/// and 512-bit vectors without one) unless `--portable`, and always what its SIMD loops need.
std::vector<std::string> tuning_flags(const DriverOptions& options);

/// Parses argv into `options`. Returns an exit code when brcc should stop now: 0 after --help
/// or --version, exit_usage after a usage error (already reported on stderr).
std::optional<int> parse_command_line(int argc, const char* const* argv, DriverOptions& options);

} // namespace brcc
