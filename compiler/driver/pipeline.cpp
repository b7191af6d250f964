// The pipeline, one stage after another: read the file, lex/preprocess/parse it into a
// TranslationUnit, analyse it, then generate C++ and either write it (--emit-cpp) or build the
// program with the C++ compiler; or, with --emit-kernels, write one backend's kernels as source
// files. A stage runs only when the ones before it reported no errors, so each mistake is
// reported once and later stages never see a broken tree.

#include "driver/pipeline.hpp"

#include "ast/ast_dump.hpp"
#include "codegen/backend_generator.hpp"
#include "codegen/emit_cpp.hpp"
#include "driver/compile.hpp"
#include "parse/parser.hpp"
#include "sema/sema.hpp"
#include "support/diagnostics.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>

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

int run_pipeline(const DriverOptions& options) {
    SourceManager sources;
    DiagnosticEngine diags(sources, std::cerr, isatty(STDERR_FILENO) != 0);

    std::string read_error;
    const std::uint32_t file = sources.add_file(options.input, read_error);
    if (file == 0) {
        diags.report(DiagId::cannot_read_input, SourceLocation{}) << read_error;
        return finish_with_errors(diags);
    }

    std::unique_ptr<TranslationUnit> unit =
        parse_translation_unit(sources, file, preprocessor_options(options), diags);
    if (diags.has_errors())
        return finish_with_errors(diags);
    if (options.dump_after == "parse") {
        dump_ast(*unit, sources, std::cout);
        return exit_success;
    }

    analyze(*unit, diags);
    if (diags.has_errors())
        return finish_with_errors(diags);

    if (options.dump_after == "sema") {
        dump_ast(*unit, sources, std::cout);
        return exit_success;
    }

    if (!options.emit_kernels.empty())
        return emit_kernel_sources(*unit, options.emit_kernels, options.output);

    CodegenOptions codegen;
    codegen.source_name = options.input;
    codegen.backends = options.backends;
    const std::string cpp = emit_cpp(*unit, sources, codegen);

    if (options.emit_cpp)
        return write_output(cpp, options.output);
    const std::string program =
        options.output.empty() ? default_program_name(options.input) : options.output;
    return compile_program(cpp, program, options);
}

} // namespace brcc
