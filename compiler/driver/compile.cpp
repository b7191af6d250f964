// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The C++ compiler's commands: each source compiled on its own (generated C++ or the user's),
// then one link with libbrook, as nvcc does, so that each compile can write its own depfile.
// The compiler is $CXX when set (it may carry arguments, as in `ccache g++`), else the one CMake
// found when brcc was configured. Brook's headers and libbrook are looked up next to brcc first
// (an installed tree: <bin>/../include/brook), then in the build tree that a brcc-build-tree file
// beside brcc names. The generated C++ lives in a temporary directory that is removed however
// brcc leaves (unless -keep); the compiler runs without a shell, so no argument is ever
// re-interpreted. Programs are tuned for the building machine (-march=native) unless --portable
// is given.

#include "driver/compile.hpp"

#include "support/warning_policy.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <system_error>

extern char** environ;

namespace brcc {

namespace {

namespace fs = std::filesystem;

/// Whether `dir`/brook/brook.hpp.gch, the build tree's precompiled brook/brook.hpp (made by
/// cmake/precompile_brook_header.cmake with the flags brcc compiles programs with), is newer
/// than every header under the Brook include folders. GCC reads a .gch without looking at the
/// headers it was made from, so a stale one would compile programs against old declarations;
/// a build of only some targets after a header changed can leave one behind.
bool precompiled_header_is_current(const fs::path& dir,
                                   const std::vector<std::string>& include_dirs) {
    std::error_code error;
    const fs::file_time_type made = fs::last_write_time(dir / "brook" / "brook.hpp.gch", error);
    if (error)
        return false;
    for (const std::string& include : include_dirs) {
        for (fs::recursive_directory_iterator it(fs::path(include) / "brook", error), end;
             !error && it != end; it.increment(error)) {
            if (it->is_regular_file(error) && it->last_write_time(error) > made)
                return false;
        }
    }
    return !error;
}

/// Where Brook's headers and libbrook are for the brcc at `exe`: the installed tree around it
/// (<bin>/../include/brook), else the build tree named by the brcc-build-tree file beside it.
/// The build tree's paths live in that file, never in the binary, so an installed or packaged
/// brcc carries no path of the machine it was built on.
std::optional<BrookPaths> brook_paths_for(const fs::path& exe) {
    std::error_code error;
    const fs::path prefix = exe.parent_path().parent_path();
    const fs::path include = prefix / BRCC_INSTALL_INCLUDE_SUBDIR;
    if (fs::exists(include / "brook" / "brook.hpp", error))
        return BrookPaths{
            {include.string()}, (prefix / BRCC_INSTALL_LIBRARY_SUBDIR).string(), {}, {}};

    // One `include_dir=DIR` line per include folder, a `library_dir=DIR` line, a
    // `compiler_launcher=PROGRAM` line per word of the build's launcher and, where the build
    // precompiles brook/brook.hpp, a `precompiled_dir=DIR` line, written by
    // compiler/CMakeLists.txt.
    std::ifstream build_tree(exe.parent_path() / "brcc-build-tree");
    if (!build_tree)
        return std::nullopt;
    BrookPaths paths;
    std::string precompiled_dir;
    for (std::string line; std::getline(build_tree, line);) {
        const auto equals = line.find('=');
        if (equals == std::string::npos)
            continue;
        const std::string key = line.substr(0, equals), value = line.substr(equals + 1);
        if (key == "include_dir" && fs::is_directory(value, error))
            paths.include_dirs.push_back(value);
        else if (key == "library_dir")
            paths.library_dir = value;
        else if (key == "compiler_launcher")
            paths.compiler_launcher.push_back(value);
        else if (key == "precompiled_dir")
            precompiled_dir = value;
    }
    if (paths.include_dirs.empty() || paths.library_dir.empty())
        return std::nullopt;
    if (!precompiled_dir.empty() &&
        precompiled_header_is_current(precompiled_dir, paths.include_dirs))
        paths.precompiled_dir = precompiled_dir;
    return paths;
}

} // namespace

std::optional<BrookPaths> find_brook(const fs::path& brcc) {
    std::error_code error;
    const fs::path exe = brcc.empty() ? fs::read_symlink("/proc/self/exe", error) : brcc;
    std::optional<BrookPaths> paths = error ? std::nullopt : brook_paths_for(exe);
    if (!paths)
        std::cerr
            << "brcc: error: cannot find Brook's headers and library: expected "
            << (exe.parent_path().parent_path() / BRCC_INSTALL_INCLUDE_SUBDIR / "brook").string()
            << " beside brcc's bin folder; reinstall Brook, or run the brcc of a build tree\n";
    return paths;
}

namespace {

/// Starts `command` with its standard output on `stdout_fd` (-1: brcc's own); returns its pid,
/// or -1 after printing why it did not start.
pid_t start_process(const std::vector<std::string>& command, int stdout_fd) {
    std::vector<char*> argv;
    for (const std::string& arg : command)
        argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (stdout_fd >= 0)
        posix_spawn_file_actions_adddup2(&actions, stdout_fd, STDOUT_FILENO);
    pid_t pid = 0;
    const int spawn_error = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawn_error != 0) {
        std::cerr << "brcc: error: cannot run the C++ compiler '" << command.front()
                  << "': " << std::strerror(spawn_error) << " (set CXX to choose another)\n";
        return -1;
    }
    return pid;
}

/// Waits for `pid`; returns its exit status, or -1 after printing why it has none.
int wait_for(pid_t pid, const std::string& name) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return -1;
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    std::cerr << "brcc: error: the C++ compiler '" << name << "' was stopped by signal "
              << WTERMSIG(status) << "\n";
    return -1;
}

} // namespace

