// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Running a child process with a time limit and capturing what it prints.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace brook_test {

/// What to run: the program (a path, not searched in PATH), its arguments, environment variables
/// set on top of the runner's own, and a wall-clock limit.
struct ProcessSpec {
    std::vector<std::string> argv;
    std::vector<std::pair<std::string, std::string>> env;
    double timeout_s = 60.0;
};

/// How the child ended and everything it wrote. `exit_code` is meaningful only when neither
/// `signal` is non-zero nor `timed_out` is set.
struct ProcessResult {
    int exit_code = 0;
    int signal = 0;
    bool timed_out = false;
    bool exec_failed = false;
    std::string out;
    std::string err;

    /// "exit status 3", "killed by signal 11 (Segmentation fault)", "timed out after 10 s".
    [[nodiscard]] std::string describe(double timeout_s) const;
};

/// Runs the child with stdin from /dev/null and stdout/stderr captured, killing its whole process
/// group when the limit passes.
[[nodiscard]] ProcessResult run_process(const ProcessSpec& spec);

/// A directory of its own under the system's temporary directory, removed with everything in it
/// when this goes out of scope. A program run gets one as its TMPDIR, so that runs going on at
/// once share nothing there: Open MPI puts every job's session directory (singletons too) under
/// one TMPDIR/ompi.HOST.UID that the last job to finish removes, and a job starting just then
/// fails to create it ("mkdir ... File exists").
class PrivateTempDirectory {
public:
    PrivateTempDirectory();
    ~PrivateTempDirectory();
    PrivateTempDirectory(const PrivateTempDirectory&) = delete;
    PrivateTempDirectory& operator=(const PrivateTempDirectory&) = delete;

    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

} // namespace brook_test
