// Inputs are the empty file, binary garbage, every seed as it is and truncated at a random point,
// then `count` mutants. Each is compiled with `brcc --emit-cpp` (the sanitized build in CTest).
// brcc may accept an input (0) or reject it (1); anything else - another status, a signal, a hang,
// an "internal compiler error" or a sanitizer report - is a failure, and the input is kept in the
// work folder.
#include "fuzz.hpp"

#include "process.hpp"
#include "sanitizers.hpp"
#include "test_file.hpp"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace brook_test {
namespace fs = std::filesystem;
namespace {

// Tokens that steer the parser into its less travelled paths.
const std::vector<std::string> brook_tokens = {
    "kernel",
    "reduce",
    "out",
    "iter",
    "typedef",
    "struct",
    "float",
    "float2",
    "float3",
    "float4",
    "int",
    "void",
    "return",
    "if",
    "else",
    "for",
    "while",
    "do",
    "break",
    "continue",
    "indexof",
    "<",
    ">",
    "<>",
    "<<",
    ">>",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    ".",
    ".xyzw",
    ".q",
    "=",
    "+=",
    "?",
    ":",
    "::",
    "->",
    "&&",
    "!",
    "~",
    "0",
    "1.5",
    "1e40",
    "0x",
    "'",
    "\"",
    "/*",
    "*/",
    "//",
    "\\",
    "\n",
    "#define",
    "#define F(x) x(",
    "#if",
    "#ifdef X",
    "#endif",
    "#else",
    "#include",
    "#",
    "##",
    "__LINE__",
    "domain",
    "streamRead",
    "1.0f/0",
    "2147483648",
    "float4(1,2)",
};

std::string make_garbage(FuzzRandom& random, std::size_t size) {
    std::string bytes(size, '\0');
    for (char& byte : bytes) {
        byte = static_cast<char>(random.below(256));
    }
    return bytes;
}

// Token boundaries: identifier/number runs, whitespace runs, and single other characters.
std::vector<std::string> tokenize(const std::string& text) {
    std::vector<std::string> tokens;
    std::size_t pos = 0;
    const auto word = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.';
    };
    const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    while (pos < text.size()) {
        std::size_t end = pos + 1;
        if (word(text[pos])) {
            while (end < text.size() && word(text[end])) {
                ++end;
            }
        } else if (space(text[pos])) {
            while (end < text.size() && space(text[end])) {
                ++end;
            }
        }
        tokens.push_back(text.substr(pos, end - pos));
        pos = end;
    }
    return tokens;
}

std::string join(const std::vector<std::string>& tokens) {
    std::string text;
    for (const std::string& token : tokens) {
        text += token;
    }
    return text;
}

void mutate_once(std::vector<std::string>& tokens, const std::vector<std::string>& seeds,
                 FuzzRandom& random) {
    if (tokens.empty()) {
        tokens.push_back(brook_tokens[random.below(brook_tokens.size())]);
        return;
    }
    const std::size_t at = random.below(tokens.size());
    const std::size_t length = 1 + random.below(std::min<std::size_t>(8, tokens.size() - at));
    const auto first = tokens.begin() + static_cast<std::ptrdiff_t>(at);
    const auto last = first + static_cast<std::ptrdiff_t>(length);
    switch (random.below(7)) {
    case 0: // delete a run of tokens
        tokens.erase(first, last);
        break;
    case 1: { // duplicate a run of tokens
        const std::vector<std::string> copy(first, last);
        tokens.insert(last, copy.begin(), copy.end());
        break;
    }
    case 2: // swap two tokens
        std::swap(tokens[at], tokens[random.below(tokens.size())]);
        break;
    case 3: // insert a Brook token
        tokens.insert(first, brook_tokens[random.below(brook_tokens.size())]);
        break;
    case 4: // insert raw bytes
        tokens.insert(first, make_garbage(random, 1 + random.below(8)));
        break;
    case 5: // truncate
        tokens.erase(first, tokens.end());
        break;
    case 6: { // splice: keep this prefix, continue with the tail of another seed
        const std::vector<std::string> other = tokenize(seeds[random.below(seeds.size())]);
        tokens.erase(first, tokens.end());
        if (!other.empty()) {
            const auto from =
                other.begin() + static_cast<std::ptrdiff_t>(random.below(other.size()));
            tokens.insert(tokens.end(), from, other.end());
        }
        break;
    }
    }
}

