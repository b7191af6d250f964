// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// brcc's command line end to end: each test runs brcc (and the programs it builds) in a scratch
// folder as a user would, and checks what it made, printed and returned. A check that needs a
// tool this machine lacks (gdb) is a named skip.

#include "process.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using brook_test::ProcessResult;
using brook_test::ProcessSpec;

const fs::path source_dir = DRIVER_TEST_SOURCE_DIR;
const fs::path stats_dir = source_dir / "tests" / "multifile" / "compat_1_7_cpp_main";
const fs::path driver_dir = source_dir / "tests" / "driver";

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// A test's scratch folder, holding copies of the files it builds from.
class Driver : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        work_ = fs::path(DRIVER_TEST_WORK_DIR) / info->name();
        fs::remove_all(work_);
        fs::create_directories(work_);
        for (const char* name : {"stats.br", "stats.brh", "main.cpp"})
            fs::copy_file(stats_dir / name, work_ / name);
        for (const char* name : {"scale.br", "scale_main.cpp", "kernel_lines.br", "vector_sums.br"})
            fs::copy_file(driver_dir / name, work_ / name);
    }

    /// brcc with `args`, run in the scratch folder; the build's flags go after `--`.
    ProcessResult brcc(std::vector<std::string> args) const {
        args.insert(args.begin(), DRIVER_TEST_BRCC);
        std::istringstream flags(DRIVER_TEST_CXX_FLAGS);
        std::vector<std::string> extra;
        for (std::string flag; flags >> flag;)
            extra.push_back(flag);
        if (!extra.empty() && std::find(args.begin(), args.end(), "--") == args.end()) {
            args.emplace_back("--");
            args.insert(args.end(), extra.begin(), extra.end());
        }
        return run(args);
    }

    /// `argv` run in the scratch folder (through `env -C`, as the spawn helper keeps its own).
    ProcessResult run(std::vector<std::string> argv) const {
        argv.insert(argv.begin(), {"/usr/bin/env", "-C", work_.string()});
        ProcessSpec spec;
        spec.argv = std::move(argv);
        spec.timeout_s = 240;
        return brook_test::run_process(spec);
    }

    fs::path work_;
};

/// The expected output of the stats program (tests/multifile/compat_1_7_cpp_main).
constexpr const char* stats_output = "sum 12.5 largest 7.5";

TEST_F(Driver, AMissingInputSaysWhy) {
    const ProcessResult brook = brcc({"nothere.br"});
    EXPECT_EQ(brook.exit_code, 1);
    EXPECT_TRUE(contains(brook.err, "cannot open 'nothere.br': No such file or directory"))
        << brook.err;
    const ProcessResult cpp = brcc({"stats.br", "nothere.cpp"});
    EXPECT_EQ(cpp.exit_code, 1);
    EXPECT_TRUE(contains(cpp.err, "cannot open 'nothere.cpp': No such file or directory"))
        << cpp.err;
}

TEST_F(Driver, HelpAndVersion) {
    const ProcessResult help = brcc({"--help"});
    EXPECT_EQ(help.exit_code, 0);
    for (const char* option : {"-MD", "-Xcompiler", "--dryrun", "-keep-dir", "-h FILE"})
        EXPECT_TRUE(contains(help.out, option)) << option;
    const ProcessResult version = brcc({"--version"});
    EXPECT_EQ(version.exit_code, 0);
    EXPECT_TRUE(contains(version.out, "brcc ")) << version.out;
    // The C++ compiler with its own version line, and the backends.
    EXPECT_TRUE(contains(version.out, "Host compiler: ") && contains(version.out, " (") &&
                contains(version.out, "Backends: cpu"))
        << version.out;
}

TEST_F(Driver, CompilesEachInputThenLinksTheObjects) {
    const ProcessResult compile = brcc({"-c", "stats.br", "main.cpp", "stats.brh"});
    ASSERT_EQ(compile.exit_code, 0) << compile.err;
    EXPECT_TRUE(fs::exists(work_ / "stats.o"));
    EXPECT_TRUE(fs::exists(work_ / "main.o"));
    const ProcessResult named = brcc({"-c", "stats.br", "-o", "named.o"});
    ASSERT_EQ(named.exit_code, 0) << named.err;
    EXPECT_TRUE(fs::exists(work_ / "named.o"));
    const ProcessResult link = brcc({"named.o", "main.o", "-o", "prog"});
    ASSERT_EQ(link.exit_code, 0) << link.err;
    const ProcessResult program = run({"./prog"});
    EXPECT_EQ(program.exit_code, 0) << program.err;
    EXPECT_TRUE(contains(program.out, stats_output)) << program.out;
}

