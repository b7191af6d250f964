// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The command line, parsed with CLI11. Response files (@FILE) are expanded first; everything
// after a lone `--` is set aside for the C++ compiler, so CLI11 never sees it; then the options
// spelt as in gcc and nvcc (-c, -MD, -keep, -Wall, -lm...), which CLI11 cannot read since their
// names are several letters after one dash, are taken out by a table of their own, which also
// writes their part of --help. The options are then checked beyond what CLI11 knows (backend
// names, -O levels, combinations) so that every usage error exits with code 2 before any work.

#include "driver/options.hpp"

#include "codegen/backend_generator.hpp"
#include "driver/compile.hpp"
#include "driver/cpu_targets.hpp"
#include "driver/dependencies.hpp"
#include "driver/response_files.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>

namespace brcc {

namespace {

bool valid_optimization(const std::string& level) {
    static const std::vector<std::string> levels = {"0", "1", "2", "3", "s", "g", "fast"};
    return std::find(levels.begin(), levels.end(), level) != levels.end();
}

std::string joined(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& name : names)
        text += (text.empty() ? "" : ", ") + name;
    return text;
}

int usage_error(const std::string& message) {
    std::cerr << "brcc: error: " << message << "\nRun 'brcc --help' for usage.\n";
    return exit_usage;
}

/// An option spelt as in gcc or nvcc. `Flag` is the spelling alone (its value); `Value` takes the
/// next argument (or, when `joined`, also the rest of the same one: -MFdeps.d); `Prefix` is any
/// argument starting with the spelling or the spelling alone, its value the whole argument
/// (-Wall, -march=native, -g).
struct GccStyleOption {
    enum class Form { Flag, Value, Prefix };
    std::string_view spelling;
    Form form;
    bool joined;
    std::string_view help_name;
    std::string_view help;
    void (*apply)(DriverOptions& options, const std::string& value);
};

/// Appends the non-empty items of the comma-separated `list` to `items`.
void split_list(const std::string& list, std::vector<std::string>& items) {
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        if (comma > start)
            items.push_back(list.substr(start, comma - start));
        start = comma + 1;
    }
}

using Form = GccStyleOption::Form;

