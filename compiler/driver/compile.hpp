#pragma once
// Building the program: the generated C++ goes to the C++ compiler with Brook's headers and
// library (from the install layout next to brcc, or else from the build tree).

#include "driver/options.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace brcc {

/// A fresh directory under $TMPDIR (or /tmp), removed with everything in it on destruction:
/// where the generated C++ and headers live while the C++ compiler reads them.
class TempDirectory {
public:
    TempDirectory();
    ~TempDirectory();
    TempDirectory(const TempDirectory&) = delete;
    TempDirectory& operator=(const TempDirectory&) = delete;

    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

/// Compiles and links `inputs` (generated C++ and the user's C/C++ sources and objects) into
/// the executable `program`, with `include_dir` (the generated headers) on the include path and
/// `source_dirs` (the Brook sources' folders, which the generated C++ is no longer in) on the
/// path of quoted includes; returns the exit code (0, or exit_input_errors when the C++ compiler
/// fails; its messages go to stderr as they are).
int compile_program(const std::vector<std::string>& inputs, const std::string& include_dir,
                    const std::vector<std::string>& source_dirs, const std::string& program,
                    const DriverOptions& options);

} // namespace brcc
