// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Calls the kernel of scale.br through the header brcc -h wrote, with no Brook source of its own.
#include "scale.h"

#include <cstdio>

int main() {
    const Pair pairs[3] = {{1, 2}, {3, 4}, {5, 6}};
    float results[3];
    ::brook::stream p = ::brook::make_stream<Pair>(3);
    ::brook::stream r = ::brook::make_stream<float>(3);
    streamRead(p, pairs);
    scale(p, 0.5f, r);
    streamWrite(r, results);
    std::printf("scaled %g %g %g\n", results[0], results[1], results[2]);
}
