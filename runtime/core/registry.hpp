#pragma once
// Backend selection: BRT_RUNTIME names the backend (cpu, gl, cuda or auto); the choice is made
// once, when the program first needs a backend, and holds for the rest of the run.

#include "core/backend.hpp"

#include <memory>
#include <string_view>

namespace brook::detail {

/// The backend this run uses; selects it on the first call (an error stops the program).
Backend& current_backend();

/// The backend that BRT_RUNTIME value `name` selects ("" means the default, cpu); stops the
/// program with the reason and the list of usable backends when it names none that can run.
std::unique_ptr<Backend> create_backend(std::string_view name);

} // namespace brook::detail
