// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// A plain C++ source next to the Brook one, as brook_add_executable allows.
#include "scale_host.hpp"

#include <cstdio>

void print_values(const float* data, int count) {
    for (int i = 0; i < count; ++i) {
        std::printf("%.1f ", static_cast<double>(data[i]));
    }
    std::printf("\n");
}