std::optional<std::string> problem_of(const ProcessResult& result) {
    if (result.exec_failed) {
        return "brcc could not be started";
    }
    if (result.timed_out) {
        return "brcc hung";
    }
    if (result.signal != 0) {
        return "brcc was killed by a signal";
    }
    if (std::optional<std::string> report = find_crash_report(result.out + result.err)) {
        return report;
    }
    if (result.exit_code != 0 && result.exit_code != 1) {
        return "brcc exited with a status other than 0 or 1";
    }
    return std::nullopt;
}

} // namespace

std::uint64_t FuzzRandom::next() {
    state_ += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31U);
}

std::size_t FuzzRandom::below(std::size_t bound) {
    return static_cast<std::size_t>(next() % bound);
}

std::string mutate(const std::vector<std::string>& seeds, std::size_t index, FuzzRandom& random) {
    std::vector<std::string> tokens = tokenize(seeds[index]);
    const std::size_t edits = 1 + random.below(3);
    for (std::size_t i = 0; i < edits; ++i) {
        mutate_once(tokens, seeds, random);
    }
    return join(tokens);
}

Outcome run_fuzz(const FuzzOptions& options) {
    std::vector<std::string> seeds;
    try {
        for (const std::string& file : options.files) {
            seeds.push_back(read_file(file));
        }
    } catch (const TestFormatError& error) {
        std::cout << error.message << '\n';
        return Outcome::bad_test;
    }
    if (seeds.empty()) {
        std::cout << "fuzz: no seed files given\n";
        return Outcome::bad_test;
    }
    FuzzRandom random(options.seed);

    // Fixed cases first: the empty file, binary garbage, and each seed cut short.
    std::vector<std::pair<std::string, std::string>> inputs; // (description, content)
    inputs.emplace_back("empty input", "");
    inputs.emplace_back("binary garbage", make_garbage(random, 4096));
    inputs.emplace_back("a NUL byte in a program", seeds[0].substr(0, seeds[0].size() / 2) + '\0' +
                                                       seeds[0].substr(seeds[0].size() / 2));
    for (std::size_t i = 0; i < seeds.size(); ++i) {
        inputs.emplace_back(options.files[i] + " as it is", seeds[i]);
        inputs.emplace_back(options.files[i] + " truncated",
                            seeds[i].substr(0, random.below(seeds[i].size() + 1)));
    }
    for (int i = 0; i < options.count; ++i) {
        const std::size_t index = random.below(seeds.size());
        inputs.emplace_back("mutant " + std::to_string(i) + " of " + options.files[index],
                            mutate(seeds, index, random));
    }

    const fs::path work = options.work_dir.empty() ? fs::temp_directory_path() / "brook-fuzz"
                                                   : fs::path(options.work_dir);
    fs::create_directories(work);
    const fs::path input_path = work / "input.br";
    const fs::path output_path = work / "output.cpp";
    int failures = 0;
    int accepted = 0; // reported so a run that rejects everything early stands out
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        {
            std::ofstream out(input_path, std::ios::binary | std::ios::trunc);
            out << inputs[i].second;
        }
        ProcessSpec spec;
        spec.argv = {options.brcc, "--emit-cpp", input_path.string(), "-o", output_path.string()};
        spec.env = sanitizer_environment();
        spec.timeout_s = options.timeout_s;
        const ProcessResult result = run_process(spec);
        if (!result.exec_failed && !result.timed_out && result.signal == 0 &&
            result.exit_code == 0) {
            ++accepted;
        }
        if (const std::optional<std::string> problem = problem_of(result)) {
            ++failures;
            const fs::path kept = work / ("failure-seed" + std::to_string(options.seed) + "-" +
                                          std::to_string(i) + ".br");
            fs::copy_file(input_path, kept, fs::copy_options::overwrite_existing);
            std::cout << "FAILED: " << *problem << " (" << result.describe(options.timeout_s)
                      << ") on " << inputs[i].first << "\n  input kept as " << kept.string()
                      << "\n  reproduce: " << options.brcc << " --emit-cpp " << kept.string()
                      << " -o /dev/null\n";
            const std::string output = result.out + result.err;
            constexpr std::size_t tail = 4000;
            std::cout << (output.size() > tail ? output.substr(output.size() - tail) : output)
                      << '\n';
        }
    }
    std::error_code ignored;
    fs::remove(input_path, ignored);
    fs::remove(output_path, ignored);
    std::cout << (failures == 0 ? "PASSED" : "FAILED") << ": " << inputs.size() << " inputs ("
              << accepted << " accepted by brcc), " << failures << " failure"
              << (failures == 1 ? "" : "s") << " (seed " << options.seed << ")\n";
    return failures == 0 ? Outcome::pass : Outcome::fail;
}

} // namespace brook_test
