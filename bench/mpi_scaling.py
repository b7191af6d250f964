#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
"""The mpi backend's scaling table (issue 17): SAXPY, SGEMV, the sum, Segment and FFT under
`mpiexec -np 1` and `-np 2` with BRT_RUNTIME=mpi:cpu, and once on plain cpu as the reference.

For each case: the time per call (per run for the applications) and, from BRT_PROFILE=1's table
on stderr ("brook: mpi: bytes exchanged on N ranks", runtime/backends/mpi/mpi_backend.cpp), the
bytes the ranks received from each other per call of each kernel, beside this file's model of
them for that rank count and for 16 ranks. A kernel whose bytes differ from its model is flagged.

bench/run_bench.py puts the section into the report of `make bench`; run alone, this file runs
only this step and replaces its section of docs/performance.md, leaving the rest as it was.

Usage: mpi_scaling.py BUILD_DIR [--docs docs/performance.md]
"""

import argparse
import collections
import math
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys

# The report's helpers. run_bench.py imports this file in turn, which Python resolves: neither
# uses the other's names before both are loaded.
import run_bench

HEADING = "## Scaling over MPI ranks (the mpi backend)"
# The section of docs/performance.md that follows this one.
FOLLOWING = "## Figures"
RANKS = (1, 2)
PREDICTED_RANKS = 16

# The sizes: large enough that a call is milliseconds, small enough that the whole step runs in
# under two minutes on 2 cores (66 s with the load average at 10).
SAXPY_SIDE = 1024
SAXPY_FLOATS = 1 << 20
SGEMV_N = 2048
SUM_COUNT = 1 << 20
SEGMENT_SIDE = 1024
SEGMENT_ITERATIONS = 20
FFT_SIDE = 256
# The harness's samples (bench/harness.cpp): a fixed number of calls per sample, since every rank
# must make the same calls, which ranks timing their first call to size the samples would not.
HARNESS = {"BROOK_BENCH_CALLS": "3", "BROOK_BENCH_REPS": "7"}
# A run that takes longer has hung (ranks waiting for a call another rank does not make).
RUN_TIMEOUT_SECONDS = 120

# One kernel's bytes per call as a function of the rank count P, summed over the ranks as
# BRT_PROFILE counts them (a rank's own rows excluded; a reduction to a value as a tree of
# ceil(log2 P) steps of one partial result and its flag byte per rank).
Model = collections.namedtuple("Model", "kernel bytes formula why")
# A row of the table: the harness row (benchmark, size, Brook variant) or the application
# (`result:` name) it times, and the models of the kernels it calls.
Case = collections.namedtuple("Case", "label benchmark size variant models")
# One program and its arguments, and the cases one run of it gives.
Program = collections.namedtuple("Program", "name args cases")


def tree_depth(ranks):
    return math.ceil(math.log2(ranks)) if ranks > 1 else 0


def whole(elements, element_bytes):
    """A stream gathered whole on every rank (MPI_Allgatherv): each rank receives the rows it
    does not hold, (P - 1) times the stream summed over the ranks."""
    return lambda p: (p - 1) * elements * element_bytes


def halo(row_elements, element_bytes, reach=1):
    """A stencil's neighbour rows: each rank receives the `reach` rows on either side of its
    block that its neighbours hold, 2 (P - 1) reach rows summed over the ranks."""
    return lambda p: 2 * (p - 1) * reach * row_elements * element_bytes


def nothing(ranks):
    """The model of a kernel that reads only its own rows."""
    return 0


