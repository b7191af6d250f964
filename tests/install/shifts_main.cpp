// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Calls the library of the two shift.br files: 1 -> 2 -> 12.
#include <cstdio>

void shift_by_one(float* data, int count);
void shift_by_ten(float* data, int count);

int main() {
    float data[2] = {1.0f, 2.0f};
    shift_by_one(data, 2);
    shift_by_ten(data, 2);
    std::printf("%.1f %.1f\n", data[0], data[1]);
    return 0;
}
