// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// A conformance test is compiled once (the `compile` fixture) and run once per backend. The
// runner decides skips itself, so a missing backend is reported by name and never passes silently.
#include "conformance.hpp"

#include "output_compare.hpp"
#include "process.hpp"
#include "test_file.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>

#include <unistd.h>

namespace brook_test {
namespace fs = std::filesystem;
namespace {

constexpr double compile_timeout_s = 300.0;

std::string program_path(const ConformanceOptions& options) {
    return (fs::path(options.work_dir) / fs::path(options.file).stem()).string();
}

std::optional<std::string> expected_file_of(const std::string& file) {
    fs::path expected = file;
    expected.replace_extension(".expected");
    if (!fs::exists(expected)) {
        return std::nullopt;
    }
    return read_file(expected.string());
}

// The newest modification time of a file, or of any file below a directory.
fs::file_time_type newest_time(const fs::path& path) {
    if (!fs::is_directory(path)) {
        return fs::last_write_time(path);
    }
    fs::file_time_type newest = fs::last_write_time(path);
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(path)) {
        newest = std::max(newest, entry.last_write_time());
    }
    return newest;
}

/// The program's files: the test file, then its `// inputs:`, which lie beside it.
std::vector<std::string> program_files(const ConformanceOptions& options,
                                       const ConformanceSpec& spec) {
    std::vector<std::string> files = {options.file};
    for (const std::string& input : spec.inputs) {
        files.push_back((fs::path(options.file).parent_path() / input).string());
    }
    return files;
}

bool up_to_date(const std::string& program, const ConformanceOptions& options,
                const ConformanceSpec& spec) {
    std::error_code error;
    const auto built = fs::last_write_time(program, error);
    if (error) {
        return false;
    }
    std::vector<std::string> inputs = options.depends;
    const std::vector<std::string> files = program_files(options, spec);
    inputs.insert(inputs.end(), files.begin(), files.end());
    inputs.push_back(options.brcc);
    return std::all_of(inputs.begin(), inputs.end(),
                       [&](const std::string& input) { return built > newest_time(input); });
}

void print_block(const char* title, const std::string& text) {
    if (text.empty()) {
        return;
    }
    std::cout << "---- " << title << " ----\n" << text;
    if (text.back() != '\n') {
        std::cout << '\n';
    }
}

bool is_brook_header(const fs::path& path) {
    return path.extension() == ".brh" || path.extension() == ".brhi";
}

/// `.br`, `.bri`, and `.i`: `cpp` output of one.
bool is_brook_source(const fs::path& path) {
    return path.extension() == ".br" || path.extension() == ".bri" || path.extension() == ".i";
}

Outcome report_brcc_failure(const std::string& what, const ProcessResult& result,
                            double timeout_s) {
    std::cout << "FAILED: brcc could not build " << what << " (" << result.describe(timeout_s)
              << ")\n";
    print_block("brcc stdout", result.out);
    print_block("brcc stderr", result.err);
    return Outcome::fail;
}

bool failed(const ProcessResult& result) {
    return result.exec_failed || result.timed_out || result.signal != 0 || result.exit_code != 0;
}

/// `brcc --emit-cpp FILE -o OUT`, with the test's brcc arguments.
Outcome emit_cpp(const ConformanceOptions& options, const ConformanceSpec& spec,
                 const fs::path& file, const fs::path& out) {
    ProcessSpec emit;
    emit.argv.push_back(options.brcc);
    emit.argv.insert(emit.argv.end(), spec.brcc_args.begin(), spec.brcc_args.end());
    emit.argv.insert(emit.argv.end(), options.brcc_args.begin(), options.brcc_args.end());
    emit.argv.insert(emit.argv.end(), {"--emit-cpp", file.string(), "-o", out.string()});
    emit.timeout_s = compile_timeout_s;
    const ProcessResult result = run_process(emit);
    return failed(result) ? report_brcc_failure(file.string(), result, emit.timeout_s)
                          : Outcome::pass;
}

/// `// kernels-header:`: brookgenfiles/NAME.h in the work folder for each Brook file named, as
/// Brook+'s build lines make it (`brcc -c NAME.br -h brookgenfiles/NAME.h`); the C++ written
/// beside it is not used.
Outcome write_kernels_headers(const ConformanceOptions& options, const ConformanceSpec& spec) {
    const fs::path folder = fs::path(options.work_dir) / "brookgenfiles";
    for (const std::string& source : spec.kernels_headers) {
        const fs::path file = fs::path(options.file).parent_path() / source;
        const fs::path header = folder / fs::path(source).filename().replace_extension(".h");
        ProcessSpec emit;
        emit.argv.push_back(options.brcc);
        emit.argv.insert(emit.argv.end(), spec.brcc_args.begin(), spec.brcc_args.end());
        emit.argv.insert(emit.argv.end(), options.brcc_args.begin(), options.brcc_args.end());
        emit.argv.insert(emit.argv.end(), {"--emit-cpp", file.string(), "-o",
                                           header.string() + ".cpp", "-h", header.string()});
        emit.timeout_s = compile_timeout_s;
        const ProcessResult result = run_process(emit);
        if (failed(result)) {
            return report_brcc_failure(file.string(), result, emit.timeout_s);
        }
    }
    return Outcome::pass;
}

/// The brcc call that builds `partial`: one for every file, or, separately, one per Brook file
/// with --emit-cpp (every header of the test's folder too) and then one for the C++ alone.
Outcome build_command(const ConformanceOptions& options, const ConformanceSpec& spec,
                      const std::string& partial, ProcessSpec& command) {
    command.argv.push_back(options.brcc);
    command.argv.insert(command.argv.end(), spec.brcc_args.begin(), spec.brcc_args.end());
    command.argv.insert(command.argv.end(), options.brcc_args.begin(), options.brcc_args.end());
    if (!spec.kernels_headers.empty()) {
        if (const Outcome written = write_kernels_headers(options, spec);
            written != Outcome::pass) {
            return written;
        }
        command.argv.push_back("-I" + options.work_dir);
    }
    const std::vector<std::string> files = program_files(options, spec);
    if (!options.separately) {
        command.argv.insert(command.argv.end(), files.begin(), files.end());
    } else {
        const fs::path generated = fs::path(options.work_dir) / "generated";
        fs::create_directories(generated);
        for (const fs::directory_entry& entry :
             fs::directory_iterator(fs::path(options.file).parent_path())) {
            if (is_brook_header(entry.path())) {
                const fs::path header =
                    generated / entry.path().filename().replace_extension(".hpp");
                if (const Outcome emitted = emit_cpp(options, spec, entry.path(), header);
                    emitted != Outcome::pass) {
                    return emitted;
                }
            }
        }
        for (const std::string& file : files) {
            if (!is_brook_source(file)) {
                command.argv.push_back(file);
                continue;
            }
            const fs::path cpp = generated / fs::path(file).filename().replace_extension(".cpp");
            if (const Outcome emitted = emit_cpp(options, spec, file, cpp);
                emitted != Outcome::pass) {
                return emitted;
            }
            command.argv.push_back(cpp.string());
        }
        // The generated files are no longer beside the headers their sources include.
        command.argv.push_back("-I" + generated.string());
        command.argv.push_back("-I" + fs::path(options.file).parent_path().string());
    }
    command.argv.insert(command.argv.end(), {"-o", partial});
    if (!options.cxx_flags.empty()) {
        command.argv.emplace_back("--");
        command.argv.insert(command.argv.end(), options.cxx_flags.begin(), options.cxx_flags.end());
    }
    return Outcome::pass;
}

Outcome build(const ConformanceOptions& options, const ConformanceSpec& spec) {
    const std::string program = program_path(options);
    if (up_to_date(program, options, spec)) {
        return Outcome::pass;
    }
    fs::create_directories(options.work_dir);
    // Build under a temporary name so an interrupted build never looks up to date, one of this
    // process's own: when the program is stale, the runs on several backends that ctest starts at
    // once each rebuild it, and a shared name let one run execute the file another was still
    // linking ("Text file busy"). The rename that publishes each build is atomic.
    const std::string partial = program + ".partial." + std::to_string(::getpid());
    ProcessSpec command;
    if (const Outcome prepared = build_command(options, spec, partial, command);
        prepared != Outcome::pass) {
        return prepared;
    }
    command.timeout_s = compile_timeout_s;
    const ProcessResult result = run_process(command);
    if (failed(result)) {
        return report_brcc_failure(options.file, result, command.timeout_s);
    }
    fs::rename(partial, program);
    print_block("brcc output", result.out + result.err);
    return Outcome::pass;
}

} // namespace