// Searched in order: the exact spellings before the prefixes that would also match them.
const std::vector<GccStyleOption>& gcc_style_options() {
    static const std::vector<GccStyleOption> table = {
        {"-c", Form::Flag, false, "-c",
         "Compile each input to an object (a.br -> a.o), link nothing",
         [](DriverOptions& o, const std::string&) { o.compile_only = true; }},
        {"-h", Form::Value, false, "-h FILE",
         "Write a C++ header declaring the kernels of the Brook sources, for C++ files to call",
         [](DriverOptions& o, const std::string& v) { o.kernels_header = v; }},
        {"-M", Form::Flag, false, "-M",
         "Print the files each input depends on, as a make rule, and build nothing",
         [](DriverOptions& o, const std::string&) { o.dependencies_only = true; }},
        {"-MD", Form::Flag, false, "-MD",
         "Build, and write the dependencies to OUTPUT.d (or -MF FILE)",
         [](DriverOptions& o, const std::string&) { o.dependencies_too = true; }},
        {"-MM", Form::Flag, false, "-MM", "-M without the headers of system folders",
         [](DriverOptions& o, const std::string&) {
             o.dependencies_only = true;
             o.user_headers_only = true;
         }},
        {"-MMD", Form::Flag, false, "-MMD", "-MD without the headers of system folders",
         [](DriverOptions& o, const std::string&) {
             o.dependencies_too = true;
             o.user_headers_only = true;
         }},
        {"-MF", Form::Value, true, "-MF FILE", "Write the dependencies to FILE",
         [](DriverOptions& o, const std::string& v) { o.dependency_file = v; }},
        {"-MT", Form::Value, true, "-MT TARGET",
         "The rule's target (default: the object or program); may be repeated",
         [](DriverOptions& o, const std::string& v) { o.dependency_targets.push_back(v); }},
        {"-MQ", Form::Value, true, "-MQ TARGET",
         "-MT with the characters special to make quoted ($ as $$)",
         [](DriverOptions& o, const std::string& v) {
             o.dependency_targets.push_back(make_quoted(v));
         }},
        {"-MP", Form::Flag, false, "-MP",
         "Add a phony rule for each dependency, so that make survives its removal",
         [](DriverOptions& o, const std::string&) { o.phony_dependencies = true; }},
        {"-v", Form::Flag, false, "-v", "Print each command before running it",
         [](DriverOptions& o, const std::string&) { o.verbose = true; }},
        {"-keep", Form::Flag, false, "-keep",
         "Keep the intermediate files (the generated C++) in the current folder or -keep-dir",
         [](DriverOptions& o, const std::string&) { o.keep = true; }},
        {"-keep-dir", Form::Value, false, "-keep-dir DIR",
         "Keep the intermediate files in DIR (implies -keep)",
         [](DriverOptions& o, const std::string& v) {
             o.keep = true;
             o.keep_dir = v;
         }},
        {"-Xcompiler", Form::Value, false, "-Xcompiler A,B", "Pass A and B to the C++ compiler",
         [](DriverOptions& o, const std::string& v) { split_list(v, o.host_args); }},
        {"-std=", Form::Prefix, false, "-std=STD",
         "The C++ dialect: c++20 (default), c++23, gnu++20, gnu++23... (C++20 or later)",
         [](DriverOptions& o, const std::string& v) { o.standard = v.substr(5); }},
        {"-w", Form::Flag, false, "-w", "No warnings (brcc's and the C++ compiler's)",
         [](DriverOptions& o, const std::string& v) { o.warning_flags.push_back(v); }},
        // -Wl,X -Wa,X -Wp,X are the linker's, assembler's and preprocessor's, not warnings.
        {"-Wl,", Form::Prefix, false, "-Wl,A,B", "Pass A and B to the linker",
         [](DriverOptions& o, const std::string& v) { o.host_args.push_back(v); }},
        {"-Wa,", Form::Prefix, false, "", "",
         [](DriverOptions& o, const std::string& v) { o.host_args.push_back(v); }},
        {"-Wp,", Form::Prefix, false, "", "",
         [](DriverOptions& o, const std::string& v) { o.host_args.push_back(v); }},
        {"-W", Form::Prefix, false, "-W...",
         "Warnings (-Wall, -Werror, -Wno-NAME...): for brcc's kernels and the C++ compiler",
         [](DriverOptions& o, const std::string& v) { o.warning_flags.push_back(v); }},
        {"-g", Form::Prefix, false, "-g",
         "Debug information, each kernel line mapped to its line in the Brook source",
         [](DriverOptions& o, const std::string& v) {
             o.debug = true;
             o.host_args.push_back(v);
         }},
        {"-fbracket-depth=", Form::Prefix, false, "-fbracket-depth=N",
         "Statements and brackets nested in kernels at most N deep (default 256)",
         [](DriverOptions& o, const std::string& v) { o.host_args.push_back(v); }},
        {"-fexpression-depth=", Form::Prefix, false, "-fexpression-depth=N",
         "Operators chained in one kernel expression at most N deep (default 2048)",
         [](DriverOptions& o, const std::string& v) { o.host_args.push_back(v); }},
        {"-fmax-include-depth=", Form::Prefix, false, "-fmax-include-depth=N",
         "Quoted #includes brcc reads nested at most N deep (default 200)",
         [](DriverOptions& o, const std::string& v) { o.host_args.push_back(v); }},
        {"-f", Form::Prefix, false, "-f... -m...", "Passed to the C++ compiler",
         [](DriverOptions& o, const std::string& v) { o.host_args.push_back(v); }},
        {"-m", Form::Prefix, false, "", "",
         [](DriverOptions& o, const std::string& v) { o.host_args.push_back(v); }},
        {"-l", Form::Value, true, "-lNAME -LDIR", "Passed to the linker",
         [](DriverOptions& o, const std::string& v) { o.host_args.push_back("-l" + v); }},
        {"-L", Form::Value, true, "", "",
         [](DriverOptions& o, const std::string& v) { o.host_args.push_back("-L" + v); }},
    };
    return table;
}

