// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Brook+'s error model (BROOKPLUS.md §2.4): nothing stops the program; each error is recorded on
// its stream, error() returns the first code and resets it, errorLog() the lines, a kernel call
// carries its inputs' codes to its outputs and records its own failure there.
// inputs: twice.br
// kernels-header: twice.br
// expect: 2 0 7 1
// expect: declaration 1 1 log 1
// expect: write 3 again 0
// expect: call 7 7 outputs untouched 9 9
// expect: assign 7
// expect: view of an invalid stream 7
// expect: parent codes 2 then 7
// expect: still running 2 4
#include "brookgenfiles/twice.h"

#include <stdio.h>

int main() {
    unsigned int n[1] = {4}, lo[1] = {2}, hi[1] = {9};
    Stream<float> a(1, n), r(1, n);
    a.read(NULL);                       // a records BR_ERROR_READ
    twice(a, r);                        // runs; r records a's code
    int e1 = r.error(), e2 = r.error(); // 2, then 0: error() resets the code
    Stream<float> v = a.domain(lo, hi); // 9 > 4: a logs it (its code stays 2), v is invalid
    printf("%d %d %d %d\n", e1, e2, v.error(), r.errorLog()[0] != 0);

    unsigned int none[1] = {4};
    Stream<float> bad(0, none), d3d(1, none, "d3d9");
    const int bad_code = bad.error();
    printf("declaration %d %d log %d\n", bad_code, d3d.error(), bad.errorLog()[0] != 0);

    r.write(NULL);
    const int write_code = r.error();
    printf("write %d again %d\n", write_code, r.error());

    // Outputs of two shapes: the call does nothing and records BR_ERROR_INVALID_PARAMATER on
    // both.
    unsigned int two[1] = {2};
    Stream<float> small(1, two), other(1, n);
    float nines[2] = {9, 9}, back[2];
    small.read(nines);
    split(r, small, other);
    small.write(back);
    const int call_code = small.error();
    printf("call %d %d outputs untouched %g %g\n", call_code, other.error(), back[0], back[1]);

    small.assign(a); // another shape
    printf("assign %d\n", small.error());
    printf("view of an invalid stream %d\n", bad.domain(lo, hi).error());

    const int read_code = a.error(); // 2, which kept the domain error out of the code
    Stream<float> w = a.domain(lo, hi);
    printf("parent codes %d then %d\n", read_code, a.error());
    (void)w;

    float in[2] = {1, 2}, out[2];
    Stream<float> ok(1, two), doubled(1, two);
    ok.read(in);
    twice(ok, doubled);
    doubled.write(out);
    printf("still running %g %g\n", out[0], out[1]);
    return 0;
}
