#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
"""Runs the benchmark suite and writes its report (`make bench` calls this).

Reads BUILD/bench/benchmarks.tsv (written by bench/CMakeLists.txt: name, program, run
configurations, arguments, type), runs every program once per configuration (a backend, optionally
with environment settings: `gl+BRT_GL_MAX_OUTPUTS=1`), each in its own process since the runtime
picks its backend once per process. Benchmark programs append their rows to one results file (see
bench/harness.hpp). Applications (examples/) time themselves once per process and print a
`result: name=... ms=... ref_ms=...` line (on a GPU, bench's builds of them also a `gpu:` line
per GPU baseline, bench/application_baselines.hpp); they are run BROOK_BENCH_APP_RUNS times
(default 3) per configuration and this script adds the medians to the same file. From it this
script writes, into BUILD/bench-results/: results.tsv, results.md (the tables), figure3.png
(speedups over the CPU reference, per case and backend), figure4.png (time per call against
stream length, log-log), and regenerates docs/performance.md with the machine the figures were
measured on (and the GPU table of issue 42, its rows skipped without a GPU). A configuration
whose backend cannot start on this machine is reported as skipped; any other failure makes the
script exit non-zero. Then the mpi backend's scaling table (bench/mpi_scaling.py, which also runs
that step alone); a kernel whose bytes exchanged differ from its model makes it exit non-zero too.

Usage: run_bench.py BUILD_DIR [--docs docs/performance.md]
"""

import argparse
import collections
import datetime
import math
import os
import pathlib
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

import mpi_scaling

# Cases that are not an application run but a sweep, a model measurement or a table of their own
# (§4.2 Table 1, the hand-written GL comparison): they get their own figure or table, not a bar
# in Figure 3.
NOT_IN_FIGURE3 = {"mad43", "transfer", "kernel call", "table1 Mat4Mult", "table1 Cloth",
                  "gl saxpy"}

Row = collections.namedtuple(
    "Row", "benchmark backend size variant kind median min max ratio gbytes gflops")
Note = collections.namedtuple("Note", "benchmark backend name value unit")

# What each application's `result:` line becomes (examples/common/example_support.hpp): its case's
# size, its CPU reference's name, the work one run does for the Figure 3 table's rate (the paper's
# MFLOPS, or ray-triangle tests for the ray tracer; None where the paper has no such figure).
# `reference`: the fastest baseline's label (its `ref_ms`); `single`: the label of the same
# baseline on one thread (`ref1_ms`), an extra row, or None; `passes`: the label of the same
# algorithm hand-written in C++ (`passes_ms`), the bound it sets on the machine, or None.
Application = collections.namedtuple("Application", "size reference work unit single passes",
                                     defaults=(None, None))
BITONIC_PASSES = "the same bitonic passes in C++, OpenMP, all threads"


def square(count):
    """`count` as SIDExSIDE when it is a square, the applications' default shape."""
    side = math.isqrt(count)
    return f"{side}x{side}" if side * side == count else str(count)


APPLICATIONS = {
    "segment": Application(
        lambda f: f"{square(int(f['pixels']))}, {f['iterations']} iterations",
        "C++, cache-friendly, OpenMP, all threads",
        lambda f: 32 * int(f["pixels"]) * int(f["iterations"]), "flops",
        "C++, cache-friendly (1 thread)"),
    "fft": Application(
        lambda f: f"{f['width']}x{f['height']}, 4 channels",
        "FFTW 3, FFTW_MEASURE, all threads",
        lambda f: 5 * 4 * int(f["width"]) * int(f["height"])
        * math.log2(int(f["width"]) * int(f["height"])), "flops",
        "FFTW 3, FFTW_MEASURE (1 thread)"),
    "raytrace": Application(
        lambda f: f"{square(int(f['rays']))} rays",
        "C++ tracer, same grid, OpenMP, all threads",
        lambda f: int(f["tests"]), "ray-triangle tests", "C++ tracer, same grid (1 thread)"),
    "bitonic_sort": Application(
        lambda f: f"{f['count']} floats", "libstdc++ parallel sort, all threads", None, None,
        "std::sort (1 thread)", BITONIC_PASSES),
    "uniform_grid": Application(
        lambda f: f"{f['particles']} particles, {f['cells']} cells",
        "OpenMP + parallel sort + std::lower_bound, all threads", None, None,
        "std::sort + std::lower_bound (1 thread)", BITONIC_PASSES),
    "max_reduction": Application(
        lambda f: f"{square(int(f['pixels']))} float3", "OpenMP SIMD max, all threads", None,
        None, "C++ SIMD loop (1 thread)"),
}

# The GPU baselines that bench's build of an application (bench_app_NAME: the example with its hook,
# bench/application_baselines.hpp) times on cuda and on gl, wherever the CUDA runtime finds a
# device, in the same process as Brook, one `gpu:` line each: (case, `baseline=`) -> the
# baseline's label. A case no `result:` line gives (the binary search alone, tone-map's map alone)
# takes its size from GPU_ONLY_SIZES and Brook's time from the line's `brook_ms`.
DEVICE_COPY = "device copy (cudaMemcpy)"
GPU_BASELINES = {
    ("segment", "cuda"): "hand-written CUDA, a thread per pixel",
    ("fft", "cufft"): "cuFFT 2-D C2C, the 4 channels batched",
    ("raytrace", "cuda"): "hand-written CUDA grid tracer, a thread per ray",
    ("bitonic_sort", "cuda_bitonic"): "CUDA bitonic sort, the same network",
    ("bitonic_sort", "cub_radix"): "cub::DeviceRadixSort::SortKeys",
    ("uniform_grid", "cuda"): "hand-written CUDA, the same bitonic network and lower_bound",
    ("binary_search", "lower_bound"): "CUDA vectorised lower_bound, a thread per query",
    ("max_reduction", "cub_max"): "cub::DeviceReduce::Max of the image's floats, to the host",
    ("tone_map", "cuda"): "hand-written CUDA map, float4 loads and stores",
    ("tone_map", "device_copy"): DEVICE_COPY,
}
GPU_ONLY_SIZES = {
    "binary_search": lambda f: f"{f['queries']} queries in {f['keys']} sorted keys",
    "tone_map": lambda f: f"{square(int(f['pixels']))} float3",
}

