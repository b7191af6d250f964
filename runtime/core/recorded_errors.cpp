// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Brook+'s error model (brook/recorded_errors.hpp): the error records streams carry, and the
// kernel calls that fill them instead of stopping the program.

#include "core/recorded_errors.hpp"

#include "core/launch.hpp"
#include "core/stream_impl.hpp"

#include <cstdio>
#include <cstdlib>

namespace brook::detail {

namespace {

/// A kernel object's call is running on this thread (RecordingCallErrors).
thread_local bool recording_on_this_thread = false;

bool verbose() {
    static const bool on = [] {
        const char* value = std::getenv("BRT_VERBOSE");
        return value != nullptr && value[0] != '\0' && value[0] != '0';
    }();
    return on;
}

/// The stream behind `handle`, or nullptr for a missing or empty handle.
const StreamImpl* impl_of(const stream* handle) {
    return handle != nullptr && handle->valid() ? handle->impl().get() : nullptr;
}

/// Every stream the call takes, inputs and outputs.
template <class Visit> void for_each_stream(std::span<const KernelArg> args, Visit visit) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        for (const stream* handle :
             {args[i].stream_arg, static_cast<const stream*>(args[i].output)}) {
            if (const StreamImpl* impl = impl_of(handle)) {
                visit(i, *impl, handle == args[i].output);
            }
        }
    }
}

} // namespace

void ErrorRecord::record(BRerror code, const std::string& line) {
    if (verbose()) {
        std::fprintf(stderr, "brook: recorded error %d: %s\n", static_cast<int>(code),
                     line.c_str());
    }
    const std::lock_guard lock(mutex_);
    if (code_ == BR_NO_ERROR) {
        code_ = code;
    }
    log_ += line;
    log_ += '\n';
}

BRerror ErrorRecord::take_code() {
    const std::lock_guard lock(mutex_);
    const BRerror code = code_;
    code_ = BR_NO_ERROR;
    return code;
}

BRerror ErrorRecord::code() const {
    const std::lock_guard lock(mutex_);
    return code_;
}

const char* ErrorRecord::take_log() {
    const std::lock_guard lock(mutex_);
    taken_log_ = std::move(log_);
    log_.clear();
    return taken_log_.c_str();
}

std::shared_ptr<ErrorRecord> error_record(const stream& s) {
    return checked_impl(s, "error_record").errors();
}

void record_call_errors(const stream& s) {
    s.impl()->record_call_errors();
}

RecordingCallErrors::RecordingCallErrors() noexcept : was_recording_(recording_on_this_thread) {
    recording_on_this_thread = true;
}

RecordingCallErrors::~RecordingCallErrors() {
    recording_on_this_thread = was_recording_;
}

bool records_call_errors(std::span<const KernelArg> args) {
    bool records = recording_on_this_thread;
    for_each_stream(args, [&](std::size_t, const StreamImpl& impl, bool) {
        records = records || impl.records_call_errors();
    });
    return records;
}

std::vector<std::shared_ptr<ErrorRecord>> output_records(std::span<const KernelArg> args) {
    std::vector<std::shared_ptr<ErrorRecord>> outputs;
    for_each_stream(args, [&](std::size_t, const StreamImpl& impl, bool output) {
        if (output) {
            outputs.push_back(impl.errors());
        }
    });
    return outputs;
}

void carry_input_errors(const KernelInfo& kernel, std::span<const KernelArg> args,
                        std::span<const std::shared_ptr<ErrorRecord>> outputs) {
    for_each_stream(args, [&](std::size_t param, const StreamImpl& impl, bool output) {
        const BRerror code = impl.errors()->code();
        if (output || code == BR_NO_ERROR) {
            return;
        }
        const std::string line = call_label(kernel) + ": argument '" +
                                 std::string(kernel.params[param].name) + "' is in error (code " +
                                 std::to_string(static_cast<int>(code)) + ")";
        for (const std::shared_ptr<ErrorRecord>& record : outputs) {
            record->record(code, line);
        }
    });
}

void record_call_failure(std::span<const std::shared_ptr<ErrorRecord>> outputs,
                         const error& failure) {
    // A misused argument is the caller's invalid parameter; a kernel the backend cannot run,
    // not supported; the rest, the kernel's failure.
    BRerror code = BR_ERROR_INVALID_PARAMATER;
    if (dynamic_cast<const NotSupported*>(&failure) != nullptr)
        code = BR_ERROR_NOT_SUPPORTED;
    else if (dynamic_cast<const KernelFailure*>(&failure) != nullptr)
        code = BR_ERROR_KERNEL;
    if (outputs.empty() && verbose()) {
        std::fprintf(stderr, "brook: recorded error %d: %s\n", static_cast<int>(code),
                     failure.what());
    }
    for (const std::shared_ptr<ErrorRecord>& record : outputs) {
        record->record(code, failure.what());
    }
}

} // namespace brook::detail
