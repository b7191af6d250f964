// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Backend selection by BRT_RUNTIME or brook::initialize. Every backend built into this library
// (or loaded from BRT_BACKEND_PLUGINS) registered a factory; `auto` takes the highest-ranked one
// that starts, any other value must name one (BRT_RUNTIME exactly, initialize by prefix, both
// taking BrookGPU's names of gl). There is no silent fallback: a backend that is missing or
// cannot start stops the program, naming the cause and the backends that can run. A backend
// starts once and serves every thread that chooses it; the choice itself is per thread.
//
// BROOK_BACKEND_FOLDERS (from CMake: the folders of runtime/backends/) names every backend of
// the project, so that one this build left out is reported as "not built", not as unknown.
#include "core/registry.hpp"

#include "core/errors.hpp"
#include "core/launch.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace brook::detail {

namespace {

/// The registered factories. A function-local static: registrations run during static
/// initialisation, in no particular order between files.
std::vector<BackendFactory>& registry() {
    static std::vector<BackendFactory> factories;
    return factories;
}

std::vector<std::string> split(std::string_view list, char separator) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t end = std::min(list.find(separator, start), list.size());
        if (end > start) {
            parts.emplace_back(list.substr(start, end - start));
        }
        start = end + 1;
    }
    return parts;
}

/// Loads the libraries of BRT_BACKEND_PLUGINS once; their static registrations run on load.
void load_plugins() {
    static const bool loaded = [] {
        const char* list = std::getenv("BRT_BACKEND_PLUGINS");
        for (const std::string& path : split(list != nullptr ? list : "", ':')) {
            // Never closed: the backends' code must outlive every stream.
            if (dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr) {
                fatal("BRT_BACKEND_PLUGINS: cannot load " + path + ": " + dlerror());
            }
        }
        return true;
    }();
    (void)loaded;
}

/// The registered backends, the best for `auto` first, then by name.
std::vector<BackendFactory> registered() {
    load_plugins();
    std::vector<BackendFactory> factories = registry();
    std::sort(factories.begin(), factories.end(), [](const auto& a, const auto& b) {
        return a.auto_rank != b.auto_rank ? a.auto_rank > b.auto_rank : a.name < b.name;
    });
    return factories;
}

std::string joined(const std::vector<std::string>& names, std::string_view last_separator) {
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i) {
        text += (i == 0                  ? ""
                 : i + 1 == names.size() ? std::string(last_separator)
                                         : ", ") +
                names[i];
    }
    return text;
}

std::vector<std::string> names_of(const std::vector<BackendFactory>& factories,
                                  std::string_view except = {}) {
    std::vector<std::string> names;
    for (const BackendFactory& factory : factories) {
        if (factory.name != except) {
            names.emplace_back(factory.name);
        }
    }
    return names;
}

/// The project's backends that this build does not include.
std::vector<std::string> unbuilt(const std::vector<BackendFactory>& factories) {
    std::vector<std::string> names;
    for (const std::string& folder : split(BROOK_BACKEND_FOLDERS, ',')) {
        if (std::none_of(factories.begin(), factories.end(),
                         [&](const BackendFactory& f) { return f.name == folder; })) {
            names.push_back(folder);
        }
    }
    return names;
}

/// "backends that can run here: gl and cpu", plus `(cuda is not built in this version)` when
/// `with_unbuilt` and some are missing.
std::string usable_backends(const std::vector<BackendFactory>& factories, bool with_unbuilt) {
    std::string text = "backends that can run here: " + joined(names_of(factories), " and ");
    const std::vector<std::string> missing = unbuilt(factories);
    if (with_unbuilt && !missing.empty()) {
        text += " (" + joined(missing, " and ") + (missing.size() == 1 ? " is" : " are") +
                " not built in this version)";
    }
    return text;
}

/// The backends started so far, by name, and in the order they started.
struct StartedBackends {
    std::mutex mutex;
    std::map<std::string, std::unique_ptr<StartedBackend>, std::less<>> by_name;
    std::vector<std::string> start_order;
};

StartedBackends& started_backends() {
    static StartedBackends started;
    return started;
}

/// Stops the backend started last. Registered with atexit once a backend has started, so that
/// at exit it is stopped after every static stream made later and before the statics its own
/// start created (its driver's), which die in reverse order of construction too.
void stop_latest_backend() {
    StartedBackends& started = started_backends();
    const std::lock_guard lock(started.mutex);
    started.by_name.erase(started.start_order.back());
    started.start_order.pop_back();
}

