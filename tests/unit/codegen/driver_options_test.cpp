// brcc's command line: what each option sets (and the tuning flags it gives the C++ compiler),
// arguments after `--`, and usage errors (exit 2).

#include "driver/options.hpp"

#include <gtest/gtest.h>

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
              (std::vector<std::string>{"-fopenmp-simd", "-fno-trapping-math", "-march=native",
                                        "-mprefer-vector-width=512"}));
    DriverOptions portable;
    EXPECT_EQ(parse({"--portable", "a.br"}, portable), std::nullopt);
    EXPECT_TRUE(portable.portable);
    EXPECT_EQ(tuning_flags(portable),
              (std::vector<std::string>{"-fopenmp-simd", "-fno-trapping-math"}));
}

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

TEST(DriverOptions, UsageErrorsExitWithTwo) {
    const std::vector<std::vector<const char*>> bad = {
        {},
        {"a.br", "--backends=cpu,vulkan"},
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
        {"--emit-kernels=vulkan", "a.br", "-o", "dir"},
        {"--emit-kernels=cuda", "--emit-cpp", "a.br", "-o", "dir"},
    };
    for (const auto& args : bad) {
        DriverOptions options;
        EXPECT_EQ(parse(args, options), exit_usage) << (args.empty() ? "(none)" : args.back());
    }
}

} // namespace
} // namespace brcc
