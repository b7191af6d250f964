// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Brook+'s device API (BROOKPLUS.md §3.5): the devices by type ("cal" the GPU backends that start
// here, "cpu", "all" both), the calling thread's choice with useDevices, streams staying on the
// device they were made on, a call mixing devices recording BR_ERROR_KERNEL, and assign copying
// across devices.
// inputs: add.br
// kernels-header: add.br
// expect: cpu 1 cpu none 0 all = cal + cpu 1 cal first 1
// expect: on cpu 3 5
// expect: previous is cpu 1 count 1
// expect: mixed devices record a kernel error 1
// expect: assign across devices 3 5
#include "brookgenfiles/add.h"

#include <stdio.h>
#include <string.h>

int main() {
    unsigned int cal = 0, cpu = 0, all = 0, bogus = 7;
    Device* gpus = getDevices("cal", &cal);
    Device* cpus = getDevices("cpu", &cpu);
    Device* every = getDevices("all", &all);
    Device* none = getDevices("d3d", &bogus);
    int cal_first = 1;
    for (unsigned int i = 0; i < all; ++i) {
        cal_first = cal_first && strcmp(every[i].getType(), i < cal ? "cal" : "cpu") == 0;
    }
    printf("cpu %u %s none %u all = cal + cpu %d cal first %d\n", cpu, cpus[0].getType(), bogus,
           (int)(all == cal + cpu && none == NULL), cal_first);

    // This thread's later streams and calls run on cpu.
    useDevices(cpus, 1, NULL);
    unsigned int n[1] = {2};
    const float one[2] = {1, 2}, two[2] = {2, 3};
    Stream<float> a(1, n), b(1, n), r(1, n);
    a.read(one);
    b.read(two);
    add(a, b, r);
    float out[2];
    r.write(out);
    printf("on cpu %g %g\n", out[0], out[1]);

    unsigned int old_count = 0;
    Device* previous = useDevices(cpus, 1, &old_count);
    printf("previous is cpu %d count %u\n", (int)(previous == cpus), old_count);

    // With a GPU backend, streams made on it cannot meet cpu's in one call; on a machine with
    // none, there is no other device to mix.
    int mixed = 1;
    int copied = 1;
    if (cal > 0) {
        useDevices(gpus, 1, NULL);
        Stream<float> on_gpu(1, n);
        add(a, b, on_gpu); // a and b live on cpu
        mixed = on_gpu.error() == BR_ERROR_KERNEL;
        on_gpu.assign(r); // from cpu's stream
        float back[2];
        on_gpu.write(back);
        copied = back[0] == 3 && back[1] == 5;
    }
    printf("mixed devices record a kernel error %d\n", mixed);
    printf("assign across devices %g %g\n", copied ? out[0] : -1.0f, copied ? out[1] : -1.0f);
    return 0;
}
