// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The profile behind BRT_PROFILE (core/profiler.hpp). Spans from any thread are added under one
// mutex to per-row totals (and, for a trace, kept whole); the report is written at exit, by an
// atexit handler registered as the first backend starts, so it runs after every backend has
// stopped and needs none.
#include "core/profiler.hpp"

#include "core/errors.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace brook::detail {

namespace {

using Clock = std::chrono::steady_clock;

/// The Activity column of the table and the category ("cat") of a trace event.
const char* activity_word(Activity activity) {
    switch (activity) {
    case Activity::Kernel:
        return "kernel";
    case Activity::Reduce:
        return "reduce";
    case Activity::Compile:
        return "compile";
    case Activity::StreamRead:
    case Activity::StreamWrite:
        return "copy";
    }
    return "?";
}

struct Totals {
    std::size_t calls = 0;
    Clock::duration time{};
    std::size_t elements = 0;
    std::size_t bytes = 0;
};

/// One recorded span, for a trace.
struct Span {
    Activity activity;
    std::string name;
    Clock::time_point start;
    Clock::duration length;
    std::size_t elements;
    std::size_t bytes;
    unsigned thread;
};

using RowKey = std::pair<Activity, std::string>;

struct Profile {
    std::mutex mutex;
    std::map<RowKey, Totals> rows;
    /// Set for BRT_PROFILE=FILE.json: the file (created when profiling starts, so that a wrong
    /// path stops the program at once) and every span.
    std::string trace_path;
    std::ofstream trace;
    std::vector<Span> spans;
    Clock::time_point origin = Clock::now();
};

Profile& the_profile() {
    static Profile instance;
    return instance;
}

/// Trace events name threads by small numbers, in the order they first recorded a span.
unsigned this_thread_number() {
    static std::atomic<unsigned> next{1};
    thread_local const unsigned number = next++;
    return number;
}

/// The compilation time recorded on this thread (see ProfileTimer::record).
thread_local Clock::duration compiling_on_this_thread{};

double milliseconds(Clock::duration time) {
    return std::chrono::duration<double, std::milli>(time).count();
}

double microseconds(Clock::duration time) {
    return std::chrono::duration<double, std::micro>(time).count();
}

/// "37.27", "<0.01", or "-" when nothing was moved or no time passed.
std::string gigabytes_per_second(std::size_t bytes, Clock::duration time) {
    const double seconds = std::chrono::duration<double>(time).count();
    if (bytes == 0 || seconds <= 0.0) {
        return "-";
    }
    const double rate = static_cast<double>(bytes) / seconds / 1e9;
    if (rate < 0.01) {
        return "<0.01";
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", rate);
    return text;
}

/// The Elements column: "-" for compilation, which covers none.
std::string elements_column(Activity activity, std::size_t elements) {
    return activity == Activity::Compile ? "-" : std::to_string(elements);
}

/// One row per activity and name, the longest total first.
void print_table(const Profile& profile) {
    std::vector<std::pair<RowKey, Totals>> rows(profile.rows.begin(), profile.rows.end());
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& a, const auto& b) { return a.second.time > b.second.time; });
    Clock::duration all{};
    for (const auto& row : rows) {
        all += row.second.time;
    }
    std::fflush(stdout);
    if (rows.empty()) {
        std::fprintf(stderr, "brook: profile: no kernel ran and no stream was copied\n");
        return;
    }
    std::fprintf(stderr, "brook: profile, %.3f ms in all\n", milliseconds(all));
    std::fprintf(stderr, "%8s %11s %8s %11s %13s %9s  %-8s %s\n", "Time(%)", "Total(ms)", "Calls",
                 "Mean(us)", "Elements", "GB/s", "Activity", "Name");
    for (const auto& [key, totals] : rows) {
        const double share = all.count() > 0 ? 100.0 * static_cast<double>(totals.time.count()) /
                                                   static_cast<double>(all.count())
                                             : 0.0;
        std::fprintf(stderr, "%7.2f%% %11.3f %8zu %11.3f %13s %9s  %-8s %s\n", share,
                     milliseconds(totals.time), totals.calls,
                     microseconds(totals.time) / static_cast<double>(totals.calls),
                     elements_column(key.first, totals.elements).c_str(),
                     gigabytes_per_second(totals.bytes, totals.time).c_str(),
                     activity_word(key.first), key.second.c_str());
    }
}

