// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The thread names of thread_lineage.hpp. A thread's name is a hash of its parent's name and its
// place among the parent's children (64 bits: two threads of one program share a name with a
// chance of about k^2 / 2^64 for k threads). The child learns its name in a start routine that
// runs before the program's: the parent hands it over on its own stack and waits until the
// child has taken it, so nothing is allocated for it and nothing outlives the call.
#include "thread_lineage.hpp"

#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace brook::detail::mpi {

namespace {

// In the initial-exec model (libbrook is loaded with the program, so its thread-locals are in the
// static TLS block): reaching them is then one load from the thread pointer, never a call to
// __tls_get_addr, which a sanitizer intercepts and which begin_named_thread must not reach
// before the sanitizer has set the thread up.
[[gnu::tls_model("initial-exec")]] constinit thread_local std::uint64_t lineage = 0;
[[gnu::tls_model("initial-exec")]] constinit thread_local bool named = false;
/// The threads this thread made outside the backend so far.
[[gnu::tls_model("initial-exec")]] constinit thread_local std::uint64_t children = 0;
[[gnu::tls_model("initial-exec")]] constinit thread_local int inside_backend = 0;

/// The name of the program's first thread, which no pthread_create made.
constexpr std::uint64_t first_thread_lineage = 0x9e3779b97f4a7c15ull;

/// splitmix64's finaliser: a child's name from its parent's and its place.
std::uint64_t child_lineage(std::uint64_t parent, std::uint64_t place) {
    std::uint64_t z = parent + (place + 1) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

using CreateFunction = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);

/// The C library's pthread_create (or a sanitizer's, when one comes after libbrook).
CreateFunction next_pthread_create() {
    static const auto next = reinterpret_cast<CreateFunction>(dlsym(RTLD_NEXT, "pthread_create"));
    if (next == nullptr) {
        std::fprintf(stderr, "brook: error: the C library's pthread_create was not found: %s\n",
                     dlerror());
        std::abort();
    }
    return next;
}

struct Handoff {
    void* (*start)(void*);
    void* argument;
    std::uint64_t lineage;
    /// Set by the child (the parent reads it through std::atomic_ref).
    bool taken = false;
};

/// The child's first code: takes its name, then runs the program's start routine. It runs
/// before a sanitizer's own start routine (when the sanitizer's pthread_create called ours), so
/// it is not instrumented, and it touches the handoff for the last time by setting `taken`.
__attribute__((no_sanitize("thread", "address", "undefined"))) void*
begin_named_thread(void* handoff_pointer) {
    auto* handoff = static_cast<Handoff*>(handoff_pointer);
    void* (*start)(void*) = handoff->start;
    void* argument = handoff->argument;
    lineage = handoff->lineage;
    named = true;
    // The builtin, not std::atomic: a call to the library's store, out of line in a sanitized
    // build, would be instrumented.
    __atomic_store_n(&handoff->taken, true, __ATOMIC_RELEASE);
    return start(argument);
}

} // namespace

std::optional<std::uint64_t> this_thread_lineage() {
    if (named) {
        return lineage;
    }
    if (gettid() == getpid()) {
        lineage = first_thread_lineage;
        named = true;
        return lineage;
    }
    return std::nullopt;
}

InsideBackend::InsideBackend() noexcept {
    ++inside_backend;
}

InsideBackend::~InsideBackend() {
    --inside_backend;
}

} // namespace brook::detail::mpi

using brook::detail::mpi::Handoff;

extern "C" int pthread_create(pthread_t* thread, const pthread_attr_t* attributes,
                              void* (*start)(void*), void* argument) noexcept {
    namespace names = brook::detail::mpi;
    const names::CreateFunction next = names::next_pthread_create();
    const std::optional<std::uint64_t> parent = names::this_thread_lineage();
    if (!parent || names::inside_backend > 0) {
        return next(thread, attributes, start, argument);
    }
    Handoff handoff{start, argument, names::child_lineage(*parent, names::children)};
    const int result = next(thread, attributes, names::begin_named_thread, &handoff);
    if (result != 0) {
        return result;
    }
    ++names::children;
    // Yielding lets the child run at once on a busy machine; past a few tries the parent
    // sleeps, since a yield gives way to no thread of lower priority (a real-time parent on one
    // core would wait forever for its lower-priority child).
    for (int tries = 0; !std::atomic_ref<bool>(handoff.taken).load(std::memory_order_acquire);
         ++tries) {
        if (tries < 64) {
            std::this_thread::yield();
        } else {
            std::this_thread::sleep_for(std::chrono::microseconds(50));
        }
    }
    return 0;
}
