// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Brook+'s scatter outputs and thread groups from C++ (BROOKPLUS.md §4.7, §4.8): a scatter
// into a Stream<T> over execDomain(2) and over its whole extent, a transpose over a domainSize
// of the input's shape, a group maximum, and a domain that is not whole groups, which records
// BR_ERROR_INVALID_PARAMATER (7) on the output and leaves it alone.
// inputs: kernels.br
// kernels-header: kernels.br
// expect: spread 6 9 5 9 / 6 8 5 7
// expect: transpose 1 4 2 5 3 6
// expect: group max 4 8
// expect: partial groups 7 -1 -1
#include "brookgenfiles/kernels.h"

#include <stdio.h>

using namespace brook;

int main() {
    unsigned int four[1] = {4};
    const int to_data[4] = {2, 0, 3, 1};
    const float v_data[4] = {5, 6, 7, 8}, nines[4] = {9, 9, 9, 9};
    Stream<int> to(1, four);
    Stream<float> v(1, four), o(1, four);
    to.read(to_data);
    v.read(v_data);
    o.read(nines);
    spread(to, v, o.execDomain(2));
    float first[4], second[4];
    o.write(first);
    spread(to, v, o);
    o.write(second);
    printf("spread %g %g %g %g / %g %g %g %g\n", first[0], first[1], first[2], first[3],
           second[0], second[1], second[2], second[3]);

    unsigned int three_by_two[2] = {3, 2}, two_by_three[2] = {2, 3};
    const float six[6] = {1, 2, 3, 4, 5, 6};
    Stream<float> a(2, three_by_two), t(2, two_by_three);
    a.read(six);
    transpose.domainSize(uint4(3, 2, 0, 0));
    transpose(a, t);
    float flipped[6];
    t.write(flipped);
    printf("transpose %g %g %g %g %g %g\n", flipped[0], flipped[1], flipped[2], flipped[3],
           flipped[4], flipped[5]);

    unsigned int eight[1] = {8}, two[1] = {2};
    const float values[8] = {3, 1, 4, 1, 5, 8, 2, 7}, minus[2] = {-1, -1};
    Stream<float> x(1, eight), best(1, two);
    x.read(values);
    best.read(minus);
    group_max.domainSize(uint4(8, 1, 0, 0));
    group_max(x, best);
    float maxima[2];
    best.write(maxima);
    printf("group max %g %g\n", maxima[0], maxima[1]);

    best.read(minus);
    group_max.domainSize(uint4(6, 1, 0, 0));
    group_max(x, best);
    best.write(maxima);
    printf("partial groups %d %g %g\n", static_cast<int>(best.error()), maxima[0], maxima[1]);
    return 0;
}