bool backend_unavailable(const ProcessResult& result, const std::string& backend) {
    return !result.timed_out && result.signal == 0 && result.exit_code != 0 &&
           result.err.find("BRT_RUNTIME=" + backend + ":") != std::string::npos &&
           result.err.find("backends that can run here") != std::string::npos;
}

Outcome compile_program(const ConformanceOptions& options) {
    try {
        const ConformanceSpec spec =
            parse_conformance_spec(read_file(options.file), expected_file_of(options.file));
        return build(options, spec);
    } catch (const TestFormatError& error) {
        std::cout << options.file << ": bad test: " << error.message << '\n';
        return Outcome::bad_test;
    }
}

Outcome run_conformance(const ConformanceOptions& options) {
    ConformanceSpec spec;
    try {
        spec = parse_conformance_spec(read_file(options.file), expected_file_of(options.file));
    } catch (const TestFormatError& error) {
        std::cout << options.file << ": bad test: " << error.message << '\n';
        return Outcome::bad_test;
    }
    if (!spec.required_backends.empty() &&
        std::find(spec.required_backends.begin(), spec.required_backends.end(), options.backend) ==
            spec.required_backends.end()) {
        std::cout << "SKIPPED: requires";
        for (const std::string& name : spec.required_backends) {
            std::cout << ' ' << name;
        }
        std::cout << '\n';
        return Outcome::skip;
    }
    // A wrapping backend ("mpi:cpu") is excluded by its own name.
    const std::string backend_family = options.backend.substr(0, options.backend.find(':'));
    if (std::find(spec.excluded_backends.begin(), spec.excluded_backends.end(), backend_family) !=
        spec.excluded_backends.end()) {
        std::cout << "SKIPPED: excludes " << backend_family << ": " << spec.exclusion_reason
                  << '\n';
        return Outcome::skip;
    }
    if (options.no_values && spec.expected_lines && !spec.expected_lines->empty()) {
        std::cout << "SKIPPED: backend " << options.backend
                  << " computes no values, and the program's expected output has some\n";
        return Outcome::skip;
    }
    if (const Outcome built = build(options, spec); built != Outcome::pass) {
        return built;
    }

    ProcessSpec run;
    run.argv = options.launcher;
    run.argv.push_back(program_path(options));
    run.argv.insert(run.argv.end(), spec.args.begin(), spec.args.end());
    // The program's own `// env:` settings win over the runner's.
    run.env = spec.env;
    const auto program_sets = [&spec](const std::string& name) {
        return std::any_of(spec.env.begin(), spec.env.end(),
                           [&name](const auto& entry) { return entry.first == name; });
    };
    const bool sets_runtime = program_sets("BRT_RUNTIME");
    if (!sets_runtime) {
        run.env.emplace_back("BRT_RUNTIME", options.backend);
    }
    const PrivateTempDirectory temp_directory;
    if (!program_sets("TMPDIR")) {
        run.env.emplace_back("TMPDIR", temp_directory.path().string());
    }
    run.timeout_s = options.timeout_s;
    const ProcessResult result = run_process(run);

    if (!sets_runtime && options.backend != "cpu" && backend_unavailable(result, options.backend)) {
        std::cout << "SKIPPED: backend " << options.backend << " not available\n";
        print_block("stderr", result.err);
        return Outcome::skip;
    }

    std::vector<std::string> problems;
    if (result.exec_failed || result.timed_out || result.signal != 0) {
        problems.push_back("the program " + result.describe(run.timeout_s));
    } else if (result.exit_code != spec.exit_code) {
        problems.push_back("the program exited with " + std::to_string(result.exit_code) +
                           ", expected " + std::to_string(spec.exit_code));
    }
    for (const std::string& text : spec.stderr_texts) {
        if (result.err.find(text) == std::string::npos) {
            problems.push_back("stderr does not contain '" + text + "'");
        }
    }
    const std::vector<std::string> expected =
        spec.expected_lines.value_or(std::vector<std::string>{});
    if (const std::optional<OutputMismatch> mismatch =
            compare_output(expected, split_lines(result.out), spec.tolerance)) {
        problems.push_back("stdout differs at line " + std::to_string(mismatch->line) + ": " +
                           mismatch->reason + "\n  expected: " + mismatch->expected +
                           "\n  actual:   " + mismatch->actual);
    }
    if (problems.empty()) {
        std::cout << "PASSED: " << fs::path(options.file).filename().string() << " on "
                  << options.backend << '\n';
        return Outcome::pass;
    }
    std::cout << "FAILED: " << options.file << " on backend " << options.backend << '\n';
    for (const std::string& problem : problems) {
        std::cout << "  " << problem << '\n';
    }
    print_block("stdout", result.out);
    print_block("stderr", result.err);
    return Outcome::fail;
}

} // namespace brook_test
