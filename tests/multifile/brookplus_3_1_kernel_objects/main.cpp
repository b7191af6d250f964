// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// A Brook+ C++ host: only the header brcc writes for kernels.br (`brcc -c kernels.br -h
// brookgenfiles/kernels.h`), kernel objects called with Stream<T>s of every element kind, a
// struct typedef of the .br, host vector constants, gathers, two outputs, reductions into host
// variables and into streams, an iterator, and Brook+'s `using namespace brook;`.
// inputs: kernels.br
// kernels-header: kernels.br
// expect: weigh 6 -2
// expect: lookup 30 10 20 / 4 0 2
// expect: bytes -1 130
// expect: total 10 halves 3 7
// expect: biggest 4 3 9 1 rows 2 3 9 0 / 4 1 7 1
// expect: ramp 0 5 10 15
// expect: errors 0 0 0
#include "brookgenfiles/kernels.h"

#include <stdio.h>

using namespace brook;

int main() {
    unsigned int two[1] = {2}, three[1] = {3}, four[1] = {4};
    Body bodies[2] = {{float2(1, 2), 1.0f}, {float2(-1, 0), 1.0f}};
    Stream<Body> b(1, two);
    Stream<float> weights(1, two);
    b.read(bodies);
    weigh(b, float4(0, 0, 0, 2), weights);
    float w[2];
    weights.write(w);
    printf("weigh %g %g\n", w[0], w[1]);

    const float table_values[3] = {10, 20, 30};
    const int indices[3] = {2, 0, 1};
    Stream<float> table(1, three), found(1, three);
    Stream<int> index(1, three), doubled(1, three);
    table.read(table_values);
    index.read(indices);
    lookup(index, table, found, doubled);
    float f[3];
    int d[3];
    found.write(f);
    doubled.write(d);
    printf("lookup %g %g %g / %d %d %d\n", f[0], f[1], f[2], d[0], d[1], d[2]);

    const char signed_bytes[1] = {-3};
    const unsigned char unsigned_bytes[1] = {2};
    const unsigned char big[1] = {130};
    unsigned int one[1] = {1};
    Stream<char> c(1, one);
    Stream<uchar> u(1, one);
    Stream<int> sum(1, one);
    c.read(signed_bytes);
    u.read(unsigned_bytes);
    bytes(c, u, sum);
    int first = 0, second = 0;
    sum.write(&first);
    c.read("\0");
    u.read(big);
    bytes(c, u, sum);
    sum.write(&second);
    printf("bytes %d %d\n", first, second);

    const float values[4] = {1, 2, 3, 4};
    Stream<float> a(1, four), halves(1, two);
    a.read(values);
    float t = 0;
    total(a, t);
    total(a, halves);
    float h[2];
    halves.write(h);
    printf("total %g halves %g %g\n", t, h[0], h[1]);

    const float4 rows_values[4] = {float4(1, 2, 3), float4(2, 3, 9), float4(4, 1, 7, 1),
                                   float4(0, 0, 0)};
    unsigned int grid_dims[2] = {2, 2}, row_dims[2] = {1, 2};
    Stream<float4> grid(2, grid_dims), rows(2, row_dims);
    grid.read(rows_values);
    float4 top;
    biggest(grid, top);
    biggest(grid, rows);
    float4 r[2];
    rows.write(r);
    printf("biggest %g %g %g %g rows %g %g %g %g / %g %g %g %g\n", top.x, top.y, top.z, top.w,
           r[0].x, r[0].y, r[0].z, r[0].w, r[1].x, r[1].y, r[1].z, r[1].w);

    ::brook::stream steps = ::brook::make_iterator<float>(0.0f, 2.0f, 4);
    Stream<float> ramped(1, four);
    ramp(steps, ramped);
    float rp[4];
    ramped.write(rp);
    printf("ramp %g %g %g %g\n", rp[0], rp[1], rp[2], rp[3]);
    printf("errors %d %d %d\n", weights.error(), found.error(), rows.error());
    return 0;
}
