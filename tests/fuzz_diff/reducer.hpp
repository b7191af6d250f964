// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Shrinking a program while it still shows a disagreement (delta debugging over the tree).
#pragma once

#include "program.hpp"

#include <functional>

namespace brook_fuzz {

/// Removes units, then removable statements, then replaces expressions with their fallback
/// literals, keeping each change for which `still_fails` holds, until no change helps or
/// `budget` checks have run. Every step keeps the program well-typed and free of undefined
/// behaviour, since it only drops whole statements the generator marked removable and puts
/// literals within every bound the generator assumed.
[[nodiscard]] Program reduce(Program program,
                             const std::function<bool(const Program&)>& still_fails, int budget);

} // namespace brook_fuzz
