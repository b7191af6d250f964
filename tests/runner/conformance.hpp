// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The `compile` and `conformance` subcommands.
#pragma once

#include "process.hpp"

#include <string>
#include <vector>

namespace brook_test {

/// Exit statuses of every subcommand; 77 is CTest's SKIP_RETURN_CODE for our tests.
enum class Outcome { pass = 0, fail = 1, bad_test = 2, skip = 77 };

struct ConformanceOptions {
    std::string brcc;
    std::string backend;
    std::string work_dir;
    std::string file;
    std::vector<std::string> depends;   // the program is rebuilt when one of these is newer
    std::vector<std::string> cxx_flags; // for the C++ compiler, after brcc's `--`
    std::vector<std::string> brcc_args; // for brcc, after the program's own `// brcc-args:`
    double timeout_s = 120.0;
    /// The backend computes no values (the record backend): only programs whose expected stdout
    /// is empty run; the others are skips that say so.
    bool no_values = false;
    /// Build a program of several files file by file: `brcc --emit-cpp` for each Brook source
    /// and header, then brcc's driver on the C++ alone, instead of one brcc call for them all.
    bool separately = false;
    /// The command the program runs under, if any (an MPI launcher): its words come first.
    std::vector<std::string> launcher;
};

/// Builds WORK/NAME from FILE.br (and its `// inputs:`) unless it is newer than the sources,
/// brcc and `depends`.
[[nodiscard]] Outcome compile_program(const ConformanceOptions& options);

/// Compiles when needed, runs the program on `backend` and checks its output and exit status.
[[nodiscard]] Outcome run_conformance(const ConformanceOptions& options);

/// True when the program stopped with the runtime's backend-selection error for a known backend
/// that is not built or cannot start ("brook: error: BRT_RUNTIME=gl: <cause>; backends that can
/// run here: cpu"): a named skip, not a failure.
[[nodiscard]] bool backend_unavailable(const ProcessResult& result, const std::string& backend);

} // namespace brook_test
