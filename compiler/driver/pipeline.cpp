// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The pipeline, one stage after another: read a file, lex/preprocess/parse it into a
// TranslationUnit, analyse it, then generate C++ and either write it (--emit-cpp) or build the
// program with the C++ compiler; or, with --emit-kernels, write one backend's kernels as source
// files. A stage runs only when the ones before it reported no errors, so each mistake is
// reported once and later stages never see a broken tree. To build a program each Brook input
// is translated into a work directory (temporary unless -keep), with the header made from every
// Brook header (`.brh`, `.brhi`) one includes, at the path its #include names, so that the C++
// compiler finds it there; then each source, generated or the user's, is compiled on its own and
// the objects linked (nvcc's steps, which -v shows). -M/-MD take the C/C++ headers from the C++
// compiler's depfiles and add the Brook files brcc read (driver/dependencies).

#include "driver/pipeline.hpp"

#include "ast/ast_dump.hpp"
#include "codegen/backend_generator.hpp"
#include "codegen/emit_cpp.hpp"
#include "driver/compile.hpp"
#include "driver/cpu_targets.hpp"
#include "driver/dependencies.hpp"
#include "parse/parser.hpp"
#include "sema/sema.hpp"
#include "support/diagnostics.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

namespace brcc {

namespace {

PreprocessorOptions preprocessor_options(const DriverOptions& options) {
    PreprocessorOptions result;
    result.include_dirs = options.include_dirs;
    result.limits = options.limits;
    for (const std::string& define : options.defines) {
        const std::size_t equals = define.find('=');
        if (equals == std::string::npos)
            result.defines.emplace_back(define, "1"); // -DNAME defines NAME as 1, as in cc
        else
            result.defines.emplace_back(define.substr(0, equals), define.substr(equals + 1));
    }
    return result;
}

enum class InputKind { BrookSource, BrookHeader, CompilerInput };

/// By extension: `.brh`/`.brhi` headers, C/C++ sources and objects for the C++ compiler, and
/// Brook sources (`.br`, `.bri`, and anything else, such as `cpp` output).
InputKind input_kind(std::string_view path) {
    if (path.ends_with(".brh") || path.ends_with(".brhi"))
        return InputKind::BrookHeader;
    static const std::vector<std::string_view> compiler_extensions = {
        ".c", ".cc", ".cpp", ".cxx", ".c++", ".C", ".o", ".a", ".so"};
    for (const std::string_view extension : compiler_extensions)
        if (path.ends_with(extension))
            return InputKind::CompilerInput;
    return InputKind::BrookSource;
}

/// Reads, parses and checks `path`; null after errors (reported).
std::unique_ptr<TranslationUnit> front_end(const std::string& path, SourceManager& sources,
                                           DiagnosticEngine& diags, const DriverOptions& options) {
    const unsigned errors_before = diags.error_count();
    std::string read_error;
    const std::uint32_t file = sources.add_file(path, read_error);
    if (file == 0) {
        diags.report(DiagId::cannot_read_input, SourceLocation{}) << read_error;
        return nullptr;
    }
    std::unique_ptr<TranslationUnit> unit =
        parse_translation_unit(sources, file, preprocessor_options(options), diags);
    if (diags.error_count() != errors_before)
        return nullptr;
    if (options.dump_after != "parse") {
        // Each kernel sema finds no mistakes in is checked against the limits of the backends
        // whose code the program embeds (--backends, every one by default) in every mode, so
        // that --emit-cpp, --emit-kernels, --dump-ast and a build warn alike.
        const std::vector<std::unique_ptr<BackendGenerator>> generators =
            make_backend_generators(options.backends);
        const bool analysed = analyze(*unit, diags, [&](const KernelDecl& kernel) {
            for (const std::unique_ptr<BackendGenerator>& generator : generators)
                generator->check_kernel(kernel, diags);
        });
        for (const KernelDecl* kernel : unit->kernels) {
            if (!analysed)
                break;
            if (kernel->is_helper())
                continue;
            for (const std::unique_ptr<BackendGenerator>& generator : generators)
                generator->check_analysed_kernel(*kernel, diags);
        }
    }
    if (diags.error_count() != errors_before)
        return nullptr;
    return unit;
}

/// The C++ of a checked unit, to be written to `output_name` (empty: standard output); a header
/// (`.brh`) gives a C++ header, and may define no kernel.
std::optional<std::string> translate(const TranslationUnit& unit, const std::string& path,
                                     const std::string& output_name, const SourceManager& sources,
                                     DiagnosticEngine& diags, const DriverOptions& options) {
    CodegenOptions codegen;
    codegen.source_name = path;
    codegen.output_name = output_name;
    codegen.backends = options.backends;
    codegen.cpu_clones = cpu_target_clones(options.targets);
    codegen.kernel_table = options.kernel_table;
    codegen.header = input_kind(path) == InputKind::BrookHeader;
    if (codegen.header && !unit.kernels.empty()) {
        for (const KernelDecl* kernel : unit.kernels)
            diags.report(DiagId::kernel_defined_in_header, kernel->name_range) << kernel->name;
        return std::nullopt;
    }
    return emit_cpp(unit, sources, codegen);
}

/// `saxpy.br` -> `saxpy`: the default program name.
std::string default_program_name(const std::string& input) {
    std::filesystem::path path(input);
    return path.stem().string();
}

int write_output(const std::string& text, const std::string& output) {
    if (output.empty() || output == "-") {
        std::cout << text;
        std::cout.flush();
        return std::cout ? exit_success : exit_input_errors;
    }
    errno = 0;
    std::ofstream file(output, std::ios::binary);
    file << text;
    file.close();
    if (!file) {
        std::cerr << "brcc: error: cannot write '" << output << "'"
                  << (errno != 0 ? std::string(": ") + std::strerror(errno) : "") << "\n";
        return exit_input_errors;
    }
    return exit_success;
}

/// -h FILE: the declarations of the kernels of `unit`, made from `input`, each source's
/// under an include guard of its own, so that the sections of several sources make one header.
std::string kernels_header_section(const TranslationUnit& unit, const std::string& input,
                                   const SourceManager& sources, const DriverOptions& options) {
    CodegenOptions codegen;
    codegen.source_name = input;
    codegen.output_name = options.kernels_header;
    codegen.backends = options.backends;
    return emit_kernels_header(unit, sources, codegen);
}

/// --emit-kernels: each stream kernel and reduce function of `unit` as the standalone source
/// file of the backend named `backend`, written to `folder`/NAME followed by its suffix.
int emit_kernel_sources(const TranslationUnit& unit, const std::string& backend,
                        const std::string& folder) {
    std::unique_ptr<BackendGenerator> generator;
    for (std::unique_ptr<BackendGenerator>& candidate : make_backend_generators()) {
        if (candidate->name() == backend)
            generator = std::move(candidate);
    }
    BRCC_ASSERT(generator != nullptr, "--emit-kernels names a backend without a generator");
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error) {
        std::cerr << "brcc: error: cannot create '" << folder << "': " << error.message() << "\n";
        return exit_input_errors;
    }
    std::size_t kernels = 0;
    std::size_t written = 0;
    for (const TopLevelItem& item : unit.items) {
        const auto* kernel = std::get_if<KernelDecl*>(&item);
        if (kernel == nullptr || (*kernel)->is_helper())
            continue;
        ++kernels;
        if (std::optional<KernelSource> source = generator->kernel_source(**kernel)) {
            const std::string path =
                (std::filesystem::path(folder) / ((*kernel)->name + source->suffix)).string();
            if (const int status = write_output(source->text, path); status != exit_success)
                return status;
            ++written;
        }
    }
    if (kernels != 0 && written == 0) {
        // The cpu backend's kernels are C++ inside the program, not files of their own.
        std::cerr << "brcc: error: the " << backend
                  << " backend has no kernel sources of its own; its code is in the C++ that "
                     "--emit-cpp writes\nRun 'brcc --help' for usage.\n";
        return exit_usage;
    }
    return exit_success;
}

/// --color: `auto` colours on a terminal unless NO_COLOR is set to something (no-color.org).
bool use_color(const std::string& when) {
    if (when != "auto")
        return when == "always";
    const char* no_color = std::getenv("NO_COLOR");
    return isatty(STDERR_FILENO) != 0 && (no_color == nullptr || *no_color == '\0');
}

int finish_with_errors(DiagnosticEngine& diags) {
    diags.print_summary();
    return exit_input_errors;
}

} // namespace

