// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Building the program: the generated C++ goes to the C++ compiler with Brook's headers and
// library (from the install layout next to brcc, or else from the build tree).

#include "driver/options.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace brcc {

/// Where the generated C++ and headers live while the C++ compiler reads them: a fresh
/// directory under $TMPDIR (or /tmp), removed with everything in it on destruction; or, for
/// -keep, a folder that stays. For --dryrun, which writes nothing, only a name.
class WorkDirectory {
public:
    /// A temporary directory, or `kept` (created when missing) when given; with `create`
    /// false, nothing is created and a temporary one is named by its pattern, `brcc-XXXXXX`.
    explicit WorkDirectory(const std::optional<std::filesystem::path>& kept = std::nullopt,
                           bool create = true);
    ~WorkDirectory();
    WorkDirectory(const WorkDirectory&) = delete;
    WorkDirectory& operator=(const WorkDirectory&) = delete;

    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
    bool removed_at_end_ = false; ///< a temporary directory this object created
};

/// A C/C++ source, which the C++ compiler compiles (by its extension).
bool is_cpp_source(std::string_view path);
/// What only the link reads: an object or library, or -lNAME, -LDIR, -Wl,...
bool is_link_input(std::string_view arg);

/// The C++ compiler: $CXX split at white space (it may be `ccache g++`), else the one CMake
/// found when brcc was configured, run through `launcher` (BrookPaths::compiler_launcher).
std::vector<std::string> host_compiler(const std::vector<std::string>& launcher = {});

/// The C++ compiler and the first line of what its --version prints, for brcc --version.
std::string host_compiler_version();

/// Where Brook's own headers and libbrook are.
struct BrookPaths {
    std::vector<std::string> include_dirs;
    std::string library_dir;
    /// What the build tree's compiles run the C++ compiler through (its
    /// CMAKE_CXX_COMPILER_LAUNCHER, such as ccache); empty for an installed brcc.
    std::vector<std::string> compiler_launcher;
    /// The build tree's folder of brook/brook.hpp.gch, brook/brook.hpp precompiled with the
    /// flags brcc compiles programs with; empty for an installed brcc, and where the .gch is
    /// older than a Brook header.
    std::string precompiled_dir;
};

/// Brook's headers and library for the brcc at `brcc` (empty: this process's executable): the
/// installed tree around it, else the build tree that a brcc-build-tree file beside it names;
/// nullopt after saying on stderr what to do.
std::optional<BrookPaths> find_brook(const std::filesystem::path& brcc = {});

/// What the compile of every source of one build shares: the folder of the generated headers,
/// the Brook sources' folders, which the generated C++ is no longer in, and Brook's own paths.
struct CompileSetup {
    std::string include_dir;
    std::vector<std::string> source_dirs;
    BrookPaths brook;
};

/// The command that compiles `source` (generated C++ or the user's C/C++), without what to
/// make of it (-c -o OBJECT, or -M): the dialect, optimisation, tuning, warning and debug
/// flags, the user's macros and include directories, then Brook's.
std::vector<std::string> compile_command(const std::string& source, const CompileSetup& setup,
                                         const DriverOptions& options);

/// The command that links `inputs` (objects and libraries) and libbrook (from `brook`) into
/// `program`.
std::vector<std::string> link_command(const std::vector<std::string>& inputs,
                                      const std::string& program, const BrookPaths& brook,
                                      const DriverOptions& options);

/// Runs `command` and waits, printing it first under -v and only printing it under --dryrun;
/// true when it succeeded (its messages go to stderr as they are; why it did not run, too).
bool run_command(const std::vector<std::string>& command, const DriverOptions& options);

/// `command` as one line a shell would read back into the same arguments.
std::string shell_line(const std::vector<std::string>& command);

} // namespace brcc