/// The started backend of `factory` (around the backend `inner` names, for a wrapping one),
/// starting it now if it is not; throws std::runtime_error when it cannot start.
StartedBackend& start_once(const BackendFactory& factory, std::string_view inner = {}) {
    const std::string key = std::string(factory.name) +
                            (factory.create_wrapping != nullptr ? ":" : "") + std::string(inner);
    StartedBackends& started = started_backends();
    const std::lock_guard lock(started.mutex);
    if (const auto found = started.by_name.find(key); found != started.by_name.end()) {
        return *found->second;
    }
    // Before the first backend, so before any call.
    static const bool settings_read = (read_call_settings(), true);
    (void)settings_read;
    auto backend = std::make_unique<StartedBackend>(
        factory.create_wrapping != nullptr ? factory.create_wrapping(inner) : factory.create());
    StartedBackend& result = *backend;
    started.by_name.emplace(key, std::move(backend));
    started.start_order.push_back(key);
    std::atexit(stop_latest_backend);
    return result;
}

/// The backends of `factories` that start here, started, in the order of `factories`. A wrapping
/// backend (mpi starts MPI) is a way to run the others: left out.
std::vector<StartedBackend*> start_each(std::vector<BackendFactory> factories) {
    std::erase_if(factories, [](const BackendFactory& f) { return f.create_wrapping != nullptr; });
    std::vector<StartedBackend*> backends;
    for (const BackendFactory& factory : factories) {
        try {
            backends.push_back(&start_once(factory));
        } catch (const std::runtime_error&) {
            continue;
        }
    }
    return backends;
}

/// Starts `factory`'s backend; one that cannot start stops the program with its reason and the
/// other backends.
StartedBackend& start(const BackendFactory& factory, const std::vector<BackendFactory>& factories,
                      const std::string& label, std::string_view inner = {}) {
    try {
        return start_once(factory, inner);
    } catch (const std::runtime_error& error) {
        fatal(label + ": " + error.what() + "; backends that can run here: " +
              joined(names_of(factories, factory.name), " and "));
    }
}

/// The registered name that `name` selects: a backend's name, with any suffix when
/// `any_suffix`; BrookGPU's `ogl` and `gles`, with any suffix after `:`, are gl. Anything else
/// is returned as it is.
std::string_view resolve(std::string_view name, bool any_suffix,
                         const std::vector<BackendFactory>& factories) {
    const auto begins_with = [&](std::string_view prefix, bool colon_suffix) {
        return name.starts_with(prefix) && (name.size() == prefix.size() || any_suffix ||
                                            (colon_suffix && name[prefix.size()] == ':'));
    };
    for (const std::string_view alias : {"ogl", "gles"}) {
        if (begins_with(alias, true)) {
            return "gl";
        }
    }
    std::string_view best = name;
    for (const BackendFactory& factory : factories) {
        if (begins_with(factory.name, false) &&
            (best == name || factory.name.size() > best.size())) {
            best = factory.name;
        }
    }
    return best;
}

/// Brook+'s `cal` (AMD's GPU layer, BROOKPLUS.md §3.5): the first GPU backend that starts,
/// one on real hardware before one a software renderer serves; else cpu, with a warning, as
/// Brook+ fell back when it found no GPU.
StartedBackend& gpu_or_cpu(const std::vector<BackendFactory>& factories, const std::string& label) {
    StartedBackend* software = nullptr;
    for (const BackendFactory& factory : factories) {
        if (factory.auto_rank < 0 || factory.create_wrapping != nullptr) {
            continue;
        }
        try {
            StartedBackend& backend = start_once(factory);
            if (!backend.backend().gpu_api()) {
                continue;
            }
            if (!backend.backend().software_renderer()) {
                return backend;
            }
            software = software != nullptr ? software : &backend;
        } catch (const std::runtime_error&) {
            continue;
        }
    }
    if (software != nullptr) {
        return *software;
    }
    std::fprintf(stderr, "brook: warning: %s: no GPU backend starts here; running on cpu\n",
                 label.c_str());
    return start(*std::find_if(factories.begin(), factories.end(),
                               [](const BackendFactory& f) { return f.name == "cpu"; }),
                 factories, label);
}

