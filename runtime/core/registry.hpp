#pragma once
// Backend selection: BRT_RUNTIME names the backend (cpu, gl, cuda, ... or auto); the choice is
// made once, when the program first needs a backend, and holds for the rest of the run.
//
// Backends register themselves: each folder under runtime/backends/ defines one static
// BackendRegistration, so the registry names no backend. Shared libraries listed in
// BRT_BACKEND_PLUGINS (colon-separated) are loaded first and may register more (the tests' record
// backend is one).

#include "core/backend.hpp"

#include <memory>
#include <string_view>

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
};

/// Adds a backend to the registry; define one at namespace scope in the backend's folder.
class BackendRegistration {
public:
    explicit BackendRegistration(const BackendFactory& factory);
};

/// The backend this run uses; selects it on the first call (an error stops the program).
Backend& current_backend();

/// The backend that BRT_RUNTIME value `name` selects ("" means the default, cpu); stops the
/// program with the reason and the list of usable backends when it names none that can run.
std::unique_ptr<Backend> create_backend(std::string_view name);

} // namespace brook::detail
