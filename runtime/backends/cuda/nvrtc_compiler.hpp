// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// NVRTC, loaded with dlopen, compiling the CUDA C++ that brcc prints into CUBIN for the device's
// own architecture (or PTX, for checks with ptxas). Every compile uses the same base options,
// so a kernel means the same thing in every program and in brook_cuda_check.

#include "backends/cuda/dynamic_library.hpp"

#include <nvrtc.h>

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace brook::detail::cuda {

/// A header the program can #include by `name`, held in memory.
struct Header {
    std::string name;
    std::string text;
};

/// A compiled program: a CUBIN (or PTX) image, and NVRTC's log (warnings), often empty.
struct Compiled {
    std::string image;
    std::string log;
};

/// The loaded NVRTC library. Safe to use from several threads: each compile is its own program.
class Nvrtc {
public:
    /// Loads the first of `candidates` that opens (names or paths); throws std::runtime_error
    /// naming each one tried and why it failed.
    explicit Nvrtc(const std::vector<std::string>& candidates = default_candidates());
    Nvrtc(const Nvrtc&) = delete;
    Nvrtc& operator=(const Nvrtc&) = delete;

    /// "libnvrtc.so.<major of cuda.h>", "libnvrtc.so", then the same two in the library folder
    /// of the toolkit found when libbrook was configured.
    static std::vector<std::string> default_candidates();
    /// The options of every compile for compute capability `cc` (major * 10 + minor, so 90 is
    /// sm_90): -std=c++20 -default-device --gpu-architecture=sm_<cc> (compute_<cc> when
    /// `virtual_arch`), then `extra`.
    static std::vector<std::string> options_for(int cc, bool virtual_arch,
                                                std::span<const std::string> extra);

    /// NVRTC's version, {major, minor}.
    std::pair<int, int> version() const;
    /// The file NVRTC was loaded from.
    std::string path() const { return library_.path(); }

    /// Compiles `source` to a CUBIN for sm_<cc>; throws std::runtime_error with `program` and
    /// NVRTC's log when it does not compile.
    Compiled compile(std::string_view source, const std::string& program,
                     std::span<const Header> headers, std::span<const std::string> options,
                     int cc) const;
    /// Compiles `source` to PTX for compute_<cc>, as compile does otherwise.
    Compiled compile_ptx(std::string_view source, const std::string& program,
                         std::span<const Header> headers, std::span<const std::string> options,
                         int cc) const;

#define BROOK_NVRTC_ENTRY(symbol) decltype(&::symbol) symbol = nullptr;
#include "backends/cuda/nvrtc_api.def"
#undef BROOK_NVRTC_ENTRY

private:
    Compiled run(std::string_view source, const std::string& program,
                 std::span<const Header> headers, std::span<const std::string> options, int cc,
                 bool ptx) const;

    DynamicLibrary library_;
    /// libnvrtc-builtins from NVRTC's own folder. NVRTC dlopens it by file name, and has no
    /// RUNPATH, so when NVRTC itself was loaded by path from a folder the loader does not search
    /// it would fail; a library already loaded under that soname satisfies its dlopen instead.
    DynamicLibrary builtins_;
};

} // namespace brook::detail::cuda
