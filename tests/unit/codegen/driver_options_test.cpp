// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// brcc's command line: what each option sets (and the tuning flags it gives the C++ compiler),
// arguments after `--`, and usage errors (exit 2).

#include "driver/options.hpp"

#include "driver/cpu_targets.hpp"
#include "driver/response_files.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

namespace brcc {
namespace {

std::optional<int> parse(std::vector<const char*> args, DriverOptions& options) {
    args.insert(args.begin(), "brcc");
    ::testing::internal::CaptureStderr();
    ::testing::internal::CaptureStdout();
    const std::optional<int> result =
        parse_command_line(static_cast<int>(args.size()), args.data(), options);
    ::testing::internal::GetCapturedStdout();
    ::testing::internal::GetCapturedStderr();
    return result;
}

TEST(DriverOptions, ReadsEveryOption) {
    DriverOptions options;
    EXPECT_EQ(parse({"saxpy.br", "-o", "prog", "-I", "inc", "-Iinc2", "-DN=4", "-D", "FAST", "-O3",
                     "--backends=cpu", "--", "-lm", "-o", "x"},
                    options),
              std::nullopt);
    EXPECT_EQ(options.inputs, std::vector<std::string>{"saxpy.br"});
    EXPECT_EQ(options.output, "prog");
    EXPECT_EQ(options.include_dirs, (std::vector<std::string>{"inc", "inc2"}));
    EXPECT_EQ(options.defines, (std::vector<std::string>{"N=4", "FAST"}));
    EXPECT_EQ(options.optimization, "3");
    EXPECT_EQ(options.backends, (std::vector<std::string>{"cpu"}));
    // Everything after `--` is the C++ compiler's, even what looks like brcc's options.
    EXPECT_EQ(options.compiler_args, (std::vector<std::string>{"-lm", "-o", "x"}));
}

TEST(DriverOptions, SourcesAfterTheSeparatorAreCompiledAsInputs) {
    DriverOptions options;
    EXPECT_EQ(parse({"a.br", "-o", "p", "--", "host.cpp", "-include", "pre.cpp", "-fPIC", "x.o"},
                    options),
              std::nullopt);
    EXPECT_EQ(options.inputs, (std::vector<std::string>{"a.br", "host.cpp"}));
    EXPECT_EQ(options.compiler_args,
              (std::vector<std::string>{"-include", "pre.cpp", "-fPIC", "x.o"}));
}

TEST(DriverOptions, SeveralInputsInOrder) {
    DriverOptions options;
    EXPECT_EQ(parse({"kernels.br", "main.bri", "extra.cpp", "-o", "prog"}, options), std::nullopt);
    EXPECT_EQ(options.inputs, (std::vector<std::string>{"kernels.br", "main.bri", "extra.cpp"}));
}

TEST(DriverOptions, DefaultsToAllBackendsAndO2) {
    DriverOptions options;
    EXPECT_EQ(parse({"--emit-cpp", "a.br"}, options), std::nullopt);
    EXPECT_TRUE(options.emit_cpp);
    EXPECT_EQ(options.optimization, "2");
    EXPECT_EQ(options.backends, known_backends());
}

TEST(DriverOptions, TunesForThisMachineUnlessPortable) {
    DriverOptions native;
    EXPECT_EQ(parse({"a.br"}, native), std::nullopt);
    EXPECT_FALSE(native.portable);
    EXPECT_EQ(tuning_flags(native),
              (std::vector<std::string>{"-fopenmp-simd", "-fno-trapping-math", "-fno-math-errno",
                                        "-march=native", "-mprefer-vector-width=512"}));
    DriverOptions portable;
    EXPECT_EQ(parse({"--portable", "a.br"}, portable), std::nullopt);
    EXPECT_TRUE(portable.portable);
    EXPECT_EQ(tuning_flags(portable),
              (std::vector<std::string>{"-fopenmp-simd", "-fno-trapping-math", "-fno-math-errno"}));
}

#if defined(__x86_64__)
TEST(DriverOptions, TargetsAreSortedLowestFirstAndTheLowestIsTheMarch) {
    DriverOptions options;
    EXPECT_EQ(
        parse({"--target=x86-64-v4,x86-64", "--target", "x86-64-v3", "--target=x86-64", "a.br"},
              options),
        std::nullopt);
    EXPECT_EQ(options.targets, (std::vector<std::string>{"x86-64", "x86-64-v3", "x86-64-v4"}));
    EXPECT_EQ(tuning_flags(options),
              (std::vector<std::string>{"-fopenmp-simd", "-fno-trapping-math", "-fno-math-errno",
                                        "-march=x86-64", "-mprefer-vector-width=512"}));
    EXPECT_EQ(cpu_target_clones(options.targets),
              (std::vector<std::string>{"default", "arch=x86-64-v3", "arch=x86-64-v4"}));
    DriverOptions one;
    EXPECT_EQ(parse({"--target=x86-64-v2", "a.br"}, one), std::nullopt);
    EXPECT_TRUE(cpu_target_clones(one.targets).empty());
    const std::vector<std::string> one_flags = tuning_flags(one);
    EXPECT_NE(std::ranges::find(one_flags, "-march=x86-64-v2"), one_flags.end());
}

TEST(DriverOptions, TargetMistakesAreUsageErrors) {
    for (const std::vector<const char*>& args :
         {std::vector<const char*>{"--target=avx9", "a.br"},
          std::vector<const char*>{"--target=", "a.br"},
          std::vector<const char*>{"--target=native,x86-64-v3", "a.br"},
          std::vector<const char*>{"--portable", "--target=x86-64", "a.br"}}) {
        DriverOptions options;
        EXPECT_EQ(parse(args, options), exit_usage) << args[0];
    }
    DriverOptions list;
    EXPECT_EQ(parse({"--target=list"}, list), exit_success);
}
#endif

TEST(DriverOptions, DumpAfterNamesAPassAndDumpAstIsDumpAfterSema) {
    DriverOptions parse_pass;
    EXPECT_EQ(parse({"--dump-after=parse", "a.br"}, parse_pass), std::nullopt);
    EXPECT_EQ(parse_pass.dump_after, "parse");
    DriverOptions dump_ast;
    EXPECT_EQ(parse({"--dump-ast", "a.br"}, dump_ast), std::nullopt);
    EXPECT_EQ(dump_ast.dump_after, "sema");
}

TEST(DriverOptions, HelpAndVersionExitWithZero) {
    DriverOptions help;
    EXPECT_EQ(parse({"--help"}, help), 0);
    DriverOptions version;
    EXPECT_EQ(parse({"--version"}, version), 0);
}

TEST(DriverOptions, EmitKernelsNamesABackendAndAFolder) {
    DriverOptions options;
    EXPECT_EQ(parse({"--emit-kernels=cuda", "a.br", "-o", "kernels"}, options), std::nullopt);
    EXPECT_EQ(options.emit_kernels, "cuda");
    EXPECT_EQ(options.output, "kernels");
}

TEST(DriverOptions, ReadsTheOptionsSpeltAsInGccAndNvcc) {
    DriverOptions options;
    EXPECT_EQ(parse({"-c", "a.br", "-h", "k.h", "-MD", "-MFa.dep", "-MT", "t1", "-MT", "t2", "-MP",
                     "-v", "--dryrun", "-keep-dir", "kept", "-std=gnu++23", "-g", "--color=never"},
                    options),
              std::nullopt);
    EXPECT_TRUE(options.compile_only);
    EXPECT_EQ(options.kernels_header, "k.h");
    EXPECT_TRUE(options.dependencies_too);
    EXPECT_FALSE(options.dependencies_only);
    EXPECT_EQ(options.dependency_file, "a.dep");
    EXPECT_EQ(options.dependency_targets, (std::vector<std::string>{"t1", "t2"}));
    EXPECT_TRUE(options.phony_dependencies);
    EXPECT_TRUE(options.verbose);
    EXPECT_TRUE(options.dry_run);
    EXPECT_TRUE(options.keep);
    EXPECT_EQ(options.keep_dir, "kept");
    EXPECT_EQ(options.standard, "gnu++23");
    EXPECT_TRUE(options.debug);
    EXPECT_EQ(options.color, "never");
    EXPECT_EQ(options.inputs, std::vector<std::string>{"a.br"});
}

TEST(DriverOptions, EmitCppWritesTheBrookFilesItReadAsADepfile) {
    DriverOptions options;
    EXPECT_EQ(parse({"--emit-cpp", "-MD", "a.br", "-o", "a.cpp"}, options), std::nullopt);
    EXPECT_TRUE(options.emit_cpp && options.dependencies_too);
}

TEST(DriverOptions, WarningFlagsAreCollectedInOrderAndOtherFlagsGoToTheCompiler) {
    DriverOptions options;
    EXPECT_EQ(
        parse({"a.br", "-Wall", "-fno-math-errno", "-w", "-Wno-unused", "-lm", "-L", "lib",
               "-Xcompiler", "-fPIC,-DX=1", "-Werror", "-mavx2", "-Wl,--as-needed", "-l", "z"},
              options),
        std::nullopt);
    EXPECT_EQ(options.warning_flags,
              (std::vector<std::string>{"-Wall", "-w", "-Wno-unused", "-Werror"}));
    EXPECT_EQ(options.host_args,
              (std::vector<std::string>{"-fno-math-errno", "-lm", "-Llib", "-fPIC", "-DX=1",
                                        "-mavx2", "-Wl,--as-needed", "-lz"}));
    EXPECT_EQ(options.inputs, std::vector<std::string>{"a.br"});
}

TEST(DriverOptions, AnOptionsValueIsNeverReadAsAnOption) {
    DriverOptions options;
    EXPECT_EQ(parse({"a.br", "-o", "-lm"}, options), std::nullopt);
    EXPECT_EQ(options.output, "-lm");
    EXPECT_TRUE(options.host_args.empty());
}

TEST(DriverOptions, ResponseFilesAreSplitAsGccSplitsThem) {
    EXPECT_EQ(split_response_file("a.br  -o 'my prog'\n\"-DQ=a b\" x\\ y -DS=\"s\"\n"),
              (std::vector<std::string>{"a.br", "-o", "my prog", "-DQ=a b", "x y", "-DS=s"}));
    EXPECT_EQ(split_response_file("''"), std::vector<std::string>{""});
    EXPECT_TRUE(split_response_file(" \n\t").empty());
}

TEST(DriverOptions, ReadsResponseFilesWithinResponseFiles) {
    const std::filesystem::path dir = std::filesystem::path(::testing::TempDir());
    const std::string inner = (dir / "brcc_inner.rsp").string();
    const std::string outer = (dir / "brcc_outer.rsp").string();
    std::ofstream(inner) << "-O3 'b c.br'";
    std::ofstream(outer) << "a.br @" << inner << " -c";
    DriverOptions options;
    const std::string at_outer = "@" + outer;
    EXPECT_EQ(parse({at_outer.c_str()}, options), std::nullopt);
    EXPECT_EQ(options.inputs, (std::vector<std::string>{"a.br", "b c.br"}));
    EXPECT_EQ(options.optimization, "3");
    EXPECT_TRUE(options.compile_only);

    std::ofstream(outer) << "@" << outer; // names itself
    std::string error;
    expand_response_files({at_outer}, error);
    EXPECT_NE(error.find("does one name itself?"), std::string::npos) << error;
}

TEST(DriverOptions, AcceptsCpp20AndLaterOnly) {
    for (const char* standard : {"-std=c++20", "-std=c++2a", "-std=gnu++20", "-std=c++23"}) {
        DriverOptions options;
        EXPECT_EQ(parse({"a.br", standard}, options), std::nullopt) << standard;
    }
    for (const char* standard :
         {"-std=c++17", "-std=gnu++14", "-std=c++98", "-std=c11", "-std=", "-std=c++20x"}) {
        DriverOptions options;
        EXPECT_EQ(parse({"a.br", standard}, options), exit_usage) << standard;
    }
}

TEST(DriverOptions, UsageErrorsExitWithTwo) {
    const std::vector<std::vector<const char*>> bad = {
        {},
        {"a.br", "--backends=cpu,metal"},
        {"a.br", "--backends="},
        {"a.br", "-O9"},
        {"a.br", "--no-such-option"},
        {"--emit-cpp", "a.br", "b.br"},
        {"--emit-cpp", "--dump-ast", "a.br"},
        {"--dump-after=codegen", "a.br"},
        {"--dump-after=parse", "--dump-ast", "a.br"},
        {"--emit-cpp", "--dump-after=sema", "a.br"},
        {"--emit-cpp", "a.br", "--", "-lm"},
        {"--emit-kernels=cuda", "a.br"},
        {"--emit-kernels=metal", "a.br", "-o", "dir"},
        {"--emit-kernels=cuda", "--emit-cpp", "a.br", "-o", "dir"},
        {"a.br", "-MF", "a.d"},
        {"a.br", "-MT", "t"},
        {"a.br", "-MP"},
        {"-M", "--emit-cpp", "a.br"},
        {"-MD", "--emit-cpp", "a.br"}, // the depfile goes beside -o FILE, or to -MF
        {"-c", "--dump-ast", "a.br"},
        {"--dryrun", "--emit-cpp", "a.br"},
        {"a.br", "-h"},
        {"a.br", "-MF"},
        {"a.br", "--color=sometimes"},
        {"@/no/such/response/file"},
    };
    for (const auto& args : bad) {
        DriverOptions options;
        EXPECT_EQ(parse(args, options), exit_usage) << (args.empty() ? "(none)" : args.back());
    }
}

} // namespace
} // namespace brcc
