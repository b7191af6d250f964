#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
"""The Python module's benchmark (`make bench` runs it on cpu): SAXPY of 64M floats called from
Python on NumPy arrays and on brook.streams, against NumPy's `a * x + y` (and its in-place form);
and a 16-element call from Python against the same call bound once and run from C++
(Kernel._cpp_call_seconds), which is what a generated stub does: the module's cost per call.

Usage: python_saxpy.py BUILD/python. Appends harness rows (bench/harness.hpp's format) to
$BROOK_BENCH_RESULTS and prints them. Variants are timed in turn, sample by sample, each sample
after an untimed call, and reported as the median of BROOK_BENCH_REPS samples (default 11).
"""

import os
import statistics
import sys
import time

sys.path.insert(0, sys.argv[1])

import numpy as np  # noqa: E402

import brook  # noqa: E402

SAXPY = "kernel void saxpy(float a, float x<>, float y<>, out float r<>) { r = a * x + y; }"
REPS = int(os.environ.get("BROOK_BENCH_REPS", "11"))


def measure(variants, calls):
    """Median, fastest and slowest seconds per call of each variant, sampled in turn."""
    samples = {name: [] for name, _, _ in variants}
    for _ in range(REPS):
        for name, _, run in variants:
            run()
            start = time.perf_counter()
            for _ in range(calls):
                run()
            samples[name].append((time.perf_counter() - start) / calls)
    return {name: (statistics.median(times), min(times), max(times))
            for name, times in samples.items()}


def report(benchmark, size, variants, timings, bytes_moved, flops):
    results = os.environ.get("BROOK_BENCH_RESULTS")
    brook_times = [timings[name][0] for name, kind, _ in variants if kind == "brook"]
    baseline_times = [timings[name][0] for name, kind, _ in variants if kind == "baseline"]
    best_baseline = min(baseline_times)
    print(f"{benchmark}, {size}:")
    for name, kind, _ in variants:
        median, fastest, slowest = timings[name]
        ratio = best_baseline / median if kind == "brook" else median / brook_times[0]
        print(f"  {name:45s} {median * 1e3:10.4f} ms  ratio {ratio:.2f}"
              f"  {bytes_moved / median * 1e-9:.1f} GB/s")
        if results:
            with open(results, "a", encoding="utf-8") as file:
                file.write(f"row\t{benchmark}\tcpu\t{size}\t{name}\t{kind}\t{median:.9g}\t"
                           f"{fastest:.9g}\t{slowest:.9g}\t{ratio:.6g}\t"
                           f"{bytes_moved / median * 1e-9:.6g}\t{flops / median * 1e-9:.6g}\n")


def main():
    brook.use("cpu")
    prog = brook.compile(SAXPY)
    rng = np.random.default_rng(3)

    n = 64 << 20
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    r = np.empty(n, dtype=np.float32)
    xs, ys, rs = brook.stream(x), brook.stream(y), brook.stream(r)
    np.testing.assert_allclose(prog.saxpy(2.0, x, y), 2.0 * x + y, rtol=1e-6)
    large = [
        ("Brook from Python, arrays (r returned)", "brook", lambda: prog.saxpy(2.0, x, y)),
        ("Brook from Python, arrays (out=r)", "brook", lambda: prog.saxpy(2.0, x, y, out=r)),
        ("Brook from Python, brook.streams", "brook", lambda: prog.saxpy(2.0, xs, ys, out=rs)),
        ("NumPy a * x + y", "baseline", lambda: 2.0 * x + y),
        ("NumPy in place (multiply, add with out=)", "baseline",
         lambda: np.add(np.multiply(x, 2.0, out=r), y, out=r)),
    ]
    report("python saxpy", "64M float", large, measure(large, 1), 12 * n, 2 * n)

    small = np.ones(16, dtype=np.float32)
    s16 = [brook.stream(small) for _ in range(3)]
    out16 = np.empty(16, dtype=np.float32)
    calls = 2000
    from_python = [
        ("Brook from Python, brook.streams", "brook",
         lambda: prog.saxpy(2.0, s16[0], s16[1], out=s16[2])),
        ("Brook from Python, arrays (out=)", "brook",
         lambda: prog.saxpy(2.0, small, small, out=out16)),
    ]
    timings = measure(from_python, calls)
    # The C++ loop times itself: its calls, not Python's call of the loop.
    from_cpp = "the same call from C++, bound once"
    cpp = [prog.saxpy._cpp_call_seconds(2.0, s16[0], s16[1], out=s16[2], repeats=calls)
           for _ in range(REPS)]
    timings[from_cpp] = (statistics.median(cpp), min(cpp), max(cpp))
    report("python call", "16 float", from_python + [(from_cpp, "baseline", None)], timings,
           12 * 16, 2 * 16)
    overhead = timings[from_python[0][0]][0] - timings[from_cpp][0]
    print(f"  the module's cost per call: {overhead * 1e6:.2f} µs")


if __name__ == "__main__":
    main()