TEST_F(Driver, CompileOnlyMisuseIsAUsageError) {
    const ProcessResult objects = brcc({"-c", "stats.br", "main.cpp", "-o", "one.o"});
    EXPECT_EQ(objects.exit_code, 2);
    EXPECT_TRUE(contains(objects.err, "drop -o")) << objects.err;
    ASSERT_EQ(brcc({"-c", "stats.br"}).exit_code, 0);
    const ProcessResult link_input = brcc({"-c", "stats.o"});
    EXPECT_EQ(link_input.exit_code, 2);
    EXPECT_TRUE(contains(link_input.err, "drop -c to link it")) << link_input.err;
}

TEST_F(Driver, KernelsHeaderLetsCppCallTheKernels) {
    const ProcessResult compile = brcc({"-c", "scale.br", "-h", "scale.h"});
    ASSERT_EQ(compile.exit_code, 0) << compile.err;
    EXPECT_TRUE(contains(read_file(work_ / "scale.h"), "scale__object scale{}"))
        << read_file(work_ / "scale.h");
    const ProcessResult link = brcc({"scale_main.cpp", "scale.o", "-o", "prog"});
    ASSERT_EQ(link.exit_code, 0) << link.err;
    const ProcessResult program = run({"./prog"});
    EXPECT_TRUE(contains(program.out, "scaled 2.5 12.5 30.5")) << program.out << program.err;
    // Brook+'s build line: the header's folder is made when missing.
    const ProcessResult brookplus = brcc({"-c", "scale.br", "-h", "brookgenfiles/scale.h"});
    ASSERT_EQ(brookplus.exit_code, 0) << brookplus.err;
    EXPECT_TRUE(fs::exists(work_ / "brookgenfiles" / "scale.h"));
}

TEST_F(Driver, KernelsHeaderOfSeveralSourcesDeclaresThemAll) {
    const ProcessResult compile = brcc({"-c", "scale.br", "kernel_lines.br", "-h", "scale.h"});
    ASSERT_EQ(compile.exit_code, 0) << compile.err;
    const std::string header = read_file(work_ / "scale.h");
    EXPECT_TRUE(contains(header, "scale__object scale{}") &&
                contains(header, "shift__object shift{}"))
        << header;
    // The header of both serves a C++ file that calls one of them (kernel_lines.o is a program
    // of its own, with a main).
    const ProcessResult link = brcc({"scale_main.cpp", "scale.o", "-o", "prog"});
    ASSERT_EQ(link.exit_code, 0) << link.err;
    const ProcessResult program = run({"./prog"});
    EXPECT_TRUE(contains(program.out, "scaled 2.5 12.5 30.5")) << program.out << program.err;
    const ProcessResult no_brook = brcc({"-c", "scale_main.cpp", "-h", "none.h"});
    EXPECT_EQ(no_brook.exit_code, 2);
    EXPECT_TRUE(contains(no_brook.err, "give at least one .br file")) << no_brook.err;
    EXPECT_FALSE(fs::exists(work_ / "none.h"));
}

/// The checks every depfile of the stats program passes: its real files, none of brcc's own.
void expect_stats_dependencies(const std::string& depfile, const std::string& target) {
    EXPECT_TRUE(depfile.starts_with(target + ":")) << depfile;
    for (const char* file : {"stats.br", "stats.brh", "brook/brook.hpp", "/usr/include/"})
        EXPECT_TRUE(contains(depfile, file)) << file << " in\n" << depfile;
    EXPECT_FALSE(contains(depfile, "brcc-")) << "a temporary file in\n" << depfile;
}

TEST_F(Driver, DepfileOfAProgramNamesItsRealFiles) {
    const ProcessResult build =
        brcc({"-MD", "-MP", "main.cpp", "stats.brh", "stats.br", "-o", "prog"});
    ASSERT_EQ(build.exit_code, 0) << build.err;
    const std::string depfile = read_file(work_ / "prog.d");
    expect_stats_dependencies(depfile, "prog");
    EXPECT_TRUE(contains(depfile, "main.cpp")) << depfile;
    EXPECT_TRUE(contains(depfile, "\nstats.brh:\n")) << "-MP's phony rule in\n" << depfile;
}

