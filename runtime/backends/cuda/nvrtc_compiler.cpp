// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "backends/cuda/nvrtc_compiler.hpp"

#include <cuda.h>

#include <filesystem>
#include <memory>
#include <stdexcept>

namespace brook::detail::cuda {

namespace {

/// The NVRTC major version libbrook was built against: NVRTC's soname carries it.
constexpr int nvrtc_major = CUDA_VERSION / 1000;

} // namespace

Nvrtc::Nvrtc(const std::vector<std::string>& candidates) {
    std::string tried;
    for (const std::string& candidate : candidates) {
        std::string error;
        library_ = DynamicLibrary::open(candidate, error);
        if (library_) {
            break;
        }
        tried += (tried.empty() ? "" : "; ") + error;
    }
    if (!library_) {
        throw std::runtime_error("cannot load NVRTC (" + tried + ")");
    }
#define BROOK_NVRTC_ENTRY(symbol)                                                                  \
    symbol = reinterpret_cast<decltype(symbol)>(library_.find(#symbol));                           \
    if (symbol == nullptr) {                                                                       \
        throw std::runtime_error("nvrtc: " + library_.path() + " lacks " #symbol);                 \
    }
#include "backends/cuda/nvrtc_api.def"
#undef BROOK_NVRTC_ENTRY

    const auto [major, minor] = version();
    const std::filesystem::path builtins =
        std::filesystem::path(library_.path()).parent_path() /
        ("libnvrtc-builtins.so." + std::to_string(major) + "." + std::to_string(minor));
    std::error_code ignored;
    if (std::filesystem::exists(builtins, ignored)) {
        // A failure here is left for NVRTC to report, with its own advice, when it compiles.
        std::string error;
        builtins_ = DynamicLibrary::open(builtins.string(), error);
    }
}

std::vector<std::string> Nvrtc::default_candidates() {
    const std::string versioned = "libnvrtc.so." + std::to_string(nvrtc_major);
    const std::string toolkit = BROOK_CUDA_TOOLKIT_LIBRARY_DIR;
    return {versioned, "libnvrtc.so", toolkit + "/" + versioned, toolkit + "/libnvrtc.so"};
}

std::vector<std::string> Nvrtc::options_for(int cc, bool virtual_arch,
                                            std::span<const std::string> extra) {
    // No --expt-relaxed-constexpr: nvcc has it, but NVRTC 13 rejects it as unrecognised, and
    // -default-device already makes unannotated constexpr functions callable on the device.
    // Warning 39, "division by zero", is for a float divided by a constant zero: IEEE-754's
    // infinity or NaN, which Brook defines (docs/language.md); brcc divides integers through
    // brook::lang::divide, so no integer division by a constant zero reaches NVRTC.
    std::vector<std::string> all = {
        "-std=c++20", "-default-device", "--diag-suppress=39",
        "--gpu-architecture=" + std::string(virtual_arch ? "compute_" : "sm_") +
            std::to_string(cc)};
    all.insert(all.end(), extra.begin(), extra.end());
    return all;
}

std::pair<int, int> Nvrtc::version() const {
    int major = 0;
    int minor = 0;
    nvrtcVersion(&major, &minor);
    return {major, minor};
}

Compiled Nvrtc::compile(std::string_view source, const std::string& program,
                        std::span<const Header> headers, std::span<const std::string> options,
                        int cc) const {
    return run(source, program, headers, options, cc, false);
}

Compiled Nvrtc::compile_ptx(std::string_view source, const std::string& program,
                            std::span<const Header> headers, std::span<const std::string> options,
                            int cc) const {
    return run(source, program, headers, options, cc, true);
}

Compiled Nvrtc::run(std::string_view source, const std::string& program,
                    std::span<const Header> headers, std::span<const std::string> options, int cc,
                    bool ptx) const {
    const std::string arch = (ptx ? "compute_" : "sm_") + std::to_string(cc);
    const auto check = [&](nvrtcResult result, const char* what) {
        if (result != NVRTC_SUCCESS) {
            throw std::runtime_error("nvrtc: " + std::string(what) + " " + program + " for " +
                                     arch + ": " + nvrtcGetErrorString(result));
        }
    };

    // NVRTC wants C strings: the source and header texts are copied to end in a NUL.
    const std::string source_text(source);
    std::vector<const char*> header_texts;
    std::vector<const char*> header_names;
    for (const Header& header : headers) {
        header_texts.push_back(header.text.c_str());
        header_names.push_back(header.name.c_str());
    }
    nvrtcProgram handle = nullptr;
    check(nvrtcCreateProgram(&handle, source_text.c_str(), program.c_str(),
                             static_cast<int>(headers.size()), header_texts.data(),
                             header_names.data()),
          "cannot create the program");
    const auto destroy = [this](nvrtcProgram* owned) { nvrtcDestroyProgram(owned); };
    const std::unique_ptr<nvrtcProgram, decltype(destroy)> owner(&handle, destroy);

    const std::vector<std::string> all = options_for(cc, ptx, options);
    std::vector<const char*> option_texts;
    for (const std::string& option : all) {
        option_texts.push_back(option.c_str());
    }
    const nvrtcResult compiled =
        nvrtcCompileProgram(handle, static_cast<int>(option_texts.size()), option_texts.data());

    Compiled result;
    std::size_t log_size = 0;
    check(nvrtcGetProgramLogSize(handle, &log_size), "cannot get the log of");
    result.log.resize(log_size);
    check(nvrtcGetProgramLog(handle, result.log.data()), "cannot get the log of");
    // The size counts the terminating NUL, so an empty log has size 1.
    while (!result.log.empty() && (result.log.back() == '\0' || result.log.back() == '\n')) {
        result.log.pop_back();
    }
    if (compiled != NVRTC_SUCCESS) {
        // A compile error's log says it all; another failure (a bad option) is named first.
        const std::string reason = compiled == NVRTC_ERROR_COMPILATION
                                       ? ""
                                       : std::string(" ") + nvrtcGetErrorString(compiled);
        throw std::runtime_error("nvrtc: cannot compile " + program + " for " + arch + ":" +
                                 reason + "\n" + result.log);
    }

    std::size_t image_size = 0;
    check((ptx ? nvrtcGetPTXSize : nvrtcGetCUBINSize)(handle, &image_size),
          "cannot get the image of");
    result.image.resize(image_size);
    check((ptx ? nvrtcGetPTX : nvrtcGetCUBIN)(handle, result.image.data()),
          "cannot get the image of");
    // PTX is text ending in a NUL that the image keeps, since cuModuleLoadData reads PTX up to it.
    return result;
}

} // namespace brook::detail::cuda