# Issue 42's targets on a GPU (its section 2), each the least ratio of the GPU baseline's median
# time over Brook's on cuda, measured in the same run (None: reported, no target); the same
# comparison on gl (NVIDIA's EGL) is reported beside it, without a target: label, benchmark, size
# (None: an application's, whose size label holds its arguments), Brook's variant, the
# baseline's, the ratio, and the manifest entry that measures it (for why it was not).
GpuTarget = collections.namedtuple("GpuTarget",
                                   "label benchmark size brook baseline at_least program")
GPU_BACKENDS = ("cuda", "gl")
GPU_TARGETS = [
    GpuTarget("SAXPY 1024x1024 float4 ≥ 0.9x the device's copy bandwidth", "saxpy",
              "1024x1024 float4", "Brook", DEVICE_COPY, 0.9, "saxpy"),
    GpuTarget("SAXPY 64M floats ≥ 0.9x the device's copy bandwidth", "saxpy", "64M float",
              "Brook", DEVICE_COPY, 0.9, "saxpy"),
    GpuTarget("tone-map's map ≥ 0.9x the device's copy bandwidth", "tone_map", None, "Brook",
              DEVICE_COPY, 0.9, "tonemap"),
    GpuTarget("tone-map's map against the hand-written CUDA map", "tone_map", None, "Brook",
              GPU_BASELINES["tone_map", "cuda"], None, "tonemap"),
    GpuTarget("sum of 2^26 floats ≥ 0.9x CUB", "sum", "64M float", "Brook reduce",
              "cub::DeviceReduce::Sum", 0.9, "reduce"),
    GpuTarget("tone-map's max reduction ≥ 0.9x CUB", "max_reduction", None, "Brook",
              GPU_BASELINES["max_reduction", "cub_max"], 0.9, "tonemap"),
    *[GpuTarget(f"SGEMV {n}x{n}, {form} ≥ 0.8x cuBLAS", "sgemv", f"{n}x{n}", f"Brook, {form}",
                "cublasSgemv", 0.8, "sgemv")
      for n in (1024, 4096, 8192) for form in ("gather loop", "multiply+reduce")],
    GpuTarget("FFT ≥ 0.5x cuFFT", "fft", None, "Brook", GPU_BASELINES["fft", "cufft"], 0.5,
              "fft"),
    GpuTarget("bitonic sort ≥ 0.8x the CUDA bitonic sort", "bitonic_sort", None, "Brook",
              GPU_BASELINES["bitonic_sort", "cuda_bitonic"], 0.8, "sort_search"),
    GpuTarget("bitonic sort against CUB's radix sort", "bitonic_sort", None, "Brook",
              GPU_BASELINES["bitonic_sort", "cub_radix"], None, "sort_search"),
    GpuTarget("Segment ≥ 0.8x hand-written CUDA", "segment", None, "Brook",
              GPU_BASELINES["segment", "cuda"], 0.8, "segment"),
    GpuTarget("ray tracer ≥ 0.8x hand-written CUDA", "raytrace", None, "Brook",
              GPU_BASELINES["raytrace", "cuda"], 0.8, "raytrace"),
    GpuTarget("binary search ≥ 0.8x the vectorised lower_bound", "binary_search", None, "Brook",
              GPU_BASELINES["binary_search", "lower_bound"], 0.8, "sort_search"),
    GpuTarget("uniform grid ≥ 0.8x hand-written CUDA", "uniform_grid", None, "Brook",
              GPU_BASELINES["uniform_grid", "cuda"], 0.8, "sort_search"),
    # Brook's time at most twice the bare launch's.
    GpuTarget("a 16-element kernel call ≤ 2x a bare cuLaunchKernel plus sync", "kernel call",
              "16 float4", "Brook, each call waited for", "cuLaunchKernel + cuStreamSynchronize",
              0.5, "issue_cost"),
]

# What the paper reports per case in §5.1 for its 2004 machines (Pentium 4 3 GHz against an ATI
# Radeon X800 XT and a GeForce 6800). Figure 3's own table of MFLOPS is an image that the paper's
# text (shared/seeds) does not carry; these are the figures its text gives.
PAPER = {
    "saxpy": "Brook (DirectX, X800 XT) about 7x the CPU (Intel MKL)",
    "segment": "Brook (DirectX, X800 XT) about 4.7x the CPU (cache-friendly C++)",
    "fft": "Brook 0.99x the CPU; FFTW 3 on the P4: 1224 MFLOPS",
    "raytrace": "CPU: Wald's hand-written tracer, up to 100M rays/s on the P4 (published)",
}
WORK_NOTE = "work per run"


def parse_results(path):
    rows, notes = [], []
    for line in path.read_text().splitlines():
        fields = line.split("\t")
        if fields[0] == "row":
            rows.append(Row(*fields[1:6], *map(float, fields[6:])))
        elif fields[0] == "note":
            notes.append(Note(fields[1], fields[2], fields[3], float(fields[4]), fields[5]))
    return rows, notes


def run_config(program, config, args, log_dir, name, env):
    """Runs `program` under `config`; returns (None, stdout) on success, else
    (("skipped"|"failed", why), stdout)."""
    backend, *settings = config.split("+")
    env = dict(env, BRT_RUNTIME=backend)
    env.update(setting.split("=", 1) for setting in settings)
    print(f"== {name} on {config}", flush=True)
    process = subprocess.run([program, *args], env=env, capture_output=True, text=True)
    log = log_dir / f"{name}.{config.replace('+', '.').replace('=', '')}.log"
    with log.open("a") as f:
        f.write(process.stdout + process.stderr)
    sys.stdout.write(process.stdout)
    if process.returncode == 0:
        return None, process.stdout
    sys.stdout.write(process.stderr)
    if f"BRT_RUNTIME={backend}:" in process.stderr:
        return ("skipped", process.stderr.strip().splitlines()[-1]), process.stdout
    return ("failed", f"exit status {process.returncode}, see {log}"), process.stdout


