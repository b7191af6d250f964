// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "backends/cuda/kernel_cache.hpp"

#include <unistd.h>

#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <random>

namespace brook::detail::cuda {

namespace {

/// Marks a cache file and its layout: the magic, the key, the image size and checksum as 16 hex
/// digits each, a newline, then the image. Changing the layout changes the magic.
constexpr std::string_view magic = "brook-cuda-image-1\n";

/// Two independent 64-bit hashes over the same bytes, for a 128-bit key: FNV-1a, and a
/// multiply-rotate hash with a final avalanche. Neither is cryptographic, but the inputs are
/// not adversarial and 128 bits make an accidental collision practically impossible.
class Hasher {
public:
    /// Adds `bytes` preceded by its length, so that ("ab", "c") and ("a", "bc") differ.
    void add(std::string_view bytes) {
        add_raw(std::to_string(bytes.size()) + ":");
        add_raw(bytes);
    }
    void add(long long value) { add(std::to_string(value)); }

    std::string hex() const { return to_hex(fnv_) + to_hex(avalanche(mix_)); }
    std::uint64_t first() const { return fnv_; }

    static std::string to_hex(std::uint64_t value) {
        static constexpr char digits[] = "0123456789abcdef";
        std::string text(16, '0');
        for (int i = 15; i >= 0; --i, value >>= 4) {
            text[static_cast<std::size_t>(i)] = digits[value & 0xf];
        }
        return text;
    }

private:
    void add_raw(std::string_view bytes) {
        for (const char c : bytes) {
            const auto byte = static_cast<std::uint8_t>(c);
            fnv_ = (fnv_ ^ byte) * 0x100000001b3ULL;
            mix_ = std::rotl((mix_ ^ byte) * 0x9e3779b97f4a7c15ULL, 29);
        }
    }
    /// MurmurHash3's finaliser: every input bit affects every output bit.
    static std::uint64_t avalanche(std::uint64_t x) {
        x = (x ^ (x >> 33)) * 0xff51afd7ed558ccdULL;
        x = (x ^ (x >> 33)) * 0xc4ceb9fe1a85ec53ULL;
        return x ^ (x >> 33);
    }

    std::uint64_t fnv_ = 0xcbf29ce484222325ULL;
    std::uint64_t mix_ = 0x243f6a8885a308d3ULL;
};

std::string checksum(std::string_view image) {
    Hasher hasher;
    hasher.add(image);
    return Hasher::to_hex(hasher.first());
}

std::string header_of(const std::string& key, const std::string& image) {
    return std::string(magic) + key + Hasher::to_hex(image.size()) + checksum(image) + "\n";
}

} // namespace

KernelCache::KernelCache(const Nvrtc& nvrtc, std::optional<std::filesystem::path> folder)
    : nvrtc_(nvrtc), folder_(std::move(folder)) {}

std::optional<std::filesystem::path> KernelCache::default_folder() {
    const char* enabled = std::getenv("BRT_CUDA_CACHE");
    if (enabled != nullptr && std::string_view(enabled) == "0") {
        return std::nullopt;
    }
    // The XDG base directory specification says to ignore a relative XDG_CACHE_HOME.
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg != nullptr && std::filesystem::path(xdg).is_absolute()) {
        return std::filesystem::path(xdg) / "brook" / "cuda";
    }
    const char* home = std::getenv("HOME");
    if (home != nullptr && *home != '\0') {
        return std::filesystem::path(home) / ".cache" / "brook" / "cuda";
    }
    return std::nullopt;
}

std::string KernelCache::key(const CompileRequest& request) const {
    Hasher hasher;
    const auto [major, minor] = nvrtc_.version();
    hasher.add(major);
    hasher.add(minor);
    hasher.add(request.compute_capability);
    // The full option list, so that a change to the base options misses old files too.
    const std::vector<std::string> options =
        Nvrtc::options_for(request.compute_capability, false, request.options);
    hasher.add(static_cast<long long>(options.size()));
    for (const std::string& option : options) {
        hasher.add(option);
    }
    hasher.add(request.program);
    hasher.add(request.source);
    hasher.add(static_cast<long long>(request.headers.size()));
    for (const Header& header : request.headers) {
        hasher.add(header.name);
        hasher.add(header.text);
    }
    return hasher.hex();
}

