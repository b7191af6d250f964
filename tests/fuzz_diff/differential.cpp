// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Each printed line is `LABEL CLASS: v v v ...` (program.cpp's print helpers); lines are matched
// by position and label, values by class: E exactly (as numbers, so -0 equals 0), A within
// approximate_tolerance.
#include "differential.hpp"

#include "conformance.hpp"
#include "output_compare.hpp"
#include "process.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace brook_fuzz {
namespace fs = std::filesystem;
using brook_test::ProcessResult;
using brook_test::ProcessSpec;

namespace {

constexpr double compile_timeout_s = 300.0;
constexpr int max_ranks = 64;

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    return lines;
}

std::optional<std::string> compare_line(const std::string& want, const std::string& got) {
    const std::size_t colon = want.find(':');
    if (colon == std::string::npos || colon < 2 ||
        got.compare(0, colon + 1, want, 0, colon + 1) != 0) {
        return want == got
                   ? std::nullopt
                   : std::optional<std::string>("'" + got + "' where cpu printed '" + want + "'");
    }
    const bool exact = want[colon - 1] == 'E';
    std::istringstream want_values(want.substr(colon + 1));
    std::istringstream got_values(got.substr(colon + 1));
    std::string a;
    std::string b;
    for (int i = 0;; ++i) {
        const bool more_a = static_cast<bool>(want_values >> a);
        const bool more_b = static_cast<bool>(got_values >> b);
        if (!more_a || !more_b) {
            if (more_a != more_b) {
                return want.substr(0, colon) + ": " + (more_a ? "fewer" : "more") +
                       " values than cpu printed";
            }
            return std::nullopt;
        }
        const double x = std::strtod(a.c_str(), nullptr);
        const double y = std::strtod(b.c_str(), nullptr);
        const bool same = exact ? (x == y || (std::isnan(x) && std::isnan(y)))
                                : brook_test::numbers_match(x, y, approximate_tolerance);
        if (!same) {
            return want.substr(0, colon) + " value " + std::to_string(i) + ": " + b +
                   " where cpu printed " + a + (exact ? " (exact)" : " (beyond the tolerance)");
        }
    }
}

} // namespace

std::optional<std::string> compile(const Setup& setup, const std::string& source,
                                   const std::string& name) {
    fs::create_directories(setup.work_dir);
    const fs::path file = fs::path(setup.work_dir) / (name + ".br");
    std::ofstream(file) << source;
    ProcessSpec spec;
    spec.argv = {setup.brcc, file.string(), "-o", (fs::path(setup.work_dir) / name).string()};
    if (!setup.cxx_flags.empty()) {
        spec.argv.emplace_back("--");
        spec.argv.insert(spec.argv.end(), setup.cxx_flags.begin(), setup.cxx_flags.end());
    }
    spec.timeout_s = compile_timeout_s;
    const ProcessResult result = brook_test::run_process(spec);
    if (result.exec_failed || result.timed_out || result.signal != 0 || result.exit_code != 0) {
        return "brcc " + result.describe(spec.timeout_s) + ":\n" + result.out + result.err;
    }
    return std::nullopt;
}

BackendSpec parse_backend(const std::string& name) {
    const std::size_t at = name.rfind('@');
    if (at == std::string::npos) {
        return {name, 0};
    }
    const std::string ranks = name.substr(at + 1);
    int count = 0;
    const auto [end, error] = std::from_chars(ranks.data(), ranks.data() + ranks.size(), count);
    if (at == 0 || error != std::errc{} || end != ranks.data() + ranks.size() || count < 1 ||
        count > max_ranks) {
        throw std::invalid_argument("'" + name +
                                    "' is not a backend: write NAME, or NAME@N for N (1 to " +
                                    std::to_string(max_ranks) + ") ranks of an MPI job");
    }
    return {name.substr(0, at), count};
}

BackendRun run_backend(const Setup& setup, const std::string& name, const std::string& backend) {
    const BackendSpec which = parse_backend(backend);
    const std::string program = (fs::path(setup.work_dir) / name).string();
    ProcessSpec spec;
    if (which.ranks == 0) {
        spec.argv = {program};
    } else if (setup.rank_launcher.empty()) {
        return BackendRun{backend, true, false, {}, "this build has no MPI launcher"};
    } else {
        spec.argv = setup.rank_launcher;
        spec.argv.push_back(std::to_string(which.ranks));
        spec.argv.push_back(program);
    }
    spec.env = {{"BRT_RUNTIME", which.runtime}};
    spec.timeout_s = setup.run_timeout_s;
    const ProcessResult result = brook_test::run_process(spec);
    BackendRun run{backend, false, false, result.out, {}};
    if (backend != "cpu" && brook_test::backend_unavailable(result, which.runtime)) {
        run.skipped = true;
        run.problem = result.err;
        return run;
    }
    run.ok =
        !result.exec_failed && !result.timed_out && result.signal == 0 && result.exit_code == 0;
    if (!run.ok) {
        run.problem = result.describe(spec.timeout_s) + "\n" + result.err;
    }
    return run;
}

std::optional<std::string> disagreement(const BackendRun& reference, const BackendRun& other) {
    if (reference.ok != other.ok) {
        return (reference.ok ? other : reference).backend + " failed where " +
               (reference.ok ? reference : other).backend +
               " ran: " + (reference.ok ? other : reference).problem;
    }
    const std::vector<std::string> want = lines_of(reference.out);
    const std::vector<std::string> got = lines_of(other.out);
    for (std::size_t i = 0; i < std::min(want.size(), got.size()); ++i) {
        if (std::optional<std::string> why = compare_line(want[i], got[i])) {
            return other.backend + ", line " + std::to_string(i + 1) + ": " + *why;
        }
    }
    if (want.size() != got.size()) {
        return other.backend + " printed " + std::to_string(got.size()) + " lines, cpu " +
               std::to_string(want.size());
    }
    return std::nullopt;
}

} // namespace brook_fuzz
