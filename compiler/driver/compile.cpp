// Runs the C++ compiler on the generated code and the C/C++ sources and objects given with it.
// The compiler is $CXX when set (it may carry arguments, as in `ccache g++`), else the one CMake
// found when brcc was configured. Brook's headers and libbrook are looked up next to brcc first
// (an installed tree: <bin>/../include/brook), then in the build tree brcc was built in. The
// generated C++ lives in a temporary directory that is removed however brcc leaves; the compiler
// runs without a shell, so no argument is ever re-interpreted. Programs are tuned for the
// building machine (-march=native) unless --portable is given.

#include "driver/compile.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
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

BrookPaths brook_paths() {
    std::error_code error;
    const fs::path exe = fs::read_symlink("/proc/self/exe", error);
    if (!error) {
        const fs::path prefix = exe.parent_path().parent_path();
        const fs::path include = prefix / BRCC_INSTALL_INCLUDE_SUBDIR;
        if (fs::exists(include / "brook" / "brook.hpp", error))
            return {{include.string()}, (prefix / BRCC_INSTALL_LIBRARY_SUBDIR).string()};
    }
    BrookPaths paths{{BRCC_BUILD_INCLUDE_DIR}, BRCC_BUILD_LIBRARY_DIR};
    if (fs::is_directory(BRCC_BUILD_GENERATED_INCLUDE_DIR, error))
        paths.include_dirs.emplace_back(BRCC_BUILD_GENERATED_INCLUDE_DIR);
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
    const BrookPaths paths = brook_paths();
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
