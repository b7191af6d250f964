// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// brcc's warnings: which the -W flags turn on, off and into errors (WarningPolicy), and how the
// DiagnosticEngine prints a warning under that policy, on kernels through the real front end.

#include "sema_source_harness.hpp"

#include "support/warning_policy.hpp"

namespace brcc::test {
namespace {

WarningAction action_under(std::vector<std::string> flags, std::string_view name,
                           WarningGroup group) {
    return WarningPolicy(flags).action(name, group);
}

TEST(WarningPolicyTest, DefaultGroupIsOnAndAllGroupNeedsWall) {
    EXPECT_EQ(action_under({}, "gather-bounds", WarningGroup::Default), WarningAction::Warn);
    EXPECT_EQ(action_under({}, "unused-parameter", WarningGroup::All), WarningAction::Ignore);
    EXPECT_EQ(action_under({"-Wall"}, "unused-parameter", WarningGroup::All), WarningAction::Warn);
    EXPECT_EQ(action_under({"-Wextra"}, "unused-parameter", WarningGroup::All),
              WarningAction::Warn);
    EXPECT_EQ(action_under({"-Wunused-parameter"}, "unused-parameter", WarningGroup::All),
              WarningAction::Warn);
    EXPECT_EQ(action_under({"-Wall", "-Wno-all"}, "unused-parameter", WarningGroup::All),
              WarningAction::Ignore);
}

TEST(WarningPolicyTest, TheCppCompilerGetsEveryFlagButThoseOfBrccsOwnWarnings) {
    // g++ rejects -Wgather-bounds as unknown; it shares unused-parameter and float-conversion.
    const std::vector<std::string> flags = {"-w",
                                            "-Wall",
                                            "-Wgather-bounds",
                                            "-Wno-unwritten-output",
                                            "-Werror=octal-literal",
                                            "-Wno-error=gather-bounds",
                                            "-Wunused-parameter",
                                            "-Werror=float-conversion",
                                            "-Wshadow"};
    EXPECT_EQ(host_warning_flags(flags),
              (std::vector<std::string>{"-w", "-Wall", "-Wunused-parameter",
                                        "-Werror=float-conversion", "-Wshadow"}));
}

TEST(WarningPolicyTest, NamedChoiceOutlivesWallInEitherOrder) {
    // gcc: -Wno-NAME keeps NAME off whether it comes before or after -Wall.
    for (const auto& flags : {std::vector<std::string>{"-Wall", "-Wno-unused-parameter"},
                              std::vector<std::string>{"-Wno-unused-parameter", "-Wall"}})
        EXPECT_EQ(action_under(flags, "unused-parameter", WarningGroup::All),
                  WarningAction::Ignore);
    EXPECT_EQ(action_under({"-Wno-gather-bounds"}, "gather-bounds", WarningGroup::Default),
              WarningAction::Ignore);
    EXPECT_EQ(action_under({"-Wno-gather-bounds", "-Wgather-bounds"}, "gather-bounds",
                           WarningGroup::Default),
              WarningAction::Warn);
    // Another warning's flag changes nothing.
    EXPECT_EQ(action_under({"-Wno-unused-parameter"}, "gather-bounds", WarningGroup::Default),
              WarningAction::Warn);
}

TEST(WarningPolicyTest, WerrorAndItsExceptions) {
    EXPECT_EQ(action_under({"-Werror"}, "gather-bounds", WarningGroup::Default),
              WarningAction::Error);
    // -Werror turns nothing on.
    EXPECT_EQ(action_under({"-Werror"}, "unused-parameter", WarningGroup::All),
              WarningAction::Ignore);
    EXPECT_EQ(action_under({"-Werror", "-Wno-error"}, "gather-bounds", WarningGroup::Default),
              WarningAction::Warn);
    EXPECT_EQ(action_under({"-Werror", "-Wno-error=gather-bounds"}, "gather-bounds",
                           WarningGroup::Default),
              WarningAction::Warn);
    // -Werror=NAME turns NAME on as an error, and only NAME.
    EXPECT_EQ(action_under({"-Werror=unused-parameter"}, "unused-parameter", WarningGroup::All),
              WarningAction::Error);
    EXPECT_EQ(action_under({"-Werror=unused-parameter"}, "gather-bounds", WarningGroup::Default),
              WarningAction::Warn);
}

TEST(WarningPolicyTest, LowercaseWSilencesEverything) {
    EXPECT_EQ(action_under({"-Wall", "-Werror", "-w"}, "gather-bounds", WarningGroup::Default),
              WarningAction::Ignore);
    EXPECT_EQ(action_under({"-w", "-Wunused-parameter"}, "unused-parameter", WarningGroup::All),
              WarningAction::Ignore);
}

TEST(WarningPolicyTest, FlagsOfTheCxxCompilerAreLeftAlone) {
    // -Wshadow and -Wl,... belong to the C++ compiler and linker; they change no brcc warning.
    EXPECT_EQ(action_under({"-Wshadow", "-Wl,--as-needed", "-Wno-unused-variable"}, "gather-bounds",
                           WarningGroup::Default),
              WarningAction::Warn);
}

constexpr const char* kernel_with_mistakes = R"(
kernel void k(float a<>, float scale, float t[4], out float b<>, out float never<>) {
    int i = a;
    b = t[7] + t[-1] + t[3] + (float)i;
}
)";

TEST_F(SemaSourceTest, DefaultWarningsCarryTheirNames) {
    EXPECT_TRUE(analyze_source(kernel_with_mistakes)) << out_.str();
    const std::string out = out_.str();
    EXPECT_NE(out.find("test.br:4:11: warning: index 7 of gather 't' is past its declared size 4"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("test.br:4:18: warning: index -1 of gather 't' is below 0"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("[-Wgather-bounds]"), std::string::npos) << out;
    EXPECT_NE(out.find("test.br:2:76: warning: out stream 'never' is never written"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("[-Wunwritten-output]"), std::string::npos) << out;
    // t[3] is inside; the -Wall warnings are off by default.
    EXPECT_EQ(out.find("index 3"), std::string::npos) << out;
    EXPECT_EQ(out.find("unused-parameter"), std::string::npos) << out;
    EXPECT_EQ(out.find("float-conversion"), std::string::npos) << out;
}

TEST_F(SemaSourceTest, WallAddsUnusedParameterAndFloatConversion) {
    const std::vector<std::string> flags = {"-Wall"};
    diags_.set_warning_policy(WarningPolicy(flags));
    EXPECT_TRUE(analyze_source(kernel_with_mistakes)) << out_.str();
    const std::string out = out_.str();
    EXPECT_NE(out.find("test.br:2:32: warning: constant argument 'scale' of kernel 'k' is never "
                       "used"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("test.br:3:13: warning: implicit conversion from 'float' to 'int' drops "
                       "the fraction"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("[-Wfloat-conversion]"), std::string::npos) << out;
    // Read parameters and written outputs are not reported.
    EXPECT_EQ(out.find("'a'"), std::string::npos) << out;
    EXPECT_EQ(out.find("'b'"), std::string::npos) << out;
}

TEST_F(SemaSourceTest, WerrorMakesWarningsErrors) {
    const std::vector<std::string> werror = {"-Werror"};
    diags_.set_warning_policy(WarningPolicy(werror));
    EXPECT_FALSE(analyze_source(kernel_with_mistakes));
    EXPECT_EQ(diags_.error_count(), 3u) << out_.str();
    const std::string out = out_.str();
    EXPECT_NE(out.find("test.br:4:11: error: index 7 of gather 't' is past its declared size 4"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("[-Werror=gather-bounds]"), std::string::npos) << out;
    // The gather warnings, now errors, do not hide the kernel's other warnings.
    EXPECT_NE(out.find("error: out stream 'never' is never written"), std::string::npos) << out;
    EXPECT_NE(out.find("[-Werror=unwritten-output]"), std::string::npos) << out;
}

TEST_F(SemaSourceTest, LowercaseWPrintsNothing) {
    const std::vector<std::string> flags = {"-Wall", "-w"};
    diags_.set_warning_policy(WarningPolicy(flags));
    EXPECT_TRUE(analyze_source(kernel_with_mistakes));
    EXPECT_EQ(out_.str(), "");
}

TEST_F(SemaSourceTest, NoWarningWhereNothingIsLost) {
    const std::vector<std::string> flags = {"-Wall"};
    diags_.set_warning_policy(WarningPolicy(flags));
    expect_clean(R"(
kernel float twice(float x) { return 2.0 * x; }
kernel void k(float a<>, float t[8][4], float g[], out float b<>, out float c<>) {
    int whole = 4.0;
    int cast = (int)a;
    float back = whole;
    b = twice(t[7][3] + t[0][0] + g[100] + back + (float)cast);
    c = 0.0;
}
reduce void sum(float a<>, reduce float r<>) { r += a; }
reduce void fetch(float a<>, reduce float r<>) {}
)");
    EXPECT_EQ(out_.str(), "");
}

} // namespace
} // namespace brcc::test
