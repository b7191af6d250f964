// brcc's warnings: which the -W flags turn on, off and into errors (WarningPolicy).

#include "support/warning_policy.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

} // namespace
} // namespace brcc::test
