// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// GLSL has no double exp, so gl and vulkan refuse a kernel computing one (BROOKPLUS.md §4.1 and
// its preamble), never computing it in float: in a Brook+ C++ host the call is recorded on its
// output as BR_ERROR_NOT_SUPPORTED (§2.4), with a log line naming the kernel, what it uses and
// the backends that run it; the program goes on, and the streams of doubles still read and
// write.
// requires: gl vulkan
// inputs: kernels.br
// kernels-header: kernels.br
// expect: read back 3 4
// expect: grow code 8 named 1 untouched -1
// expect: then 0
// expect: twice 2 4
#include "brookgenfiles/kernels.h"

#include <stdio.h>
#include <string.h>

int main() {
    unsigned int one[1] = {1}, two[1] = {2};
    double2 point(3, 4), back;
    double value = -1;
    brook::Stream<double2> p(1, one);
    brook::Stream<double> g(1, one);
    p.read(&point);
    p.write(&back);
    printf("read back %g %g\n", back.x, back.y);
    g.read(&value);
    grow(p, g);
    g.write(&value);
    const int code = g.error();
    const char* log = g.errorLog();
    const bool named = strstr(log, "kernel 'grow' uses double exp, which the ") &&
                       strstr(log, "backend cannot run: run the program with BRT_RUNTIME=cpu "
                                   "or BRT_RUNTIME=cuda");
    printf("grow code %d named %d untouched %g\n", code, named ? 1 : 0, value);
    printf("then %d\n", g.error());

    float in[2] = {1, 2}, out[2];
    brook::Stream<float> a(1, two), r(1, two);
    a.read(in);
    twice(a, r);
    r.write(out);
    printf("twice %g %g\n", out[0], out[1]);
    return 0;
}
