// Runs the C++ compiler on the generated code and the C/C++ sources and objects given with it.
// The compiler is $CXX when set (it may carry arguments, as in `ccache g++`), else the one CMake
// found when brcc was configured. Brook's headers and libbrook are looked up next to brcc first
// (an installed tree: <bin>/../include/brook), then in the build tree that a brcc-build-tree file
// beside brcc names. The generated C++ lives in a temporary directory that is removed however
// brcc leaves; the compiler runs without a shell, so no argument is ever re-interpreted. Programs
// are tuned for the building machine (-march=native) unless --portable is given.

#include "driver/compile.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <system_error>

extern char** environ;

namespace brcc {

namespace {

namespace fs = std::filesystem;

struct BrookPaths {
    std::vector<std::string> include_dirs;
    std::string library_dir;
};

/// Where Brook's headers and libbrook are for the brcc at `exe`: the installed tree around it
/// (<bin>/../include/brook), else the build tree named by the brcc-build-tree file beside it.
/// The build tree's paths live in that file, never in the binary, so an installed or packaged
/// brcc carries no path of the machine it was built on.
std::optional<BrookPaths> brook_paths_for(const fs::path& exe) {
    std::error_code error;
    const fs::path prefix = exe.parent_path().parent_path();
    const fs::path include = prefix / BRCC_INSTALL_INCLUDE_SUBDIR;
    if (fs::exists(include / "brook" / "brook.hpp", error))
        return BrookPaths{{include.string()}, (prefix / BRCC_INSTALL_LIBRARY_SUBDIR).string()};

    // One `include_dir=DIR` line per include folder and a `library_dir=DIR` line, written by
    // compiler/CMakeLists.txt.
    std::ifstream build_tree(exe.parent_path() / "brcc-build-tree");
    if (!build_tree)
        return std::nullopt;
    BrookPaths paths;
    for (std::string line; std::getline(build_tree, line);) {
        const auto equals = line.find('=');
        if (equals == std::string::npos)
            continue;
        const std::string key = line.substr(0, equals), value = line.substr(equals + 1);
        if (key == "include_dir" && fs::is_directory(value, error))
            paths.include_dirs.push_back(value);
        else if (key == "library_dir")
            paths.library_dir = value;
    }
    if (paths.include_dirs.empty() || paths.library_dir.empty())
        return std::nullopt;
    return paths;
}

std::optional<BrookPaths> brook_paths() {
    std::error_code error;
    const fs::path exe = fs::read_symlink("/proc/self/exe", error);
    std::optional<BrookPaths> paths = error ? std::nullopt : brook_paths_for(exe);
    if (!paths)
        std::cerr
            << "brcc: error: cannot find Brook's headers and library: expected "
            << (exe.parent_path().parent_path() / BRCC_INSTALL_INCLUDE_SUBDIR / "brook").string()
            << " beside brcc's bin folder; reinstall Brook, or run the brcc of a build tree\n";
    return paths;
}

/// $CXX split at white space, or the configured compiler.
std::vector<std::string> compiler_command() {
    const char* cxx = std::getenv("CXX");
    if (cxx == nullptr || *cxx == '\0')
        return {BRCC_CXX_COMPILER};
    std::vector<std::string> words;
    std::istringstream stream(cxx);
    for (std::string word; stream >> word;)
        words.push_back(word);
    return words;
}

/// Runs `command` and waits; returns its exit status, or -1 after printing why it did not run.
int run(const std::vector<std::string>& command) {
    std::vector<char*> argv;
    for (const std::string& arg : command)
        argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int spawn_error = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
    if (spawn_error != 0) {
        std::cerr << "brcc: error: cannot run the C++ compiler '" << command.front()
                  << "': " << std::strerror(spawn_error) << " (set CXX to choose another)\n";
        return -1;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return -1;
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    std::cerr << "brcc: error: the C++ compiler '" << command.front() << "' was stopped by signal "
              << WTERMSIG(status) << "\n";
    return -1;
}

} // namespace

TempDirectory::TempDirectory() {
    const char* tmpdir = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp") + "/brcc-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr)
        throw std::system_error(errno, std::generic_category(),
                                "cannot create a temporary directory");
    path_ = pattern;
}

TempDirectory::~TempDirectory() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
}

int compile_program(const std::vector<std::string>& inputs, const std::string& include_dir,
                    const std::vector<std::string>& source_dirs, const std::string& program,
                    const DriverOptions& options) {
    const std::optional<BrookPaths> found = brook_paths();
    if (!found)
        return exit_usage;
    const BrookPaths& paths = *found;
    std::vector<std::string> command = compiler_command();
    command.insert(command.end(), {"-std=c++20", "-O" + options.optimization});
    const std::vector<std::string> tuning = tuning_flags(options);
    command.insert(command.end(), tuning.begin(), tuning.end());
    for (const std::string& define : options.defines)
        command.push_back("-D" + define);
    // The headers brcc made from Brook headers come after the user's own directories, as
    // `#include "x.hpp"` finds them when no such file is beside the source.
    for (const std::string& dir : source_dirs)
        command.insert(command.end(), {"-iquote", dir});
    for (const std::string& dir : options.include_dirs)
        command.push_back("-I" + dir);
    command.push_back("-I" + include_dir);
    for (const std::string& dir : paths.include_dirs)
        command.push_back("-I" + dir);
    command.insert(command.end(), inputs.begin(), inputs.end());
    command.insert(command.end(), {"-o", program, "-L" + paths.library_dir,
                                   "-Wl,-rpath," + paths.library_dir, "-lbrook"});
    command.insert(command.end(), options.compiler_args.begin(), options.compiler_args.end());

    return run(command) == 0 ? exit_success : exit_input_errors;
}

} // namespace brcc
