// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Host helper of the install test, found through brook_add_executable's INCLUDES.
#pragma once

/// Prints the first `count` values of `data` on one line.
void print_values(const float* data, int count);
