// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The benchmark harness every program in bench/ uses. A Comparison holds one case (a benchmark at
// one size on the current backend) and its variants: the Brook version(s) and the baselines. It
// runs them interleaved, sample by sample, after a warm-up, so that a machine that is busier for
// a moment slows every variant alike; each variant should read its own copy of its inputs, since
// an array two variants read stays in the cache more than one read by a single variant would. It
// checks every variant's result against its reference
// before and after timing, and prints one row per variant: median time per call, the min-max
// spread and the ratio baseline/Brook. Rows are also appended, tab-separated, to the file named by
// BROOK_BENCH_RESULTS, which bench/run_bench.py turns into the tables and plots.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace brook {
class stream;
}

namespace bench {

/// Brook versions are what is measured; baselines what they are measured against. The first
/// baseline added is the CPU reference that Figure 3 normalises to.
enum class Kind { brook, baseline };

struct Variant {
    std::string name;
    Kind kind = Kind::brook;
    /// One call of the computation; timed.
    std::function<void()> call;
    /// The largest error of the variant's result against the reference; a result that is off by
    /// more than `tolerance` (or NaN) stops the program.
    std::function<double()> error;
    double tolerance = 1e-5;
    /// Waits for work `call` left running (a GPU's queue); timed, once per sample.
    std::function<void()> finish = {};
    /// Untimed, around each sample: make a variant's own GL context current and restore the
    /// previous one afterwards.
    std::function<void()> enter = {};
    std::function<void()> leave = {};
};

/// What one call does, for throughput columns: bytes moved to and from memory, and floating-point
/// operations. Zero means "not meaningful here".
struct Work {
    double bytes = 0.0;
    double flops = 0.0;
};

/// Median, fastest and slowest time per call of one variant, in seconds.
struct Timing {
    double median = 0.0;
    double min = 0.0;
    double max = 0.0;
};

class Comparison {
public:
    /// `benchmark` names the program's table ("saxpy"), `size` the case ("1024x1024 float4").
    Comparison(std::string benchmark, std::string size, Work work);

    void add(Variant variant);

    /// Warms up, checks, times every variant interleaved, checks again, prints and records the
    /// rows. Returns the timings in the order the variants were added.
    std::vector<Timing> run();

private:
    void check(const Variant& variant) const;
    void report(const std::vector<Timing>& timings) const;

    std::string benchmark_;
    std::string size_;
    Work work_;
    std::vector<Variant> variants_;
};

/// Appends a free-form row (a derived figure such as a knee or a model parameter) to the results
/// file and prints it: `benchmark`, `name` and the value with its unit.
void note(const std::string& benchmark, const std::string& name, double value,
          const std::string& unit);

/// A Variant::finish for Brook calls: on a backend that runs kernels asynchronously (gl, cuda)
/// brook::finish(), which waits for them; empty on cpu, whose kernels have finished when the
/// call returns.
std::function<void()> finish_queued();

/// The backend this process runs on (BRT_RUNTIME, "cpu" when unset), with the gl backend's
/// BRT_GL_MAX_OUTPUTS when set.
std::string backend_name();

/// Deterministic pseudo-random floats in [-1, 1) (xorshift32), `count` of them.
std::vector<float> random_floats(std::size_t count, std::uint32_t seed);

/// The largest |got[i] - expected[i]| relative to max(1, |expected[i]|); NaN when any value is NaN.
double max_relative_error(const float* got, const float* expected, std::size_t count);

/// A size given on the command line as argument `index`, or `fallback`; stops on a bad value.
std::size_t size_argument(int argc, char** argv, int index, std::size_t fallback);

} // namespace bench
