// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// BRT_PROFILE: where a run's time goes, as `nvprof --print-gpu-summary` showed it. The core times
// each kernel and reduce call (core/launch.cpp, core/reduce.cpp) and each streamRead and
// streamWrite copy (core/stream.cpp); the GPU backends time the compilation of their kernels. At
// exit BRT_PROFILE=1 prints a table on stderr, one row per kernel and activity (calls, total and
// mean time, elements, GB/s over the bytes of the streams the call reads and writes);
// BRT_PROFILE=FILE.json writes every span instead, as a Chrome trace-event file that Perfetto and
// chrome://tracing open.
//
// Unprofiled, a call pays one test of a flag read once per process. Profiled, each kernel and
// reduce call waits for its backend to finish before its time is taken, so that the time is the
// call's own, not its queueing (nvprof serialises kernels too).

#include <chrono>
#include <cstddef>
#include <string_view>

namespace brook::detail {

/// What a span of profiled time was spent on.
enum class Activity : unsigned char {
    Kernel,
    Reduce,
    Compile,     ///< a backend compiling a kernel's code (gl, cuda)
    StreamRead,  ///< host memory to a stream
    StreamWrite, ///< a stream to host memory
};

/// Reads BRT_PROFILE (a value that is neither 0, 1 nor a FILE.json stops the program, saying
/// what to write) and, when it asks for a profile, sets profile_enabled and arranges the report
/// at exit. Called once, as the first backend starts (read_call_settings, core/launch.hpp):
/// nothing can be timed before, since everything timed needs a backend.
void read_profile_setting();

/// Whether this run is profiled. A plain flag, set once before any call that tests it, so that
/// an unprofiled call pays one test of it.
extern bool profile_enabled;
inline bool profiling() {
    return profile_enabled;
}

/// A span of profiled time, from its construction to record().
class ProfileTimer {
public:
    ProfileTimer() {
        if (profiling()) [[unlikely]] {
            start();
        }
    }

    /// Adds the time since construction to the profile, under `name` (the kernel's, for
    /// compilation too), with the elements the span covered and the bytes it read and wrote.
    /// A kernel or reduce call's row in the table leaves out the compilation it started on its
    /// thread, which has a row of its own. Only while profiling().
    void record(Activity activity, std::string_view name, std::size_t elements,
                std::size_t bytes) const;

private:
    void start();

    std::chrono::steady_clock::time_point start_;
    /// The thread's compilation time so far, when the span started.
    std::chrono::steady_clock::duration compiling_before_{};
};

} // namespace brook::detail
