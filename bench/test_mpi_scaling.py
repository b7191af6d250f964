# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
"""Unit tests of bench/mpi_scaling.py's parts that need no MPI job: reading BRT_PROFILE's table,
checking it against the model, the launcher's flags and where the section goes in the report.
The step itself runs in `make bench` (or `python3 bench/mpi_scaling.py build-release`)."""

import os
import pathlib
import tempfile
import unittest

import mpi_scaling


def profile_table(ranks, entries):
    """stderr as runtime/backends/mpi/mpi_backend.cpp's ExchangeProfile prints it, between other
    lines (the cpu backend's own profile follows it)."""
    lines = ["sgemv 2048x2048 (mpi:cpu backend)",
             f"brook: mpi: bytes exchanged on {ranks} ranks",
             "  %-24s %8s %16s %16s" % ("kernel", "calls", "bytes", "bytes/call")]
    lines += ["  %-24s %8d %16d %16d" % (name, calls, total, total // calls)
              for name, calls, total in entries]
    lines += ["brook: profile, 2402.203 ms in all",
              " Time(%)   Total(ms)    Calls    Mean(us)      Elements      GB/s  Activity Name",
              "  76.01%    1675.466       24   69811.082         49152      0.24  kernel   x"]
    return "\n".join(lines) + "\n"


def case_named(kernel):
    return next(case for program in mpi_scaling.PROGRAMS for case in program.cases
                if any(model.kernel == kernel for model in case.models))


def measured(kernel, ranks, exchanged):
    run = mpi_scaling.Run(f"mpi:cpu -np {ranks}", ranks, 1, [], {})
    return mpi_scaling.Measured(case_named(kernel), run, "size", 1.0, exchanged)


class ProfileTable(unittest.TestCase):
    def test_reads_every_kernel_and_stops_at_the_next_table(self):
        stderr = profile_table(2, [("multiply", 24, 196608), ("row_sum", 24, 0),
                                   ("streamWrite", 4, 32768)])
        self.assertEqual(mpi_scaling.exchanged_bytes(stderr),
                         {"multiply": (24, 196608), "row_sum": (24, 0),
                          "streamWrite": (4, 32768)})

    def test_no_table_reads_as_empty(self):
        self.assertEqual(mpi_scaling.exchanged_bytes("brook: profile, 1 ms in all\n"), {})


class Model(unittest.TestCase):
    def test_one_rank_exchanges_nothing(self):
        for program in mpi_scaling.PROGRAMS:
            for case in program.cases:
                for model in case.models:
                    self.assertEqual(model.bytes(1), 0, model.kernel)

    def test_the_sum_is_a_tree_of_float4_partials_and_their_flag(self):
        sum4 = case_named("sum4").models[0]
        self.assertEqual([sum4.bytes(p) for p in (2, 3, 4, 16)],
                         [2 * 1 * 17, 3 * 2 * 17, 4 * 2 * 17, 16 * 4 * 17])

    def test_a_whole_gather_grows_with_the_ranks_that_lack_the_stream(self):
        rows = case_named("sgemv_rows").models[0]
        self.assertEqual(rows.bytes(2), 4 * mpi_scaling.SGEMV_N)
        self.assertEqual(rows.bytes(16), 15 * 4 * mpi_scaling.SGEMV_N)

    def test_matches_only_the_exact_total_of_every_call(self):
        n = mpi_scaling.SGEMV_N
        exact = measured("multiply", 2, {"multiply": (24, 24 * 4 * n), "row_sum": (24, 0),
                                         "scale_add": (24, 0)})
        self.assertEqual([ok for _, _, ok in mpi_scaling.checked(exact)], [True, True, True])
        off = measured("multiply", 2, {"multiply": (24, 24 * 4 * n + 1), "row_sum": (24, 0)})
        verdicts = mpi_scaling.checked(off)
        self.assertEqual([ok for _, _, ok in verdicts], [False, True, False])
        self.assertIsNone(verdicts[2][1], "scale_add was not called")


class Launcher(unittest.TestCase):
    def test_flags_as_the_tests_start_a_job(self):
        command = mpi_scaling.mpiexec_command("/usr/bin/mpiexec", 2)
        self.assertEqual(command[:3], ["/usr/bin/mpiexec", "-np", "2"])
        self.assertIn("--oversubscribe", command)
        self.assertEqual("--allow-run-as-root" in command, os.getuid() == 0)

    def test_skips_with_the_reason(self):
        with tempfile.TemporaryDirectory() as directory:
            build = pathlib.Path(directory)
            self.assertIn("configure the build again", mpi_scaling.launcher(build)[1])
            (build / "bench").mkdir()
            (build / "bench" / "mpiexec.txt").write_text("\n")
            self.assertIn("without the mpi backend", mpi_scaling.launcher(build)[1])
            (build / "bench" / "mpiexec.txt").write_text("/nonexistent/mpiexec\n")
            self.assertIn("is not there to run", mpi_scaling.launcher(build)[1])


class Section(unittest.TestCase):
    PAGE = "# Performance\n\ntext\n\n## Targets\n\nrows\n\n## Figures\n\n![f](f.png)\n"

    def test_goes_before_the_figures_and_then_replaces_itself_only(self):
        first = mpi_scaling.replace_section(self.PAGE, [mpi_scaling.HEADING, "", "old", ""])
        self.assertEqual(first, self.PAGE.replace(
            "## Figures", f"{mpi_scaling.HEADING}\n\nold\n\n## Figures"))
        second = mpi_scaling.replace_section(first, [mpi_scaling.HEADING, "", "new", ""])
        self.assertEqual(second, first.replace("old", "new"))


if __name__ == "__main__":
    unittest.main()
