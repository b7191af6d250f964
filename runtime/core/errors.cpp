// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The runtime's one way to report misuse: a brook::error handed to the installed handler, by
// default a message on stderr, then exit(1). Output the program has already written to stdout
// is flushed first, so a failing run still shows its earlier results before the error.
#include "core/errors.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace brook {

namespace {

std::atomic<error_handler> installed_handler{nullptr};

/// Whether a ThrowErrorsOnThisThread lives on this thread.
thread_local bool throwing_on_this_thread = false;

/// The location of the public call running on this thread, or nullptr.
thread_local const std::source_location* current_call_site = nullptr;

/// "saxpy.br:14: brook: error: message", or without the location when it is unknown.
std::string error_line(const std::string& message, const std::source_location& where) {
    std::string line;
    if (where.line() != 0) {
        line = std::string(where.file_name()) + ":" + std::to_string(where.line()) + ": ";
    }
    return line + "brook: error: " + message;
}

bool abort_requested() {
    const char* value = std::getenv("BRT_ABORT");
    return value != nullptr && std::strcmp(value, "1") == 0;
}

} // namespace

error::error(std::string message, const std::source_location& where)
    : std::runtime_error(error_line(message, where)), message_(std::move(message)), where_(where) {}

error_handler set_error_handler(error_handler handler) noexcept {
    return installed_handler.exchange(handler);
}

void stop_on_error(const error& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n", e.what());
    if (abort_requested()) {
        std::abort();
    }
    std::exit(1);
}

void throw_error(const error& e) {
    throw e;
}

namespace detail {

namespace {

/// Reports `e`, an error or a KernelFailure: thrown as it is on a thread that throws.
template <class Error> [[noreturn]] void report(const Error& e) {
    if (throwing_on_this_thread) {
        throw e;
    }
    if (const error_handler handler = installed_handler.load(); handler != nullptr) {
        handler(e);
    }
    // The default handler, also after an installed one returns: the call cannot go on.
    stop_on_error(e);
}

std::source_location call_site() {
    return current_call_site != nullptr ? *current_call_site : std::source_location();
}

} // namespace

void fatal(const std::string& message) {
    report(error(message, call_site()));
}

void fatal_kernel_failure(const std::string& message) {
    report(KernelFailure(message, call_site()));
}

void fatal_not_supported(const std::string& message) {
    report(NotSupported(message, call_site()));
}

error_handler installed_error_handler() noexcept {
    return installed_handler.load();
}

ThrowErrorsOnThisThread::ThrowErrorsOnThisThread() noexcept
    : was_throwing_(throwing_on_this_thread) {
    throwing_on_this_thread = true;
}

ThrowErrorsOnThisThread::~ThrowErrorsOnThisThread() {
    throwing_on_this_thread = was_throwing_;
}

bool environment_switch(const char* name) {
    const char* text = std::getenv(name);
    if (text == nullptr || *text == '\0' || std::strcmp(text, "0") == 0) {
        return false;
    }
    if (std::strcmp(text, "1") != 0) {
        fatal(std::string(name) + "=" + text + " is neither 0 nor 1");
    }
    return true;
}

CallSite::CallSite(const std::source_location& where) noexcept {
    if (current_call_site == nullptr && where.line() != 0) {
        current_call_site = &where;
        marked_ = true;
    }
}

CallSite::~CallSite() {
    if (marked_) {
        current_call_site = nullptr;
    }
}

} // namespace detail

} // namespace brook
