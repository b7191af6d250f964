// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Host helpers shared by the example programs: sizes from the command line, a stopwatch, waiting
// for the backend to finish a stream, and the one-line machine-readable result that `make bench`
// collects (`result: name=... backend=... ms=...`). Kernels stay in the programs themselves; this
// is plain C++ that each program would otherwise repeat.
#pragma once

#include "brook/brook.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace example {

/// The positive integer given as argument `index`, `fallback` when there is none, and 0 when it is
/// not a number in [1, limit].
inline long count_argument(int argc, char** argv, int index, long fallback, long limit) {
    if (argc <= index) {
        return fallback;
    }
    char* end = nullptr;
    const long value = std::strtol(argv[index], &end, 10);
    return *end == '\0' && value > 0 && value <= limit ? value : 0;
}

/// The string given as argument `index`, or `fallback`.
inline std::string text_argument(int argc, char** argv, int index, const char* fallback) {
    return argc > index ? std::string(argv[index]) : std::string(fallback);
}

/// The backend BRT_RUNTIME selects, as the result line names it.
inline std::string backend_name() {
    const char* name = std::getenv("BRT_RUNTIME");
    return name != nullptr && *name != '\0' ? name : "cpu";
}

/// xorshift32: the same pseudo-random data on every run and every machine.
class Random {
public:
    explicit Random(std::uint32_t seed) : state_(seed) {}

    /// A float in [0, 1), a multiple of 2^-24.
    float uniform() {
        state_ ^= state_ << 13;
        state_ ^= state_ >> 17;
        state_ ^= state_ << 5;
        return static_cast<float>(state_ >> 8) / 16777216.0f;
    }

private:
    std::uint32_t state_;
};

/// The threads a baseline may use, the same as Brook's cpu backend: BRT_THREADS, else
/// OMP_NUM_THREADS (its first value), else every hardware thread.
inline int baseline_threads() {
    for (const char* variable : {"BRT_THREADS", "OMP_NUM_THREADS"}) {
        if (const char* text = std::getenv(variable); text != nullptr && std::atoi(text) > 0) {
            return std::atoi(text);
        }
    }
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

/// How long `run` takes, in milliseconds.
template <class Run> double time_ms(Run&& run) {
    const auto start = std::chrono::steady_clock::now();
    run();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

inline double median_of(std::vector<double> times) {
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

/// How many timed runs a median takes: `wanted`, or as few as BROOK_EXAMPLE_RUNS says. The tests
/// set 1: they check the results, and the time of a run on the cuda emulation, under a sanitizer
/// or beside other tests means nothing (tonemap's 22 runs of its reduction took 25 s of its test
/// on the emulation).
inline int timed_runs(int wanted) {
    if (const char* text = std::getenv("BROOK_EXAMPLE_RUNS"); text != nullptr) {
        const int most = std::atoi(text);
        return most > 0 ? std::min(wanted, most) : wanted;
    }
    return wanted;
}

/// The median of `runs` timings of `run` (milliseconds), after one untimed run that warms caches,
/// pages and plans: how a baseline's expert user would time it. `setup` runs untimed before
/// each run (a sort's fresh copy of its input).
template <class Setup, class Run> double median_ms(int runs, Setup&& setup, Run&& run) {
    setup();
    run();
    std::vector<double> times;
    runs = timed_runs(runs);
    for (int i = 0; i < runs; ++i) {
        setup();
        times.push_back(time_ms(run));
    }
    return median_of(std::move(times));
}

template <class Run> double median_ms(int runs, Run&& run) {
    return median_ms(
        runs, [] {}, run);
}

/// The medians of `runs` timings each of `first` and `second` (milliseconds), taken in turn,
/// each going first every other time (first second, second first, ...) so that each follows
/// itself and the other equally often, after one untimed run of each: for two computations of
/// a fraction of a millisecond whose speed on a virtual machine depends on what ran just
/// before. Timed one block after another, the first parallel loop after a stretch of one-thread
/// work took 1.3-2.2x as long as the same loop timed again later (tonemap's max, 2 threads).
template <class First, class Second>
std::pair<double, double> median_ms_side_by_side(int runs, First&& first, Second&& second) {
    first();
    second();
    std::vector<double> first_times;
    std::vector<double> second_times;
    runs = timed_runs(runs);
    for (int i = 0; i < runs; ++i) {
        if (i % 2 == 0) {
            first_times.push_back(time_ms(first));
            second_times.push_back(time_ms(second));
        } else {
            second_times.push_back(time_ms(second));
            first_times.push_back(time_ms(first));
        }
    }
    return {median_of(std::move(first_times)), median_of(std::move(second_times))};
}

/// Returns once the backend has finished computing `s`. A GPU backend queues kernel passes and
/// returns at once; reading back one element waits for them without timing a whole transfer,
/// which the paper's figures exclude.
inline void wait_for(const brook::stream& s) {
    unsigned char element[256];
    if (s.element_type().size > sizeof element) {
        return;
    }
    switch (s.rank()) {
    case 1:
        brook::streamWrite(s.domain(0, 1), element);
        break;
    case 2:
        brook::streamWrite(s.domain(int2(0, 0), int2(1, 1)), element);
        break;
    case 3:
        brook::streamWrite(s.domain(int3(0, 0, 0), int3(1, 1, 1)), element);
        break;
    default:
        brook::streamWrite(s.domain(int4(0, 0, 0, 0), int4(1, 1, 1, 1)), element);
        break;
    }
}

} // namespace example
