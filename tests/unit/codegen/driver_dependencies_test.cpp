// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// brcc's make rules (-M, -MD): reading the depfiles the C++ compiler writes, mapping brcc's own
// files back to the Brook files they were made from, and writing rules as gcc writes them.

#include "driver/dependencies.hpp"

#include <gtest/gtest.h>

namespace brcc {
namespace {

TEST(DriverDependencies, ReadsThePrerequisitesOfAGccDepfile) {
    const std::string depfile = "/tmp/w/0-a.o: /tmp/w/0-a.cpp /usr/include/stdio.h \\\n"
                                " my\\ dir/b.hpp c$$d.h \\\n"
                                "  inc/e.h\n"
                                "inc/e.h:\n";
    EXPECT_EQ(read_depfile_prerequisites(depfile),
              (std::vector<std::string>{"/tmp/w/0-a.cpp", "/usr/include/stdio.h", "my dir/b.hpp",
                                        "c$d.h", "inc/e.h"}));
}

TEST(DriverDependencies, MapsGeneratedFilesBackAndDropsTheRestOfTheWorkDirectory) {
    const std::vector<std::string> files = {
        "a.br", "/tmp/w/0-a.cpp", "/usr/x.h", "/tmp/w/stats.hpp", "/tmp/w/other.h", "stats.brh"};
    const std::map<std::string, std::string> generated = {{"/tmp/w/0-a.cpp", "a.br"},
                                                          {"/tmp/w/stats.hpp", "stats.brh"}};
    EXPECT_EQ(real_dependencies(files, generated, "/tmp/w"),
              (std::vector<std::string>{"a.br", "/usr/x.h", "stats.brh"}));
    EXPECT_EQ(real_dependencies({"a.br", "/tmp/w/0-a.cpp", "a.br"}, {}, ""),
              (std::vector<std::string>{"a.br", "/tmp/w/0-a.cpp"}));
}

TEST(DriverDependencies, WritesRulesAsGccDoes) {
    EXPECT_EQ(make_rule({"a.o"}, {"a.br", "my dir/b.h"}, false),
              "a.o: \\\n  a.br \\\n  my\\ dir/b.h\n");
    EXPECT_EQ(make_rule({"t1", "t2"}, {"a.br", "b.h", "c$.h"}, true),
              "t1 t2: \\\n  a.br \\\n  b.h \\\n  c$$.h\n\nb.h:\n\nc$$.h:\n");
}

TEST(DriverDependencies, ARuleReadsBackAsItsPrerequisites) {
    const std::vector<std::string> files = {"a.br", "my dir/b#1.h", "c$d.h"};
    EXPECT_EQ(read_depfile_prerequisites(make_rule({"a.o"}, files, true)), files);
}

TEST(DriverDependencies, QuotesTargetsAsGccMQDoes) {
    EXPECT_EQ(make_quoted("out/$(dir)/a b#1.o"), "out/$$(dir)/a\\ b\\#1.o");
    EXPECT_EQ(make_quoted("plain.o"), "plain.o");
}

} // namespace
} // namespace brcc
