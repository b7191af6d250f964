// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Compiled kernels, kept in memory for the process and on disk across processes, as CUDA's own
// JIT cache does for PTX. NVRTC takes long enough (tens to hundreds of milliseconds per kernel)
// that compiling every kernel at every start would dominate short programs.
//
// A file is named after a 128-bit hash of everything that decides the image: the source, every
// header's name and text, the full option list, the compute capability and NVRTC's version. It
// holds the key again, the image's size and a checksum, so a truncated or foreign file is a miss.
// Files are written to a temporary name and renamed, so concurrent processes never see half a
// file; a folder that cannot be written is silently not used.

#include "backends/cuda/nvrtc_compiler.hpp"

#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace brook::detail::cuda {

/// One program to compile: what Nvrtc::compile takes.
struct CompileRequest {
    std::string source;
    /// The program's name in NVRTC's messages (a kernel or file name).
    std::string program;
    std::vector<Header> headers;
    /// Options beyond Nvrtc::options_for's base ones.
    std::vector<std::string> options;
    /// major * 10 + minor: 90 compiles for sm_90.
    int compute_capability = 0;
};

/// Where compile_cached found an image.
enum class CacheOrigin { compiled, memory, disk };

/// The memory and disk caches in front of one Nvrtc. A backend keeps one per process, so each
/// kernel is compiled at most once per process. Safe to use from several threads.
class KernelCache {
public:
    /// Caches on disk in `folder`, created when missing; std::nullopt keeps only the memory cache.
    /// `nvrtc` must outlive the cache.
    explicit KernelCache(const Nvrtc& nvrtc,
                         std::optional<std::filesystem::path> folder = default_folder());

    /// std::nullopt when BRT_CUDA_CACHE=0; else $XDG_CACHE_HOME/brook/cuda when XDG_CACHE_HOME
    /// is an absolute path, else $HOME/.cache/brook/cuda; std::nullopt with neither.
    static std::optional<std::filesystem::path> default_folder();

    /// The CUBIN of `request`, from memory, from disk, or compiled (and then stored in both);
    /// `origin`, when not null, says which. Throws what Nvrtc::compile throws.
    std::string compile_cached(const CompileRequest& request, CacheOrigin* origin = nullptr);
    /// Compiles `request` whatever the caches hold and stores the image in both, as
    /// compile_cached does on a miss; returns NVRTC's log with it. For brook_cuda_check
    /// --cache, which fills a folder ahead of the programs that read it and fails on warnings.
    Compiled compile_and_store(const CompileRequest& request);

    /// The 32 hex digits naming `request`'s file.
    std::string key(const CompileRequest& request) const;
    /// The file `request`'s image is stored in, when there is a folder.
    std::optional<std::filesystem::path> file(const CompileRequest& request) const;

private:
    /// The file of the request whose key is `key`, when there is a folder.
    std::optional<std::filesystem::path> file_named(const std::string& key) const;
    /// compile_and_store's work, under the lock, for the file named `key`.
    Compiled compile_and_store_locked(const CompileRequest& request, const std::string& key);
    std::optional<std::string> load(const std::filesystem::path& path,
                                    const std::string& key) const;
    void store(const std::filesystem::path& path, const std::string& key,
               const std::string& image) const;

    const Nvrtc& nvrtc_;
    std::optional<std::filesystem::path> folder_;
    std::mutex mutex_;
    std::unordered_map<std::string, std::string> memory_;
};

} // namespace brook::detail::cuda
