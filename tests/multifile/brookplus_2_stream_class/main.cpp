// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Brook+'s stream class as its programs use it (BROOKPLUS.md §2.1-2.3): extents fastest first,
// copies sharing storage, read and write with their flags, isSync and finish, domain views by
// unsigned arrays and by int2, assign, the free streamRead/streamWrite, and a Stream<T> passed
// where BrookGPU's host API takes a stream.
// inputs: twice.br
// kernels-header: twice.br
// expect: out 0 2 4 / 6 8 10
// expect: shared 0 2 4 6 8 10
// expect: async 0 2 4 6 8 10 sync 1
// expect: domain 2 4 / 8 10
// expect: int2 domain 6 8
// expect: assign 0 2 4 6 8 10
// expect: free 5 7 9 11
// expect: size 3 2
// expect: view writes reach the parent: 0 2 4 6 -1 -1
#include "brookgenfiles/twice.h"

#include <stdio.h>

int main() {
    unsigned int dims[2] = {3, 2}; // 3 wide, 2 high: like `float a<2, 3>;`
    Stream<float> a(2, dims), r(2, dims), s = r;
    float in[2][3] = {{0, 1, 2}, {3, 4, 5}}, out[2][3];
    a.read(in);
    twice(a, r);
    r.write(out);
    printf("out %g %g %g / %g %g %g\n", out[0][0], out[0][1], out[0][2], out[1][0], out[1][1],
           out[1][2]);
    float flat[6];
    s.write(flat);
    printf("shared %g %g %g %g %g %g\n", flat[0], flat[1], flat[2], flat[3], flat[4], flat[5]);

    a.read(in, "nocopy");
    twice(a, r);
    r.write(flat, "async nocopy");
    while (!r.isSync()) {
    }
    r.finish();
    printf("async %g %g %g %g %g %g sync %d\n", flat[0], flat[1], flat[2], flat[3], flat[4],
           flat[5], (int)r.isSync());

    unsigned int lo[2] = {1, 0}, hi[2] = {3, 2}; // columns 1..2 of both rows
    float four[4];
    r.domain(lo, hi).write(four);
    printf("domain %g %g / %g %g\n", four[0], four[1], four[2], four[3]);
    float two[2];
    r.domain(int2(0, 1), int2(2, 2)).write(two);
    printf("int2 domain %g %g\n", two[0], two[1]);

    Stream<float> c(2, dims);
    c.assign(r);
    c.write(flat);
    printf("assign %g %g %g %g %g %g\n", flat[0], flat[1], flat[2], flat[3], flat[4], flat[5]);

    unsigned int n[1] = {1};
    Stream<int4> i4(1, n), o4(1, n);
    int4 v(1, 3, 5, 7), w;
    streamRead(i4, &v);
    shift(i4, 4, o4);
    streamWrite(o4, &w);
    printf("free %d %d %d %d\n", w.x, w.y, w.z, w.w);

    // A Stream<T> is a stream for BrookGPU's host API: streamSize gives .x the fastest extent.
    const float4 size = streamSize(a);
    printf("size %g %g\n", size.x, size.y);

    float minus[2] = {-1, -1};
    unsigned int row_lo[2] = {1, 1}, row_hi[2] = {3, 2};
    c.domain(row_lo, row_hi).read(minus);
    c.write(flat);
    printf("view writes reach the parent: %g %g %g %g %g %g\n", flat[0], flat[1], flat[2], flat[3],
           flat[4], flat[5]);
    return 0;
}
