// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The harness's timing loop. A sample is `calls` back-to-back calls followed by one `finish`, so
// that a call of a few microseconds is not lost in the clock's resolution and an asynchronous
// backend is timed to completion; `calls` is chosen in the warm-up so that a sample lasts at least
// min_sample_seconds. Samples of the variants alternate (A B C A B C ...), and the statistics are
// per call: median, min and max over the samples.
//
// Each sample begins with one untimed call of the same variant, so that every variant is timed in
// the cache state its own repeated calls leave, whatever the variant before it touched: SGEMV 4096
// reads a 64 MB matrix that stays partly in this machine's 480 MB L3, and a sample of three calls
// of which the first found the matrix evicted by the other variants (2.4 ms cold, 1.3 ms warm
// here) measured the order of the variants more than the variants. Programs give every variant
// its own copy of its inputs for the same reason.
#include "harness.hpp"

#include <brook/brook.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <utility>

namespace bench {

namespace {

constexpr double min_sample_seconds = 0.005;
constexpr int default_repetitions = 11;

/// The positive integer the environment variable `name` holds, or `fallback` when it is unset or
/// holds no such number.
int positive_setting(const char* name, int fallback) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') {
        return fallback;
    }
    const long parsed = std::strtol(value, nullptr, 10);
    return parsed >= 1 ? static_cast<int>(parsed) : fallback;
}

/// BROOK_BENCH_REPS overrides the number of samples per variant (a quick run uses 3).
int repetitions() {
    return positive_setting("BROOK_BENCH_REPS", default_repetitions);
}

/// BROOK_BENCH_CALLS fixes the calls per sample (0 where unset: each variant's first call sizes
/// them to at least min_sample_seconds). A program on several MPI ranks needs it: every rank must
/// make the same calls (docs/mpi.md), and ranks that time their first call differently do not.
int fixed_calls() {
    return positive_setting("BROOK_BENCH_CALLS", 0);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Seconds per call over one sample of `calls` calls, after one untimed call.
double sample(const Variant& variant, int calls) {
    if (variant.enter) {
        variant.enter();
    }
    variant.call();
    if (variant.finish) {
        variant.finish();
    }
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) {
        variant.call();
    }
    if (variant.finish) {
        variant.finish();
    }
    const double seconds = seconds_since(start);
    if (variant.leave) {
        variant.leave();
    }
    return seconds / calls;
}

/// Calls enough for a sample of `variant` to last min_sample_seconds: from samples of 1, 2, 4...
/// calls until one lasts that long, then again from the count found, so that a size is taken from
/// a sample of the calls it will time. A variant's early calls can be several times slower than
/// the rest (under mpi:cpu on one rank, a sum of 16 MB took 6, 4, then 1 ms on its first calls,
/// as fast as on cpu from the fourth), and the calls after the untimed one of a sample get faster
/// one by one while they bring the variant's data back into the cache (1.0, 0.7, 0.45, 0.3 ms
/// after another variant read its own 16 MB): a size taken from the second call alone gave such a
/// variant one or two calls per sample, each from the slow end, and measured it 1.5x slower.
int calls_per_sample(const Variant& variant) {
    int calls = 1;
    for (int pass = 0; pass < 2; ++pass) {
        for (;; calls *= 2) {
            const double per_call = std::max(sample(variant, calls), 1e-9);
            if (per_call * calls >= min_sample_seconds) {
                calls = static_cast<int>(std::ceil(min_sample_seconds / per_call));
                break;
            }
        }
    }
    return calls;
}

Timing statistics(std::vector<double> samples) {
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    const double median =
        n % 2 == 1 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
    return {median, samples.front(), samples.back()};
}

/// "12.3 us", "4.56 ms": times span 1e-7 to 1 s across the suite.
std::string format_time(double seconds) {
    char text[32];
    if (seconds < 1e-3) {
        std::snprintf(text, sizeof text, "%.2f us", seconds * 1e6);
    } else if (seconds < 1.0) {
        std::snprintf(text, sizeof text, "%.3f ms", seconds * 1e3);
    } else {
        std::snprintf(text, sizeof text, "%.3f s", seconds);
    }
    return text;
}

/// The results file, opened for appending, or null when BROOK_BENCH_RESULTS is not set.
std::FILE* open_results() {
    const char* path = std::getenv("BROOK_BENCH_RESULTS");
    if (path == nullptr || *path == '\0') {
        return nullptr;
    }
    std::FILE* file = std::fopen(path, "a");
    if (file == nullptr) {
        std::fprintf(stderr, "bench: cannot append to %s\n", path);
        std::exit(1);
    }
    return file;
}

} // namespace

Comparison::Comparison(std::string benchmark, std::string size, Work work)
    : benchmark_(std::move(benchmark)), size_(std::move(size)), work_(work) {}

void Comparison::add(Variant variant) {
    variants_.push_back(std::move(variant));
}

void Comparison::check(const Variant& variant) const {
    const double error = variant.error();
    if (error <= variant.tolerance) {
        return;
    }
    std::fprintf(stderr, "bench: %s %s: %s: error %g exceeds the tolerance %g\n",
                 benchmark_.c_str(), size_.c_str(), variant.name.c_str(), error,
                 variant.tolerance);
    std::exit(1);
}