TEST_F(Driver, DepfileOfAnObjectAndItsTargets) {
    const ProcessResult build =
        brcc({"-c", "-MD", "-MF", "deps/s.d", "-MT", "out/stats.o", "stats.br"});
    EXPECT_NE(build.exit_code, 0) << "the folder of -MF does not exist: " << build.err;
    fs::create_directories(work_ / "deps");
    const ProcessResult again =
        brcc({"-c", "-MD", "-MF", "deps/s.d", "-MT", "out/stats.o", "stats.br"});
    ASSERT_EQ(again.exit_code, 0) << again.err;
    expect_stats_dependencies(read_file(work_ / "deps" / "s.d"), "out/stats.o");
    const ProcessResult plain = brcc({"-c", "-MD", "stats.br"});
    ASSERT_EQ(plain.exit_code, 0) << plain.err;
    expect_stats_dependencies(read_file(work_ / "stats.d"), "stats.o");
}

TEST_F(Driver, DependenciesOnlyPrintsTheRuleAndBuildsNothing) {
    const ProcessResult deps = brcc({"-M", "stats.br"});
    ASSERT_EQ(deps.exit_code, 0) << deps.err;
    expect_stats_dependencies(deps.out, "stats.o");
    EXPECT_FALSE(fs::exists(work_ / "stats.o"));
    EXPECT_FALSE(fs::exists(work_ / "stats"));
}

TEST_F(Driver, VerbosePrintsEachCommandAndDryRunRunsNone) {
    const ProcessResult verbose = brcc({"-v", "stats.br", "main.cpp", "stats.brh", "-o", "prog",
                                        "-Xcompiler", "-fno-math-errno", "-lm"});
    ASSERT_EQ(verbose.exit_code, 0) << verbose.err;
    std::vector<std::string> lines;
    std::istringstream err(verbose.err);
    for (std::string line; std::getline(err, line);)
        lines.push_back(line);
    ASSERT_EQ(lines.size(), 3U) << verbose.err; // two compiles, one link
    EXPECT_TRUE(contains(lines[0], " -c ") && contains(lines[0], "-fno-math-errno")) << lines[0];
    EXPECT_FALSE(contains(lines[0], "-lm")) << "a linker flag in a compile: " << lines[0];
    EXPECT_TRUE(contains(lines[1], "main.cpp")) << lines[1];
    EXPECT_TRUE(contains(lines[2], "-o prog") && contains(lines[2], "-lbrook") &&
                contains(lines[2], "-lm"))
        << lines[2];

    const ProcessResult dry = brcc({"--dryrun", "stats.br", "main.cpp", "stats.brh", "-o", "dry"});
    EXPECT_EQ(dry.exit_code, 0) << dry.err;
    EXPECT_TRUE(contains(dry.err, "-o dry")) << dry.err;
    EXPECT_FALSE(fs::exists(work_ / "dry"));
}

TEST_F(Driver, BuildTreeProgramsReadThePrecompiledBrookHeader) {
    // With GCC, the build precompiles brook/brook.hpp with brcc's own compile flags
    // (cmake/precompile_brook_header.cmake). A flag brcc gained and the precompile lacked would
    // make GCC pass the .gch over without a word, and every program's compile twice as slow.
    const std::string build_tree =
        read_file(fs::path(DRIVER_TEST_BRCC).parent_path() / "brcc-build-tree");
    if (!contains(build_tree, "precompiled_dir="))
        GTEST_SKIP() << "this build precompiles no header (its C++ compiler is not GCC)";
    if (!std::string(DRIVER_TEST_CXX_FLAGS).empty())
        GTEST_SKIP() << "this build's own flags (" << DRIVER_TEST_CXX_FLAGS
                     << ") reach the programs, and the precompiled header has none of them";
    const ProcessResult build = brcc({"-v", "-c", "-Werror=invalid-pch", "stats.br"});
    ASSERT_EQ(build.exit_code, 0) << build.err;
    EXPECT_TRUE(contains(build.err, "/precompiled ")) << build.err;
    // A depfile names the headers themselves, so that compile reads them as text.
    const ProcessResult depfile = brcc({"-v", "-c", "-MD", "stats.br"});
    ASSERT_EQ(depfile.exit_code, 0) << depfile.err;
    EXPECT_FALSE(contains(depfile.err, "/precompiled ")) << depfile.err;
}

