// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// brook_fuzz_diff: differential testing of Brook's backends with generated programs
// (CONTRIBUTING.md, "Differential testing"). `--print` shows the program of a seed; a run
// generates, compiles and runs programs on every backend, compares each with cpu and keeps every
// disagreeing program, reduced; `replay` checks one kept program on one backend for CTest.
#include "differential.hpp"
#include "generator.hpp"
#include "reducer.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace fs = std::filesystem;
using namespace brook_fuzz;

namespace {

constexpr int skip_status = 77; // CTest's SKIP_RETURN_CODE for our tests

// run_on_ranks.sh and mpiexec as this build found them (tests/fuzz_diff/CMakeLists.txt); none
// without MPI, where a NAME@N backend is then a named skip.
std::vector<std::string> default_rank_launcher() {
    const std::string mpiexec = BROOK_FUZZ_DIFF_MPIEXEC;
    if (mpiexec.empty()) {
        return {};
    }
    return {BROOK_FUZZ_DIFF_RUN_ON_RANKS, mpiexec};
}

std::vector<std::string> split_list(const std::string& list) {
    std::vector<std::string> items;
    std::istringstream in(list);
    for (std::string item; std::getline(in, item, ',');) {
        if (!item.empty()) {
            items.push_back(item);
        }
    }
    return items;
}

// The disagreements of one program between cpu and each other backend; `skipped` collects the
// backends that cannot start.
std::vector<std::pair<std::string, std::string>>
differences(const Setup& setup, const std::string& name, const std::vector<std::string>& backends,
            std::vector<std::string>& skipped) {
    const BackendRun reference = run_backend(setup, name, "cpu");
    std::vector<std::pair<std::string, std::string>> found;
    for (const std::string& backend : backends) {
        if (backend == "cpu") {
            continue;
        }
        const BackendRun run = run_backend(setup, name, backend);
        if (run.skipped) {
            skipped.push_back(backend);
        } else if (std::optional<std::string> why = disagreement(reference, run)) {
            found.emplace_back(backend, *why);
        }
    }
    if (found.empty() && !reference.ok) { // no other backend ran: cpu failing is still a finding
        found.emplace_back("cpu", "cpu failed: " + reference.problem);
    }
    return found;
}

std::string comment_lines(const std::string& text) {
    std::string out;
    std::istringstream in(text);
    int lines = 0;
    for (std::string line; std::getline(in, line) && lines < 12; ++lines) {
        out += "// " + line + "\n";
    }
    return out;
}

struct RunOptions {
    unsigned long long seed = 1;
    int count = 1;
    int units = 8;
    int jobs = 1;
    int reduce_budget = 150;
    std::string backends = "cpu,gl,cuda,vulkan";
    std::string keep_dir;
};

int run_many(const Setup& setup, const RunOptions& options) {
    const std::vector<std::string> backends = split_list(options.backends);
    std::atomic<int> next{0};
    std::atomic<int> disagreeing{0};
    std::atomic<int> compile_failures{0};
    std::mutex output;
    std::vector<std::string> all_skipped;
    auto worker = [&] {
        for (int i = next++; i < options.count; i = next++) {
            const unsigned long long seed = options.seed + static_cast<unsigned long long>(i);
            const std::string name = "seed_" + std::to_string(seed);
            const Program program = generate_program(seed, options.units);
            std::vector<std::string> skipped;
            std::vector<std::pair<std::string, std::string>> found;
            if (std::optional<std::string> error = compile(setup, print_program(program), name)) {
                ++compile_failures;
                found.emplace_back("brcc", *error);
            } else {
                found = differences(setup, name, backends, skipped);
            }
            {
                const std::lock_guard lock(output);
                std::cout << name << ": " << (found.empty() ? "agree" : "DISAGREE");
                for (const auto& [backend, why] : found) {
                    std::cout << "\n  " << why.substr(0, 400);
                }
                std::cout << std::endl;
                if (all_skipped.empty()) {
                    all_skipped = skipped;
                }
            }
            if (found.empty() || found[0].first == "brcc") {
                continue;
            }
            ++disagreeing;
            if (options.keep_dir.empty()) {
                continue;
            }
            // Reduce while the same backend still disagrees with cpu.
            const std::string backend = found[0].first;
            int checks = 0;
            const Program reduced = reduce(
                program,
                [&](const Program& candidate) {
                    const std::string trial = name + "_r" + std::to_string(checks++);
                    if (compile(setup, print_program(candidate), trial)) {
                        return false;
                    }
                    std::vector<std::string> ignored;
                    const auto again = differences(setup, trial, {backend}, ignored);
                    return !again.empty() && again[0].first == backend;
                },
                options.reduce_budget);
            fs::create_directories(options.keep_dir);
            const fs::path kept =
                fs::path(options.keep_dir) / ("seed_" + std::to_string(seed) + ".br");
            std::ofstream(kept) << "// Reduced from a disagreement between cpu and " << backend
                                << ":\n"
                                << comment_lines(found[0].second) << print_program(reduced);
            const std::lock_guard lock(output);
            std::cout << name << ": kept, reduced in " << checks << " checks, as " << kept.string()
                      << std::endl;
        }
    };
    std::vector<std::thread> threads;
    for (int j = 0; j < std::max(1, options.jobs); ++j) {
        threads.emplace_back(worker);
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    std::cout << "\n"
              << options.count << " programs (" << options.count * options.units << " units) on "
              << options.backends;
    for (const std::string& backend : all_skipped) {
        std::cout << "; SKIPPED: backend " << backend << " not available";
    }
    std::cout << "\n"
              << disagreeing << " disagreeing, " << compile_failures << " not compiled"
              << std::endl;
    if (disagreeing > 0 || compile_failures > 0) {
        return 1;
    }
    const auto compared =
        std::count_if(backends.begin(), backends.end(), [&](const std::string& b) {
            return b != "cpu" &&
                   std::find(all_skipped.begin(), all_skipped.end(), b) == all_skipped.end();
        });
    if (compared == 0) {
        std::cout << "SKIPPED: no backend but cpu starts here, so nothing was compared\n";
        return skip_status;
    }
    return 0;
}

// One kept program on one backend, compared with cpu.
int replay(const Setup& setup, const std::string& file, const std::string& backend) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const std::string name = fs::path(file).stem().string();
    if (std::optional<std::string> error = compile(setup, text.str(), name)) {
        std::cout << "FAILED: " << *error << '\n';
        return 1;
    }
    std::vector<std::string> skipped;
    const auto found = differences(setup, name, {backend}, skipped);
    if (!skipped.empty()) {
        std::cout << "SKIPPED: backend " << backend << " not available\n";
        return skip_status;
    }
    for (const auto& [who, why] : found) {
        std::cout << "FAILED: " << why << '\n';
    }
    if (!found.empty()) {
        return 1;
    }
    std::cout << "PASSED: " << name << " on " << backend << " agrees with cpu\n";
    return 0;
}

// Outputs saved elsewhere (a machine with a GPU, where nothing is compiled): `FILE` holds the
// program's stdout and `FILE.rc` its exit status.
BackendRun saved_run(const std::string& file, const std::string& backend) {
    std::ifstream in(file);
    std::stringstream out;
    out << in.rdbuf();
    int status = -1;
    std::ifstream(file + ".rc") >> status;
    return BackendRun{backend, false, status == 0, out.str(),
                      status == 0 ? "" : "exit status " + std::to_string(status)};
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"Generates random Brook programs and compares every backend with cpu"};
    Setup setup;
    RunOptions options;
    bool print_only = false;
    app.add_option("--seed", options.seed, "the first program's seed");
    app.add_option("--count", options.count, "how many programs (seeds seed, seed+1, ...)");
    app.add_option("--units", options.units, "independent kernels per program");
    app.add_flag("--print", print_only, "print the program of --seed and stop");
    app.add_option("--brcc", setup.brcc, "the brcc to use");
    app.add_option("--work", setup.work_dir, "where programs are built")->default_val("fuzz_diff");
    app.add_option("--cxx-flag", setup.cxx_flags, "a flag for the C++ compiler (repeatable)")
        ->allow_extra_args(false);
    app.add_option("--backends", options.backends,
                   "backends to compare with cpu; NAME@N runs on N ranks of an MPI job "
                   "(mpi:cpu@3)");
    setup.rank_launcher = default_rank_launcher();
    app.add_option("--rank-launcher", setup.rank_launcher,
                   "the command that runs a program on N ranks, as COMMAND... N PROGRAM "
                   "(repeatable, one word each)")
        ->allow_extra_args(false);
    app.add_option("--jobs", options.jobs, "programs checked at once");
    app.add_option("--keep", options.keep_dir, "where disagreeing programs go, reduced");
    app.add_option("--reduce-budget", options.reduce_budget, "checks the reducer may run");
    app.add_option("--timeout", setup.run_timeout_s,
                   "seconds a program may run on one backend (llvmpipe compiles big shaders "
                   "slowly on a loaded machine)");