StartedBackend& select_backend(std::string_view requested, bool any_suffix,
                               const std::string& label) {
    const std::vector<BackendFactory> factories = registered();
    // A wrapping backend takes the rest of the name, after a colon, as the one it wraps.
    for (const BackendFactory& factory : factories) {
        if (factory.create_wrapping != nullptr && requested.starts_with(factory.name) &&
            (requested.size() == factory.name.size() || requested[factory.name.size()] == ':')) {
            // Plain "mpi" wraps cpu: one started backend for "mpi" and "mpi:cpu", so that a
            // program that names the backend it runs on (brook::initialize) gets that one.
            const std::string_view inner =
                requested.substr(std::min(requested.size(), factory.name.size() + 1));
            return start(factory, factories, label, inner.empty() ? "cpu" : inner);
        }
    }
    const std::string_view name = resolve(requested, any_suffix, factories);
    if (name == "cal") {
        return gpu_or_cpu(factories, label);
    }
    if (name == "auto") {
        // The best that starts: a GPU backend that cannot start here, or that a software
        // renderer serves, is passed over.
        for (const BackendFactory& factory : factories) {
            if (factory.auto_rank < 0) {
                continue;
            }
            try {
                StartedBackend& backend = start_once(factory);
                if (!backend.backend().software_renderer()) {
                    return backend;
                }
            } catch (const std::runtime_error&) {
                continue;
            }
        }
    }
    for (const BackendFactory& factory : factories) {
        if (factory.name == name) {
            return start(factory, factories, label);
        }
    }
    const std::vector<std::string> missing = unbuilt(factories);
    if (std::find(missing.begin(), missing.end(), name) != missing.end()) {
        fatal(label + ": the " + std::string(name) + " backend is not built in this version; " +
              usable_backends(factories, false));
    }
    std::vector<std::string> choices = names_of(factories);
    choices.insert(choices.end(), missing.begin(), missing.end());
    choices.emplace_back("auto");
    choices.emplace_back("cal");
    fatal(label + " names no backend (use " + joined(choices, " or ") + "); " +
          usable_backends(factories, true));
}

thread_local StartedBackend* this_thread_choice = nullptr;
thread_local const std::shared_ptr<std::atomic<long>> this_thread_streams =
    std::make_shared<std::atomic<long>>(0);

} // namespace

BackendRegistration::BackendRegistration(const BackendFactory& factory) {
    registry().push_back(factory);
}

StartedBackend::StartedBackend(std::unique_ptr<Backend> backend)
    : backend_(std::move(backend)), name_(backend_->name()), device_(backend_->device()) {}

StartedBackend& started_backend(std::string_view name, bool any_suffix, const std::string& label) {
    return select_backend(name.empty() ? "cpu" : name, any_suffix, label);
}

std::unique_ptr<Backend> create_backend(std::string_view name) {
    for (const BackendFactory& factory : registered()) {
        if (factory.name == name && factory.create_wrapping == nullptr) {
            return factory.create();
        }
    }
    throw std::runtime_error("there is no backend '" + std::string(name) + "' to wrap");
}

std::vector<StartedBackend*> startable_backends() {
    std::vector<BackendFactory> factories = registered();
    std::stable_partition(factories.begin(), factories.end(),
                          [](const BackendFactory& f) { return f.name == "cpu"; });
    return start_each(std::move(factories));
}

std::string backends_that(bool (Backend::*capability)() const) {
    std::vector<BackendFactory> factories = registered();
    std::stable_sort(factories.begin(), factories.end(), [](const auto& a, const auto& b) {
        return std::pair(a.auto_rank < 0, a.auto_rank) < std::pair(b.auto_rank < 0, b.auto_rank);
    });
    std::vector<std::string> names;
    for (StartedBackend* backend : start_each(std::move(factories))) {
        if ((backend->backend().*capability)()) {
            names.push_back(backend->name());
        }
    }
    return joined(names, " or ");
}

StartedBackend* thread_choice() {
    return this_thread_choice;
}

void set_thread_choice(StartedBackend* backend) {
    if (const char* verbose = std::getenv("BRT_VERBOSE");
        backend != nullptr && verbose != nullptr && std::string_view(verbose) == "1" &&
        backend->first_announcement()) {
        std::fprintf(stderr, "brook: backend %s on %s\n", backend->name().c_str(),
                     backend->device().c_str());
    }
    this_thread_choice = backend;
}

StartedBackend& environment_backend() {
    static StartedBackend& backend = []() -> StartedBackend& {
        const char* name = std::getenv("BRT_RUNTIME");
        const std::string value = name != nullptr ? name : "";
        return started_backend(value, false, "BRT_RUNTIME=" + value);
    }();
    return backend;
}

Backend& current_backend() {
    if (this_thread_choice == nullptr) {
        set_thread_choice(&environment_backend());
    }
    return this_thread_choice->backend();
}

ThreadStreamCount::ThreadStreamCount() : counter_(this_thread_streams) {
    ++*counter_;
}

ThreadStreamCount::~ThreadStreamCount() {
    --*counter_;
}

long ThreadStreamCount::of_this_thread() {
    return *this_thread_streams;
}

} // namespace brook::detail