/// The names in `folder`, and below it.
std::set<std::string> folder_contents(const fs::path& folder) {
    std::set<std::string> names;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(folder))
        names.insert(entry.path().lexically_relative(folder).string());
    return names;
}

TEST_F(Driver, DryRunWritesNothing) {
    const std::set<std::string> before = folder_contents(work_);
    const ProcessResult dry = brcc({"--dryrun", "-keep", "-h", "kernels.h", "-MD", "-MP",
                                    "stats.br", "main.cpp", "stats.brh", "-o", "dry"});
    EXPECT_EQ(dry.exit_code, 0) << dry.err;
    EXPECT_TRUE(contains(dry.err, "-o dry")) << dry.err;
    EXPECT_EQ(folder_contents(work_), before) << dry.err;
    const ProcessResult objects = brcc({"--dryrun", "-c", "-MMD", "-h", "k.h", "scale.br"});
    EXPECT_EQ(objects.exit_code, 0) << objects.err;
    EXPECT_EQ(folder_contents(work_), before) << objects.err;
}

TEST_F(Driver, UserHeadersOnlyDependencies) {
    // -MM: gcc's meaning, the headers of system folders (C++'s own) left out.
    const ProcessResult deps = brcc({"-MM", "stats.br"});
    ASSERT_EQ(deps.exit_code, 0) << deps.err;
    EXPECT_TRUE(deps.out.starts_with("stats.o:")) << deps.out;
    EXPECT_TRUE(contains(deps.out, "stats.br") && contains(deps.out, "stats.brh")) << deps.out;
    EXPECT_FALSE(contains(deps.out, "/usr/include/")) << deps.out;
    EXPECT_FALSE(fs::exists(work_ / "stats.o"));
    // -MMD: the same beside the object, which is built.
    const ProcessResult build = brcc({"-c", "-MMD", "stats.br"});
    ASSERT_EQ(build.exit_code, 0) << build.err;
    EXPECT_TRUE(fs::exists(work_ / "stats.o"));
    const std::string depfile = read_file(work_ / "stats.d");
    EXPECT_TRUE(contains(depfile, "stats.brh")) << depfile;
    EXPECT_FALSE(contains(depfile, "/usr/include/")) << depfile;
}

TEST_F(Driver, QuotedDependencyTargets) {
    // -MQ quotes what make would read otherwise ($ as $$, a space as \ ); -MT does not.
    const ProcessResult deps = brcc({"-M", "-MQ", "out/$(dir) x.o", "-MT", "$(OBJ)", "stats.br"});
    ASSERT_EQ(deps.exit_code, 0) << deps.err;
    EXPECT_TRUE(deps.out.starts_with("out/$$(dir)\\ x.o $(OBJ):")) << deps.out;
    const ProcessResult alone = brcc({"-MQ", "x.o", "stats.br"});
    EXPECT_EQ(alone.exit_code, 2);
    EXPECT_TRUE(contains(alone.err, "-MQ")) << alone.err;
}

TEST_F(Driver, ResponseFilesHoldArguments) {
    std::ofstream(work_ / "args.rsp") << "stats.br main.cpp stats.brh -o 'my prog'\n";
    const ProcessResult build = brcc({"@args.rsp"});
    ASSERT_EQ(build.exit_code, 0) << build.err;
    EXPECT_TRUE(fs::exists(work_ / "my prog"));
    const ProcessResult missing = brcc({"@missing.rsp"});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_TRUE(contains(missing.err, "'missing.rsp': No such file or directory")) << missing.err;
}

TEST_F(Driver, KeepSaysWhereTheIntermediateFilesAre) {
    const ProcessResult kept = brcc({"-keep-dir", "kept", "stats.br", "main.cpp", "stats.brh"});
    ASSERT_EQ(kept.exit_code, 0) << kept.err;
    EXPECT_TRUE(contains(kept.err, "kept in 'kept'")) << kept.err;
    EXPECT_TRUE(fs::exists(work_ / "kept" / "0-stats.cpp"));
    EXPECT_TRUE(fs::exists(work_ / "kept" / "stats.hpp"));
    const ProcessResult here = brcc({"-keep", "stats.br", "main.cpp", "stats.brh", "-o", "p"});
    ASSERT_EQ(here.exit_code, 0) << here.err;
    EXPECT_TRUE(fs::exists(work_ / "p.brcc" / "0-stats.cpp")) << here.err;
}

