#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
"""brcc's time in the number of kernels (`make bench` runs it): a file of N one-line kernels
through brcc's front end and the cpu generator (`brcc --backends cpu --emit-cpp`), for 1,000 and
8,000 kernels, against the C++ compiler's front end on the same functions written in C++
(`c++ -fsyntax-only`). Machine-written Brook has thousands of kernels; the time should grow with
their number, not its square.

Usage: brcc_scaling.py BRCC [CXX]. Appends harness rows (bench/harness.hpp's format) to
$BROOK_BENCH_RESULTS and prints them; the median of BROOK_BENCH_REPS runs (default 5).
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

REPS = int(os.environ.get("BROOK_BENCH_REPS", "5"))


def timed(command):
    """The median, fastest and slowest seconds of `command`'s runs (each must succeed)."""
    times = []
    for _ in range(REPS):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times), max(times)


def main():
    brcc = sys.argv[1]
    cxx = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("CXX", "c++")
    results = os.environ.get("BROOK_BENCH_RESULTS")
    medians = {}
    with tempfile.TemporaryDirectory() as work:
        for count in (1000, 8000):
            brook = os.path.join(work, f"kernels_{count}.br")
            with open(brook, "w", encoding="utf-8") as file:
                for i in range(count):
                    file.write(f"kernel void k{i}(float a<>, out float b<>) {{ b = a + {i}.0; }}\n")
            cpp = os.path.join(work, f"functions_{count}.cpp")
            with open(cpp, "w", encoding="utf-8") as file:
                for i in range(count):
                    file.write(f"void k{i}(const float& a, float& b) {{ b = a + {i}.0f; }}\n")
            variants = [
                ("brcc --backends cpu --emit-cpp", "brook",
                 timed([brcc, "--backends", "cpu", "--emit-cpp", brook, "-o", os.devnull])),
                ("c++ -fsyntax-only, the same functions", "baseline",
                 timed([cxx, "-std=c++20", "-fsyntax-only", cpp])),
            ]
            size = f"{count} kernels"
            medians[count] = variants[0][2][0]
            print(f"brcc, {size}:")
            for name, kind, (median, fastest, slowest) in variants:
                ratio = (variants[1][2][0] / median if kind == "brook"
                         else median / variants[0][2][0])
                print(f"  {name:40s} {median:8.3f} s  ratio {ratio:.2f}")
                if results:
                    with open(results, "a", encoding="utf-8") as file:
                        file.write(f"row\tbrcc\tcpu\t{size}\t{name}\t{kind}\t{median:.9g}\t"
                                   f"{fastest:.9g}\t{slowest:.9g}\t{ratio:.6g}\t0\t0\n")
    print(f"  8,000 kernels take {medians[8000] / medians[1000]:.1f}x the time of 1,000")


if __name__ == "__main__":
    main()
