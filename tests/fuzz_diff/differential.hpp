// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Compiling a generated program once and comparing what each backend prints with the cpu
// backend, the reference.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace brook_fuzz {

/// Tolerance for values of class A (division and transcendental built-ins), as a relative and
/// an absolute bound at once (output_compare's numbers_match): GLSL allows 2.5 ulp for division
/// and (3 + 2|x|) ulp for exp, llvmpipe and NVIDIA's fast paths approximate sin, cos and pow to
/// about 2^-21 absolutely on the arguments the generator allows, and an A value goes through at
/// most a few such steps, each bounded by clamping to |x| <= 4096, so a few hundred ulp (1e-5
/// relative) is the worst honest difference; 1e-3 leaves a margin while still catching a wrong
/// operation. Class E values (integers, and floats kept exact by construction) must be equal.
constexpr double approximate_tolerance = 1e-3;

struct Setup {
    std::string brcc;
    std::string work_dir;
    std::vector<std::string> cxx_flags;
    double run_timeout_s = 600.0;
    /// The command that runs a program on N ranks of one MPI job, as `LAUNCHER... N PROGRAM`
    /// (runtime/backends/mpi/tests/run_on_ranks.sh and the mpiexec CMake found, which also checks
    /// that every rank printed the same); empty in a build without MPI.
    std::vector<std::string> rank_launcher;
};

/// A backend as the backend list names it: `NAME` runs the program once with BRT_RUNTIME=NAME;
/// `NAME@N` runs it on N ranks through Setup::rank_launcher (the mpi backend: `mpi:cpu@3`).
struct BackendSpec {
    std::string runtime;
    int ranks = 0; ///< 0: not an MPI job
};

/// Parses `NAME` or `NAME@N` (N from 1 to 64); throws std::invalid_argument otherwise.
[[nodiscard]] BackendSpec parse_backend(const std::string& name);

/// What one backend did with the program.
struct BackendRun {
    std::string backend;
    bool skipped = false; // the backend cannot start here (named, never a pass)
    bool ok = false;      // exit status 0
    std::string out;
    std::string problem; // how it failed, when not ok
};

/// Compiles `source` to WORK/NAME; returns brcc's complaint when it fails.
[[nodiscard]] std::optional<std::string> compile(const Setup& setup, const std::string& source,
                                                 const std::string& name);

/// Runs WORK/NAME with the backend `backend` names (parse_backend); an MPI job is skipped, named,
/// in a build without a rank launcher.
[[nodiscard]] BackendRun run_backend(const Setup& setup, const std::string& name,
                                     const std::string& backend);

/// The first difference between the reference run and another (outputs, or one failing),
/// or nothing when they agree.
[[nodiscard]] std::optional<std::string> disagreement(const BackendRun& reference,
                                                      const BackendRun& other);

} // namespace brook_fuzz