PROGRAMS = [
    Program("saxpy", [SAXPY_SIDE, SAXPY_SIDE, SAXPY_FLOATS], [
        Case("SAXPY", "saxpy", f"{SAXPY_SIDE}x{SAXPY_SIDE} float4", "Brook", [
            Model("saxpy4", nothing, "0",
                  "x and y have the output's shape, so each rank reads only its own rows")]),
        Case("SAXPY", "saxpy", f"{SAXPY_FLOATS >> 20}M float", "Brook", [
            Model("saxpy1", nothing, "0", "the same on a 1-D stream")]),
    ]),
    Program("sgemv", [SGEMV_N], [
        Case("SGEMV, gather loop", "sgemv", f"{SGEMV_N}x{SGEMV_N}", "Brook, gather loop", [
            Model("sgemv_rows", whole(SGEMV_N, 4), "(P - 1) · 4n",
                  "x[j] has no row bound, so x (n floats) is gathered whole; brcc bounds "
                  "a[row][j] to the rank's own rows and y_old has the output's shape")]),
        Case("SGEMV, multiply+reduce", "sgemv", f"{SGEMV_N}x{SGEMV_N}",
             "Brook, multiply+reduce", [
                 Model("multiply", whole(SGEMV_N, 4), "(P - 1) · 4n",
                       "x as a 1 x n stream is a resized input, gathered whole from the one "
                       "rank that holds its row"),
                 Model("row_sum", nothing, "0",
                       "target row j folds input row j, which the same rank holds"),
                 Model("scale_add", nothing, "0", "its inputs have the output's shape")]),
    ]),
    Program("reduce", [SUM_COUNT], [
        Case("sum", "sum", f"{SUM_COUNT >> 10}K float4", "Brook reduce", [
            Model("sum4", lambda p: p * tree_depth(p) * (16 + 1), "P · ceil(log2 P) · (16 + 1)",
                  "each rank folds its rows, then MPI joins the float4 partial results (and "
                  "their flag byte) in a tree of ceil(log2 P) steps")]),
    ]),
    Program("segment", [SEGMENT_SIDE, SEGMENT_ITERATIONS], [
        Case("Segment", "segment", None, "Brook", [
            Model("evolve", halo(SEGMENT_SIDE, 8), "2 (P - 1) · 8W",
                  "its rows are indexof(next).y + origin.y ± 1, origin a constant argument (the "
                  "position of the view evolve runs on) whose value the backend adds at the "
                  "launch, so each rank receives the row above and below its block (W float2)")]),
    ]),
    Program("fft", [FFT_SIDE, FFT_SIDE], [
        Case("FFT", "fft", None, "Brook", [
            Model("bit_reverse", whole(2 * FFT_SIDE * FFT_SIDE, 16), "(P - 1) · 2 · 16 WH",
                  "a bit-reversed position is any row, so re and im (W H float4 each) are "
                  "gathered whole"),
            Model("butterfly",
                  lambda p: whole(2 * FFT_SIDE * FFT_SIDE, 16)(p) + whole(FFT_SIDE // 2, 8)(p),
                  "(P - 1) (2 · 16 WH + 8 max(W, H) / 2)",
                  "the partner row is `span` rows away, a constant argument brcc does not bound, "
                  "so re, im and the max(W, H) / 2 float2 twiddles are gathered whole")]),
    ]),
]


def threads_per_rank(ranks):
    return max(1, (os.cpu_count() or 1) // ranks)


def launcher(build):
    """The mpiexec that CMake found for the mpi backend, or (None, why not)."""
    recorded = build / "bench" / "mpiexec.txt"
    if not recorded.exists():
        return None, f"{recorded} is missing: configure the build again"
    mpiexec = recorded.read_text().strip()
    if not mpiexec:
        return None, "libbrook was built without the mpi backend (CMake found no MPI)"
    if shutil.which(mpiexec) is None:
        return None, f"{mpiexec} is not there to run"
    return mpiexec, None


def mpiexec_command(mpiexec, ranks):
    """As runtime/backends/mpi/tests/run_on_ranks.sh starts a job: more ranks than cores allowed,
    as root where CI runs as root, shared memory between the ranks; and no binding, so that a
    rank's threads use every core it was given (Open MPI binds one or two ranks to a core each)."""
    command = [mpiexec, "-np", str(ranks), "--oversubscribe", "--mca", "btl", "self,vader",
               "--bind-to", "none"]
    if os.getuid() == 0:
        command.append("--allow-run-as-root")
    return command


Run = collections.namedtuple("Run", "config ranks threads command env")


def runs(mpiexec):
    """The plain cpu reference, then mpi:cpu on each rank count."""
    threads = threads_per_rank(1)
    yield Run("cpu", None, threads, [], {"BRT_RUNTIME": "cpu"})
    for ranks in RANKS:
        threads = threads_per_rank(ranks)
        yield Run(f"mpi:cpu -np {ranks}", ranks, threads, mpiexec_command(mpiexec, ranks),
                  {"BRT_RUNTIME": "mpi:cpu", "BRT_PROFILE": "1"})


def exchanged_bytes(stderr):
    """BRT_PROFILE's table: kernel -> (calls, bytes summed over the ranks)."""
    table = {}
    lines = iter(stderr.splitlines())
    for line in lines:
        if line.startswith("brook: mpi: bytes exchanged on "):
            break
    for line in lines:
        match = re.fullmatch(r"\s+(\S+)\s+(\d+)\s+(\d+)\s+\d+", line)
        if match:
            table[match.group(1)] = (int(match.group(2)), int(match.group(3)))
        elif not line.strip().startswith("kernel"):
            break
    return table


def slowest_times(program, output, results):
    """Per case of `program`: (size, seconds per call or per run) of the slowest rank, since a
    call takes as long as its slowest rank; None where the run gave none. Harness programs: each
    rank's median from the results file; applications: each rank's `result:` line."""
    if program.name in run_bench.APPLICATIONS:
        lines = run_bench.parse_result_lines(output)
        times = []
        for case in program.cases:
            mine = [fields for fields in lines if fields["name"] == case.benchmark]
            times.append((run_bench.APPLICATIONS[case.benchmark].size(mine[0]),
                          max(float(fields["ms"]) for fields in mine) * 1e-3) if mine else None)
        return times
    rows, _ = run_bench.parse_results(results) if results.exists() else ([], [])
    times = []
    for case in program.cases:
        medians = [r.median for r in rows if (r.benchmark, r.size, r.variant, r.kind) ==
                   (case.benchmark, case.size, case.variant, "brook")]
        times.append((case.size, max(medians)) if medians else None)
    return times


Measured = collections.namedtuple("Measured", "case run size seconds exchanged")


def run_program(program, path, run, out_dir):
    """One program under one configuration: its cases' measurements, and the problem or None."""
    label = f"{program.name} on {run.config}"
    print(f"== scaling: {label}, {run.threads} thread(s) per rank", flush=True)
    name = f"mpi_scaling.{program.name}.{run.config.replace(' ', '').replace(':', '_')}"
    results = out_dir / f"{name}.tsv"
    results.unlink(missing_ok=True)
    env = dict(os.environ, **HARNESS, **run.env, BRT_THREADS=str(run.threads),
               OMP_NUM_THREADS=str(run.threads), BROOK_BENCH_RESULTS=str(results))
    # In its own process group, so that a job that hangs is stopped with all of its ranks.
    process = subprocess.Popen([*run.command, path, *map(str, program.args)], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    log = out_dir / f"{name}.log"
    try:
        stdout, stderr = process.communicate(timeout=RUN_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        log.write_text(stdout + stderr)
        return [], f"{label}: stopped after {RUN_TIMEOUT_SECONDS} s, see {log}"
    log.write_text(stdout + stderr)
    if process.returncode != 0:
        return [], f"{label}: exit status {process.returncode}, see {log}"
    exchanged = exchanged_bytes(stderr) if run.ranks else {}
    if run.ranks and not exchanged:
        return [], f"{label}: no `bytes exchanged` table on stderr, see {log}"
    measured, missing = [], []
    for case, timed in zip(program.cases, slowest_times(program, stdout, results)):
        if timed:
            measured.append(Measured(case, run, *timed, exchanged))
        else:
            missing.append(case.label)
    return measured, f"{label}: no time for {', '.join(missing)}, see {log}" if missing else None


def checked(measured):
    """Per kernel of a measurement on ranks: (model, measured bytes per call or None, matches).
    A kernel matches when its total is the model's bytes times its calls, exactly."""
    verdicts = []
    for model in measured.case.models:
        calls, total = measured.exchanged.get(model.kernel, (0, 0))
        predicted = model.bytes(measured.run.ranks)
        per_call = total / calls if calls else None
        verdicts.append((model, per_call, calls != 0 and total == predicted * calls))
    return verdicts


def table(measurements):
    lines = ["| case | size | run | threads per rank | Brook time | kernel | bytes per call, "
             "measured | model | model, 16 ranks | matches |",
             "|---|---|---|---:|---:|---|---:|---:|---:|---|"]
    for m in measurements:
        per = "per run" if m.case.benchmark in run_bench.APPLICATIONS else "per call"
        time = f"{run_bench.format_time(m.seconds)} {per}"
        if not m.run.ranks:
            lines.append(f"| {m.case.label} | {m.size} | {m.run.config} | {m.run.threads} | "
                         f"{time} | | | | | |")
            continue
        for model, per_call, ok in checked(m):
            got = "not called" if per_call is None else f"{per_call:.0f}"
            lines.append(f"| {m.case.label} | {m.size} | {m.run.config} | {m.run.threads} | "
                         f"{time} | `{model.kernel}` | {got} | {model.bytes(m.run.ranks)} | "
                         f"{model.bytes(PREDICTED_RANKS)} | {'yes' if ok else '**no**'} |")
    return lines


def formulas():
    lines = ["| case | kernel | bytes per call, P ranks | why |", "|---|---|---|---|"]
    for program in PROGRAMS:
        for case in program.cases:
            for model in case.models:
                lines.append(f"| {case.label} | `{model.kernel}` | {model.formula} | "
                             f"{model.why} |")
    return lines


def section(build, programs, out_dir):
    """Runs the step; returns (the report's section as Markdown lines, problems), a problem being
    a run that failed or a kernel whose bytes differ from its model. `programs`: manifest name ->
    program path (bench/benchmarks.tsv)."""
    mpiexec, why_not = launcher(build)
    lines = [HEADING, ""]
    if mpiexec is None:
        return lines + [f"skipped: {why_not}", ""], []
    measurements, problems = [], []
    load_before = os.getloadavg()[0]
    for run in runs(mpiexec):
        for program in PROGRAMS:
            if program.name not in programs:
                problems.append(f"{program.name}: not built (see bench/CMakeLists.txt)")
                continue
            measured, problem = run_program(program, programs[program.name], run, out_dir)
            if problem:
                problems.append(problem)
            measurements += measured
    order = [case for program in PROGRAMS for case in program.cases]
    measurements.sort(key=lambda m: (order.index(m.case), m.run.ranks or 0))
    for m in measurements:
        for model, per_call, ok in checked(m) if m.run.ranks else []:
            got = "not called" if per_call is None else f"{per_call:.0f}"
            print(f"{m.case.label} ({m.size}), {m.run.config}: {model.kernel} exchanged {got} "
                  f"bytes per call, model {model.bytes(m.run.ranks)}: "
                  f"{'matches' if ok else 'MISMATCH'}")
            if not ok:
                problems.append(f"{m.case.label} on {m.run.config}: `{model.kernel}` exchanged "
                                f"{got} bytes per call, the model says "
                                f"{model.bytes(m.run.ranks)}")
    cores = os.cpu_count()
    load_after = os.getloadavg()[0]
    lines += [
        "Each case under `mpiexec -np N` with `BRT_RUNTIME=mpi:cpu` (docs/mpi.md), the threads "
        f"of this machine's {cores} cores shared among the ranks (`BRT_THREADS` and "
        "`OMP_NUM_THREADS` = cores / ranks), and once on plain `cpu` (no MPI) as the reference. "
        "The time is the Brook variant's median per call (the applications': per run, as they "
        "print it), of the slowest rank, since a call takes as long as its slowest rank. The "
        "bytes are those `BRT_PROFILE=1` reports per call of each kernel: what the ranks received "
        "from each other, summed over the ranks (a rank's own rows excluded; a reduction to a "
        "value counted as a tree of ceil(log2 P) steps). Run as: " + ", ".join(
            f"`{pathlib.Path(programs[program.name]).name} {' '.join(map(str, program.args))}`"
            for program in PROGRAMS if program.name in programs) +
        ", once per row (bench/mpi_scaling.py); the harness's programs take "
        f"{HARNESS['BROOK_BENCH_REPS']} samples of {HARNESS['BROOK_BENCH_CALLS']} calls "
        "(`BROOK_BENCH_REPS`, `BROOK_BENCH_CALLS`: every rank must make the same calls). "
        "Segment runs "
        "`evolve` over the whole image under mpi:cpu, while plain cpu splits off the interior "
        "into streamed views (examples/segment.br), so its cpu row is another program's time. "
        f"With {cores} cores, more ranks share the same cores: the times show the backend's "
        "overhead, not a speed-up; the bytes are what a run on that many nodes would move. "
        f"Load average {load_before:.2f} when this step started, {load_after:.2f} when it ended "
        "(other work on the cores slows these times, two threads on two busy cores the most).",
        "",
        *table(measurements),
        "",
        "The model, per call, summed over P ranks (n, W, H: the sizes above):",
        "",
        *formulas(),
        "",
    ]
    if problems:
        lines += ["Problems:", "", *(f"- {problem}" for problem in problems), ""]
    return lines, problems


def manifest_programs(build):
    """bench/benchmarks.tsv's programs by name."""
    entries = (build / "bench" / "benchmarks.tsv").read_text().splitlines()
    return {fields[0]: fields[1] for fields in (entry.split("\t") for entry in entries)}


def replace_section(page, lines):
    """`page` with its scaling section replaced by `lines`; where it has none, the section goes
    where run_bench.py puts it, before the figures (or at the end)."""
    text = page.rstrip("\n").split("\n")
    if HEADING in text:
        start = text.index(HEADING)
        end = next((i for i in range(start + 1, len(text)) if text[i].startswith("## ")),
                   len(text))
    else:
        start = end = text.index(FOLLOWING) if FOLLOWING in text else len(text)
    text[start:end] = lines
    return "\n".join(text).rstrip() + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir")
    parser.add_argument("--docs", default="docs/performance.md")
    options = parser.parse_args()
    build = pathlib.Path(options.build_dir).resolve()
    out_dir = build / "bench-results"
    out_dir.mkdir(exist_ok=True)
    lines, problems = section(build, manifest_programs(build), out_dir)
    docs = pathlib.Path(options.docs)
    docs.write_text(replace_section(docs.read_text() if docs.exists() else "", lines))
    print("\n".join(lines))
    print(f"Wrote {docs}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