WorkDirectory::WorkDirectory(const std::optional<fs::path>& kept, bool create) {
    if (kept) {
        path_ = *kept;
        if (create)
            fs::create_directories(path_); // throws, with the reason, when it cannot
        return;
    }
    const char* tmpdir = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp") + "/brcc-XXXXXX";
    if (!create) {
        path_ = pattern;
        return;
    }
    if (mkdtemp(pattern.data()) == nullptr)
        throw std::system_error(errno, std::generic_category(),
                                "cannot create a temporary directory");
    path_ = pattern;
    removed_at_end_ = true;
}

WorkDirectory::~WorkDirectory() {
    if (!removed_at_end_)
        return;
    std::error_code ignored;
    fs::remove_all(path_, ignored);
}

bool is_cpp_source(std::string_view path) {
    static const std::vector<std::string_view> extensions = {".c",   ".cc",  ".cpp",
                                                             ".cxx", ".c++", ".C"};
    return std::any_of(extensions.begin(), extensions.end(),
                       [&](std::string_view extension) { return path.ends_with(extension); });
}

bool is_link_input(std::string_view arg) {
    static const std::vector<std::string_view> prefixes = {"-l", "-L", "-Wl,"};
    static const std::vector<std::string_view> extensions = {".o", ".a", ".so"};
    return std::any_of(prefixes.begin(), prefixes.end(),
                       [&](std::string_view prefix) { return arg.starts_with(prefix); }) ||
           (!arg.starts_with("-") &&
            std::any_of(extensions.begin(), extensions.end(),
                        [&](std::string_view extension) { return arg.ends_with(extension); }));
}

std::vector<std::string> host_compiler(const std::vector<std::string>& launcher) {
    const char* cxx = std::getenv("CXX");
    if (cxx == nullptr || *cxx == '\0') {
        std::vector<std::string> command = launcher;
        command.emplace_back(BRCC_CXX_COMPILER);
        return command;
    }
    std::vector<std::string> words;
    std::istringstream stream(cxx);
    for (std::string word; stream >> word;)
        words.push_back(word);
    return words;
}

std::string host_compiler_version() {
    std::vector<std::string> command = host_compiler();
    const std::string name = shell_line(command);
    command.emplace_back("--version");
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0)
        return name + " (its version is unknown: " + std::strerror(errno) + ")";
    const pid_t pid = start_process(command, pipe_fds[1]);
    close(pipe_fds[1]);
    std::string output;
    char buffer[4096];
    for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;)
        output.append(buffer, static_cast<std::size_t>(n));
    close(pipe_fds[0]);
    if (pid < 0 || wait_for(pid, command.front()) != 0)
        return name + " (it does not run: set CXX to choose another)";
    return name + " (" + output.substr(0, output.find('\n')) + ")";
}