std::optional<std::filesystem::path> KernelCache::file(const CompileRequest& request) const {
    return file_named(key(request));
}

std::optional<std::filesystem::path> KernelCache::file_named(const std::string& key) const {
    if (!folder_) {
        return std::nullopt;
    }
    return *folder_ / (key + ".cubin");
}

std::string KernelCache::compile_cached(const CompileRequest& request, CacheOrigin* origin) {
    const std::string name = key(request);
    // One lock for the whole call, so that threads asking for the same kernel compile it once.
    const std::lock_guard lock(mutex_);
    if (const auto found = memory_.find(name); found != memory_.end()) {
        if (origin != nullptr) {
            *origin = CacheOrigin::memory;
        }
        return found->second;
    }
    const std::optional<std::filesystem::path> path = file_named(name);
    if (path) {
        if (std::optional<std::string> image = load(*path, name)) {
            if (origin != nullptr) {
                *origin = CacheOrigin::disk;
            }
            return memory_.emplace(name, std::move(*image)).first->second;
        }
    }
    compile_and_store_locked(request, name);
    if (origin != nullptr) {
        *origin = CacheOrigin::compiled;
    }
    return memory_.at(name);
}

Compiled KernelCache::compile_and_store(const CompileRequest& request) {
    const std::string name = key(request);
    const std::lock_guard lock(mutex_);
    return compile_and_store_locked(request, name);
}

Compiled KernelCache::compile_and_store_locked(const CompileRequest& request,
                                               const std::string& key) {
    Compiled compiled = nvrtc_.compile(request.source, request.program, request.headers,
                                       request.options, request.compute_capability);
    if (const std::optional<std::filesystem::path> path = file_named(key)) {
        store(*path, key, compiled.image);
    }
    memory_.insert_or_assign(key, compiled.image);
    return compiled;
}

std::optional<std::string> KernelCache::load(const std::filesystem::path& path,
                                             const std::string& key) const {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return std::nullopt;
    }
    // The header has a fixed length: magic, key, size, checksum, newline.
    std::string header(magic.size() + key.size() + 16 + 16 + 1, '\0');
    if (!in.read(header.data(), static_cast<std::streamsize>(header.size())) ||
        !header.starts_with(magic) || header.compare(magic.size(), key.size(), key) != 0) {
        return std::nullopt;
    }
    const std::string size_text = header.substr(magic.size() + key.size(), 16);
    char* end = nullptr;
    const unsigned long long size = std::strtoull(size_text.c_str(), &end, 16);
    // A bad size must not become a huge allocation: the rest of the file bounds it.
    const std::streamoff here = in.tellg();
    in.seekg(0, std::ios::end);
    const std::streamoff rest = in.tellg() - here;
    if (*end != '\0' || rest < 0 || size != static_cast<unsigned long long>(rest)) {
        return std::nullopt;
    }
    in.seekg(here);
    std::string image(size, '\0');
    if (!in.read(image.data(), static_cast<std::streamsize>(size)) ||
        header != header_of(key, image)) {
        return std::nullopt;
    }
    return image;
}

void KernelCache::store(const std::filesystem::path& path, const std::string& key,
                        const std::string& image) const {
    std::error_code error;
    std::filesystem::create_directories(path.parent_path(), error);
    if (error) {
        return;
    }
    // A name no other writer uses: the process id tells processes apart on this machine and the
    // random part threads and machines sharing a home folder.
    std::random_device random;
    const std::filesystem::path temporary =
        path.string() + ".tmp-" + std::to_string(getpid()) + "-" +
        Hasher::to_hex((std::uint64_t{random()} << 32) | random());
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << header_of(key, image) << image;
        out.close();
        if (!out) {
            std::filesystem::remove(temporary, error);
            return;
        }
    }
    std::filesystem::rename(temporary, path, error);
    if (error) {
        std::filesystem::remove(temporary, error);
    }
}

} // namespace brook::detail::cuda
