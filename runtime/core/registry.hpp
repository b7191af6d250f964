// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Backend selection: each thread runs on one backend, the one it chose with brook::initialize
// (brook/runtime_control.hpp) or else the one BRT_RUNTIME names (cpu, gl, cuda, ... or auto),
// chosen when the thread first needs a backend; it holds until the thread calls brook::finalize.
// A backend starts once per process and stays for the rest of the run, shared by the threads
// that choose it.
//
// Backends register themselves: each folder under runtime/backends/ defines one static
// BackendRegistration, so the registry names no backend. Shared libraries listed in
// BRT_BACKEND_PLUGINS (colon-separated) are loaded first and may register more (the tests' record
// backend is one).

#include "core/backend.hpp"

#include "brook/runtime_control.hpp"

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace brook::detail {

struct BackendFactory {
    /// The BRT_RUNTIME name.
    std::string_view name;
    /// `auto` tries the backends that have one from the highest down; -1: never chosen by
    /// `auto` (software renderers, test backends).
    int auto_rank;
    /// Throws std::runtime_error, saying why, when the backend cannot start on this machine (no
    /// OpenGL context, no GPU).
    std::unique_ptr<Backend> (*create)();
    /// Null, or for a backend that wraps another (mpi): creates it around the backend that
    /// `inner` names, for BRT_RUNTIME=NAME:INNER ("" for plain NAME, the wrapper's default).
    /// Throws as `create` does.
    std::unique_ptr<Backend> (*create_wrapping)(std::string_view inner) = nullptr;
};

/// Adds a backend to the registry; define one at namespace scope in the backend's folder.
class BackendRegistration {
public:
    explicit BackendRegistration(const BackendFactory& factory);
};

/// The calling thread's backend; chooses BRT_RUNTIME's on the first call of a thread that has
/// not chosen one (an error stops the program).
Backend& current_backend();

/// A started backend, as the public API hands it out.
class StartedBackend final : public Runtime {
public:
    explicit StartedBackend(std::unique_ptr<Backend> backend);
    Backend& backend() const { return *backend_; }
    const std::string& name() const { return name_; }
    /// Backend::device(), asked once at the start (brook::device_name hands it out).
    const std::string& device() const { return device_; }
    /// True the first time it is called: BRT_VERBOSE announces each backend once, however many
    /// threads choose it.
    bool first_announcement() { return !announced_.exchange(true); }

private:
    std::unique_ptr<Backend> backend_;
    std::string name_;
    std::string device_;
    std::atomic<bool> announced_{false};
};

/// The backend that `name` selects, started on first use: a BRT_RUNTIME value ("" means the
/// default, cpu), or with `any_suffix` a name that begins with a backend's (initialize's prefix
/// match). BrookGPU's `ogl` and `gles` mean gl. `label` starts the messages that stop the
/// program when it names none that can run ("BRT_RUNTIME=dx9").
StartedBackend& started_backend(std::string_view name, bool any_suffix, const std::string& label);
/// A new instance of the registered backend `name`, for a backend that wraps it: it is not
/// shared with the threads that choose `name`. Throws std::runtime_error when there is none of
/// that name or it cannot start here.
std::unique_ptr<Backend> create_backend(std::string_view name);
/// Each registered backend that starts here, cpu first.
std::vector<StartedBackend*> startable_backends();
/// The registered backends that start here and have `capability` (a query each declares in its
/// own folder, such as &Backend::tracks_elements), as a message lists them: "cpu, gl or cuda",
/// in the order of their rank for `auto` from the lowest (cpu, the reference, first), those
/// `auto` never chooses last; "" for none. Starts each that has not started, as
/// startable_backends() does.
std::string backends_that(bool (Backend::*capability)() const);

/// The calling thread's choice; null when it has none.
StartedBackend* thread_choice();
/// Sets (null: forgets) the calling thread's choice.
void set_thread_choice(StartedBackend* backend);
/// BRT_RUNTIME's backend, started on the first call.
StartedBackend& environment_backend();

/// Counts, per thread, the streams it created that are still alive, so that finalize() can
/// refuse while any is; StreamImpl holds one. The count may drop on another thread.
class ThreadStreamCount {
public:
    ThreadStreamCount();
    ~ThreadStreamCount();
    ThreadStreamCount(const ThreadStreamCount&) = delete;
    ThreadStreamCount& operator=(const ThreadStreamCount&) = delete;

    /// The streams the calling thread created that are alive.
    static long of_this_thread();

private:
    std::shared_ptr<std::atomic<long>> counter_;
};

} // namespace brook::detail