    std::string replay_file;
    std::string replay_backend;
    CLI::App* replay_command = app.add_subcommand("replay", "compare a kept program on a backend");
    replay_command->add_option("--backend", replay_backend, "the backend")->required();
    replay_command->add_option("file", replay_file, "the .br program")->required();
    std::vector<std::string> compare_files;
    std::string compare_backend = "other";
    CLI::App* compare_command =
        app.add_subcommand("compare", "compare saved outputs: the cpu one, then another");
    compare_command->add_option("--backend", compare_backend, "the other output's backend");
    compare_command->add_option("files", compare_files, "CPU_OUTPUT OTHER_OUTPUT")
        ->required()
        ->expected(2);
    CLI11_PARSE(app, argc, argv);

    if (compare_command->parsed()) {
        const std::optional<std::string> why = disagreement(
            saved_run(compare_files[0], "cpu"), saved_run(compare_files[1], compare_backend));
        std::cout << (why ? "DISAGREE: " + *why : "agree") << '\n';
        return why ? 1 : 0;
    }

    if (print_only) {
        std::cout << print_program(generate_program(options.seed, options.units));
        return 0;
    }
    if (setup.brcc.empty()) {
        std::cerr << "brook_fuzz_diff: error: --brcc is required to compile the programs\n";
        return 2;
    }
    try {
        for (const std::string& backend : split_list(options.backends)) {
            (void)parse_backend(backend);
        }
        (void)parse_backend(replay_backend);
    } catch (const std::invalid_argument& error) {
        std::cerr << "brook_fuzz_diff: error: " << error.what() << '\n';
        return 2;
    }
    if (replay_command->parsed()) {
        return replay(setup, replay_file, replay_backend);
    }
    return run_many(setup, options);
}
