// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// A shared library opened with dlopen: libcuda and NVRTC are loaded at run time, so libbrook
// itself depends on neither and runs where they are missing. A library once opened stays loaded
// until the process ends: drivers are not made to be unloaded, and NVRTC keeps state in statics
// (its C++ runtime's exception pool) that unloading would strand, which LeakSanitizer then
// reports as a leak from an unknown module.

#include <string>
#include <utility>

namespace brook::detail::cuda {

/// An open shared library (never closed: see above).
class DynamicLibrary {
public:
    DynamicLibrary() = default;
    DynamicLibrary(DynamicLibrary&& other) noexcept
        : handle_(std::exchange(other.handle_, nullptr)) {}
    DynamicLibrary& operator=(DynamicLibrary&& other) noexcept {
        handle_ = std::exchange(other.handle_, nullptr);
        return *this;
    }
    DynamicLibrary(const DynamicLibrary&) = delete;
    DynamicLibrary& operator=(const DynamicLibrary&) = delete;

    /// Opens `name` (a file name searched like the loader does, or a path); on failure returns a
    /// closed library and sets `error` to dlerror's text.
    static DynamicLibrary open(const std::string& name, std::string& error);

    explicit operator bool() const { return handle_ != nullptr; }
    /// The address of `symbol`, or nullptr when the library does not export it.
    void* find(const char* symbol) const;
    /// The path the loader opened this library from (resolved even when opened by file name).
    std::string path() const;

private:
    explicit DynamicLibrary(void* handle) : handle_(handle) {}
    void* handle_ = nullptr;
};

} // namespace brook::detail::cuda