std::vector<std::string> compile_command(const std::string& source, const CompileSetup& setup,
                                         const DriverOptions& options) {
    // The build tree's brcc compiles through the launcher its build uses (ccache: the test suite
    // compiles hundreds of programs).
    std::vector<std::string> command = host_compiler(setup.brook.compiler_launcher);
    command.insert(command.end(), {"-std=" + options.standard, "-O" + options.optimization});
    const std::vector<std::string> tuning = tuning_flags(options);
    command.insert(command.end(), tuning.begin(), tuning.end());
    const std::vector<std::string> warnings = host_warning_flags(options.warning_flags);
    command.insert(command.end(), warnings.begin(), warnings.end());
    for (const std::string& define : options.defines)
        command.push_back("-D" + define);
    // The headers brcc made from Brook headers come after the user's own directories, as
    // `#include "x.hpp"` finds them when no such file is beside the source.
    for (const std::string& dir : setup.source_dirs)
        command.insert(command.end(), {"-iquote", dir});
    for (const std::string& dir : options.include_dirs)
        command.push_back("-I" + dir);
    command.push_back("-I" + setup.include_dir);
    // Before Brook's headers, so that GCC finds brook/brook.hpp.gch first: every generated
    // program includes brook/brook.hpp first, and reading it precompiled halves a small
    // program's compile (1.8 s to 0.8 s). Where the compile's flags differ from the
    // precompile's (-O0, -DNDEBUG, a sanitizer), GCC passes over the .gch and reads the header.
    // Not for a depfile, which must name the headers, where GCC would name the .gch.
    if (!setup.brook.precompiled_dir.empty() && !options.dependencies_only &&
        !options.dependencies_too)
        command.push_back("-I" + setup.brook.precompiled_dir);
    for (const std::string& dir : setup.brook.include_dirs)
        command.push_back("-I" + dir);
    // Objects, libraries, -lNAME, -LDIR and -Wl, are the link's alone.
    const auto compile_arg = [](const std::string& arg) { return !is_link_input(arg); };
    std::copy_if(options.host_args.begin(), options.host_args.end(), std::back_inserter(command),
                 compile_arg);
    std::copy_if(options.compiler_args.begin(), options.compiler_args.end(),
                 std::back_inserter(command), compile_arg);
    command.push_back(source);
    return command;
}

std::vector<std::string> link_command(const std::vector<std::string>& inputs,
                                      const std::string& program, const BrookPaths& brook,
                                      const DriverOptions& options) {
    std::vector<std::string> command = host_compiler();
    const std::vector<std::string> warnings = host_warning_flags(options.warning_flags);
    command.insert(command.end(), warnings.begin(), warnings.end());
    command.insert(command.end(), inputs.begin(), inputs.end());
    command.insert(command.end(), {"-o", program, "-L" + brook.library_dir,
                                   "-Wl,-rpath," + brook.library_dir, "-lbrook"});
    // After the inputs, where -lNAME must be for the objects before it to find NAME.
    command.insert(command.end(), options.host_args.begin(), options.host_args.end());
    command.insert(command.end(), options.compiler_args.begin(), options.compiler_args.end());
    return command;
}

bool run_command(const std::vector<std::string>& command, const DriverOptions& options) {
    if (options.verbose || options.dry_run)
        std::cerr << shell_line(command) << "\n";
    if (options.dry_run)
        return true;
    const pid_t pid = start_process(command, -1);
    return pid >= 0 && wait_for(pid, command.front()) == 0;
}

std::string shell_line(const std::vector<std::string>& command) {
    std::string line;
    for (const std::string& arg : command) {
        const bool plain =
            !arg.empty() &&
            arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                  "0123456789-_./=+,:@%") == std::string::npos;
        std::string quoted = "'";
        for (const char c : arg)
            quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
        line += (line.empty() ? "" : " ") + (plain ? arg : quoted + "'");
    }
    return line;
}

} // namespace brcc
