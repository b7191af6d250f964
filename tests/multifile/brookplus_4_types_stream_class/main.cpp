// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// A Brook+ C++ host with Stream<double>, Stream<double2>, Stream<short> and Stream<ushort2>
// (BROOKPLUS.md §4.1, §4.3): read, write, kernel objects, a double constant, a reduction into a
// host double, and error() still BR_NO_ERROR.
// inputs: kernels.br
// kernels-header: kernels.br
// expect: hyp 5 13
// expect: third 0.33333333333333343 0.66666666666666674
// expect: sum 1.0000000000027285
// expect: wrap16 -32768 -4 14464 14 0 65534
// expect: errors 0 0 0
#include "brookgenfiles/kernels.h"

#include <stdio.h>

int main() {
    unsigned int two[1] = {2}, four[1] = {4};
    double2 points[2] = {double2(3, 4), double2(5, 12)};
    double lengths[2];
    brook::Stream<double2> p(1, two);
    brook::Stream<double> h(1, two);
    p.read(points);
    hyp(p, h);
    h.write(lengths);
    printf("hyp %.17g %.17g\n", lengths[0], lengths[1]);

    double ones[2] = {1, 2}, thirds[2];
    brook::Stream<double> a(1, two), t(1, two);
    a.read(ones);
    third(a, 1e-16, t);
    t.write(thirds);
    printf("third %.17g %.17g\n", thirds[0], thirds[1]);

    // 2^-40 is lost in float: only a double sum keeps it, in any order.
    const double tiny = 1.0 / 1099511627776.0;
    double terms[4] = {1, tiny, tiny, tiny}, total = 0;
    brook::Stream<double> s(1, four);
    s.read(terms);
    sum(s, total);
    printf("sum %.17g\n", total);

    short shorts[2] = {32767, -5}, wrapped[2];
    ushort2 pairs[2] = {ushort2(40000, 7), ushort2(0, 32767)}, doubled[2];
    brook::Stream<short> sa(1, two), sr(1, two);
    brook::Stream<ushort2> sb(1, two), ss(1, two);
    sa.read(shorts);
    sb.read(pairs);
    wrap16(sa, sb, sr, ss);
    sr.write(wrapped);
    ss.write(doubled);
    printf("wrap16 %d %d %u %u %u %u\n", wrapped[0], wrapped[1], doubled[0].x, doubled[0].y,
           doubled[1].x, doubled[1].y);
    printf("errors %d %d %d\n", h.error(), t.error(), ss.error());
    return 0;
}
