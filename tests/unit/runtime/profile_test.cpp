// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// BRT_PROFILE (core/profiler.hpp): the table printed at exit, read back row by row, and the Chrome
// trace-event file, read back as JSON. Each case runs a small program in a fresh child process,
// which sends its stderr to a file for the parent to read, since the report comes at exit.
#include <brook/brook.hpp>

#include "death_test.hpp"
#include "hand_kernels.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#ifdef BROOK_HAVE_NLOHMANN_JSON
#include <nlohmann/json.hpp>
#endif

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using testing::HasSubstr;

constexpr std::size_t elements = 1000;
constexpr int copies = 5;
constexpr int sums = 2;

class ProfileDeathTest : public RuntimeDeathTest {
protected:
    void SetUp() override {
        RuntimeDeathTest::SetUp();
        const std::string name = testing::UnitTest::GetInstance()->current_test_info()->name();
        stderr_path_ = testing::TempDir() + "profile_" + name + ".stderr";
        trace_path_ = testing::TempDir() + "profile_" + name + ".json";
        std::remove(stderr_path_.c_str());
        std::remove(trace_path_.c_str());
    }

    /// In the child: profiles with `setting` and runs the program below; its stderr goes to
    /// stderr_path_.
    void run_program(const std::string& setting) const {
        if (std::freopen(stderr_path_.c_str(), "w", stderr) == nullptr) {
            std::exit(3);
        }
        setenv("BRT_RUNTIME", "cpu", 1);
        setenv("BRT_PROFILE", setting.c_str(), 1);
        std::vector<float> data(elements, 1.0f);
        brook::stream a = brook::make_stream<float>(elements);
        brook::stream b = brook::make_stream<float>(elements);
        brook::streamRead(a, data.data());
        for (int i = 0; i < copies; ++i) {
            hand::copy<float>(a, b);
        }
        for (int i = 0; i < sums; ++i) {
            float total = 0.0f;
            const brook::KernelArg args[] = {brook::KernelArg::input(b),
                                             brook::KernelArg::reduce_target(total)};
            brook::run_reduce(hand::sum_kernel<float>, args);
        }
        brook::streamWrite(b, data.data());
        std::exit(0);
    }

    static std::string contents(const std::string& path) {
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }

    std::string stderr_path_;
    std::string trace_path_;
};

/// A row of the table: its columns by header name.
using Row = std::map<std::string, std::string>;

/// The table's rows by "Activity Name" ("kernel copy").
std::map<std::string, Row> table_rows(const std::string& text) {
    std::istringstream lines(text);
    std::string line;
    std::vector<std::string> header;
    std::map<std::string, Row> rows;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::vector<std::string> columns;
        for (std::string word; words >> word;) {
            columns.push_back(word);
        }
        if (!columns.empty() && columns[0] == "Time(%)") {
            header = columns;
        } else if (!header.empty() && columns.size() == header.size()) {
            Row row;
            for (std::size_t i = 0; i < columns.size(); ++i) {
                row[header[i]] = columns[i];
            }
            rows[row["Activity"] + " " + row["Name"]] = row;
        }
    }
    return rows;
}

TEST_F(ProfileDeathTest, TableCountsCallsAndElements) {
    EXPECT_EXIT(run_program("1"), testing::ExitedWithCode(0), "");
    const std::string text = contents(stderr_path_);
    EXPECT_THAT(text, HasSubstr("brook: profile, "));
    const std::map<std::string, Row> rows = table_rows(text);
    struct Expected {
        const char* row;
        int calls;
        std::size_t elements;
    };
    for (const Expected& expected :
         {Expected{"kernel copy", copies, copies * elements},
          Expected{"reduce sum", sums, sums * elements}, Expected{"copy streamRead", 1, elements},
          Expected{"copy streamWrite", 1, elements}}) {
        const auto found = rows.find(expected.row);
        ASSERT_NE(found, rows.end()) << expected.row << " in\n" << text;
        const Row& row = found->second;
        EXPECT_EQ(std::stoi(row.at("Calls")), expected.calls) << expected.row;
        EXPECT_EQ(std::stoul(row.at("Elements")), expected.elements) << expected.row;
        // The mean is the total over the calls (ms against us, each rounded to 3 places).
        EXPECT_NEAR(std::stod(row.at("Mean(us)")) * expected.calls / 1000.0,
                    std::stod(row.at("Total(ms)")), 0.002 * expected.calls)
            << expected.row;
    }
    EXPECT_EQ(rows.size(), 4u) << text;
}

TEST_F(ProfileDeathTest, TraceIsChromeTraceEventJson) {
#ifndef BROOK_HAVE_NLOHMANN_JSON
    GTEST_SKIP() << "nlohmann-json3-dev is not installed, so the trace cannot be parsed";
#else
    EXPECT_EXIT(run_program(trace_path_), testing::ExitedWithCode(0), "");
    EXPECT_THAT(contents(stderr_path_), HasSubstr("spans written to " + trace_path_));
    const nlohmann::json trace = nlohmann::json::parse(contents(trace_path_));
    std::map<std::string, int> counts;
    double previous_end = 0.0;
    for (const nlohmann::json& event : trace.at("traceEvents")) {
        if (event.at("ph") == "M") {
            continue;
        }
        ASSERT_EQ(event.at("ph"), "X") << event;
        const std::string key =
            event.at("cat").get<std::string>() + " " + event.at("name").get<std::string>();
        ++counts[key];
        const double start = event.at("ts").get<double>();
        const double length = event.at("dur").get<double>();
        // One thread, one call after another: the spans follow each other in the file.
        EXPECT_GE(start, previous_end) << event;
        EXPECT_GE(length, 0.0) << event;
        previous_end = start + length;
        EXPECT_EQ(event.at("args").at("elements").get<std::size_t>(), elements) << event;
        if (key == "kernel copy") {
            EXPECT_EQ(event.at("args").at("bytes").get<std::size_t>(), 2 * elements * 4);
        }
    }
    EXPECT_EQ(counts, (std::map<std::string, int>{{"kernel copy", copies},
                                                  {"reduce sum", sums},
                                                  {"copy streamRead", 1},
                                                  {"copy streamWrite", 1}}));
#endif
}

TEST_F(ProfileDeathTest, OffByDefaultAndWithZero) {
    EXPECT_EXIT(run_program("0"), testing::ExitedWithCode(0), "");
    EXPECT_EQ(contents(stderr_path_), "");
}

TEST_F(ProfileDeathTest, WrongSettingsAreErrors) {
    EXPECT_EXIT(run_program("yes"), testing::ExitedWithCode(1), "");
    EXPECT_THAT(contents(stderr_path_),
                HasSubstr("brook: error: BRT_PROFILE=yes is not a setting: use 1 (a table of the "
                          "kernels at exit) or FILE.json"));
    EXPECT_EXIT(run_program("/no/such/folder/trace.json"), testing::ExitedWithCode(1), "");
    EXPECT_THAT(contents(stderr_path_),
                HasSubstr("brook: error: BRT_PROFILE=/no/such/folder/trace.json: cannot create "
                          "the trace file (No such file or directory)"));
}

} // namespace
