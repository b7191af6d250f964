// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The Stream SDK samples' thread helpers from brook/brook.h (BROOKPLUS.md §1.1): CPUThread runs
// four host threads, each with streams and kernel calls of its own; a CondVar barrier lines them
// up between two phases and a ThreadLock guards the shared total.
// inputs: square.br
// kernels-header: square.br
// expect: ids distinct 1 data kept 1
// expect: phase one 4 of 4 before any phase two
// expect: total 24120
#include "brookgenfiles/square.h"

#include <stdio.h>

struct Work {
    int index;
    float result;
};

static ThreadLock lock;
static CondVar barrier;
static int arrived = 0;
static int early = 0;
static float total = 0;

static void* run(void* arg) {
    Work* work = static_cast<Work*>(arg);
    unsigned int n[1] = {4};
    const float values[4] = {1, 2, 3, 4};
    float out[4];
    Stream<float> a(1, n), r(1, n);
    a.read(values);
    square(a, (float)work->index, r);
    r.write(out);
    work->result = out[0] + out[1] + out[2] + out[3];
    lock.lock();
    ++arrived;
    lock.unlock();
    barrier.syncThreads();
    lock.lock();
    early += arrived != 4;
    total += work->result;
    lock.unlock();
    return NULL;
}

int main() {
    Work work[4];
    CPUThread threads[4];
    barrier.create(4);
    for (int i = 0; i < 4; ++i) {
        work[i].index = 1000 * i;
        threads[i].create(run, &work[i]);
    }
    for (int i = 0; i < 4; ++i) {
        threads[i].join();
    }
    int distinct = 1;
    int data = 1;
    for (int i = 0; i < 4; ++i) {
        data = data && threads[i].getData() == &work[i];
        for (int j = 0; j < i; ++j) {
            distinct = distinct && threads[i].getID() != threads[j].getID();
        }
    }
    printf("ids distinct %d data kept %d\n", distinct, data);
    printf("phase one %d of 4 before any phase two\n", early == 0 ? arrived : -1);
    printf("total %g\n", total);
    return 0;
}
