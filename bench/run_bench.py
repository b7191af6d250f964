#!/usr/bin/env python3
"""Runs the benchmark suite and writes its report (`make bench` calls this).

Reads BUILD/bench/benchmarks.tsv (written by bench/CMakeLists.txt: name, program, run
configurations, arguments), runs every program once per configuration (a backend, optionally
with environment settings: `gl+BRT_GL_MAX_OUTPUTS=1`), each in its own process since the runtime
picks its backend once per process. The programs append their rows to one results file (see
bench/harness.hpp); from it this script writes, into BUILD/bench-results/: results.tsv,
results.md (the tables), figure3.png (speedups over the CPU baseline, per case and backend),
figure4.png (time per call against stream length, log-log), and regenerates docs/performance.md
with the machine the figures were measured on. A configuration whose backend cannot start on this
machine is reported as skipped; any other failure makes the script exit non-zero.

Usage: run_bench.py BUILD_DIR [--docs docs/performance.md]
"""

import argparse
import collections
import datetime
import os
import pathlib
import platform
import re
import shutil
import subprocess
import sys

# Cases that are not an application run but a sweep or a model measurement: they get their own
# figure or table, not a bar in Figure 3.
NOT_IN_FIGURE3 = {"mad43", "transfer"}

Row = collections.namedtuple(
    "Row", "benchmark backend size variant kind median min max ratio gbytes gflops")
Note = collections.namedtuple("Note", "benchmark backend name value unit")


def parse_results(path):
    rows, notes = [], []
    for line in path.read_text().splitlines():
        fields = line.split("\t")
        if fields[0] == "row":
            rows.append(Row(*fields[1:6], *map(float, fields[6:])))
        elif fields[0] == "note":
            notes.append(Note(fields[1], fields[2], fields[3], float(fields[4]), fields[5]))
    return rows, notes


def run_config(program, config, args, results, log_dir, name):
    """Runs `program` under `config`; returns None on success, else ("skipped"|"failed", why)."""
    backend, *settings = config.split("+")
    env = dict(os.environ, BRT_RUNTIME=backend, BROOK_BENCH_RESULTS=str(results))
    env.update(setting.split("=", 1) for setting in settings)
    print(f"== {name} on {config}", flush=True)
    process = subprocess.run([program, *args], env=env, capture_output=True, text=True)
    log = log_dir / f"{name}.{config.replace('+', '.').replace('=', '')}.log"
    log.write_text(process.stdout + process.stderr)
    sys.stdout.write(process.stdout)
    if process.returncode == 0:
        return None
    sys.stdout.write(process.stderr)
    if f"BRT_RUNTIME={backend}:" in process.stderr:
        return ("skipped", process.stderr.strip().splitlines()[-1])
    return ("failed", f"exit status {process.returncode}, see {log}")


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
    for r in rows:
        if (r.benchmark, r.size, r.backend) == (benchmark, size, backend) and \
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


def gnuplot(script):
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


def figure3(rows, out_dir):
    """Bars: per case, each Brook variant per backend and each baseline, as speedup over the
    case's CPU reference (its first baseline in the cpu run)."""
    cases = collections.OrderedDict()
    for r in rows:
        if r.benchmark not in NOT_IN_FIGURE3:
            cases.setdefault((r.benchmark, r.size), []).append(r)
    series = collections.OrderedDict()
    data = []
    for (benchmark, size), group in cases.items():
        reference = next((r for r in group if r.kind == "baseline" and r.backend == "cpu"), None)
        if reference is None:
            continue
        values = {}
        for r in group:
            if r.kind == "brook":
                label = f"{r.variant} ({r.backend})"
            elif r.backend == "cpu":
                label = r.variant
            else:
                continue
            series.setdefault(label, None)
            values[label] = reference.median / r.median
        data.append((f"{benchmark} {size}", values))
    if not data:
        return None
    table = out_dir / "figure3.dat"
    labels = list(series)
    with table.open("w") as f:
        f.write("case\t" + "\t".join(labels) + "\n")
        for case, values in data:
            f.write(f"{case}\t" + "\t".join(f"{values.get(label, '-')}" for label in labels)
                    + "\n")
    columns = ", ".join(f"'{table}' using {i + 2}:xtic(1) title columnhead"
                        for i in range(len(labels)))
    png = out_dir / "figure3.png"
    gnuplot(f"""
set terminal pngcairo size 1400,700 font ",10" noenhanced
set output '{png}'
set title 'Speedup over the CPU reference (first baseline of each case; higher is faster)'
set style data histograms
set style histogram clustered gap 2
set style fill solid 0.8 border -1
set datafile missing '-'
set datafile separator '\t'
set logscale y 2
set ylabel 'reference time / time'
set xtics rotate by -25
set key outside right
set grid ytics
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
        plots.append(f"'{path}' using 1:2 with linespoints title '{label}'")
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
            f"- Date: {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}"]


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
    problems = []
    manifest = (build / "bench" / "benchmarks.tsv").read_text().splitlines()
    for entry in manifest:
        name, program, configs, args = entry.split("\t")
        for config in configs.split():
            problem = run_config(program, config, args.split(), results, out_dir, name)
            if problem:
                problems.append((name, config, *problem))

    rows, notes = parse_results(results) if results.exists() else ([], [])
    tables = results_tables(rows, notes)
    (out_dir / "results.md").write_text("\n".join(tables) + "\n")
    docs = pathlib.Path(options.docs)
    image_dir = docs.parent / "performance"
    image_dir.mkdir(exist_ok=True)
    images = []
    for png in (figure3(rows, out_dir), figure4(rows, out_dir)):
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
        "",
        "Each row is one variant of one case, timed interleaved with the others in the same "
        "process after a warm-up, over several samples, its result checked against a reference. "
        "**Brook** rows are in bold. *ratio*: on a baseline row, its time over the first Brook "
        "variant's; on a Brook row, the fastest baseline's time over its own (above 1, Brook is "
        "faster). GB/s and GFLOPS count the bytes and operations the computation needs, not "
        "what an implementation happens to move. The ratios compare variants measured together; "
        "absolute times move with whatever else the machine is doing.",
        "",
        "`make bench` builds the suite into build-release/ (`-DBROOK_BUILD_BENCH=ON`), runs each "
        "program once per backend (cpu, gl; Table 1 on gl with `BRT_GL_MAX_OUTPUTS` 4 and 1), "
        "and writes build-release/bench-results/ (results.tsv, results.md, the plots, one log per "
        "run) and this page. `BROOK_BENCH_REPS=N` sets the samples per variant (default 7). "
        "A new benchmark or application is a .br file using bench/harness.hpp and one "
        "`brook_add_benchmark(name file.br)` line in bench/CMakeLists.txt; its cases join the "
        "tables and Figure 3.",
        "",
        "## Targets (issue 5, cpu backend)",
        "",
        *targets(rows, notes),
        "",
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
    for line in skipped + failed:
        print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
