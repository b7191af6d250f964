// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Choosing and controlling the backend from the program (COMPAT.md 2.4), BrookGPU's interface.
// Each thread runs on one backend: the one it names with initialize() before it first uses
// Brook, or otherwise the one BRT_RUNTIME names (cpu by default). A thread keeps its backend
// until finalize(); threads that choose the same backend share it. Names are those of
// BRT_RUNTIME, and BrookGPU's `ogl` and `gles` (with any `:` suffix) mean gl; `dx9`, `ctm` and
// unknown names stop the program, naming the backends that can run. The calls that can fail take
// their caller's location as a defaulted last argument, so that an error names its .br line.

#include <source_location>

namespace brook {

/// BrookGPU's 64-bit integer, microseconds()'s type.
typedef long long int64;

/// A started backend. Pointers to it stay valid for the whole run.
class Runtime {
public:
    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

    /// The BRT_RUNTIME name of the backend ("cpu", "gl").
    const char* name() const;

protected:
    Runtime() = default;
    ~Runtime() = default;
};

/// The backends that can start here, null-terminated: "cpu" first, then the others that start
/// on this machine; each one is accepted by initialize() and BRT_RUNTIME.
const char** runtimeTargets();

/// Sets the calling thread's backend to the one `name` begins with ("gl", "ogl", "cpu:x") and
/// returns it. A thread that has already used Brook keeps its backend (a warning says so) until
/// finalize(). `context` is BrookGPU's device context for interop; the backends make their own.
Runtime* initialize(const char* name, void* context = nullptr,
                    std::source_location where = std::source_location::current());

/// Waits for the calling thread's work and forgets its backend choice, so that the next
/// initialize() (or BRT_RUNTIME) chooses again. Every stream the thread created must be gone.
void finalize(std::source_location where = std::source_location::current());

/// The calling thread's backend (chosen by BRT_RUNTIME when the thread has not chosen one).
Runtime* runtime(std::source_location where = std::source_location::current());
/// Makes `r` (from initialize, runtime or createRuntime) the calling thread's backend.
void setRuntime(Runtime* r, std::source_location where = std::source_location::current());
/// The backend BRT_RUNTIME names, started if it is not yet, without choosing it for the thread.
/// BrookGPU's address translation (streams beyond one texture) is always on here.
Runtime* createRuntime(bool addressTranslation = false,
                       std::source_location where = std::source_location::current());
/// Starts the calling thread's backend now, so that a backend that cannot start stops the
/// program here rather than at the first stream.
void bind(std::source_location where = std::source_location::current());
/// Waits for the calling thread's work, leaving the device idle for other threads and APIs.
void unbind(std::source_location where = std::source_location::current());

/// Microseconds on a monotonic clock, for timing.
int64 microseconds();

} // namespace brook
