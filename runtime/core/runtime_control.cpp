// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The public runtime control (brook/runtime_control.hpp and the C spellings of
// brook/host_support.hpp) over the registry's per-thread choice of a started backend.
#include "core/errors.hpp"
#include "core/registry.hpp"

#include "brook/brook.hpp"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace brook {

using detail::StartedBackend;

namespace {

StartedBackend& started(Runtime* r) {
    return static_cast<StartedBackend&>(*r);
}

/// The backend `name` selects for initialize (a prefix match).
StartedBackend& named(const char* name) {
    if (name == nullptr) {
        detail::fatal("brook::initialize: the runtime name is null (use one of "
                      "brook::runtimeTargets(), e.g. \"cpu\")");
    }
    return detail::started_backend(name, true, "brook::initialize(\"" + std::string(name) + "\")");
}

/// The calling thread's choice, making BRT_RUNTIME's backend its choice when it has none.
StartedBackend& thread_backend() {
    detail::current_backend();
    return *detail::thread_choice();
}

} // namespace

const char* Runtime::name() const {
    return static_cast<const StartedBackend&>(*this).name().c_str();
}

const char** runtimeTargets() {
    static std::vector<const char*> names = [] {
        std::vector<const char*> list;
        for (StartedBackend* backend : detail::startable_backends()) {
            list.push_back(backend->name().c_str());
        }
        list.push_back(nullptr);
        return list;
    }();
    return names.data();
}

Runtime* initialize(const char* name, void* /*context*/, std::source_location where) {
    const detail::CallSite site(where);
    StartedBackend& wanted = named(name);
    StartedBackend* chosen = detail::thread_choice();
    if (chosen == nullptr) {
        detail::set_thread_choice(&wanted);
        return &wanted;
    }
    if (chosen != &wanted) {
        std::fprintf(stderr,
                     "brook: warning: brook::initialize(\"%s\") ignored: this thread already runs "
                     "on %s; call brook::finalize() first to change its backend\n",
                     name, chosen->name().c_str());
    }
    return chosen;
}

void finalize(std::source_location where) {
    const detail::CallSite site(where);
    StartedBackend* chosen = detail::thread_choice();
    if (chosen == nullptr) {
        return;
    }
    if (const long alive = detail::ThreadStreamCount::of_this_thread(); alive > 0) {
        detail::fatal("brook::finalize: " + std::to_string(alive) +
                      " stream(s) this thread created still exist; let them go out of scope (or "
                      "assign empty handles to them) before finalize()");
    }
    chosen->backend().finish();
    detail::set_thread_choice(nullptr);
}

void finish(std::source_location where) {
    const detail::CallSite site(where);
    if (StartedBackend* chosen = detail::thread_choice(); chosen != nullptr) {
        chosen->backend().finish();
    }
}

Runtime* runtime(std::source_location where) {
    const detail::CallSite site(where);
    return &thread_backend();
}

void setRuntime(Runtime* r, std::source_location where) {
    const detail::CallSite site(where);
    if (r == nullptr) {
        detail::fatal("brook::setRuntime: the runtime is null; use brook::finalize() to forget "
                      "the thread's backend");
    }
    detail::set_thread_choice(&started(r));
}

Runtime* createRuntime(bool /*addressTranslation*/, std::source_location where) {
    const detail::CallSite site(where);
    return &detail::environment_backend();
}

void bind(std::source_location where) {
    const detail::CallSite site(where);
    thread_backend();
}

void unbind(std::source_location where) {
    finish(where);
}

int64 microseconds() {
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    return std::chrono::duration_cast<std::chrono::microseconds>(now).count();
}

const char* backend_name(std::source_location where) {
    const detail::CallSite site(where);
    return thread_backend().name().c_str();
}

const char* device_name(std::source_location where) {
    const detail::CallSite site(where);
    return thread_backend().device().c_str();
}

} // namespace brook

const char** brruntimes(void) {
    return brook::runtimeTargets();
}

int brsetruntime(const char* name) {
    // A C caller has no location to give.
    return brook::initialize(name, nullptr, std::source_location()) == &brook::named(name) ? 1 : 0;
}

brint64 brmicroseconds(void) {
    return brook::microseconds();
}
