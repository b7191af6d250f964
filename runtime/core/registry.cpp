// Backend selection by BRT_RUNTIME. Every backend built into this library (or loaded from
// BRT_BACKEND_PLUGINS) registered a factory; `auto` takes the highest-ranked one that starts,
// any other value must name one exactly. There is no silent fallback: a backend that is missing
// or cannot start stops the program, naming the cause and the backends that can run.
//
// BROOK_BACKEND_FOLDERS (from CMake: the folders of runtime/backends/) names every backend of
// the project, so that one this build left out is reported as "not built", not as unknown.
#include "core/registry.hpp"

#include "core/errors.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
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

/// Starts `factory`'s backend; one that cannot start stops the program with its reason and the
/// other backends.
std::unique_ptr<Backend> start(const BackendFactory& factory,
                               const std::vector<BackendFactory>& factories) {
    try {
        return factory.create();
    } catch (const std::runtime_error& error) {
        fatal(
            "BRT_RUNTIME=" + std::string(factory.name) + ": " + error.what() +
            "; backends that can run here: " + joined(names_of(factories, factory.name), " and "));
    }
}

std::unique_ptr<Backend> select_backend(std::string_view name) {
    const std::vector<BackendFactory> factories = registered();
    if (name == "auto") {
        // The best that starts: a GPU backend that cannot start here, or that a software
        // renderer serves, is passed over.
        for (const BackendFactory& factory : factories) {
            if (factory.auto_rank < 0) {
                continue;
            }
            try {
                std::unique_ptr<Backend> backend = factory.create();
                if (!backend->software_renderer()) {
                    return backend;
                }
            } catch (const std::runtime_error&) {
                continue;
            }
        }
    }
    for (const BackendFactory& factory : factories) {
        if (factory.name == name) {
            return start(factory, factories);
        }
    }
    const std::vector<std::string> missing = unbuilt(factories);
    if (std::find(missing.begin(), missing.end(), name) != missing.end()) {
        fatal("BRT_RUNTIME=" + std::string(name) + ": the " + std::string(name) +
              " backend is not built in this version; " + usable_backends(factories, false));
    }
    std::vector<std::string> choices = names_of(factories);
    choices.insert(choices.end(), missing.begin(), missing.end());
    choices.emplace_back("auto");
    fatal("BRT_RUNTIME=" + std::string(name) + " names no backend (use " + joined(choices, " or ") +
          "); " + usable_backends(factories, true));
}

} // namespace

BackendRegistration::BackendRegistration(const BackendFactory& factory) {
    registry().push_back(factory);
}

std::unique_ptr<Backend> create_backend(std::string_view name) {
    std::unique_ptr<Backend> backend = select_backend(name.empty() ? "cpu" : name);
    if (const char* verbose = std::getenv("BRT_VERBOSE");
        verbose != nullptr && std::string_view(verbose) == "1") {
        std::fprintf(stderr, "brook: backend %s on %s\n", std::string(backend->name()).c_str(),
                     backend->device().c_str());
    }
    return backend;
}

Backend& current_backend() {
    // Created by the first stream, so it outlives every stream (statics die in reverse order).
    static const std::unique_ptr<Backend> backend = [] {
        const char* name = std::getenv("BRT_RUNTIME");
        return create_backend(name != nullptr ? name : "");
    }();
    return *backend;
}

} // namespace brook::detail

namespace brook {

void finish() {
    detail::current_backend().finish();
}

const char* backend_name() {
    static const std::string name(detail::current_backend().name());
    return name.c_str();
}

} // namespace brook
