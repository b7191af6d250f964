// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Brook+'s per-call execution domain through kernel objects (BROOKPLUS.md §3.2): BROOKPLUS.md's
// example on Stream<T>s, a 2-D domain, the setting applying to the calling thread only, and a
// reduction given one, which records BR_ERROR_NOT_SUPPORTED (8) and leaves its target alone.
// inputs: kernels.br
// kernels-header: kernels.br
// expect: example 0 11 21 0 / 1 11 21 31
// expect: 2-D 0 0 0 / 0 111 0 / 0 211 0
// expect: other thread 1 11 21 31
// expect: reduce 8 5 then 0 4
#include "brookgenfiles/kernels.h"

#include <stdio.h>
#include <thread>

using namespace brook;

static void show(const char* label, Stream<float>& s, int n, int columns) {
    float data[16];
    s.write(data);
    printf("%s", label);
    for (int i = 0; i < n; i++)
        printf("%s%g", i == 0 ? " " : i % columns == 0 ? " / " : " ", data[i]);
    printf("\n");
}

int main() {
    unsigned int four[1] = {4};
    const float ones[4] = {1, 1, 1, 1}, zeros[9] = {0};
    Stream<float> a(1, four), r(1, four);
    a.read(ones);
    r.read(zeros);
    mark.domainOffset(uint4(1, 0, 0, 0));
    mark.domainSize(uint4(2, 1, 0, 0));
    mark(a, r);
    float first[4];
    r.write(first);
    mark(a, r);
    printf("example %g %g %g %g /", first[0], first[1], first[2], first[3]);
    show("", r, 4, 4);

    unsigned int three_by_three[2] = {3, 3};
    const float nine_ones[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    Stream<float> grid(2, three_by_three), marks(2, three_by_three);
    grid.read(nine_ones);
    marks.read(zeros);
    mark.domainOffset(uint4(1, 1, 0, 0));
    mark.domainSize(uint4(1, 2, 0, 0));
    mark(grid, marks);
    show("2-D", marks, 9, 3);

    // A setting made on this thread does not reach a call made on another.
    r.read(zeros);
    mark.domainSize(uint4(1, 1, 0, 0));
    std::thread other([&] { mark(a, r); });
    other.join();
    mark(a, a); // takes this thread's setting: only a's first element is written, a + 0
    show("other thread", r, 4, 4);

    float sum = 5;
    total.domainSize(uint4(2, 1, 0, 0));
    total(a, sum); // not supported: sum keeps its value
    const float kept = sum;
    unsigned int one[1] = {1};
    Stream<float> target(1, one);
    total.domainSize(uint4(2, 1, 0, 0));
    total(a, target);
    const int recorded = target.error();
    total(a, sum); // the setting is gone
    printf("reduce %d %g then %d %g\n", recorded, kept, target.error(), sum);
    return 0;
}