/// The table's part of --help.
std::string gcc_style_help() {
    std::string text = "\nAs in gcc and nvcc:\n";
    for (const GccStyleOption& option : gcc_style_options()) {
        if (option.help.empty())
            continue;
        std::string name = "  " + std::string(option.help_name);
        name.resize(std::max<std::size_t>(name.size() + 1, 30), ' ');
        text += name + std::string(option.help) + "\n";
    }
    return text;
}

/// CLI11's own options that take a value in the next argument: that value is theirs even when
/// it looks like one of the table's options (-o -lfoo is a program named -lfoo).
bool takes_next_argument(const std::string& arg) {
    static const std::vector<std::string> names = {"-o",           "-I",         "-D",
                                                   "-O",           "--backends", "--emit-kernels",
                                                   "--dump-after", "--color",    "--target"};
    return std::find(names.begin(), names.end(), arg) != names.end();
}

/// The C++ compiler's options whose value is the next argument, which is never an input.
bool takes_compiler_value(const std::string& arg) {
    static const std::vector<std::string> names = {"-o",       "-x",      "-include", "-imacros",
                                                   "-isystem", "-iquote", "-I",       "-MF",
                                                   "-MT",      "-MQ",     "-Xlinker", "-L"};
    return std::find(names.begin(), names.end(), arg) != names.end();
}

/// Moves the table's options from `args` into `options`; the rest is left for CLI11. Returns
/// a usage error's message, or an empty string.
std::string take_gcc_style_options(std::vector<std::string>& args, DriverOptions& options) {
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (takes_next_argument(arg)) {
            rest.push_back(arg);
            if (i + 1 < args.size())
                rest.push_back(args[++i]);
            continue;
        }
        const GccStyleOption* match = nullptr;
        std::string value;
        for (const GccStyleOption& option : gcc_style_options()) {
            const bool exact = arg == option.spelling;
            const bool prefixed =
                arg.size() > option.spelling.size() && arg.starts_with(option.spelling);
            if (option.form == Form::Flag && exact) {
                match = &option;
                value = arg;
            } else if (option.form == Form::Prefix && (prefixed || exact)) {
                match = &option;
                value = arg;
            } else if (option.form == Form::Value && exact) {
                if (i + 1 == args.size())
                    return std::string(option.spelling) +
                           " needs a value: " + std::string(option.help_name);
                match = &option;
                value = args[++i];
            } else if (option.form == Form::Value && option.joined && prefixed) {
                match = &option;
                value = arg.substr(option.spelling.size());
            }
            if (match != nullptr)
                break;
        }
        if (match == nullptr)
            rest.push_back(arg);
        else
            match->apply(options, value);
    }
    args = std::move(rest);
    return {};
}

/// An empty string when `standard` is C++20 or later, else why not.
std::string check_standard(const std::string& standard) {
    static const std::vector<std::string> supported = {"20", "2a", "23", "2b", "26", "2c"};
    static const std::vector<std::string> older = {"98", "03", "0x", "11", "1y", "14", "1z", "17"};
    for (const std::string_view family : {"c++", "gnu++"}) {
        if (!standard.starts_with(family))
            continue;
        const std::string year = standard.substr(family.size());
        if (std::find(supported.begin(), supported.end(), year) != supported.end())
            return {};
        if (std::find(older.begin(), older.end(), year) != older.end())
            return "-std=" + standard +
                   " is older than C++20, which brcc's generated code and Brook's headers need "
                   "(use -std=c++20, c++23, gnu++20 or gnu++23)";
    }
    return "unknown C++ dialect '-std=" + standard + "' (use c++20, c++23, gnu++20 or gnu++23)";
}

