// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// brook_cuda_check [--header NAME=FILE]... [--option OPTION]... [--arch CC]... FILE.cu...
// brook_cuda_check --cache DIR [--option OPTION]... [--arch CC]... KERNEL.cu...
//
// Checks CUDA sources the way the cuda backend compiles them: NVRTC, with the backend's options
// (and the --option ones, e.g. the -DBROOK_CHECK of BRT_CHECK=1) and the given in-memory headers,
// to PTX for compute_80 and compute_90 (or for each --arch, 80 for compute_80); any NVRTC log (a
// warning) fails. Each PTX then goes through
// ptxas -v for the matching sm_XX, and the registers, shared memory and spill stores ptxas reports
// are printed per kernel, one line each:
//   FILE sm_XX KERNEL: R registers, S bytes shared, P bytes spill stores
// A ptxas failure or warning fails too.
//
// With --cache, each file is a kernel's program as `brcc --emit-kernels=cuda` writes it, and is
// compiled exactly as the backend compiles that kernel (cuda::program_request: libbrook's
// headers, the program named after the kernel) to a CUBIN for sm_XX, which is kept in the
// backend's disk cache DIR (KernelCache), where a program run on the cuda emulation then finds
// it instead of compiling it again; any NVRTC log fails as before.
//
// Exit status: 0 when everything passes, 1 when something fails, 2 for bad usage.
#include "backends/cuda/kernel_cache.hpp"
#include "backends/cuda/nvrtc_compiler.hpp"
#include "backends/cuda/nvrtc_headers.hpp"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

using brook::detail::cuda::Header;
using brook::detail::cuda::Nvrtc;

constexpr int default_architectures[] = {80, 90};

bool read_file(const std::string& path, std::string& text) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    text = buffer.str();
    return static_cast<bool>(in);
}

/// A file under $TMPDIR (or /tmp) holding `text`, removed when this goes.
class TemporaryFile {
public:
    explicit TemporaryFile(const std::string& text) {
        const char* folder = std::getenv("TMPDIR");
        path_ = std::string(folder != nullptr && *folder != '\0' ? folder : "/tmp") +
                "/brook_cuda_check-XXXXXX.ptx";
        const int fd = mkstemps(path_.data(), 4);
        if (fd < 0) {
            path_.clear();
            return;
        }
        const bool written =
            write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
        close(fd);
        if (!written) {
            unlink(path_.c_str());
            path_.clear();
        }
    }
    ~TemporaryFile() {
        if (!path_.empty()) {
            unlink(path_.c_str());
        }
    }
    TemporaryFile(const TemporaryFile&) = delete;
    TemporaryFile& operator=(const TemporaryFile&) = delete;

