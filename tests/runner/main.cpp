// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// brook_test_runner: runs one conformance, diagnostics or fuzz test for CTest. The formats it
// reads are described in docs/testing.md.
#include "conformance.hpp"
#include "diagnostics.hpp"
#include "replay.hpp"

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

int main(int argc, char** argv) {
    using brook_test::Outcome;
    CLI::App app{"Runs Brook's conformance, diagnostics and fuzz tests (see docs/testing.md)"};
    app.require_subcommand(1);

    brook_test::ConformanceOptions compile_options;
    CLI::App* compile = app.add_subcommand("compile", "build a conformance program once");
    compile->add_option("--brcc", compile_options.brcc, "the brcc to use")->required();
    compile->add_option("--work", compile_options.work_dir, "where programs are built")->required();
    compile
        ->add_option("--depends", compile_options.depends,
                     "a file or folder whose change forces a rebuild (repeatable)")
        ->allow_extra_args(false);
    compile
        ->add_option("--cxx-flag", compile_options.cxx_flags,
                     "a flag for the C++ compiler, passed after brcc's -- (repeatable)")
        ->allow_extra_args(false);
    compile
        ->add_option("--brcc-arg", compile_options.brcc_args, "an argument for brcc (repeatable)")
        ->allow_extra_args(false);
    compile->add_flag("--separately", compile_options.separately,
                      "build file by file with brcc --emit-cpp, then the C++ alone");
    compile->add_option("file", compile_options.file, "the .br program")->required();

    brook_test::ConformanceOptions run_options;
    CLI::App* conformance =
        app.add_subcommand("conformance", "run a conformance program on one backend");
    conformance->add_option("--brcc", run_options.brcc, "the brcc to use")->required();
    conformance->add_option("--backend", run_options.backend, "BRT_RUNTIME for the run")
        ->required();
    conformance->add_option("--work", run_options.work_dir, "where programs are built")->required();
    conformance->add_flag("--no-values", run_options.no_values,
                          "the backend computes no values: run only programs that print nothing");
    conformance
        ->add_option("--depends", run_options.depends,
                     "a file or folder whose change forces a rebuild (repeatable)")
        ->allow_extra_args(false);
    conformance
        ->add_option("--cxx-flag", run_options.cxx_flags,
                     "a flag for the C++ compiler, passed after brcc's -- (repeatable)")
        ->allow_extra_args(false);
    conformance
        ->add_option("--brcc-arg", run_options.brcc_args, "an argument for brcc (repeatable)")
        ->allow_extra_args(false);
    conformance->add_option("--timeout", run_options.timeout_s, "seconds the program may run");
    conformance
        ->add_option("--launcher", run_options.launcher,
                     "a word of the command the program runs under, before it (repeatable: "
                     "--launcher mpiexec --launcher -np --launcher 2)")
        ->allow_extra_args(false);
    conformance->add_flag("--separately", run_options.separately,
                          "build file by file with brcc --emit-cpp, then the C++ alone");
    conformance->add_option("file", run_options.file, "the .br program")->required();

    std::string diagnostics_brcc;
    std::string diagnostics_file;
    double diagnostics_timeout_s = 60.0;
    CLI::App* diagnostics =
        app.add_subcommand("diagnostics", "check that brcc reports exactly the marked errors");
    diagnostics->add_option("--brcc", diagnostics_brcc, "the brcc to use")->required();
    diagnostics->add_option("--timeout", diagnostics_timeout_s, "seconds brcc may run");
    diagnostics->add_option("file", diagnostics_file, "the .br file")->required();

    std::string replay_brcc;
    std::string replay_file;
    std::string replay_work;
    double replay_timeout_s = 60.0;
    CLI::App* replay =
        app.add_subcommand("replay", "feed brcc an input that once made a fuzzer fail");
    replay->add_option("--brcc", replay_brcc, "the brcc to use (a sanitized one)")->required();
    replay->add_option("--work", replay_work, "where brcc writes its output")->required();
    replay->add_option("--timeout", replay_timeout_s, "seconds brcc may run");
    replay->add_option("file", replay_file, "the input")->required();

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        const int status = app.exit(error);
        return status == 0 ? 0 : static_cast<int>(Outcome::bad_test);
    }

    try {
        Outcome outcome = Outcome::bad_test;
        if (compile->parsed()) {
            outcome = brook_test::compile_program(compile_options);
        } else if (conformance->parsed()) {
            outcome = brook_test::run_conformance(run_options);
        } else if (diagnostics->parsed()) {
            outcome = brook_test::run_diagnostics(diagnostics_brcc, diagnostics_file,
                                                  diagnostics_timeout_s);
        } else if (replay->parsed()) {
            outcome =
                brook_test::run_replay(replay_brcc, replay_file, replay_work, replay_timeout_s);
        }
        return static_cast<int>(outcome);
    } catch (const std::exception& error) {
        // Filesystem errors (an unwritable work folder, a vanished file) are the runner's, not
        // the test's: report them as a broken setup.
        std::cout << "brook_test_runner: " << error.what() << '\n';
        return static_cast<int>(Outcome::bad_test);
    }
}
