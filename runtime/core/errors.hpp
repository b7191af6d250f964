// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Runtime misuse (bad shapes, wrong element types, an unknown backend) is a programming error
// that a Brook program cannot recover from, as in the original runtime: by default the message
// goes to stderr and the program stops with status 1 (brook/errors.hpp has the handlers).

#include "brook/errors.hpp"

#include <source_location>
#include <string>

namespace brook::detail {

/// Reports `message` to the error handler as a brook::error located at the current CallSite;
/// returns only by an exception the handler throws.
[[noreturn]] void fatal(const std::string& message);

/// An error of a kernel call that is not its arguments' shape or kind: an argument on another
/// backend, a failure of the device. Brook+'s error model records it as BR_ERROR_KERNEL; handlers
/// see a brook::error like any other.
class KernelFailure : public error {
public:
    using error::error;
};

/// As fatal, for a KernelFailure.
[[noreturn]] void fatal_kernel_failure(const std::string& message);

/// A call that asks for what its kernel or backend cannot do: a per-call domain for a
/// reduction, doubles on a vulkan device without them (BROOKPLUS.md's preamble). Brook+'s error
/// model records it as BR_ERROR_NOT_SUPPORTED.
class NotSupported : public error {
public:
    using error::error;
};

/// As fatal, for a NotSupported.
[[noreturn]] void fatal_not_supported(const std::string& message);

/// The handler installed for every thread (set_error_handler), or nullptr for the default.
error_handler installed_error_handler() noexcept;

/// While it lives, an error reported on this thread is thrown as brook::error, whatever handler
/// is installed: for a caller that must learn of an error before deciding how to stop (the mpi
/// backend agrees with the other processes on which one reports it).
class ThrowErrorsOnThisThread {
public:
    ThrowErrorsOnThisThread() noexcept;
    ~ThrowErrorsOnThisThread();
    ThrowErrorsOnThisThread(const ThrowErrorsOnThisThread&) = delete;
    ThrowErrorsOnThisThread& operator=(const ThrowErrorsOnThisThread&) = delete;

private:
    bool was_throwing_;
};

/// An on/off environment variable (BRT_CHECK, BRT_MPI_CHECK): unset, empty or 0 is off, 1 is
/// on, anything else stops the program naming the variable.
bool environment_switch(const char* name);

/// Marks the public entry point running on this thread with the .br location of its call, for
/// the errors reported while it runs. The outermost site wins, so a public function the runtime
/// calls on its own behalf does not replace the user's call; an empty location (line 0) marks
/// nothing.
class CallSite {
public:
    explicit CallSite(const std::source_location& where) noexcept;
    ~CallSite();
    CallSite(const CallSite&) = delete;
    CallSite& operator=(const CallSite&) = delete;

private:
    bool marked_ = false;
};

} // namespace brook::detail