/// Combinations that cannot work, said before any work; an empty string when all is well.
std::string check_combinations(const DriverOptions& options, bool single_file_mode) {
    if (options.compile_only && single_file_mode)
        return "-c builds objects, which --emit-cpp, --emit-kernels and --dump-ast do not";
    const bool dependencies = options.dependencies_only || options.dependencies_too;
    // --emit-cpp -MD lists the Brook files the C++ was made from (for build systems).
    const bool emit_cpp_dependencies =
        options.emit_cpp && options.dependencies_too && !options.dependencies_only;
    if (dependencies && single_file_mode && !emit_cpp_dependencies)
        return "-M lists what a build reads, and -MD what a build or --emit-cpp reads: they do "
               "not combine with --emit-kernels or --dump-ast, nor -M with --emit-cpp";
    if (emit_cpp_dependencies && options.dependency_file.empty() &&
        (options.output.empty() || options.output == "-"))
        return "--emit-cpp -MD writes the dependencies beside the output: give -o FILE or -MF "
               "FILE";
    if (!dependencies && (!options.dependency_file.empty() || !options.dependency_targets.empty() ||
                          options.phony_dependencies))
        return "-MF, -MT, -MQ and -MP shape the dependencies that -M or -MD write: add one of "
               "them";
    if (options.dry_run && single_file_mode)
        return "--dryrun prints the C++ compiler's commands, which --emit-cpp, --emit-kernels "
               "and --dump-ast do not run";
    return {};
}

} // namespace

const std::vector<std::string>& known_backends() {
    static const std::vector<std::string> backends = registered_backends();
    return backends;
}

std::vector<std::string> tuning_flags(const DriverOptions& options) {
    // The generated loops carry `#pragma omp simd`; -fopenmp-simd honours it without the OpenMP
    // runtime. Brook cannot observe floating-point traps, and assuming none lets GCC hoist a
    // gather's invariant float index out of a loop and vectorise floor(). Nor can a kernel read
    // errno: without -fno-math-errno, sqrt (and so length, normalize, distance) is a branch to
    // the C library for negative arguments, and no loop of a kernel that calls it vectorises.
    std::vector<std::string> flags = {"-fopenmp-simd", "-fno-trapping-math", "-fno-math-errno"};
    if (!options.portable) {
        const std::vector<std::string> target = cpu_target_flags(options.targets);
        flags.insert(flags.end(), target.begin(), target.end());
    }
    return flags;
}

/// Takes brcc's own nesting limits (support/front_end_limits.hpp) out of the -f flags meant for
/// the C++ compiler; a usage error's message, or an empty string.
std::string take_limit_flags(DriverOptions& options) {
    std::vector<std::string> host_args;
    for (const std::string& arg : options.host_args) {
        const std::optional<std::string> error = apply_limit_flag(arg, options.limits);
        if (!error)
            host_args.push_back(arg);
        else if (!error->empty())
            return *error;
    }
    options.host_args = std::move(host_args);
    return {};
}

