#pragma once
// A shared library opened with dlopen and closed when its owner goes: libcuda and NVRTC are
// loaded at run time, so libbrook itself depends on neither and runs where they are missing.

#include <string>
#include <utility>

namespace brook::detail::cuda {

/// An open shared library.
class DynamicLibrary {
public:
    DynamicLibrary() = default;
    ~DynamicLibrary();
    DynamicLibrary(DynamicLibrary&& other) noexcept
        : handle_(std::exchange(other.handle_, nullptr)) {}
    DynamicLibrary& operator=(DynamicLibrary&& other) noexcept;
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
