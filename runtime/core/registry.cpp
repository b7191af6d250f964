// Backend selection by BRT_RUNTIME. The table lists every backend the project knows, fastest
// first, with its factory when this build has it. `auto` takes the first that is built and
// starts; any other value must name one exactly. There is no silent fallback: a backend that is
// missing or cannot start stops the program, naming the cause and the backends that can run.
#include "core/registry.hpp"

#include "backends/cpu/cpu_backend.hpp"
#ifdef BROOK_WITH_GL
#include "backends/gl/gl_backend.hpp"
#endif
#include "core/errors.hpp"

#include <array>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace brook::detail {

namespace {

struct BackendEntry {
    std::string_view name;
    /// Null when this build does not include the backend. Throws std::runtime_error, saying
    /// why, when the backend cannot start on this machine (no OpenGL context, no GPU).
    std::unique_ptr<Backend> (*create)();
};

constexpr std::array<BackendEntry, 3> backends{{
    {"cuda", nullptr},
#ifdef BROOK_WITH_GL
    {"gl", &make_gl_backend},
#else
    {"gl", nullptr},
#endif
    {"cpu", &make_cpu_backend},
}};

/// The names of the backends whose `create` is (or is not) null, joined: "cuda and gl".
std::string backend_names(bool built) {
    std::string list;
    for (const BackendEntry& entry : backends) {
        if ((entry.create != nullptr) == built) {
            list += (list.empty() ? "" : " and ") + std::string(entry.name);
        }
    }
    return list;
}

/// "backends that can run here: cpu", plus `(gl and cuda are not built in this version)` when
/// `with_unbuilt` and some are missing.
std::string usable_backends(bool with_unbuilt) {
    std::string text = "backends that can run here: " + backend_names(true);
    const std::string missing = backend_names(false);
    if (with_unbuilt && !missing.empty()) {
        text += " (" + missing + " are not built in this version)";
    }
    return text;
}

/// Starts `entry`'s backend; one that cannot start stops the program with its reason and the
/// other built backends.
std::unique_ptr<Backend> start(const BackendEntry& entry) {
    try {
        return entry.create();
    } catch (const std::runtime_error& error) {
        std::string others;
        for (const BackendEntry& other : backends) {
            if (other.create != nullptr && other.name != entry.name) {
                others += (others.empty() ? "" : " and ") + std::string(other.name);
            }
        }
        fatal("BRT_RUNTIME=" + std::string(entry.name) + ": " + error.what() +
              "; backends that can run here: " + others);
    }
}

} // namespace

std::unique_ptr<Backend> create_backend(std::string_view name) {
    if (name.empty()) {
        name = "cpu";
    }
    if (name == "auto") {
        // The fastest that starts: a GPU backend that cannot start here is passed over.
        for (const BackendEntry& entry : backends) {
            if (entry.create == nullptr) {
                continue;
            }
            try {
                return entry.create();
            } catch (const std::runtime_error&) {
                continue;
            }
        }
    }
    for (const BackendEntry& entry : backends) {
        if (entry.name != name) {
            continue;
        }
        if (entry.create == nullptr) {
            fatal("BRT_RUNTIME=" + std::string(name) + ": the " + std::string(name) +
                  " backend is not built in this version; " + usable_backends(false));
        }
        return start(entry);
    }
    fatal("BRT_RUNTIME=" + std::string(name) + " names no backend (use cpu, gl, cuda or auto); " +
          usable_backends(true));
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
