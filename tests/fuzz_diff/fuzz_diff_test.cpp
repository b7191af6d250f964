// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The generator's determinism and the reducer's contract, without compiling anything.
#include "differential.hpp"
#include "generator.hpp"
#include "reducer.hpp"

#include <gtest/gtest.h>
#include <stdexcept>

namespace brook_fuzz {
namespace {

TEST(FuzzDiffGenerator, SameSeedSameProgram) {
    EXPECT_EQ(print_program(generate_program(42, 6)), print_program(generate_program(42, 6)));
    EXPECT_NE(print_program(generate_program(42, 6)), print_program(generate_program(43, 6)));
}

TEST(FuzzDiffGenerator, ProgramsUseEveryUnitKind) {
    std::string all;
    for (unsigned long long seed = 1; seed <= 20; ++seed) {
        all += print_program(generate_program(seed, 8));
    }
    for (const char* construct : {"reduce void",
                                  "vout ",
                                  "push(",
                                  "streamScatterOp",
                                  "streamGatherOp",
                                  "iter float",
                                  "[][]",
                                  "indexof(",
                                  "while (",
                                  "for (int",
                                  "else {",
                                  "_help(",
                                  "break;",
                                  "continue;",
                                  "do {",
                                  "'A'",
                                  "'E'",
                                  ".domain(",
                                  "uint",
                                  "char",
                                  "uchar",
                                  "typedef struct",
                                  "_sout.f",
                                  "_sin.f",
                                  "discard;",
                                  "+= ",
                                  "-= ",
                                  "*= ",
                                  "/= ",
                                  "&= ",
                                  "|= ",
                                  "^= ",
                                  "<<= ",
                                  ">>= ",
                                  "%= 65536;",
                                  "%= 65536u;",
                                  "vout shape E:"}) {
        EXPECT_NE(all.find(construct), std::string::npos) << construct;
    }
}

TEST(FuzzDiffBackends, NamesAndRanks) {
    EXPECT_EQ(parse_backend("gl").runtime, "gl");
    EXPECT_EQ(parse_backend("gl").ranks, 0);
    EXPECT_EQ(parse_backend("mpi:cpu@3").runtime, "mpi:cpu");
    EXPECT_EQ(parse_backend("mpi:cpu@3").ranks, 3);
    for (const char* bad : {"mpi@", "mpi@0", "mpi@x", "mpi@3x", "@2", "mpi@65"}) {
        EXPECT_THROW((void)parse_backend(bad), std::invalid_argument) << bad;
    }
}

// The reducer keeps what the predicate needs and drops the rest.
TEST(FuzzDiffReducer, KeepsTheFailureAndShrinks) {
    Program program;
    unsigned long long seed = 1;
    for (;; ++seed) {
        program = generate_program(seed, 6);
        if (print_program(program).find("push(") != std::string::npos) {
            break;
        }
    }
    const auto has_push = [](const Program& p) {
        return print_program(p).find("push(") != std::string::npos;
    };
    int checks = 0;
    const Program reduced = reduce(
        program, [&](const Program& p) { return ++checks, has_push(p); }, 1000);
    EXPECT_TRUE(has_push(reduced));
    EXPECT_EQ(reduced.units.size(), 1u);
    EXPECT_LT(print_program(reduced).size(), print_program(program).size() / 2);
    EXPECT_LE(checks, 1000);
}

} // namespace
} // namespace brook_fuzz