def run_benchmark(program, config, args, results, log_dir, name):
    """A harness program: it appends its own rows to `results`."""
    env = dict(os.environ, BROOK_BENCH_RESULTS=str(results))
    return run_config(program, config, args, log_dir, name, env)[0]


def parse_result_lines(output, prefix="result: "):
    """The `result: name=... key=value...` lines of an application's output (or those that
    begin with `prefix`), as dicts."""
    return [dict(field.split("=", 1) for field in line.split()[1:])
            for line in output.splitlines() if line.startswith(prefix)]


def write_rows(f, case, config, size, brook, baselines, flops=0.0):
    """A case's Brook row and one row per baseline (label, times in seconds): median, fastest and
    slowest of the runs; the ratio of a baseline's row is its time over Brook's, Brook's row's the
    fastest baseline's over its own."""
    fastest = min(statistics.median(times) for _, times in baselines)
    for variant, kind, times in ([("Brook", "brook", brook)] +
                                 [(name, "baseline", times) for name, times in baselines]):
        median = statistics.median(times)
        ratio = (median if kind == "baseline" else fastest) / statistics.median(brook)
        f.write(f"row\t{case}\t{config}\t{size}\t{variant}\t{kind}\t{median:.9g}\t"
                f"{min(times):.9g}\t{max(times):.9g}\t{ratio:.6g}\t0\t"
                f"{flops / median * 1e-9:.6g}\n")


def seconds(samples, key):
    """The times `key` (milliseconds: three decimals on a `result:` line, six on a `gpu:` one) of
    each run, in seconds: below 1 µs (a `result:` line's last decimal), count 1 µs."""
    return [max(float(fields[key]) * 1e-3, 1e-6) for fields in samples]


def run_application(program, config, args, results, log_dir, name, runs):
    """An application: runs it `runs` times and appends, per `result:` line, a Brook row and a
    reference row with the median, fastest and slowest of its runs, and the work one run does."""
    by_case = collections.OrderedDict()
    # On cuda and gl with a CUDA device, the GPU baselines' `gpu:` lines: case -> baseline -> the
    # runs' fields.
    gpu = collections.OrderedDict()
    for _ in range(runs):
        problem, output = run_config(program, config, args, log_dir, name, os.environ)
        if problem:
            return problem
        for fields in parse_result_lines(output):
            by_case.setdefault(fields["name"], []).append(fields)
        for fields in parse_result_lines(output, "gpu: "):
            gpu.setdefault(fields["name"], collections.OrderedDict()).setdefault(
                fields["baseline"], []).append(fields)
    if not by_case:
        return ("failed", f"no `result:` line in its output, see {log_dir}/{name}.*.log")
    with results.open("a") as f:
        for case, samples in by_case.items():
            application = APPLICATIONS[case]
            size = application.size(samples[0])
            work = application.work(samples[0]) if application.work else 0.0
            flops = work if application.unit == "flops" else 0.0
            baselines = [(application.reference, seconds(samples, "ref_ms"))]
            for label, key in ((application.single, "ref1_ms"), (application.passes, "passes_ms")):
                if label and key in samples[0]:
                    baselines.append((label, seconds(samples, key)))
            baselines += [(GPU_BASELINES[case, key], seconds(gpu_samples, "ms"))
                          for key, gpu_samples in gpu.pop(case, {}).items()]
            write_rows(f, case, config, size, seconds(samples, "ms"), baselines, flops)
            if work:
                f.write(f"note\t{case}\t{config}\t{WORK_NOTE}\t{work:.9g}\t"
                        f"{application.unit}\n")
            # The ray tracer's speed reference, Intel Embree (its own BVH: rays/s, no test count).
            if "embree_ms" in samples[0] and "rays" in samples[0]:
                embree = statistics.median(float(fields["embree_ms"]) * 1e-3 for fields in samples)
                f.write(f"note\t{case}\t{config}\tEmbree 3 (all threads)\t"
                        f"{int(samples[0]['rays']) / max(embree, 1e-6):.6g}\trays/s\n")
        # A GPU-only case (a part of an application timed alone, without a CPU reference).
        for case, by_baseline in gpu.items():
            samples = next(iter(by_baseline.values()))
            write_rows(f, case, config, GPU_ONLY_SIZES[case](samples[0]),
                       seconds(samples, "brook_ms"),
                       [(GPU_BASELINES[case, key], seconds(gpu_samples, "ms"))
                        for key, gpu_samples in by_baseline.items()])
    return None


def format_time(seconds):
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3f} ms"
    return f"{seconds:.3f} s"


def results_tables(rows, notes):
    """The Markdown tables: one per benchmark, then the derived figures."""
    lines = []
    by_benchmark = collections.OrderedDict()
    for row in rows:
        by_benchmark.setdefault(row.benchmark, []).append(row)
    for benchmark, group in by_benchmark.items():
        lines += [f"### {benchmark}", "",
                  "| size | backend | variant | median | min .. max | ratio | GB/s | GFLOPS |",
                  "|---|---|---|---:|---|---:|---:|---:|"]
        for r in group:
            name = f"**{r.variant}**" if r.kind == "brook" else r.variant
            gbytes = f"{r.gbytes:.1f}" if r.gbytes > 0 else ""
            gflops = f"{r.gflops:.2f}" if r.gflops > 0 else ""
            lines.append(f"| {r.size} | {r.backend} | {name} | {format_time(r.median)} | "
                         f"{format_time(r.min)} .. {format_time(r.max)} | {r.ratio:.2f} | "
                         f"{gbytes} | {gflops} |")
        lines.append("")
    if notes:
        lines += ["### Derived figures", "", "| benchmark | backend | figure | value |",
                  "|---|---|---|---:|"]
        for n in notes:
            lines.append(f"| {n.benchmark} | {n.backend} | {n.name} | {n.value:.4g} {n.unit} |")
        lines.append("")
    return lines


