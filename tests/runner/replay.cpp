// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// brcc may accept a replayed input (0) or reject it (1); anything else - another status, a
// signal, a hang, an "internal compiler error" or a sanitizer report - is a failure.
#include "replay.hpp"

#include "process.hpp"
#include "sanitizers.hpp"

#include <filesystem>
#include <iostream>

namespace brook_test {

std::optional<std::string> brcc_failure(const ProcessResult& result) {
    if (result.exec_failed)
        return "brcc could not be started";
    if (result.timed_out)
        return "brcc hung";
    if (result.signal != 0)
        return "brcc was killed by a signal";
    if (std::optional<std::string> report = find_crash_report(result.out + result.err))
        return report;
    if (result.exit_code != 0 && result.exit_code != 1)
        return "brcc exited with a status other than 0 or 1";
    return std::nullopt;
}

Outcome run_replay(const std::string& brcc, const std::string& file, const std::string& work_dir,
                   double timeout_s) {
    std::filesystem::create_directories(work_dir);
    const std::string output =
        (std::filesystem::path(work_dir) / std::filesystem::path(file).stem()).string() + ".cpp";
    ProcessSpec spec;
    spec.argv = {brcc, "--emit-cpp", file, "-o", output};
    spec.env = sanitizer_environment();
    spec.timeout_s = timeout_s;
    const ProcessResult result = run_process(spec);
    const std::optional<std::string> failure = brcc_failure(result);
    if (!failure) {
        std::cout << "PASSED: brcc " << (result.exit_code == 0 ? "accepted" : "rejected") << " "
                  << file << "\n";
        return Outcome::pass;
    }
    std::cout << "FAILED: " << *failure << " (" << result.describe(timeout_s) << ") on " << file
              << "\n  reproduce: " << brcc << " --emit-cpp " << file << " -o /dev/null\n";
    const std::string text = result.out + result.err;
    constexpr std::size_t tail = 4000;
    std::cout << (text.size() > tail ? text.substr(text.size() - tail) : text) << '\n';
    return Outcome::fail;
}

} // namespace brook_test
