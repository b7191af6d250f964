// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The --target table. On x86-64 the targets are the psABI's micro-architecture levels, which
// GCC and Clang take as -march= and target_clones("arch=...") names, in order, so that whether
// this machine runs one is whether its index is below the CPU's level (brook/detail/
// cpu_level.hpp). Other architectures have `native` alone.

#include "driver/cpu_targets.hpp"

#include "brook/detail/cpu_level.hpp"

#include <algorithm>
#include <ostream>

namespace brcc {

namespace {

constexpr std::string_view native = "native";

/// Where `name` is in cpu_targets(), or its size when it is not there.
std::size_t target_index(std::string_view name) {
    const auto& targets = cpu_targets();
    return static_cast<std::size_t>(
        std::find_if(targets.begin(), targets.end(),
                     [&](const CpuTarget& target) { return target.name == name; }) -
        targets.begin());
}

/// Whether this machine runs the code of target `index`: native always, a level when the CPU's
/// is as high (the levels come first, in order).
bool runs_here(std::size_t index) {
    return cpu_targets()[index].name == native ||
           static_cast<int>(index) < brook::detail::x86_64_level();
}

std::string target_names() {
    std::string text;
    for (const CpuTarget& target : cpu_targets())
        text += (text.empty() ? "" : ", ") + std::string(target.name);
    return text;
}

} // namespace

const std::vector<CpuTarget>& cpu_targets() {
    static const std::vector<CpuTarget> targets = {
#if defined(__x86_64__)
        {"x86-64", "every 64-bit x86 CPU: SSE2, 128-bit vectors (as --portable)"},
        {"x86-64-v2", "adds SSE3, SSSE3, SSE4.1, SSE4.2 and POPCNT (Nehalem, Bulldozer and later)"},
        {"x86-64-v3",
         "adds AVX, AVX2, FMA, BMI1 and BMI2: 256-bit vectors (Haswell, Zen and later)"},
        {"x86-64-v4",
         "adds AVX-512 F, BW, CD, DQ and VL: 512-bit vectors (Skylake-X, Ice Lake, Zen 4)"},
#endif
        {native, "every instruction set of the building machine, tuned for it (the default)"},
    };
    return targets;
}

void print_cpu_targets(std::ostream& out) {
    out << "CPU targets (--target=NAME, or several for run-time dispatch: --target=A,B):\n";
    const auto& targets = cpu_targets();
    for (std::size_t i = 0; i < targets.size(); ++i) {
        std::string name = "  " + std::string(targets[i].name);
        name.resize(std::max<std::size_t>(name.size() + 1, 14), ' ');
        out << name << (runs_here(i) ? "[runs here]  " : "[not here]   ") << targets[i].description
            << "\n";
    }
}

std::string check_cpu_targets(std::vector<std::string>& targets) {
    for (const std::string& name : targets) {
        if (target_index(name) == cpu_targets().size())
            return "unknown target '" + name + "' in --target (known: " + target_names() +
                   "; --target=list describes them)";
    }
    std::sort(targets.begin(), targets.end(), [](const std::string& a, const std::string& b) {
        return target_index(a) < target_index(b);
    });
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    if (targets.size() > 1 && targets.back() == native)
        return "--target=native builds for this machine alone: name the targets to build for "
               "instead (--target=list shows them)";
    return {};
}

std::vector<std::string> cpu_target_flags(const std::vector<std::string>& targets) {
    // GCC prefers 256-bit vectors even where 512-bit ones exist unless told otherwise.
    const std::string lowest = targets.empty() ? std::string(native) : targets.front();
    return {"-march=" + lowest, "-mprefer-vector-width=512"};
}

std::vector<std::string> cpu_target_clones(const std::vector<std::string>& targets) {
    if (targets.size() < 2)
        return {};
    std::vector<std::string> clones = {"default"};
    for (auto target = targets.begin() + 1; target != targets.end(); ++target)
        clones.push_back("arch=" + *target);
    return clones;
}

} // namespace brcc