def find(rows, benchmark, size, backend, variant=None, kind=None):
    """The first row of `benchmark` on `backend`, of `size` unless that is None, of `variant` and
    `kind` where given; None when there is none."""
    for r in rows:
        if (r.benchmark, r.backend) == (benchmark, backend) and size in (None, r.size) and \
                (variant is None or r.variant == variant) and (kind is None or r.kind == kind):
            return r
    return None


def targets(rows, notes):
    """Issue 5's "Done when" targets on the cpu backend, each as a table row with its verdict."""
    lines = ["| target | measured | met |", "|---|---|---|"]

    def verdict(label, measured, ok):
        lines.append(f"| {label} | {measured} | {'yes' if ok else '**no**'} |")

    saxpy = find(rows, "saxpy", "1024x1024 float4", "cpu", "Brook")
    omp = find(rows, "saxpy", "1024x1024 float4", "cpu", "OpenMP loop")
    triad = find(rows, "saxpy", "1024x1024 float4", "cpu", "STREAM triad")
    if saxpy and omp and triad:
        verdict("SAXPY 1024x1024 float4: Brook within 10% of the OpenMP loop",
                f"Brook/OpenMP = {saxpy.median / omp.median:.2f}",
                saxpy.median <= 1.10 * omp.median)
        verdict("SAXPY 1024x1024 float4: at least 80% of the triad's GB/s",
                f"{saxpy.gbytes:.1f} of {triad.gbytes:.1f} GB/s "
                f"({100 * saxpy.gbytes / triad.gbytes:.0f}%)",
                saxpy.gbytes >= 0.8 * triad.gbytes)
    for size in ("1024x1024", "4096x4096"):
        cases = [r for r in rows if (r.benchmark, r.size, r.backend) == ("sgemv", size, "cpu")]
        brook = [r for r in cases if r.kind == "brook"]
        base = [r for r in cases if r.kind == "baseline"]
        if brook and base:
            best_brook = min(brook, key=lambda r: r.median)
            best_base = min(base, key=lambda r: r.median)
            verdict(f"SGEMV {size}: Brook within 25% of the faster baseline",
                    f"{best_brook.variant} / {best_base.variant} = "
                    f"{best_brook.median / best_base.median:.2f}",
                    best_brook.median <= 1.25 * best_base.median)
    total = find(rows, "sum", "1024K float4", "cpu", kind="brook")
    omp_total = find(rows, "sum", "1024K float4", "cpu", kind="baseline")
    if total and omp_total:
        verdict("Sum of 2^20 float4: within 10% of the OpenMP reduction",
                f"Brook/OpenMP = {total.median / omp_total.median:.2f}",
                total.median <= 1.10 * omp_total.median)
    mad = find(rows, "mad43", "1048576", "cpu", kind="brook")
    loop = find(rows, "mad43", "1048576", "cpu", kind="baseline")
    if mad and loop:
        verdict("43-MAD kernel at 1M: at least 80% of the hand-written loop's GFLOPS",
                f"{mad.gflops:.1f} of {loop.gflops:.1f} GFLOPS "
                f"({100 * mad.gflops / loop.gflops:.0f}%)", mad.gflops >= 0.8 * loop.gflops)
    small = find(rows, "mad43", "16", "cpu", kind="brook")
    if small:
        verdict("43-MAD kernel, 16-element call under 2 µs", format_time(small.median),
                small.median < 2e-6)
    return lines