TEST_F(Driver, OlderCppDialectsAreRefused) {
    const ProcessResult old = brcc({"-std=c++17", "stats.br"});
    EXPECT_EQ(old.exit_code, 2);
    EXPECT_TRUE(contains(old.err, "older than C++20")) << old.err;
    const ProcessResult newer = brcc({"-std=gnu++20", "-c", "stats.br"});
    EXPECT_EQ(newer.exit_code, 0) << newer.err;
}

/// `name` found in $PATH, or an empty path.
fs::path find_program(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path != nullptr ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        std::error_code ignored;
        if (!dir.empty() && fs::exists(fs::path(dir) / name, ignored))
            return fs::path(dir) / name;
    }
    return {};
}

TEST_F(Driver, TargetListNamesTheInstructionSets) {
    for (const char* spelling : {"--target=list", "--target=help"}) {
        const ProcessResult list = brcc({spelling});
        EXPECT_EQ(list.exit_code, 0) << list.err;
        EXPECT_TRUE(contains(list.out, "  native ")) << list.out;
#if defined(__x86_64__)
        // Every x86-64 CPU runs the baseline; v4 (AVX-512) is listed whether or not it runs here.
        EXPECT_TRUE(contains(list.out, "  x86-64      [runs here]  every 64-bit x86 CPU"))
            << list.out;
        for (const char* name : {"  x86-64-v2 ", "  x86-64-v3 ", "  x86-64-v4 "})
            EXPECT_TRUE(contains(list.out, name)) << name << "\n" << list.out;
#endif
    }
}

TEST_F(Driver, UnknownOrClashingTargetsAreUsageErrors) {
    const ProcessResult unknown = brcc({"--target=x86-64-v9", "stats.br"});
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_TRUE(contains(unknown.err, "unknown target 'x86-64-v9' in --target (known: ") &&
                contains(unknown.err, "native"))
        << unknown.err;
    const ProcessResult portable = brcc({"--portable", "--target=native", "stats.br"});
    EXPECT_EQ(portable.exit_code, 2);
    EXPECT_TRUE(contains(portable.err, "give one of them")) << portable.err;
#if defined(__x86_64__)
    const ProcessResult native = brcc({"--target=native", "--target", "x86-64", "stats.br"});
    EXPECT_EQ(native.exit_code, 2);
    EXPECT_TRUE(contains(native.err, "--target=native builds for this machine alone"))
        << native.err;
#endif
}

#if defined(__x86_64__)
TEST_F(Driver, OneTargetIsItsMarch) {
    const auto compile_line = [&](std::vector<std::string> args) {
        args.insert(args.begin(), {"--dryrun", "-c", "stats.br"});
        const ProcessResult dry = brcc(args);
        EXPECT_EQ(dry.exit_code, 0) << dry.err;
        return dry.err;
    };
    EXPECT_TRUE(contains(compile_line({}), " -march=native ")) << "the default";
    const std::string v3 = compile_line({"--target=x86-64-v3"});
    EXPECT_TRUE(contains(v3, " -march=x86-64-v3 ") && !contains(v3, "native")) << v3;
    const std::string portable = compile_line({"--portable"});
    EXPECT_FALSE(contains(portable, "-march")) << portable;
    // Several: the host code for the lowest, which the program needs.
    const std::string several = compile_line({"--target=x86-64-v3,x86-64-v2"});
    EXPECT_TRUE(contains(several, " -march=x86-64-v2 ")) << several;
}

/// Whether this CPU runs x86-64-v3 code (the features GCC's and Clang's builtins can name).
bool runs_x86_64_v3() {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
           __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("sse4.2");
}