namespace {

/// Writes `text` to `path`, creating its folder.
bool write_generated(const std::filesystem::path& path, const std::string& text) {
    std::error_code error;
    if (path.has_parent_path())
        std::filesystem::create_directories(path.parent_path(), error);
    return !error && write_output(text, path.string()) == exit_success;
}

/// One source for the C++ compiler: made from a Brook input, or the user's own C/C++.
struct CompileJob {
    std::string input;                    ///< as the user named it (a.br, main.cpp)
    std::string source;                   ///< what the C++ compiler reads
    std::vector<std::string> brook_files; ///< the Brook files brcc read for it, itself first
};

/// Everything translated, ready for the C++ compiler.
struct Translation {
    std::vector<CompileJob> jobs;
    std::vector<std::string> link_inputs; ///< the user's objects and libraries
    std::vector<std::string> source_dirs;
    std::map<std::string, std::string> generated; ///< each generated file -> its Brook file
    std::string kernels_header;                   ///< -h: every Brook source's section
    bool failed = false;
};

/// Usage mistakes that show only once the inputs' kinds are known; empty when there is none.
std::string check_inputs(const DriverOptions& options) {
    std::size_t sources = 0;
    std::size_t brook_sources = 0;
    for (const std::string& input : options.inputs) {
        const InputKind kind = input_kind(input);
        const bool object = kind == InputKind::CompilerInput && !is_cpp_source(input);
        if (object && options.compile_only)
            return "'" + input +
                   "' is an object or library, and -c only compiles: leave it "
                   "out, or drop -c to link it";
        sources += kind != InputKind::BrookHeader && !object;
        brook_sources += kind == InputKind::BrookSource;
    }
    if (options.compile_only && !options.output.empty() && sources > 1)
        return "-o names one object, but -c compiles " + std::to_string(sources) +
               " inputs: drop -o to get one object per input (a.br -> a.o)";
    if (!options.kernels_header.empty() && brook_sources == 0)
        return "-h writes the kernels of the Brook sources: give at least one .br file with it";
    return {};
}

/// Every input translated into `work`, with the header made from every Brook header (`.brh`,
/// `.brhi`) one includes at the path its #include names, so that the C++ compiler finds it.
/// With --dryrun nothing is written.
Translation translate_inputs(const DriverOptions& options, const std::filesystem::path& work,
                             SourceManager& sources, DiagnosticEngine& diags) {
    Translation result;
    // The Brook headers to make, each as the C++ header at its `include_name` below `work`:
    // those given, and those the sources and headers include.
    std::vector<BrookHeader> headers;
    for (const std::string& input : options.inputs) {
        const InputKind kind = input_kind(input);
        if (kind == InputKind::CompilerInput) {
            if (is_cpp_source(input))
                result.jobs.push_back({input, input, {}});
            else
                result.link_inputs.push_back(input);
            continue;
        }
        if (kind == InputKind::BrookHeader) {
            headers.push_back({input, std::filesystem::path(input).stem().string() + ".hpp"});
            continue;
        }
        std::string dir = std::filesystem::path(input).parent_path().string();
        if (dir.empty())
            dir = ".";
        if (std::find(result.source_dirs.begin(), result.source_dirs.end(), dir) ==
            result.source_dirs.end())
            result.source_dirs.push_back(dir);
        // Numbered, as two inputs may share a name in different folders.
        const std::filesystem::path target =
            work / (std::to_string(result.jobs.size()) + "-" +
                    std::filesystem::path(input).stem().string() + ".cpp");
        const std::uint32_t first_file = sources.file_count();
        const std::unique_ptr<TranslationUnit> unit = front_end(input, sources, diags, options);
        const std::optional<std::string> cpp =
            unit ? translate(*unit, input, target.string(), sources, diags, options) : std::nullopt;
        if (!cpp) {
            result.failed = true;
            continue;
        }
        if (!options.kernels_header.empty())
            result.kernels_header += (result.kernels_header.empty() ? "" : "\n") +
                                     kernels_header_section(*unit, input, sources, options);
        result.failed = result.failed || (!options.dry_run && !write_generated(target, *cpp));
        CompileJob job{input, target.string(), {}};
        for (std::uint32_t file = first_file; file < sources.file_count(); ++file)
            job.brook_files.emplace_back(sources.name(file));
        result.jobs.push_back(std::move(job));
        result.generated.emplace(target.string(), input);
        headers.insert(headers.end(), unit->brook_headers.begin(), unit->brook_headers.end());
    }
    std::set<std::string> headers_made;
    for (std::size_t i = 0; i < headers.size(); ++i) {
        const BrookHeader header = headers[i];
        if (!headers_made.insert(header.include_name).second)
            continue;
        const std::unique_ptr<TranslationUnit> unit =
            front_end(header.path, sources, diags, options);
        const std::filesystem::path target = (work / header.include_name).lexically_normal();
        const std::optional<std::string> cpp =
            unit ? translate(*unit, header.path, target.string(), sources, diags, options)
                 : std::nullopt;
        result.failed =
            result.failed || !cpp || (!options.dry_run && !write_generated(target, *cpp));
        result.generated.emplace(target.string(), header.path);
        if (unit)
            headers.insert(headers.end(), unit->brook_headers.begin(), unit->brook_headers.end());
    }
    return result;
}

/// `a.br` -> `a.o`: the object -c makes, in the current folder as with cc.
std::string object_name(const std::string& input) {
    return std::filesystem::path(input).stem().string() + ".o";
}

/// Where -keep puts the intermediate files: -keep-dir, else NAME.brcc in the current folder
/// (a folder of its own, as the generated headers carry the names the sources include).
std::optional<std::filesystem::path> kept_work_dir(const DriverOptions& options,
                                                   const std::string& output_name) {
    if (!options.keep)
        return std::nullopt;
    if (!options.keep_dir.empty())
        return std::filesystem::path(options.keep_dir);
    return std::filesystem::path(std::filesystem::path(output_name).stem().string() + ".brcc");
}

/// The make rules -M and -MD write, by the file each goes to ("-": standard output).
class DependencyRules {
public:
    void add(const std::string& file, const std::string& rule) {
        if (std::find(order_.begin(), order_.end(), file) == order_.end())
            order_.push_back(file);
        rules_[file] += rules_[file].empty() ? rule : "\n" + rule;
    }