def cpu_targets(rows):
    """The cpu backend's targets (issues 14 and 45; 2 threads, medians of one run), and the
    Python module's and brcc's (issue 46, 45), each as a table row with its verdict.
    A ratio is the baseline's median time over Brook's, so above 1 Brook is faster. Applications
    are found by name alone (size None): their size label holds their arguments."""
    lines = ["| target | measured | met |", "|---|---|---|"]

    def verdict(label, measured, ok):
        lines.append(f"| {label} | {measured} | {'yes' if ok else '**no**'} |")

    def pair(benchmark, size, backend, brook_variant, baseline_variant):
        """The Brook row and the baseline row, or None when either is missing."""
        brook = find(rows, benchmark, size, backend, brook_variant)
        baseline = find(rows, benchmark, size, backend, baseline_variant)
        return (brook, baseline) if brook and baseline else None

    def against(label, benchmark, size, backend, brook_variant, baseline_variant, at_least):
        if found := pair(benchmark, size, backend, brook_variant, baseline_variant):
            brook, baseline = found
            value = baseline.median / brook.median
            verdict(label, f"{format_time(brook.median)} vs {format_time(baseline.median)}: "
                    f"{value:.2f}x", value >= at_least)

    against("sum of 2^20 float4 ≥ 0.95x the expert OpenMP reduction", "sum", "1024K float4",
            "cpu", "Brook reduce", "OpenMP reduction", 0.95)
    if found := pair("max_reduction", "1024x1024 float3", "cpu", "Brook",
                     "OpenMP SIMD max, all threads"):
        brook, parallel = found
        value = parallel.median / brook.median
        verdict("tonemap max ≥ 0.95x the parallel loop, no run over 2x the median",
                f"{value:.2f}x; slowest run {brook.max / brook.median:.2f}x the median",
                value >= 0.95 and brook.max <= 2 * brook.median)
    if found := pair("sgemv", "1024x1024", "cpu", "Brook, multiply+reduce",
                     "Brook, gather loop"):
        paper, gather = found
        verdict("SGEMV multiply+reduce within 1.3x of the gather loop",
                f"{paper.median / gather.median:.2f}x the gather loop's time",
                paper.median <= 1.3 * gather.median)
    against("SAXPY 64M floats in place ≥ 0.95x cblas_saxpy", "saxpy", "64M float", "cpu",
            "Brook in place (y = a x + y)", "cblas_saxpy (OpenBLAS)", 0.95)
    against("SAXPY 64M floats into a third stream ≥ 0.95x cblas_saxpy in place", "saxpy",
            "64M float", "cpu", "Brook", "cblas_saxpy (OpenBLAS)", 0.95)
    for operation in ("streamRead", "streamWrite"):
        for destination in ("fresh", "touched"):
            kind = "stream" if operation == "streamRead" else "memory"
            for size in sorted({r.size for r in rows if r.benchmark == operation and
                                r.size.endswith(f"{destination} {kind}")}):
                against(f"{operation} {size} ≥ 0.8x memcpy on the same threads", operation,
                        size, "cpu", "Brook",
                        f"memcpy into {destination} memory, same threads", 0.8)
    if found := pair("saxpy", "64M float", "cpu", "Brook", "STREAM triad"):
        brook, triad = found
        lines.append(f"| SAXPY 64M floats into a third stream, against the STREAM triad | "
                     f"{brook.gbytes:.1f} of {triad.gbytes:.1f} GB/s "
                     f"({100 * brook.gbytes / triad.gbytes:.0f}%) | reported |")
    against("SAXPY 1024x1024 float4 ≥ 0.95x the OpenMP loop", "saxpy", "1024x1024 float4",
            "cpu", "Brook", "OpenMP loop", 0.95)
    if found := pair("stream_creation", "2 x 256M float", "cpu", "Brook",
                     "new float[] + OpenMP first touch"):
        brook, cpp = found
        verdict("two 1 GiB streams and the first kernel ≤ 1.2x the C++ steps",
                f"{brook.median / cpp.median:.2f}x the C++ time",
                brook.median <= 1.2 * cpp.median)
    for benchmark, label, at_least in (
            ("raytrace", "ray tracer ≥ 1.0x the parallel C++ tracer", 1.0),
            ("fft", "FFT ≥ 0.5x FFTW (FFTW_MEASURE, all threads)", 0.5),
            ("segment", "segment ≥ 1.0x the parallel C++", 1.0),
            ("uniform_grid", "uniform grid ≥ 1.0x the parallel C++", 1.0)):
        if brook := find(rows, benchmark, None, "cpu", "Brook"):
            verdict(label, f"{brook.ratio:.2f}x the fastest baseline", brook.ratio >= at_least)
    against("bitonic sort ≥ 1.0x the 1-thread std::sort", "bitonic_sort", None, "cpu", "Brook",
            "std::sort (1 thread)", 1.0)
    against("bitonic sort ≥ 0.9x libstdc++'s parallel sort", "bitonic_sort", None, "cpu", "Brook",
            "libstdc++ parallel sort, all threads", 0.9)
    # What the algorithm allows here: its passes hand-written in C++ against the same std::sort.
    for benchmark, single in (("bitonic_sort", "std::sort (1 thread)"),
                              ("uniform_grid", "OpenMP + parallel sort + std::lower_bound, "
                                               "all threads")):
        brook = find(rows, benchmark, None, "cpu", "Brook")
        if (found := pair(benchmark, None, "cpu", BITONIC_PASSES, single)) and brook:
            passes, sort = found
            lines.append(f"| {benchmark}: the bitonic passes in C++ against {single}; Brook "
                         f"against those passes | {sort.median / passes.median:.2f}x; "
                         f"{passes.median / brook.median:.2f}x | reported |")
    brcc = {count: find(rows, "brcc", f"{count} kernels", "cpu", "brcc --backends cpu --emit-cpp")
            for count in (1000, 8000)}
    if brcc[1000] and brcc[8000]:
        growth = brcc[8000].median / brcc[1000].median
        verdict("brcc: 8,000 one-line kernels in under 2 s, 8x the kernels in under 10x the time",
                f"{format_time(brcc[8000].median)}; {growth:.1f}x the time of 1,000",
                brcc[8000].median < 2.0 and growth < 10.0)
    against("Python: SAXPY 64M floats from arrays ≥ 1.0x NumPy's a * x + y", "python saxpy",
            "64M float", "cpu", "Brook from Python, arrays (r returned)", "NumPy a * x + y", 1.0)
    if found := pair("python call", "16 float", "cpu", "Brook from Python, brook.streams",
                     "the same call from C++, bound once"):
        python, cpp = found
        overhead = python.median - cpp.median
        verdict("Python: a 16-element call ≤ 20 µs more than from C++",
                f"{format_time(python.median)} vs {format_time(cpp.median)}: "
                f"{overhead * 1e6:.2f} µs more", overhead <= 20e-6)
    against("gl: SAXPY 1024x1024 float4 ≥ 0.9x hand-written GL", "gl saxpy", "1024x1024 float4",
            "gl", "Brook", "hand-written GL", 0.9)
    if found := pair("gl saxpy", "4x4 float4", "gl", "Brook", "hand-written GL"):
        brook, hand = found
        verdict("gl: a 16-element call ≤ 2x the hand-written GL's time",
                f"{format_time(brook.median)} vs {format_time(hand.median)}: "
                f"{brook.median / hand.median:.1f}x", brook.median <= 2 * hand.median)
    return lines


def gpu_table(rows, problems, ran):
    """Issue 42's GPU table: each target's Brook row against its GPU baseline's, measured in the
    same process, on cuda with its verdict and on gl reported beside it. A row this run has not
    is listed as skipped (the backend's configuration could not start, or it ran, `ran` holding
    its (manifest entry, configuration), without the GPU baselines: no CUDA device beside it, or
    a build without nvcc), failed or not run; why a configuration was skipped follows the table,
    once per reason."""
    lines = ["| target | backend | Brook | GPU baseline | baseline/Brook | met |",
             "|---|---|---:|---|---:|---|"]
    reasons = collections.OrderedDict((backend, []) for backend in GPU_BACKENDS)
    for target in GPU_TARGETS:
        for backend in GPU_BACKENDS:
            brook = find(rows, target.benchmark, target.size, backend, target.brook)
            baseline = find(rows, target.benchmark, target.size, backend, target.baseline)
            label = target.label if backend == GPU_BACKENDS[0] else ""
            if brook and baseline:
                ratio = baseline.median / brook.median
                met = ("reported" if target.at_least is None or backend != "cuda" else
                       "yes" if ratio >= target.at_least else "**no**")
                lines.append(f"| {label} | {backend} | {format_time(brook.median)} | "
                             f"{target.baseline}: {format_time(baseline.median)} | {ratio:.2f} | "
                             f"{met} |")
                continue
            why = next((why for name, config, kind, why in problems
                        if (name, config, kind) == (target.program, backend, "skipped")), None)
            if why:
                # The runtime's message without the program's file and line, the same for each.
                why = why[why.find("BRT_RUNTIME="):] if "BRT_RUNTIME=" in why else why
                reasons[backend] += [why] if why not in reasons[backend] else []
                status = f"skipped (no {backend} run)"
            elif (target.program, backend) in ran:
                status = f"skipped ({backend} ran without the GPU baselines)"
            elif (target.program, backend, "failed") in {problem[:3] for problem in problems}:
                status = "failed (see Not measured)"
            else:
                status = "not run"
            measured = format_time(brook.median) if brook else "not measured"
            lines.append(f"| {label} | {backend} | {measured} | {target.baseline} | | {status} |")
    for backend, why in reasons.items():
        if why:
            lines += ["", f"The {backend} configuration was skipped here:", "",
                      *(f"- {reason}" for reason in why)]
    return lines