TEST_F(Driver, SeveralTargetsRunTheBestCopyThisCpuHas) {
    // vector_sums.br adds its sums in an order set by the vector width, so its output tells
    // which instruction set's code ran: a program built for x86-64 and x86-64-v3 must print what
    // the program built for the better of the two that this CPU runs prints.
    const std::string both = "--target=x86-64,x86-64-v3";
    for (const std::string& target :
         {std::string("--target=x86-64"), both, std::string("--target=x86-64-v3")}) {
        const ProcessResult build = brcc({target, "vector_sums.br", "-o", target.substr(9)});
        ASSERT_EQ(build.exit_code, 0) << target << "\n" << build.err;
    }
    const ProcessResult baseline = run({"./x86-64"});
    const ProcessResult dispatched = run({"./x86-64,x86-64-v3"});
    ASSERT_EQ(baseline.exit_code, 0) << baseline.err;
    ASSERT_EQ(dispatched.exit_code, 0) << dispatched.err;
    // Each kernel's loop function is an ifunc over one copy per target.
    const fs::path nm = find_program("nm");
    if (!nm.empty()) {
        const ProcessResult symbols = run({nm.string(), "x86-64,x86-64-v3"});
        EXPECT_TRUE(
            std::regex_search(symbols.out, std::regex(R"( i \S*row_dot__cpu\S*\n)")) &&
            std::regex_search(symbols.out, std::regex(R"(row_dot__cpu\S*\.default\n)")) &&
            std::regex_search(symbols.out, std::regex(R"(row_dot__cpu\S*\.arch_x86_64_v3\n)")))
            << symbols.out;
    }
    // BRT_VERBOSE=1 names the CPU's level, up to which the best copy runs.
    const ProcessResult verbose = run({"/usr/bin/env", "BRT_VERBOSE=1", "./x86-64,x86-64-v3"});
    EXPECT_TRUE(std::regex_search(
        verbose.err,
        std::regex(R"(brook: backend cpu on the host, \d+ threads, x86-64(-v[234])?\n)")))
        << verbose.err;
    if (!runs_x86_64_v3()) {
        EXPECT_EQ(dispatched.out, baseline.out);
        GTEST_SKIP() << "this CPU does not run x86-64-v3: only the baseline copy could be checked";
    }
    const ProcessResult v3 = run({"./x86-64-v3"});
    ASSERT_EQ(v3.exit_code, 0) << v3.err;
    EXPECT_EQ(dispatched.out, v3.out);
    if (v3.out == baseline.out)
        GTEST_SKIP() << "the x86-64 and x86-64-v3 builds add the sums in the same order here: "
                        "which copy ran cannot be told";
}
#endif

TEST_F(Driver, CompilerWarningsInKernelsNameTheirBrookLine) {
    const ProcessResult build = brcc({"-Wall", "kernel_lines.br", "-o", "prog"});
    ASSERT_EQ(build.exit_code, 0) << build.err;
    EXPECT_TRUE(contains(build.err, "kernel_lines.br:7:11: warning: unused variable")) << build.err;
    // No message may point past the end of the file (at generated code taken for its lines).
    const std::string source = read_file(work_ / "kernel_lines.br");
    const auto file_lines =
        static_cast<unsigned long>(std::count(source.begin(), source.end(), '\n'));
    const std::regex location(R"(kernel_lines\.br:(\d+):)");
    for (std::sregex_iterator match(build.err.begin(), build.err.end(), location), end;
         match != end; ++match)
        EXPECT_LE(std::stoul((*match)[1]), file_lines) << build.err;
    const ProcessResult program = run({"./prog"});
    EXPECT_TRUE(contains(program.out, "shifted 2 3 4 5")) << program.out << program.err;
}

TEST_F(Driver, DebuggerStopsOnAKernelsLine) {
    const fs::path gdb = find_program("gdb");
    if (gdb.empty())
        GTEST_SKIP() << "gdb is not installed";
    const ProcessResult build = brcc({"-g", "-O0", "kernel_lines.br", "-o", "prog"});
    ASSERT_EQ(build.exit_code, 0) << build.err;
    const ProcessResult session = run({gdb.string(), "-batch", "-ex", "break kernel_lines.br:8",
                                       "-ex", "run", "-ex", "bt", "./prog"});
    if (contains(session.err, "ptrace: Operation not permitted") ||
        contains(session.out, "ptrace: Operation not permitted"))
        GTEST_SKIP() << "gdb may not trace programs here (ptrace is not permitted)";
    // Stopped in the kernel's body, at the line of the .br file the breakpoint named.
    EXPECT_TRUE(contains(session.out, "shift__body") &&
                contains(session.out, "kernel_lines.br:8\n8\t    r = a + offset;"))
        << session.out << session.err;
}

} // namespace
