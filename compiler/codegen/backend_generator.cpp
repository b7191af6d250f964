// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "codegen/backend_generator.hpp"

#include <algorithm>

namespace brcc {

std::vector<std::unique_ptr<BackendGenerator>>
make_backend_generators(const std::vector<std::string>& backends, const GeneratorContext& context) {
    std::vector<std::unique_ptr<BackendGenerator>> selected;
    // In the order of registration, whatever the order of --backends.
    for (std::unique_ptr<BackendGenerator>& generator : make_backend_generators(context)) {
        if (std::find(backends.begin(), backends.end(), generator->name()) != backends.end())
            selected.push_back(std::move(generator));
    }
    BRCC_ASSERT(selected.size() == backends.size(),
                "--backends names a backend without a generator");
    return selected;
}

} // namespace brcc