def gpu_devices():
    """The NVIDIA GPUs as nvidia-smi reports them (name, driver, current and maximum clocks),
    one Markdown list item each; one saying there is none where nvidia-smi is missing or finds
    none."""
    fields = "name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem"
    found = shutil.which("nvidia-smi")
    output = subprocess.run([found, f"--query-gpu={fields}", "--format=csv,noheader"],
                            capture_output=True, text=True) if found else None
    if output is None or output.returncode != 0 or not output.stdout.strip():
        return ["- GPU: none found (nvidia-smi " +
                ("reports none)" if found else "is not installed)")]
    devices = []
    for line in output.stdout.strip().splitlines():
        name, driver, sm, memory, max_sm, max_memory = (v.strip() for v in line.split(","))
        devices.append(f"- GPU: {name}, driver {driver}; clocks as nvidia-smi reports them "
                       f"after the run: SM {sm} (at most {max_sm}), memory {memory} "
                       f"(at most {max_memory})")
    return devices


def gnuplot(script):
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


Figure3Case = collections.namedtuple("Figure3Case", "benchmark size variant reference other brook")


def figure3_cases(rows):
    """Figure 3's cases: per benchmark, size and Brook variant, the CPU reference (the case's first
    baseline in its cpu run, the bar height 1), its fastest other CPU baseline, and the Brook rows
    by backend."""
    groups = collections.OrderedDict()
    for r in rows:
        if r.benchmark not in NOT_IN_FIGURE3:
            groups.setdefault((r.benchmark, r.size), []).append(r)
    cases = []
    for (benchmark, size), group in groups.items():
        cpu_baselines = [r for r in group if r.kind == "baseline" and r.backend == "cpu"]
        if not cpu_baselines:
            continue
        reference = cpu_baselines[0]
        other = min(cpu_baselines[1:], key=lambda r: r.median, default=None)
        variants = list(dict.fromkeys(r.variant for r in group if r.kind == "brook"))
        for variant in variants:
            brook = collections.OrderedDict(
                (r.backend, r) for r in group if r.kind == "brook" and r.variant == variant)
            cases.append(Figure3Case(benchmark, size, variant, reference, other, brook))
    return cases


def rate(row, notes):
    """A row's rate as the paper's Figure 3 table gives it: MFLOPS, or for the ray tracer
    millions of ray-triangle tests per second; empty where neither applies."""
    work = next((n for n in notes if n.benchmark == row.benchmark and n.name == WORK_NOTE), None)
    if work and work.unit != "flops":
        return f"{work.value / row.median * 1e-6:.1f} M {work.unit}/s"
    if row.gflops > 0:
        return f"{row.gflops * 1e3:.0f} MFLOPS"
    return ""


def figure3_table(cases, notes):
    """The Figure 3 table: every Brook variant on every backend against its case's CPU reference,
    beside what the paper measured on its hardware."""
    lines = ["| case | backend | Brook | Brook rate | CPU reference | reference rate | "
             "speedup | the paper, 2004 hardware |",
             "|---|---|---:|---:|---|---:|---:|---|"]
    for case in cases:
        variant = "" if case.variant == "Brook" else f", {case.variant.removeprefix('Brook, ')}"
        paper = PAPER.get(case.benchmark, "")
        for backend, r in case.brook.items():
            lines.append(
                f"| {case.benchmark} {case.size}{variant} | {backend} | {format_time(r.median)} | "
                f"{rate(r, notes)} | {case.reference.variant}: "
                f"{format_time(case.reference.median)} | {rate(case.reference, notes)} | "
                f"{case.reference.median / r.median:.2f} | {paper} |")
            paper = ""
    return lines


def figure3(cases, out_dir):
    """Bars, as the paper's Figure 3: per case, Brook on each backend and the fastest other CPU
    baseline, as speedup over the case's CPU reference (the dashed line at 1)."""
    if not cases:
        return None
    backends = list(dict.fromkeys(b for case in cases for b in case.brook))
    labels = [f"Brook ({b})" for b in backends] + ["fastest other CPU baseline"]
    table = out_dir / "figure3.dat"
    with table.open("w") as f:
        for case in cases:
            values = [case.brook.get(b) for b in backends] + [case.other]
            f.write("\t".join(f"{case.reference.median / r.median:.6g}" if r else "-"
                              for r in values) + "\n")
    tics = []
    for i, case in enumerate(cases):
        variant = "" if case.variant == "Brook" else f", {case.variant.removeprefix('Brook, ')}"
        tics.append(f'"{case.benchmark} {case.size}{variant}\\nvs {case.reference.variant}" {i}')
    colours = ["#1f77b4", "#2ca02c", "#d62728", "#9467bd"][:len(backends)] + ["#999999"]
    columns = ", ".join(f"'{table}' using {i + 1} title '{label}' noenhanced "
                        f"linecolor rgb '{colour}'"
                        for i, (label, colour) in enumerate(zip(labels, colours)))
    png = out_dir / "figure3.png"
    gnuplot(f"""
set terminal pngcairo size 1600,800 font ",10" noenhanced
set output '{png}'
set title "Figure 3: speedup over each case's CPU reference (dashed line); higher is faster" 
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set datafile missing '-'
set datafile separator '\t'
set logscale y 10
set format y '%g'
set ylabel 'CPU reference time / time'
set xtics ({", ".join(tics)}) rotate by -30 noenhanced font ",9"
set arrow from graph 0, first 1 to graph 1, first 1 nohead dashtype 2 linewidth 2 front
set key top right noenhanced
set grid ytics
set bmargin 12
set rmargin 12
plot {columns}
""")
    return png