std::vector<Timing> Comparison::run() {
    // Warm-up: first-call costs (page faults, shader compilation, thread start) fall on the
    // untimed call that begins every sample; calls_per_sample sizes the others.
    std::vector<int> calls;
    for (const Variant& variant : variants_) {
        int count = fixed_calls();
        if (count > 0) {
            sample(variant, 1); // the first-call costs, and a result to check
        } else {
            count = calls_per_sample(variant);
        }
        calls.push_back(count);
        check(variant);
    }
    const int samples = repetitions();
    std::vector<std::vector<double>> times(variants_.size());
    for (int r = 0; r < samples; ++r) {
        for (std::size_t v = 0; v < variants_.size(); ++v) {
            times[v].push_back(sample(variants_[v], calls[v]));
        }
    }
    std::vector<Timing> timings;
    for (std::size_t v = 0; v < variants_.size(); ++v) {
        check(variants_[v]);
        timings.push_back(statistics(times[v]));
    }
    report(timings);
    return timings;
}

// Ratio column: a baseline row shows baseline time / the first Brook variant's time, a Brook row
// the fastest baseline's time / its own; above 1 means Brook is faster either way.
void Comparison::report(const std::vector<Timing>& timings) const {
    double brook_time = 0.0;
    double best_baseline = std::numeric_limits<double>::infinity();
    for (std::size_t v = 0; v < variants_.size(); ++v) {
        if (variants_[v].kind == Kind::brook && brook_time == 0.0) {
            brook_time = timings[v].median;
        }
        if (variants_[v].kind == Kind::baseline) {
            best_baseline = std::min(best_baseline, timings[v].median);
        }
    }
    std::FILE* results = open_results();
    const std::string backend = backend_name();
    std::printf("%s %s (%s backend)\n", benchmark_.c_str(), size_.c_str(), backend.c_str());
    for (std::size_t v = 0; v < variants_.size(); ++v) {
        const Variant& variant = variants_[v];
        const Timing& t = timings[v];
        const bool is_brook = variant.kind == Kind::brook;
        const double ratio = is_brook ? best_baseline / t.median : t.median / brook_time;
        const double gbytes = work_.bytes / t.median * 1e-9;
        const double gflops = work_.flops / t.median * 1e-9;
        std::printf("  %-28s %12s  [%s .. %s]  %s %.2f", variant.name.c_str(),
                    format_time(t.median).c_str(), format_time(t.min).c_str(),
                    format_time(t.max).c_str(), is_brook ? "best baseline/this" : "this/Brook",
                    std::isfinite(ratio) ? ratio : 0.0);
        if (work_.bytes > 0.0) {
            std::printf("  %.1f GB/s", gbytes);
        }
        if (work_.flops > 0.0) {
            std::printf("  %.2f GFLOPS", gflops);
        }
        std::printf("\n");
        if (results != nullptr) {
            std::fprintf(results, "row\t%s\t%s\t%s\t%s\t%s\t%.9g\t%.9g\t%.9g\t%.6g\t%.6g\t%.6g\n",
                         benchmark_.c_str(), backend.c_str(), size_.c_str(),
                         variant.name.c_str(), is_brook ? "brook" : "baseline", t.median, t.min,
                         t.max, std::isfinite(ratio) ? ratio : 0.0, gbytes, gflops);
        }
    }
    std::fflush(stdout);
    if (results != nullptr) {
        std::fclose(results);
    }
}

void note(const std::string& benchmark, const std::string& name, double value,
          const std::string& unit) {
    const std::string backend = backend_name();
    std::printf("  %s (%s backend): %.6g %s\n", name.c_str(), backend.c_str(), value,
                unit.c_str());
    std::fflush(stdout);
    if (std::FILE* results = open_results()) {
        std::fprintf(results, "note\t%s\t%s\t%s\t%.9g\t%s\n", benchmark.c_str(), backend.c_str(),
                     name.c_str(), value, unit.c_str());
        std::fclose(results);
    }
}

std::function<void()> finish_queued() {
    if (backend_name() == "cpu") {
        return {};
    }
    return [] { brook::finish(); };
}

std::string backend_name() {
    const char* name = std::getenv("BRT_RUNTIME");
    const std::string backend = name != nullptr && *name != '\0' ? name : "cpu";
    // Table 1 compares gl runs that differ only in their render targets per pass.
    const char* outputs = std::getenv("BRT_GL_MAX_OUTPUTS");
    if (backend == "gl" && outputs != nullptr && *outputs != '\0') {
        return backend + " (" + outputs + " outputs per pass)";
    }
    return backend;
}

std::vector<float> random_floats(std::size_t count, std::uint32_t seed) {
    std::vector<float> values(count);
    std::uint32_t state = seed;
    for (float& value : values) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        value = static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
    }
    return values;
}

double max_relative_error(const float* got, const float* expected, std::size_t count) {
    double worst = 0.0;
    for (std::size_t i = 0; i < count; ++i) {
        const double e = expected[i];
        const double error = std::fabs(got[i] - e) / std::max(1.0, std::fabs(e));
        if (std::isnan(error)) {
            return error;
        }
        worst = std::max(worst, error);
    }
    return worst;
}

std::size_t size_argument(int argc, char** argv, int index, std::size_t fallback) {
    if (argc <= index) {
        return fallback;
    }
    char* end = nullptr;
    const long long value = std::strtoll(argv[index], &end, 10);
    if (*end != '\0' || value < 1) {
        std::fprintf(stderr, "bench: argument %d (%s) must be a positive integer\n", index,
                     argv[index]);
        std::exit(2);
    }
    return static_cast<std::size_t>(value);
}

} // namespace bench
