// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Runtime errors: misuse the runtime detects (bad shapes, a too-short host buffer, an index out
// of range). By default a Brook program stops: `saxpy.br:14: brook: error: <message>` on stderr,
// then exit status 1, or abort() (a core dump) when BRT_ABORT=1. A program embedding Brook may
// install its own handler instead, for example `brook::throw_error`, and catch `brook::error`.
//
// The location is the .br line of the call that failed: the host API functions and the kernel
// stubs brcc writes take `std::source_location::current()` as a default argument, and the C++
// brcc writes carries `#line` directives naming the .br file.

#include <source_location>
#include <stdexcept>
#include <string>

namespace brook {

/// One runtime error: the message, the call's source location (an empty file name when the
/// call came from code that passes none) and, as what(), the line the default handler prints.
class error : public std::runtime_error {
public:
    /// The error `message` of the call made at `where`.
    error(std::string message, const std::source_location& where);

    /// The message alone: "streamRead: the stream handle is empty".
    const std::string& message() const noexcept { return message_; }
    /// Where the failing call was made; `where().line() == 0` when unknown.
    const std::source_location& where() const noexcept { return where_; }

private:
    std::string message_;
    std::source_location where_;
};

/// Called with each runtime error, on the thread that made the failing call. A handler either
/// throws (the call is abandoned; the runtime's state stays as it was before the call, see
/// docs/language.md "Runtime errors") or returns, after which the runtime stops the program as
/// the default handler does.
using error_handler = void (*)(const error&);

/// Installs `handler` for every thread (nullptr restores the default) and returns the previous
/// one.
error_handler set_error_handler(error_handler handler) noexcept;

/// The default handler: prints what() to stderr, then exit(1), or abort() when BRT_ABORT=1.
[[noreturn]] void stop_on_error(const error& e);

/// A ready-made handler that throws `e`, for programs that catch brook::error.
[[noreturn]] void throw_error(const error& e);

} // namespace brook