/// `text` as a JSON string.
std::string json_string(std::string_view text) {
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            quoted += '\\';
            quoted += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char escape[8];
            std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(c));
            quoted += escape;
        } else {
            quoted += c;
        }
    }
    return quoted + "\"";
}

/// The Trace Event Format's JSON object form: complete ("X") events with times in microseconds
/// from the start of profiling, one pid for the process and a tid per thread.
void write_trace(Profile& profile) {
    const long pid = static_cast<long>(getpid());
    std::ofstream& out = profile.trace;
    out << "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
    out << "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" << pid
        << ",\"tid\":0,\"args\":{\"name\":\"brook\"}}";
    char times[64];
    for (const Span& span : profile.spans) {
        std::snprintf(times, sizeof times, "\"ts\":%.3f,\"dur\":%.3f",
                      microseconds(span.start - profile.origin), microseconds(span.length));
        out << ",\n{\"name\":" << json_string(span.name) << ",\"cat\":\""
            << activity_word(span.activity) << "\",\"ph\":\"X\",\"pid\":" << pid
            << ",\"tid\":" << span.thread << "," << times
            << ",\"args\":{\"elements\":" << span.elements << ",\"bytes\":" << span.bytes << "}}";
    }
    out << "\n]}\n";
    out.flush();
    std::fflush(stdout);
    if (!out) {
        std::fprintf(stderr, "brook: warning: BRT_PROFILE=%s: the trace could not be written\n",
                     profile.trace_path.c_str());
        return;
    }
    std::fprintf(stderr, "brook: profile: %zu spans written to %s (open it in ui.perfetto.dev)\n",
                 profile.spans.size(), profile.trace_path.c_str());
}

void report_profile() {
    Profile& profile = the_profile();
    const std::lock_guard lock(profile.mutex);
    if (profile.trace.is_open()) {
        write_trace(profile);
    } else {
        print_table(profile);
    }
}

} // namespace

bool profile_enabled = false;

void read_profile_setting() {
    const char* value = std::getenv("BRT_PROFILE");
    const std::string setting = value != nullptr ? value : "";
    if (setting.empty() || setting == "0") {
        return;
    }
    // Made before the handler is registered, so that it outlives the report.
    Profile& profile = the_profile();
    if (setting.ends_with(".json")) {
        profile.trace.open(setting, std::ios::out | std::ios::trunc);
        if (!profile.trace) {
            fatal("BRT_PROFILE=" + setting + ": cannot create the trace file (" +
                  std::strerror(errno) + "); name a FILE.json in a folder that can be written");
        }
        profile.trace_path = setting;
    } else if (setting != "1") {
        fatal("BRT_PROFILE=" + setting +
              " is not a setting: use 1 (a table of the kernels at exit) or FILE.json (a Chrome "
              "trace-event file), or 0 for none");
    }
    std::atexit(report_profile);
    profile_enabled = true;
}

void ProfileTimer::start() {
    start_ = Clock::now();
    compiling_before_ = compiling_on_this_thread;
}

void ProfileTimer::record(Activity activity, std::string_view name, std::size_t elements,
                          std::size_t bytes) const {
    const Clock::duration length = Clock::now() - start_;
    Clock::duration own = length;
    if (activity == Activity::Compile) {
        compiling_on_this_thread += length;
    } else {
        own -= compiling_on_this_thread - compiling_before_;
    }
    Profile& profile = the_profile();
    const std::lock_guard lock(profile.mutex);
    Totals& totals = profile.rows[{activity, std::string(name)}];
    ++totals.calls;
    totals.time += own;
    totals.elements += elements;
    totals.bytes += bytes;
    if (profile.trace.is_open()) {
        profile.spans.push_back(
            {activity, std::string(name), start_, length, elements, bytes, this_thread_number()});
    }
}

} // namespace brook::detail