def figure4(rows, out_dir):
    """Time per call of the 43-MAD kernel against stream length, per backend, log-log."""
    series = collections.OrderedDict()
    for r in rows:
        if r.benchmark != "mad43":
            continue
        label = f"Brook ({r.backend})" if r.kind == "brook" else f"{r.variant} ({r.backend})"
        if r.kind == "baseline" and r.backend != "cpu":
            continue
        series.setdefault(label, []).append((int(r.size), r.median * 1e6))
    if not series:
        return None
    plots = []
    for i, (label, points) in enumerate(series.items()):
        path = out_dir / f"figure4_{i}.dat"
        path.write_text("".join(f"{n}\t{t}\n" for n, t in sorted(points)))
        plots.append(f"'{path}' using 1:2 with linespoints title '{label}' noenhanced")
    png = out_dir / "figure4.png"
    gnuplot(f"""
set terminal pngcairo size 1000,650 font ",10" noenhanced
set output '{png}'
set title 'Time per call of the 43-multiply-add float4 kernel'
set logscale xy
set xlabel 'stream length (float4 elements)'
set ylabel 'time per call (µs)'
set format x '%.0s%c'
set key top left
set grid
plot {", ".join(plots)}
""")
    return png


def machine(build_dir):
    cpu = platform.processor()
    for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    compiler = "unknown"
    cache = pathlib.Path(build_dir) / "CMakeCache.txt"
    match = re.search(r"^CMAKE_CXX_COMPILER:\w+=(.*)$", cache.read_text(), re.M)
    if match:
        compiler = subprocess.run([match.group(1), "--version"], capture_output=True,
                                  text=True).stdout.splitlines()[0]
    threads = os.environ.get("BRT_THREADS", str(os.cpu_count()))
    return [f"- CPU: {cpu}, {os.cpu_count()} logical cores; threads used: {threads} "
            "(Brook's BRT_THREADS cap, OpenMP and OpenBLAS alike)",
            f"- Compiler: {compiler}, CMake Release build",
            f"- OpenGL: {gl_renderer()}",
            f"- Memory: {huge_pages()}",
            f"- Date: {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}"]


def huge_pages():
    """Which pages Brook's large cpu streams and the baselines' arrays had in this run."""
    setting = pathlib.Path("/sys/kernel/mm/transparent_hugepage/enabled")
    mode = re.search(r"\[(\w+)\]", setting.read_text()) if setting.exists() else None
    if mode is None or mode.group(1) == "never":
        return "no transparent huge pages: every array on 4 KiB pages"
    return (f"transparent huge pages `{mode.group(1)}`. The cpu backend advises its streams of "
            "4 MiB or more onto huge pages (`MADV_HUGEPAGE`); the C++ baselines' arrays "
            "(std::vector, new[]) have the pages a program gets without asking"
            + (", 4 KiB ones" if mode.group(1) != "always" else ", huge ones too"))


