// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The gl backend stores doubles but runs no kernel that uses them (BROOKPLUS.md §4.1 and its
// preamble): in a Brook+ C++ host the call is refused and recorded on its output as
// BR_ERROR_NOT_SUPPORTED (§2.4), with a log line naming the kernel and the backends that run
// it; the program goes on, and the streams of doubles still read and write.
// requires: gl
// inputs: kernels.br
// kernels-header: kernels.br
// expect: read back 3 4
// expect: hyp code 8 named 1 untouched -1
// expect: then 0
// expect: twice 2 4
#include "brookgenfiles/kernels.h"

#include <stdio.h>
#include <string.h>

int main() {
    unsigned int one[1] = {1}, two[1] = {2};
    double2 point(3, 4), back;
    double length = -1;
    brook::Stream<double2> p(1, one);
    brook::Stream<double> h(1, one);
    p.read(&point);
    p.write(&back);
    printf("read back %g %g\n", back.x, back.y);
    h.read(&length);
    hyp(p, h);
    h.write(&length);
    const int code = h.error();
    const char* log = h.errorLog();
    const bool named = strstr(log, "kernel 'hyp' uses doubles, which the gl backend cannot run") &&
                       strstr(log, "BRT_RUNTIME=cpu or BRT_RUNTIME=cuda");
    printf("hyp code %d named %d untouched %g\n", code, named ? 1 : 0, length);
    printf("then %d\n", h.error());

    float in[2] = {1, 2}, out[2];
    brook::Stream<float> a(1, two), r(1, two);
    a.read(in);
    twice(a, r);
    r.write(out);
    printf("twice %g %g\n", out[0], out[1]);
    return 0;
}
