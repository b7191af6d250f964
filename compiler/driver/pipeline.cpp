// The pipeline, one stage after another: read a file, lex/preprocess/parse it into a
// TranslationUnit, analyse it, then generate C++ and either write it (--emit-cpp) or build the
// program with the C++ compiler; or, with --emit-kernels, write one backend's kernels as source
// files. A stage runs only when the ones before it reported no errors, so each mistake is
// reported once and later stages never see a broken tree. To build a program each Brook input
// is translated into a temporary directory, with the header made from every Brook header
// (`.brh`, `.brhi`) one includes, at the path its #include names, so that the C++ compiler finds
// it there; C/C++ sources and objects go to the compiler as they are.

#include "driver/pipeline.hpp"

#include "ast/ast_dump.hpp"
#include "codegen/backend_generator.hpp"
#include "codegen/emit_cpp.hpp"
#include "driver/compile.hpp"
#include "parse/parser.hpp"
#include "sema/sema.hpp"
#include "support/diagnostics.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

namespace brcc {

namespace {

PreprocessorOptions preprocessor_options(const DriverOptions& options) {
    PreprocessorOptions result;
    result.include_dirs = options.include_dirs;
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
    if (options.dump_after != "parse")
        analyze(*unit, diags);
    if (diags.error_count() != errors_before)
        return nullptr;
    return unit;
}

/// The C++ of a checked unit; a header (`.brh`) gives a C++ header, and may define no kernel.
std::optional<std::string> translate(const TranslationUnit& unit, const std::string& path,
                                     const SourceManager& sources, DiagnosticEngine& diags,
                                     const DriverOptions& options) {
    CodegenOptions codegen;
    codegen.source_name = path;
    codegen.backends = options.backends;
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
    std::ofstream file(output, std::ios::binary);
    file << text;
    file.close();
    if (!file) {
        std::cerr << "brcc: error: cannot write '" << output << "'\n";
        return exit_input_errors;
    }
    return exit_success;
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

int finish_with_errors(DiagnosticEngine& diags) {
    diags.print_summary();
    return exit_input_errors;
}

} // namespace

namespace {

/// Writes `text` to `path`, creating its folder.
bool write_generated(const std::filesystem::path& path, const std::string& text) {
    std::error_code error;
    std::filesystem::create_directories(path.parent_path(), error);
    return !error && write_output(text, path.string()) == exit_success;
}

/// Driver mode: every input translated into a temporary directory, then the C++ compiler.
int build_program(const DriverOptions& options, SourceManager& sources, DiagnosticEngine& diags) {
    const TempDirectory temp;
    std::vector<std::string> compiler_inputs;
    std::vector<std::string> source_dirs;
    // The Brook headers to make, each as the C++ header at its `include_name` below the
    // temporary directory: those given, and those the sources and headers include.
    std::vector<BrookHeader> headers;
    bool failed = false;
    for (const std::string& input : options.inputs) {
        const InputKind kind = input_kind(input);
        if (kind == InputKind::CompilerInput) {
            compiler_inputs.push_back(input);
            continue;
        }
        if (kind == InputKind::BrookHeader) {
            headers.push_back({input, std::filesystem::path(input).stem().string() + ".hpp"});
            continue;
        }
        std::string dir = std::filesystem::path(input).parent_path().string();
        if (dir.empty())
            dir = ".";
        if (std::find(source_dirs.begin(), source_dirs.end(), dir) == source_dirs.end())
            source_dirs.push_back(dir);
        const std::unique_ptr<TranslationUnit> unit = front_end(input, sources, diags, options);
        const std::optional<std::string> cpp =
            unit ? translate(*unit, input, sources, diags, options) : std::nullopt;
        if (!cpp) {
            failed = true;
            continue;
        }
        // Numbered, as two inputs may share a name in different folders.
        const std::filesystem::path target =
            temp.path() / (std::to_string(compiler_inputs.size()) + "-" +
                           std::filesystem::path(input).stem().string() + ".cpp");
        failed = failed || !write_generated(target, *cpp);
        compiler_inputs.push_back(target.string());
        headers.insert(headers.end(), unit->brook_headers.begin(), unit->brook_headers.end());
    }
    std::set<std::string> headers_made;
    for (std::size_t i = 0; i < headers.size(); ++i) {
        const BrookHeader header = headers[i];
        if (!headers_made.insert(header.include_name).second)
            continue;
        const std::unique_ptr<TranslationUnit> unit =
            front_end(header.path, sources, diags, options);
        const std::optional<std::string> cpp =
            unit ? translate(*unit, header.path, sources, diags, options) : std::nullopt;
        failed = failed || !cpp ||
                 !write_generated((temp.path() / header.include_name).lexically_normal(), *cpp);
        if (unit)
            headers.insert(headers.end(), unit->brook_headers.begin(), unit->brook_headers.end());
    }
    if (failed)
        return diags.has_errors() ? finish_with_errors(diags) : exit_input_errors;
    const std::string program =
        options.output.empty() ? default_program_name(options.inputs.front()) : options.output;
    return compile_program(compiler_inputs, temp.path().string(), source_dirs, program, options);
}

} // namespace

int run_pipeline(const DriverOptions& options) {
    SourceManager sources;
    DiagnosticEngine diags(sources, std::cerr, isatty(STDERR_FILENO) != 0);
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
    const std::optional<std::string> cpp = translate(*unit, input, sources, diags, options);
    if (!cpp)
        return finish_with_errors(diags);
    return write_output(*cpp, options.output);
}

} // namespace brcc