    bool write() const {
        for (const std::string& file : order_) {
            if (write_output(rules_.at(file), file) != exit_success)
                return false;
        }
        return true;
    }

private:
    std::vector<std::string> order_;
    std::map<std::string, std::string> rules_;
};

/// The files `job` depends on: its input, the Brook files brcc read for it, and the headers
/// the C++ compiler read, as its depfile `depfile` lists them (brcc's own files mapped back).
std::vector<std::string> job_dependencies(const CompileJob& job, const std::string& depfile,
                                          const Translation& translation,
                                          const std::filesystem::path& work) {
    std::vector<std::string> files = {job.input};
    files.insert(files.end(), job.brook_files.begin(), job.brook_files.end());
    std::ifstream in(depfile, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    const std::vector<std::string> host = read_depfile_prerequisites(text.str());
    files.insert(files.end(), host.begin(), host.end());
    return real_dependencies(files, translation.generated, work.string());
}

/// Driver mode: every input translated into a work directory, each source compiled on its own
/// (-c: to an object beside the user's files), then, unless -c or -M, the link with libbrook.
int build_program(const DriverOptions& options, SourceManager& sources, DiagnosticEngine& diags) {
    if (const std::string error = check_inputs(options); !error.empty()) {
        std::cerr << "brcc: error: " << error << "\nRun 'brcc --help' for usage.\n";
        return exit_usage;
    }
    for (const std::string& input : options.inputs) {
        std::error_code error;
        if (input_kind(input) == InputKind::CompilerInput &&
            !std::filesystem::exists(input, error)) {
            std::cerr << "brcc: error: cannot open '" << input << "': " << std::strerror(ENOENT)
                      << "\n";
            return exit_input_errors;
        }
    }
    const std::optional<BrookPaths> brook = find_brook(options.brook_of);
    if (!brook)
        return exit_usage;
    const std::string program =
        options.output.empty() ? default_program_name(options.inputs.front()) : options.output;
    // A dry run creates nothing, not even the work directory its commands name.
    const WorkDirectory work(kept_work_dir(options, program), !options.dry_run);
    Translation translation = translate_inputs(options, work.path(), sources, diags);
    if (translation.failed)
        return diags.has_errors() ? finish_with_errors(diags) : exit_input_errors;
    // Brook+'s build lines write it into a folder of their own (`-h brookgenfiles/NAME.h`),
    // which its brcc created.
    if (!options.kernels_header.empty() && !options.dry_run &&
        !write_generated(options.kernels_header, translation.kernels_header))
        return exit_input_errors;
    if (options.keep && !options.dry_run)
        std::cerr << "brcc: the intermediate files are kept in '" << work.path().string() << "'\n";

    const bool link = !options.compile_only && !options.dependencies_only;
    const CompileSetup setup{work.path().string(), translation.source_dirs, *brook};
    DependencyRules rules;
    std::vector<std::string> program_dependencies;
    std::vector<std::string> objects;
    std::set<std::string> objects_made;
    for (std::size_t i = 0; i < translation.jobs.size(); ++i) {
        const CompileJob& job = translation.jobs[i];
        const std::string object =
            link ? (work.path() / (std::to_string(i) + "-" + object_name(job.input))).string()
                 : (options.compile_only && !options.output.empty() ? options.output
                                                                    : object_name(job.input));
        if (!objects_made.insert(object).second) {
            std::cerr << "brcc: error: two inputs would compile to '" << object
                      << "': compile them in separate calls with -c -o\n";
            return exit_usage;
        }
        const std::string depfile = (work.path() / (std::to_string(i) + ".d")).string();
        std::vector<std::string> command = compile_command(job.source, setup, options);
        // -MM and -MMD: the C++ compiler knows which folders are the system's.
        if (options.dependencies_only)
            command.insert(command.end(),
                           {options.user_headers_only ? "-MM" : "-M", "-MF", depfile});
        else
            command.insert(command.end(), {"-c", "-o", object});
        if (options.dependencies_too && !options.dependencies_only)
            command.insert(command.end(),
                           {options.user_headers_only ? "-MMD" : "-MD", "-MF", depfile});
        if (!run_command(command, options))
            return exit_input_errors;
        objects.push_back(object);
        if (options.dry_run || (!options.dependencies_only && !options.dependencies_too))
            continue;
        const std::vector<std::string> files =
            job_dependencies(job, depfile, translation, work.path());
        if (link) {
            program_dependencies.insert(program_dependencies.end(), files.begin(), files.end());
            continue;
        }
        const std::vector<std::string> targets = options.dependency_targets.empty()
                                                     ? std::vector<std::string>{object}
                                                     : options.dependency_targets;
        std::string file = options.dependency_file;
        if (file.empty() && options.dependencies_only)
            file = "-";
        if (file.empty())
            file = std::filesystem::path(object).replace_extension(".d").string();
        rules.add(file, make_rule(targets, files, options.phony_dependencies));
    }
    if (link) {
        objects.insert(objects.end(), translation.link_inputs.begin(),
                       translation.link_inputs.end());
        if (!run_command(link_command(objects, program, *brook, options), options))
            return exit_input_errors;
        if (options.dependencies_too && !options.dry_run) {
            const std::vector<std::string> targets = options.dependency_targets.empty()
                                                         ? std::vector<std::string>{program}
                                                         : options.dependency_targets;
            rules.add(options.dependency_file.empty() ? program + ".d" : options.dependency_file,
                      make_rule(targets, real_dependencies(program_dependencies, {}, ""),
                                options.phony_dependencies));
        }
    }
    return rules.write() ? exit_success : exit_input_errors;
}

} // namespace

int run_pipeline(const DriverOptions& options, std::ostream& diagnostics) {
    SourceManager sources;
    DiagnosticEngine diags(sources, diagnostics, use_color(options.color));
    diags.set_warning_policy(WarningPolicy(options.warning_flags));
    if (!options.emit_cpp && options.emit_kernels.empty() && options.dump_after.empty())
        return build_program(options, sources, diags);

    const std::string& input = options.inputs.front();
    const std::unique_ptr<TranslationUnit> unit = front_end(input, sources, diags, options);
    if (!unit)
        return finish_with_errors(diags);
    if (!options.dump_after.empty()) {
        dump_ast(*unit, sources, std::cout);
        return exit_success;
    }
    if (!options.emit_kernels.empty())
        return emit_kernel_sources(*unit, options.emit_kernels, options.output);
    const std::string output_name = options.output == "-" ? "" : options.output;
    const std::optional<std::string> cpp =
        translate(*unit, input, output_name, sources, diags, options);
    if (!cpp)
        return finish_with_errors(diags);
    if (!options.kernels_header.empty() &&
        !write_generated(options.kernels_header,
                         kernels_header_section(*unit, input, sources, options)))
        return exit_input_errors;
    if (const int status = write_output(*cpp, options.output); status != exit_success)
        return status;
    if (!options.dependencies_too)
        return exit_success;
    // The Brook files read: the C++ is made from them alone.
    std::vector<std::string> files;
    for (std::uint32_t file = 1; file < sources.file_count(); ++file)
        files.emplace_back(sources.name(file));
    const std::vector<std::string> targets = options.dependency_targets.empty()
                                                 ? std::vector<std::string>{options.output}
                                                 : options.dependency_targets;
    const std::string depfile =
        options.dependency_file.empty()
            ? std::filesystem::path(options.output).replace_extension(".d").string()
            : options.dependency_file;
    return write_output(
        make_rule(targets, real_dependencies(files, {}, ""), options.phony_dependencies), depfile);
}

} // namespace brcc
