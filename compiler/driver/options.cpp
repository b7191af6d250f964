// The command line, parsed with CLI11. Everything after a lone `--` is set aside first for the
// C++ compiler, so CLI11 never sees it; then the options are checked beyond what CLI11 knows
// (backend names, -O levels) so that every usage error exits with code 2 before any work.

#include "driver/options.hpp"

#include "codegen/backend_generator.hpp"

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

/// -w and -W flags, but not -Wl,/-Wa,/-Wp, (options for the linker, assembler and
/// preprocessor, which are no warnings).
bool is_warning_flag(std::string_view arg) {
    if (arg == "-w")
        return true;
    return arg.starts_with("-W") && arg.size() > 2 && !(arg.size() > 3 && arg[3] == ',');
}

int usage_error(const std::string& message) {
    std::cerr << "brcc: error: " << message << "\nRun 'brcc --help' for usage.\n";
    return exit_usage;
}

} // namespace

const std::vector<std::string>& known_backends() {
    static const std::vector<std::string> backends = registered_backends();
    return backends;
}

std::vector<std::string> tuning_flags(const DriverOptions& options) {
    // The generated loops carry `#pragma omp simd`; -fopenmp-simd honours it without the OpenMP
    // runtime. Brook cannot observe floating-point traps, and assuming none lets GCC hoist a
    // gather's invariant float index out of a loop and vectorise floor(). GCC prefers 256-bit
    // vectors even where 512-bit ones exist unless told otherwise.
    std::vector<std::string> flags = {"-fopenmp-simd", "-fno-trapping-math"};
    if (!options.portable)
        flags.insert(flags.end(), {"-march=native", "-mprefer-vector-width=512"});
    return flags;
}

std::optional<int> parse_command_line(int argc, const char* const* argv, DriverOptions& options) {
    std::vector<std::string> args(argv + 1, argv + argc);
    const auto separator = std::find(args.begin(), args.end(), "--");
    if (separator != args.end()) {
        options.compiler_args.assign(separator + 1, args.end());
        args.erase(separator, args.end());
    }
    // CLI11 would take `-Wall` for -W with the value `all`: warning flags are set aside first.
    const auto warnings = std::stable_partition(
        args.begin(), args.end(), [](const std::string& arg) { return !is_warning_flag(arg); });
    options.warning_flags.assign(warnings, args.end());
    args.erase(warnings, args.end());
    std::reverse(args.begin(), args.end()); // CLI11 takes the arguments last first

    CLI::App app{"brcc: the Brook compiler. Translates a .br file to C++ and builds a program "
                 "with the C++ compiler (arguments after -- go to it).",
                 "brcc"};
    app.set_version_flag("--version", std::string("brcc ") + BRCC_VERSION);
    app.add_option("inputs", options.inputs,
                   "Brook sources (.br, .bri), Brook headers (.brh, .brhi) and, to build a "
                   "program, C/C++ sources and objects for the C++ compiler")
        ->required();
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
        std::cout << "brcc " << BRCC_VERSION << "\n";
        return exit_success;
    } catch (const CLI::ParseError& error) {
        return usage_error(error.what());
    }

    const bool single_file_mode = options.emit_cpp || !options.emit_kernels.empty() ||
                                  options.dump_ast || !options.dump_after.empty();
    if (single_file_mode && options.inputs.size() != 1)
        return usage_error("--emit-cpp, --emit-kernels and --dump-ast translate one file: run "
                           "brcc once per file");
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