def gl_renderer():
    """What the gl backend ran on, as Mesa reports it (eglinfo is not always installed)."""
    if shutil.which("eglinfo") is None:
        return "the gl backend's EGL context (Mesa llvmpipe where no GPU driver is present)"
    output = subprocess.run(["eglinfo", "-B"], capture_output=True, text=True).stdout
    match = re.search(r"OpenGL core profile renderer: (.*)", output)
    return match.group(1) if match else "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir")
    parser.add_argument("--docs", default="docs/performance.md")
    options = parser.parse_args()

    build = pathlib.Path(options.build_dir).resolve()
    out_dir = build / "bench-results"
    out_dir.mkdir(exist_ok=True)
    results = out_dir / "results.tsv"
    results.unlink(missing_ok=True)
    for log in out_dir.glob("*.log"):
        log.unlink()
    runs = int(os.environ.get("BROOK_BENCH_APP_RUNS", "3"))
    problems = []
    ran = set()
    applications = []
    started = time.monotonic()
    load_before = os.getloadavg()
    manifest = (build / "bench" / "benchmarks.tsv").read_text().splitlines()
    for entry in manifest:
        name, program, configs, args, kind = entry.split("\t")
        if kind == "application":
            applications.append(f"`{pathlib.Path(program).name} {args}`".replace(" `", "`"))
        for config in configs.split():
            if kind == "application":
                problem = run_application(program, config, args.split(), results, out_dir, name,
                                          runs)
            else:
                problem = run_benchmark(program, config, args.split(), results, out_dir, name)
            if problem:
                problems.append((name, config, *problem))
            else:
                ran.add((name, config))
    scaling, scaling_problems = mpi_scaling.section(
        build, mpi_scaling.manifest_programs(build), out_dir)
    elapsed = time.monotonic() - started
    load_after = os.getloadavg()

    rows, notes = parse_results(results) if results.exists() else ([], [])
    tables = results_tables(rows, notes)
    (out_dir / "results.md").write_text("\n".join(tables) + "\n")
    docs = pathlib.Path(options.docs)
    image_dir = docs.parent / "performance"
    image_dir.mkdir(exist_ok=True)
    images = []
    cases = figure3_cases(rows)
    for png in (figure3(cases, out_dir), figure4(rows, out_dir)):
        if png:
            shutil.copy(png, image_dir / png.name)
            images.append(f"![{png.stem}](performance/{png.name})")

    skipped = [f"- {name} on {config}: {why}" for name, config, kind, why in problems
               if kind == "skipped"]
    failed = [f"- {name} on {config}: {why}" for name, config, kind, why in problems
              if kind == "failed"]
    page = [
        "# Performance",
        "",
        "The latest figures of `make bench` (bench/, see bench/run_bench.py), measured on:",
        "",
        *machine(build),
        f"- This run: {elapsed / 60:.1f} minutes for the benchmarks (not counting the build); "
        f"load average {load_before[0]:.2f} when it started, {load_after[0]:.2f} when it ended "
        "(above 0 means other work shared the cores, and absolute times suffer from it)",
        "",
        "Each row is one variant of one case, timed interleaved with the others in the same "
        "process after a warm-up, over several samples, its result checked against a reference. "
        "Every sample begins with one untimed call of the same variant, and every variant reads "
        "its own copy of its inputs, so that none finds its data in the cache because another "
        "variant just read it. A sample lasts at least 5 ms: its number of calls is sized in the "
        "warm-up from samples of that many calls, not from one call, since a variant's first "
        "calls and the first after another variant's can be several times slower than the rest. "
        "**Brook** rows are in bold. *ratio*: on a baseline row, its time over the first Brook "
        "variant's; on a Brook row, the fastest baseline's time over its own (above 1, Brook is "
        "faster). GB/s and GFLOPS count the bytes and operations the computation needs, not "
        "what an implementation happens to move. The ratios compare variants measured together; "
        "absolute times move with whatever else the machine is doing.",
        "",
        "`make bench` builds the suite into build-release/ (`-DBROOK_BUILD_BENCH=ON`), runs each "
        "program once per backend (cpu, gl; Table 1 on gl with `BRT_GL_MAX_OUTPUTS` 4 and 1), "
        "and writes build-release/bench-results/ (results.tsv, results.md, the plots, one log per "
        "run) and this page. `BROOK_BENCH_REPS=N` sets the samples per variant (default 11). "
        "A new benchmark is a .br file using bench/harness.hpp and one "
        "`brook_add_benchmark(name file.br)` line in bench/CMakeLists.txt; a new application "
        "is a program in examples/ that prints a `result:` line and one "
        "`brook_add_application(name)` line there (and an entry in run_bench.py's "
        "APPLICATIONS). Their cases join the tables and Figure 3.",
        "",
        "## Figure 3: the applications",
        "",
        "As the paper's Figure 3: each application with Brook on each backend against its CPU "
        "reference (the first baseline of its case, measured in the cpu run), *speedup* being "
        "the reference's time over Brook's. Rates as in the paper's table: MFLOPS counted the "
        "paper's way (SAXPY 2 per element, Segment 32 per pixel and iteration, FFT "
        "5·w·h·channels·log2(w·h)), and ray-triangle tests per second for the ray tracer. "
        "The last column is what the paper reports in §5.1 for its 2004 hardware (Pentium 4 "
        "3 GHz, ATI Radeon X800 XT, GeForce 6800), not a figure of ours; the paper's Figure 3 "
        "table of MFLOPS is an image that its text does not carry, so only the figures the text "
        "states are given. Like the paper, the times leave out streamRead and streamWrite, and "
        "each program's first kernel call (where a GPU backend compiles its shaders).",
        "",
        "The applications are the programs in examples/ (docs/applications.md), run "
        f"{runs} {'time' if runs == 1 else 'times'} per backend (`BROOK_BENCH_APP_RUNS`), each "
        "run timing Brook and each reference alike, as the median of 3 to 21 warm runs inside the "
        "program (the same count for each; tonemap and raytrace take Brook's runs and the parallel "
        "reference's in turn), and the table gives the medians over the runs. "
        "Run as: "
        + ", ".join(applications) + " (bench/CMakeLists.txt; no arguments: the program's "
        "defaults, which are the paper's sizes; `bench_app_NAME` is examples/NAME.br built with "
        "its GPU baselines, which run only on cuda and gl with a CUDA device). Segment runs 20 "
        "iterations instead of its default 100: the paper does not give its count, every "
        "iteration does the same work, and `make bench` has to run in minutes on a 2-core "
        "machine.",
        "",
        *figure3_table(cases, notes),
        "",
        "## Figure 3 on a GPU (issue 42)",
        "",
        "On the cuda backend, and on gl (NVIDIA's EGL), each case against the GPU library or "
        "hand-written CUDA of the same work, timed in the same process as Brook and checked "
        "against the same reference: the micro-benchmarks' baselines (bench/cuda_baselines.cu) "
        "in their harness, and the applications' (bench/cuda_applications.cu) through bench's "
        "build of each example, `bench_app_NAME`, the example's source built with "
        "`BROOK_BENCH_CUDA`, whose one hook (bench/application_baselines.hpp) times the baseline "
        "after Brook as the program times Brook, the median of as many warm runs. "
        "*baseline/Brook*: the baseline's median time over Brook's (1 is parity); the targets "
        "are issue 42's, judged on cuda, and the gl rows are reported beside them. The binary "
        "search is sort_search's `cell_starts` alone, over the grid's sorted keys; tone-map's map "
        "is tonemap's `tone_map` alone, timed per call over calls queued back to back beside the "
        "hand-written map and the device's copy of the same bytes; the 16-element call is "
        "issue_cost's kernel, each call waited for, beside the same kernel launched with "
        "`cuLaunchKernel` and waited for with `cuStreamSynchronize`. Without an NVIDIA GPU the "
        "cuda configuration cannot start and the gl one runs on Mesa's llvmpipe with no CUDA "
        "device beside it, which times no GPU baseline: the rows are skipped.",
        "",
        *gpu_devices(),
        "",
        *gpu_table(rows, problems, ran),
        "",
        "## Targets (issue 5, cpu backend)",
        "",
        *targets(rows, notes),
        "",
        "## Targets (issues 14, 45 and 46)",
        "",
        *cpu_targets(rows),
        "",
        *scaling,
        "## Figures",
        "",
        *images,
        "",
        "## Tables",
        "",
        *tables,
    ]
    if skipped or failed:
        page += ["## Not measured", "", *skipped, *failed, ""]
    docs.write_text("\n".join(page).rstrip() + "\n")
    print(f"Wrote {out_dir}/results.md, the plots, and {docs}")
    for line in skipped + failed + scaling_problems:
        print(line)
    return 1 if failed or scaling_problems else 0


if __name__ == "__main__":
    sys.exit(main())
