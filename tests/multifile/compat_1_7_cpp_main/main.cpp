// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// A C++ main calling kernels through the header brcc makes from stats.brh: its struct with
// the element description streams need, and the stubs, a reduction's two overloads included.
// inputs: stats.brh stats.br
// expect: weighted 2 -1 7.5 4
// expect: sum 12.5 largest 7.5
// expect: pairs 1 11.5
#include "stats.hpp"

int main() {
    const Sample samples[4] = {{1, 2}, {-2, 0.5f}, {3, 2.5f}, {4, 1}};
    float weighted[4], total = 0, top = 0, pairs[2];
    ::brook::stream s = ::brook::make_stream<Sample>(4);
    ::brook::stream w = ::brook::make_stream<float>(4);
    ::brook::stream halves = ::brook::make_stream<float>(2);
    streamRead(s, samples);
    weigh(s, 0.0f, w);
    streamWrite(w, weighted);
    printf("weighted %g %g %g %g\n", weighted[0], weighted[1], weighted[2], weighted[3]);
    sum(w, total);
    largest(w, top);
    printf("sum %g largest %g\n", total, top);
    sum(w, halves);
    streamWrite(halves, pairs);
    printf("pairs %g %g\n", pairs[0], pairs[1]);
    return 0;
}
