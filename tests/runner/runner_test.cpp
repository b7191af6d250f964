// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Tests of the test runner's pure parts: the formats of docs/testing.md.
#include "diagnostics.hpp"
#include "output_compare.hpp"
#include "process.hpp"
#include "test_file.hpp"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

namespace brook_test {
namespace {

TEST(OutputCompare, NumbersWithinTolerance) {
    EXPECT_FALSE(compare_line("{1.00, 2.50}", "{1.0000, 2.5}", 1e-4));
    EXPECT_FALSE(compare_line("sum = 3.000001", "sum = 3", 1e-4));
    EXPECT_FALSE(compare_line("1000000", "1000050", 1e-4)); // relative
    EXPECT_TRUE(compare_line("1.00", "1.01", 1e-4));
    EXPECT_FALSE(compare_line("1.00", "1.01", 0.02));
    EXPECT_FALSE(compare_line("1e3", "1000.0", 1e-4));
}

TEST(OutputCompare, SpecialValues) {
    EXPECT_FALSE(compare_line("inf -inf NaN", "inf -inf nan", 1e-4));
    EXPECT_TRUE(compare_line("inf", "-inf", 1e-4));
    EXPECT_TRUE(compare_line("NaN", "0.00", 1e-4));
    EXPECT_FALSE(compare_line("info", "info", 1e-4));
}

TEST(OutputCompare, TextExactWhitespaceNormalised) {
    EXPECT_FALSE(compare_line("  a   b ", "a b", 1e-4));
    EXPECT_TRUE(compare_line("a b", "ab", 1e-4));
    EXPECT_TRUE(compare_line("float4", "float3", 1e-4));
    EXPECT_TRUE(compare_line("x = 1", "y = 1", 1e-4));
    EXPECT_TRUE(compare_line("1 2", "1 2 3", 1e-4));
}

TEST(OutputCompare, LineCountsAndTrailingEmptyLines) {
    EXPECT_FALSE(compare_output({"a", ""}, {"a", "", ""}, 1e-4));
    const auto mismatch = compare_output({"a", "b"}, {"a"}, 1e-4);
    ASSERT_TRUE(mismatch);
    EXPECT_EQ(mismatch->line, 2U);
    EXPECT_FALSE(compare_output({}, {}, 1e-4));
    EXPECT_TRUE(compare_output({}, {"x"}, 1e-4));
}

TEST(ConformanceSpec, ReadsControlComments) {
    const std::string source = "// A test.\n"
                               "// expect: 1.00 2.00\n"
                               "//expect:\n"
                               "  // tolerance: 0.01\n"
                               "// requires: gl cuda\n"
                               "// exit: 3\n"
                               "// stderr: shapes differ \n"
                               "// env: BRT_THREADS=1\n"
                               "// args: a b\n"
                               "// brcc-args: -DN=4\n"
                               "// Note: not a directive\n"
                               "int x; // expect: not alone on its line\n";
    const ConformanceSpec spec = parse_conformance_spec(source, std::nullopt);
    ASSERT_TRUE(spec.expected_lines);
    EXPECT_EQ(*spec.expected_lines, (std::vector<std::string>{"1.00 2.00", ""}));
    EXPECT_DOUBLE_EQ(spec.tolerance, 0.01);
    EXPECT_EQ(spec.required_backends, (std::vector<std::string>{"gl", "cuda"}));
    EXPECT_EQ(spec.exit_code, 3);
    EXPECT_EQ(spec.stderr_texts, std::vector<std::string>{"shapes differ"});
    ASSERT_EQ(spec.env.size(), 1U);
    EXPECT_EQ(spec.env[0].first, "BRT_THREADS");
    EXPECT_EQ(spec.env[0].second, "1");
    EXPECT_EQ(spec.args, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(spec.brcc_args, std::vector<std::string>{"-DN=4"});
}

TEST(ConformanceSpec, ExpectedFileAndErrors) {
    const ConformanceSpec spec = parse_conformance_spec("int main() {}\n", std::string("a\nb\n"));
    EXPECT_EQ(*spec.expected_lines, (std::vector<std::string>{"a", "b"}));
    EXPECT_FALSE(parse_conformance_spec("int main() {}\n", std::nullopt).expected_lines);
    EXPECT_THROW((void)parse_conformance_spec("// expect: a\n", std::string("a\n")),
                 TestFormatError);
    EXPECT_THROW((void)parse_conformance_spec("// exit: x\n", std::nullopt), TestFormatError);
    EXPECT_THROW((void)parse_conformance_spec("// tolerance: -1\n", std::nullopt), TestFormatError);
    EXPECT_THROW((void)parse_conformance_spec("// env: NOVALUE\n", std::nullopt), TestFormatError);
}

TEST(Diagnostics, ReadsMarkers) {
    const std::string source = "kernel void k() {\n"
                               "    x = y.q; // error: unknown name 'x' // error: invalid swizzle\n"
                               "    // warning: unused\n"
                               "}\n";
    const std::vector<ExpectedDiagnostic> expected = parse_expected_diagnostics(source);
    ASSERT_EQ(expected.size(), 3U);
    EXPECT_EQ(expected[0].line, 2);
    EXPECT_EQ(expected[0].text, "unknown name 'x'");
    EXPECT_EQ(expected[1].text, "invalid swizzle");
    EXPECT_EQ(expected[2].severity, "warning");
    EXPECT_EQ(expected[2].line, 3);
    EXPECT_THROW((void)parse_expected_diagnostics("x; // error:\n"), TestFormatError);
}

TEST(Diagnostics, ParsesBrccOutput) {
    const auto reported =
        parse_reported_diagnostics("t.br:2:5: error: unknown name 'x'\n    x = y;\n    "
                                   "^\n\x1b[1mt.br:3:1: warning: w\x1b[0m\n");
    ASSERT_EQ(reported.size(), 2U);
    EXPECT_EQ(reported[0].line, 2);
    EXPECT_EQ(reported[0].column, 5);
    EXPECT_EQ(reported[0].message, "unknown name 'x'");
    EXPECT_EQ(reported[1].severity, "warning");
}

TEST(Diagnostics, MatchesOneDiagnosticPerMarker) {
    const std::vector<ExpectedDiagnostic> expected = {{2, "error", "unknown name"}};
    const std::vector<ReportedDiagnostic> once = {{"dir/t.br", 2, 5, "error", "unknown name 'x'"}};
    EXPECT_TRUE(match_diagnostics(expected, once, "t.br").empty());
    const std::vector<ReportedDiagnostic> twice = {once[0], once[0]};
    EXPECT_EQ(match_diagnostics(expected, twice, "t.br").size(), 1U);
    const std::vector<ReportedDiagnostic> wrong_line = {{"t.br", 3, 5, "error", "unknown name"}};
    EXPECT_EQ(match_diagnostics(expected, wrong_line, "t.br").size(), 2U);
    const std::vector<ReportedDiagnostic> with_note = {once[0], {"t.br", 1, 1, "note", "here"}};
    EXPECT_TRUE(match_diagnostics(expected, with_note, "t.br").empty());
    const std::vector<ReportedDiagnostic> with_warning = {
        once[0], {"t.br", 9, 1, "warning", "unmarked [-Wunused-parameter]"}};
    EXPECT_EQ(match_diagnostics(expected, with_warning, "t.br").size(), 1U);
}

TEST(Process, CapturesOutputAndStatus) {
    const ProcessResult result =
        run_process({{"/bin/sh", "-c", "echo out; echo err >&2; echo $BROOK_X; exit 3"},
                     {{"BROOK_X", "set"}},
                     10.0});
    EXPECT_EQ(result.out, "out\nset\n");
    EXPECT_EQ(result.err, "err\n");
    EXPECT_EQ(result.exit_code, 3);
    EXPECT_FALSE(result.timed_out);
}

TEST(Process, ReportsSignalsTimeoutsAndMissingPrograms) {
    EXPECT_EQ(run_process({{"/bin/sh", "-c", "kill -SEGV $$"}, {}, 10.0}).signal, SIGSEGV);
    const ProcessResult slow = run_process({{"/bin/sh", "-c", "sleep 20 & sleep 20"}, {}, 0.2});
    EXPECT_TRUE(slow.timed_out);
    EXPECT_TRUE(run_process({{"/nonexistent/brcc"}, {}, 10.0}).exec_failed);
}

TEST(Process, PrivateTempDirectoriesAreDistinctAndRemovedWithTheirFiles) {
    std::filesystem::path first_path;
    {
        const PrivateTempDirectory first;
        const PrivateTempDirectory second;
        first_path = first.path();
        EXPECT_TRUE(std::filesystem::is_directory(first.path()));
        EXPECT_NE(first.path(), second.path());
        std::filesystem::create_directories(first.path() / "ompi.host.0" / "job");
        std::ofstream(first.path() / "ompi.host.0" / "job" / "left_behind") << "x";
    }
    EXPECT_FALSE(std::filesystem::exists(first_path));
}

// A stand-in for brcc: driver mode writes a script that prints NAME.out and fails like the
// runtime when BRT_RUNTIME=gl.
class FakeBrcc : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("brook-runner-test-" + std::to_string(getpid()));
        std::filesystem::create_directories(dir_);
        write("brcc",
              "#!/bin/sh\n"
              "src=$1; out=$3; base=${src%.br}\n"
              "printf '#!/bin/sh\\n' > $out\n"
              "echo 'if [ \"$BRT_RUNTIME\" = gl ]; then echo \"brook: error: "
              "BRT_RUNTIME=gl: not built; backends that can run here: cpu\" >&2; exit 1; fi' "
              ">> $out\n"
              "echo \"cat $base.out\" >> $out\n"
              "chmod +x $out\n");
        std::filesystem::permissions(dir_ / "brcc", std::filesystem::perms::owner_all);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    void write(const std::string& name, const std::string& text) {
        std::ofstream(dir_ / name) << text;
    }
    Outcome run(const std::string& name, const std::string& backend) {
        ConformanceOptions options;
        options.brcc = (dir_ / "brcc").string();
        options.backend = backend;
        options.work_dir = (dir_ / "work").string();
        options.file = (dir_ / name).string();
        return run_conformance(options);
    }

    std::filesystem::path dir_;
};

TEST_F(FakeBrcc, ConformanceOutcomes) {
    write("good.br", "// expect: {1.00, 2.00}\n");
    write("good.out", "{1.0, 2.000001}\n");
    EXPECT_EQ(run("good.br", "cpu"), Outcome::pass);
    EXPECT_EQ(run("good.br", "gl"), Outcome::skip);

    write("bad.br", "int main() {}\n");
    write("bad.expected", "3.00\n");
    write("bad.out", "3.10\n");
    EXPECT_EQ(run("bad.br", "cpu"), Outcome::fail);

    write("gl_only.br", "// requires: gl\n");
    EXPECT_EQ(run("gl_only.br", "cpu"), Outcome::skip);

    write("broken.br", "// exit: many\n");
    EXPECT_EQ(run("broken.br", "cpu"), Outcome::bad_test);
}

} // namespace
} // namespace brook_test