std::optional<int> parse_command_line(int argc, const char* const* argv, DriverOptions& options) {
    std::string response_file_error;
    std::vector<std::string> args =
        expand_response_files({argv + 1, argv + argc}, response_file_error);
    if (!response_file_error.empty())
        return usage_error(response_file_error);
    const auto separator = std::find(args.begin(), args.end(), "--");
    std::vector<std::string> sources_after_separator;
    if (separator != args.end()) {
        // A C/C++ source after `--` is compiled as if given before it (with Brook's include
        // path), since each source is compiled on its own; the rest goes to each compile and
        // the link, objects and libraries to the link only (compile_command).
        for (auto arg = separator + 1; arg != args.end(); ++arg) {
            const bool option_value = arg != separator + 1 && takes_compiler_value(*(arg - 1));
            if (is_cpp_source(*arg) && !arg->starts_with("-") && !option_value)
                sources_after_separator.push_back(*arg);
            else
                options.compiler_args.push_back(*arg);
        }
        args.erase(separator, args.end());
    }
    if (const std::string error = take_gcc_style_options(args, options); !error.empty())
        return usage_error(error);
    std::reverse(args.begin(), args.end()); // CLI11 takes the arguments last first

    CLI::App app{"brcc: the Brook compiler. Translates a .br file to C++ and builds a program "
                 "with the C++ compiler (arguments after -- go to it).",
                 "brcc"};
    app.set_help_flag("--help", "Print this help and exit"); // -h is the kernels' header
    app.set_version_flag("--version", std::string("brcc ") + BRCC_VERSION);
    app.footer(gcc_style_help());
    app.add_option("inputs", options.inputs,
                   "Brook sources (.br, .bri), Brook headers (.brh, .brhi) and, to build a "
                   "program, C/C++ sources and objects for the C++ compiler");
    app.add_option("-o", options.output,
                   "Output: the program (default: the input's name without .br), or with "
                   "--emit-cpp the C++ file ('-' or no -o: standard output)")
        ->type_name("FILE");
    app.add_flag("--emit-cpp", options.emit_cpp, "Write only the translated C++");
    app.add_option("--emit-kernels", options.emit_kernels,
                   "Write only BACKEND's kernels, each as a source file DIR/KERNEL.EXT (for "
                   "backends that compile kernels at run time; -o DIR is required)")
        ->type_name("BACKEND");
    app.add_flag("--dump-ast", options.dump_ast, "Print the AST after semantic analysis and stop");
    app.add_option("--dump-after", options.dump_after,
                   "Print the AST after PASS (parse: as parsed; sema: checked, as --dump-ast) and "
                   "stop")
        ->type_name("PASS");
    app.add_option("-I", options.include_dirs, "Add a directory to the include path")
        ->type_name("DIR")
        ->allow_extra_args(false);
    app.add_option("-D", options.defines, "Define a macro for brcc and the C++ compiler")
        ->type_name("NAME[=VALUE]")
        ->allow_extra_args(false);
    app.add_option("-O", options.optimization, "Optimisation level for the C++ compiler")
        ->type_name("LEVEL")
        ->capture_default_str();
    app.add_flag("--portable", options.portable,
                 "Build a program for any machine of the target architecture (default: tuned for "
                 "this machine, with -march=native and its widest vectors)");
    std::vector<std::string> target_lists;
    app.add_option("--target", target_lists,
                   "The CPU instruction sets of the kernels: one, or several (comma-separated or "
                   "repeated) compiled each and chosen at run time by the CPU; 'list' shows them "
                   "(default: native)")
        ->type_name("LIST")
        ->allow_extra_args(false);
    app.add_flag("--dryrun", options.dry_run,
                 "Print the commands brcc would run (the C++ compiler's), run none");
    app.add_option("--color", options.color,
                   "Colour in diagnostics: auto (on a terminal, unless NO_COLOR is set), always "
                   "or never")
        ->type_name("WHEN")
        ->check(CLI::IsMember({"auto", "always", "never"}));
    std::string backends;
    app.add_option("--backends", backends,
                   "Comma-separated backends whose kernel code to embed (default: all built: " +
                       joined(known_backends()) + ")")
        ->type_name("LIST");

    try {
        app.parse(args);
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return exit_success;
    } catch (const CLI::CallForVersion&) {
        std::cout << "brcc " << BRCC_VERSION << "\nHost compiler: " << host_compiler_version()
                  << "\nBackends: " << joined(known_backends()) << "\n";
        return exit_success;
    } catch (const CLI::ParseError& error) {
        return usage_error(error.what());
    }
    for (const std::string& list : target_lists)
        split_list(list, options.targets);
    if (!target_lists.empty() && options.targets.empty())
        return usage_error("--target needs a name: --target=list shows them");
    if (std::any_of(options.targets.begin(), options.targets.end(),
                    [](const std::string& name) { return name == "list" || name == "help"; })) {
        print_cpu_targets(std::cout);
        return exit_success;
    }
    options.inputs.insert(options.inputs.end(), sources_after_separator.begin(),
                          sources_after_separator.end());
    if (options.inputs.empty())
        return usage_error("no input files: give a Brook source, as in 'brcc saxpy.br -o saxpy'");

    const bool single_file_mode = options.emit_cpp || !options.emit_kernels.empty() ||
                                  options.dump_ast || !options.dump_after.empty();
    if (single_file_mode && options.inputs.size() != 1)
        return usage_error("--emit-cpp, --emit-kernels and --dump-ast translate one file: run "
                           "brcc once per file");
    if (const std::string error = check_combinations(options, single_file_mode); !error.empty())
        return usage_error(error);
    if (const std::string error = check_standard(options.standard); !error.empty())
        return usage_error(error);
    if (const std::string error = check_cpu_targets(options.targets); !error.empty())
        return usage_error(error);
    if (options.portable && !options.targets.empty())
        return usage_error("--portable builds for every machine of the architecture and --target "
                           "for the instruction sets it names: give one of them");
    if (const std::string error = take_limit_flags(options); !error.empty())
        return usage_error(error);
    if (!valid_optimization(options.optimization))
        return usage_error("unknown optimisation level '-O" + options.optimization +
                           "' (use 0, 1, 2, 3, s, g or fast)");
    if (app.count("--backends") == 0) {
        options.backends = known_backends();
    } else {
        std::size_t start = 0;
        while (start <= backends.size()) {
            const std::size_t comma = std::min(backends.find(',', start), backends.size());
            const std::string name = backends.substr(start, comma - start);
            const auto& known = known_backends();
            if (std::find(known.begin(), known.end(), name) == known.end())
                return usage_error("unknown backend '" + name +
                                   "' in --backends (known: " + joined(known) + ")");
            if (std::find(options.backends.begin(), options.backends.end(), name) ==
                options.backends.end())
                options.backends.push_back(name);
            start = comma + 1;
        }
    }
    if (!options.dump_after.empty() && options.dump_after != "parse" &&
        options.dump_after != "sema")
        return usage_error("unknown pass '" + options.dump_after +
                           "' in --dump-after (use parse or sema)");
    if (options.dump_ast && !options.dump_after.empty())
        return usage_error("--dump-ast and --dump-after cannot be combined");
    if (options.dump_ast)
        options.dump_after = "sema";
    if (options.emit_cpp && !options.dump_after.empty())
        return usage_error("--emit-cpp and --dump-ast/--dump-after cannot be combined");
    if (!options.emit_kernels.empty()) {
        const auto& known = known_backends();
        if (std::find(known.begin(), known.end(), options.emit_kernels) == known.end())
            return usage_error("unknown backend '" + options.emit_kernels +
                               "' in --emit-kernels (known: " + joined(known) + ")");
        if (options.output.empty() || options.output == "-")
            return usage_error("--emit-kernels needs -o DIR, the folder to write the kernels to");
        if (options.emit_cpp || !options.dump_after.empty())
            return usage_error("--emit-kernels cannot be combined with --emit-cpp or --dump-ast");
        if (!options.compiler_args.empty())
            return usage_error("arguments after '--' are for the C++ compiler, which "
                               "--emit-kernels does not run");
    }
    if (!options.compiler_args.empty() && (options.emit_cpp || !options.dump_after.empty()))
        return usage_error("arguments after '--' are for the C++ compiler, which --emit-cpp and "
                           "--dump-ast do not run");
    return std::nullopt;
}

} // namespace brcc
