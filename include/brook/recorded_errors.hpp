// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Errors recorded on streams instead of stopping the program: Brook+'s error model
// (BROOKPLUS.md §2.4), which brook::Stream<T> (brook/brookplus_stream.hpp) exposes as error()
// and errorLog(). Each stream has an error record, shared by the handles of the stream (a domain
// view has its own). A kernel call records on every output when a stream made by Stream<T> takes
// part in it, or when it is called through a kernel object of brcc's `-h` header: the code of
// each input or gather stream in error, then the call's own failure, which the runtime throws
// instead of stopping the program. Every other call keeps stop-on-error (brook/errors.hpp).

#include "brook/stream.hpp"

#include <memory>
#include <mutex>
#include <string>

namespace brook {

/// Brook+'s error codes, in its numbering and spelling (INVALID_PARAMATER is Brook+'s).
enum BRerror : int {
    BR_NO_ERROR = 0,
    BR_ERROR_DECLARATION = 1,
    BR_ERROR_READ = 2,
    BR_ERROR_WRITE = 3,
    BR_ERROR_KERNEL = 4,
    BR_ERROR_DOMAIN = 5,
    BR_ERROR_ASSIGN = 6,
    BR_ERROR_INVALID_PARAMATER = 7,
    BR_ERROR_NOT_SUPPORTED = 8,
    BR_ERROR_WARNING = 9,
};

namespace detail {

/// A stream's error state: the first error's code, kept until taken, and a line per error.
/// Safe to use from several threads.
class ErrorRecord {
public:
    /// Records `code` (when no code is held) and appends `line` to the log; BRT_VERBOSE=1 also
    /// prints the line.
    void record(BRerror code, const std::string& line);
    /// The code held, BR_NO_ERROR when none; the code is reset.
    BRerror take_code();
    /// The code held, left as it is.
    BRerror code() const;
    /// The lines recorded since the last call, each ending in a newline; "" when none. The
    /// text stays valid until the next call of take_log on this record.
    const char* take_log();

private:
    mutable std::mutex mutex_;
    BRerror code_ = BR_NO_ERROR;
    std::string log_;
    std::string taken_log_;
};

/// The error record of the stream behind `s` (a non-empty handle).
std::shared_ptr<ErrorRecord> error_record(const stream& s);
/// Makes every kernel call that `s` (a non-empty handle), or a view of it, takes part in record
/// its errors on its outputs instead of stopping the program.
void record_call_errors(const stream& s);

/// While it lives, kernel calls made on this thread record their errors (a kernel object's
/// call).
class RecordingCallErrors {
public:
    RecordingCallErrors() noexcept;
    ~RecordingCallErrors();
    RecordingCallErrors(const RecordingCallErrors&) = delete;
    RecordingCallErrors& operator=(const RecordingCallErrors&) = delete;

private:
    bool was_recording_;
};

} // namespace detail

/// make_stream (brook/stream.hpp) for a .br file whose host code asks its streams for errors
/// (Brook+'s `s.error()`): the stream records the errors of the calls it takes part in.
template <class Element, class... Extents>
stream make_recording_stream(detail::Located<long long> first, Extents... rest) {
    stream made = make_stream<Element>(first, rest...);
    detail::record_call_errors(made);
    return made;
}

} // namespace brook