    /// Empty when the file could not be written.
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

/// Runs `command` through the shell; returns its exit status and puts stdout and stderr in
/// `output`.
int run(const std::string& command, std::string& output) {
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (pipe == nullptr) {
        output = "cannot run " + command;
        return -1;
    }
    char buffer[4096];
    std::size_t got = 0;
    while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) {
        output.append(buffer, got);
    }
    const int status = pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string shell_quote(const std::string& text) {
    std::string quoted = "'";
    for (const char c : text) {
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return quoted + "'";
}

/// Prints one line per kernel of ptxas -v's `report`; returns false when it has a warning.
bool print_resources(const std::string& file, int arch, const std::string& report) {
    static const std::regex entry(R"(Compiling entry function '([^']+)')");
    static const std::regex spills(R"((\d+) bytes spill stores)");
    static const std::regex used(R"(Used (\d+) registers)");
    static const std::regex shared(R"((\d+) bytes smem)");
    std::istringstream lines(report);
    std::string line;
    std::string kernel;
    std::string spill_bytes = "0";
    bool clean = true;
    while (std::getline(lines, line)) {
        std::smatch match;
        if (line.find("warning") != std::string::npos) {
            std::cout << file << " sm_" << arch << ": " << line << "\n";
            clean = false;
        } else if (std::regex_search(line, match, entry)) {
            kernel = match[1];
            spill_bytes = "0";
        } else if (std::regex_search(line, match, spills)) {
            spill_bytes = match[1];
        } else if (std::regex_search(line, match, used)) {
            const std::string registers = match[1];
            const std::string shared_bytes =
                std::regex_search(line, match, shared) ? match[1].str() : "0";
            std::cout << file << " sm_" << arch << " " << kernel << ": " << registers
                      << " registers, " << shared_bytes << " bytes shared, " << spill_bytes
                      << " bytes spill stores\n";
        }
    }
    return clean;
}

/// Compiles and assembles `file` for every architecture; false on any failure or warning.
bool check(const Nvrtc& nvrtc, const std::string& file, const std::vector<Header>& headers,
           const std::vector<std::string>& options, const std::vector<int>& architectures) {
    std::string source;
    if (!read_file(file, source)) {
        std::cerr << "brook_cuda_check: cannot read " << file << "\n";
        return false;
    }
    bool passed = true;
    for (const int arch : architectures) {
        brook::detail::cuda::Compiled ptx;
        try {
            ptx = nvrtc.compile_ptx(source, file, headers, options, arch);
        } catch (const std::exception& error) {
            std::cout << error.what() << "\n";
            passed = false;
            continue;
        }
        if (!ptx.log.empty()) {
            std::cout << file << " compute_" << arch << ": NVRTC warnings:\n" << ptx.log << "\n";
            passed = false;
        }
        // The image ends in the NUL that cuModuleLoadData wants; ptxas reads a text file.
        while (!ptx.image.empty() && ptx.image.back() == '\0') {
            ptx.image.pop_back();
        }
        const TemporaryFile input(ptx.image);
        if (input.path().empty()) {
            std::cerr << "brook_cuda_check: cannot write a temporary file\n";
            return false;
        }
        std::string report;
        const int status = run(shell_quote(BROOK_PTXAS) + " -arch=sm_" + std::to_string(arch) +
                                   " -v -o /dev/null " + shell_quote(input.path()),
                               report);
        if (status != 0) {
            std::cout << file << " sm_" << arch << ": ptxas failed:\n" << report;
            passed = false;
            continue;
        }
        passed = print_resources(file, arch, report) && passed;
    }
    return passed;
}

/// Compiles the kernel's program `file` for every architecture as the backend does, into
/// `cache`; false on any failure or warning.
bool compile_into_cache(brook::detail::cuda::KernelCache& cache, const std::string& file,
                        const std::vector<std::string>& options,
                        const std::vector<int>& architectures) {
    std::string source;
    if (!read_file(file, source)) {
        std::cerr << "brook_cuda_check: cannot read " << file << "\n";
        return false;
    }
    const std::string kernel = std::filesystem::path(file).stem().string();
    bool passed = true;
    for (const int arch : architectures) {
        brook::detail::cuda::CompileRequest request =
            brook::detail::cuda::program_request(source, kernel, arch);
        request.options = options;
        try {
            const brook::detail::cuda::Compiled compiled = cache.compile_and_store(request);
            if (!compiled.log.empty()) {
                std::cout << file << " sm_" << arch << ": NVRTC warnings:\n"
                          << compiled.log << "\n";
                passed = false;
            }
        } catch (const std::exception& error) {
            std::cout << error.what() << "\n";
            passed = false;
        }
    }
    return passed;
}

int usage() {
    std::cerr
        << "usage: brook_cuda_check [--header NAME=FILE]... [--option OPTION]... [--arch CC]... "
           "FILE.cu...\n"
           "       brook_cuda_check --cache DIR [--option OPTION]... [--arch CC]... KERNEL.cu...\n";
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<Header> headers;
    std::vector<std::string> options;
    std::vector<std::string> files;
    std::vector<int> architectures;
    std::string cache_folder;
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        if (argument != "--header" && argument != "--option" && argument != "--arch" &&
            argument != "--cache") {
            files.push_back(argument);
            continue;
        }
        if (i + 1 == argc) {
            return usage();
        }
        if (argument == "--cache") {
            cache_folder = argv[++i];
            continue;
        }
        if (argument == "--option") {
            options.emplace_back(argv[++i]);
            continue;
        }
        if (argument == "--arch") {
            const std::string value = argv[++i];
            if (value.size() != 2 || !std::isdigit(static_cast<unsigned char>(value[0])) ||
                !std::isdigit(static_cast<unsigned char>(value[1]))) {
                return usage();
            }
            architectures.push_back(std::stoi(value));
            continue;
        }
        const std::string value = argv[++i];
        const std::size_t equals = value.find('=');
        if (equals == std::string::npos || equals == 0) {
            return usage();
        }
        Header& header = headers.emplace_back(Header{value.substr(0, equals), {}});
        if (!read_file(value.substr(equals + 1), header.text)) {
            std::cerr << "brook_cuda_check: cannot read " << value.substr(equals + 1) << "\n";
            return 1;
        }
    }
    if (files.empty() || (!cache_folder.empty() && !headers.empty())) {
        return usage();
    }
    if (architectures.empty()) {
        architectures.assign(std::begin(default_architectures), std::end(default_architectures));
    }
    try {
        const Nvrtc nvrtc;
        bool passed = true;
        if (!cache_folder.empty()) {
            brook::detail::cuda::KernelCache cache(nvrtc, cache_folder);
            for (const std::string& file : files) {
                passed = compile_into_cache(cache, file, options, architectures) && passed;
            }
            return passed ? 0 : 1;
        }
        for (const std::string& file : files) {
            passed = check(nvrtc, file, headers, options, architectures) && passed;
        }
        return passed ? 0 : 1;
    } catch (const std::exception& error) {
        std::cerr << "brook_cuda_check: " << error.what() << "\n";
        return 1;
    }
}
