// The `fuzz` subcommand: brcc must survive malformed and mutated programs.
#pragma once

#include "conformance.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace brook_test {

struct FuzzOptions {
    std::string brcc;
    std::uint64_t seed = 1;
    int count = 300;
    std::string work_dir;
    double timeout_s = 10.0;
    std::vector<std::string> files;
};

/// A small deterministic generator (splitmix64), so a seed names the same inputs on every
/// platform and standard library.
class FuzzRandom {
public:
    explicit FuzzRandom(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next();
    /// Uniform in [0, bound); bound must be positive.
    std::size_t below(std::size_t bound);

private:
    std::uint64_t state_;
};

/// One mutant of `seeds[index]`, made by one to three random edits (token deletion, duplication,
/// swap, insertion of Brook tokens or raw bytes, truncation, splicing with another seed).
[[nodiscard]] std::string mutate(const std::vector<std::string>& seeds, std::size_t index,
                                 FuzzRandom& random);

[[nodiscard]] Outcome run_fuzz(const FuzzOptions& options);

} // namespace brook_test
