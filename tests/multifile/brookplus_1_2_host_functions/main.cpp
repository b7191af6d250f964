// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// A C++ host calling the host functions of a .br file through the header `brcc -h` writes, as
// Brook+ programs do (BROOKPLUS.md §1.2), beside its kernels and struct typedef.
// inputs: helpers.br
// kernels-header: helpers.br
// expect: norm2 25
// expect: filled and doubled 7 9 11
// expect: mass 3.5
#include "brookgenfiles/helpers.h"

#include <stdio.h>

int main() {
    float4 v(3, 4);
    printf("norm2 %g\n", norm2(&v));
    unsigned int n[1] = {3};
    Stream<float> s(1, n), r(1, n);
    fill(s, 3, 2.5f);
    twice(s, r);
    float out[3];
    r.write(out);
    printf("filled and doubled %g %g %g\n", out[0], out[1], out[2]);
    const Body bodies[2] = {{float2(0, 0), 1.5f}, {float2(1, 1), 2.0f}};
    printf("mass %g\n", total_mass(bodies, 2));
    return 0;
}
