// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Brook+'s C++ stream class, brook::Stream<Value> (BROOKPLUS.md §2), over the runtime's streams:
//
//   unsigned int dims[2] = {w, h};           // extents fastest first: the .br's `float s<h, w>`
//   brook::Stream<float> a(2, dims), r(2, dims);
//   a.read(in); twice(a, r); r.write(out);   // a kernel object of brcc's -h header
//   if (r.error() != brook::BR_NO_ERROR) { std::puts(r.errorLog()); }
//
// A Stream<Value> is a handle: copies share the stream (and its error state); a domain view shares
// the storage and has its own error state. Nothing here stops the program: each operation
// records its error on the stream (brook/recorded_errors.hpp) and returns, and kernel calls
// taking a Stream<Value> record theirs on their outputs. A Stream<Value> converts to brook::stream,
// so BrookGPU's host API (streamPrint, streamSize, the kernel stubs) takes it too.

#include "brook/brookplus_device.hpp"
#include "brook/gather_argument.hpp"
#include "brook/recorded_errors.hpp"
#include "brook/stream.hpp"
#include "brook/vector.hpp"

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace brook {

namespace detail {

/// The runtime operations behind Stream<Value>; each records its error on `errors` and reports
/// whether it succeeded.
struct StreamOperations {
    /// A stream of `type` with Brook+'s `rank` extents `dims`, fastest first, made to record
    /// its calls' errors; an empty handle, with the error recorded, when it cannot be made.
    static stream create(const ElementType& type, unsigned rank, const unsigned* dims,
                         ErrorRecord& errors);
    static void read(const stream& s, const void* data, ErrorRecord& errors);
    static void write(const stream& s, void* data, ErrorRecord& errors);
    /// The view [start, end) of `s`, `rank` bounds each, fastest first; on a bad bound, the
    /// parent's `errors` record it and the result is empty.
    static stream domain(const stream& s, const int* start, const int* end, int rank,
                         ErrorRecord& errors);
    /// `s` with an execution domain of its first `n` elements (StreamImpl::execution_elements):
    /// 1-D and 0 < n <= its extent, else `errors` record BR_ERROR_INVALID_PARAMATER and the
    /// result is empty.
    static stream exec_domain(const stream& s, int n, ErrorRecord& errors);
    /// Copies `source`'s elements into `target` (same shape, any backends).
    static void assign(const stream& target, const stream& source, ErrorRecord& errors);
    /// The device `s` lives on, with 1 in `*count`; NULL and 0 where its backend is not a device
    /// (mpi, record) or the handle is empty.
    static Device* device_of(const stream& s, unsigned int* count);
    /// Waits for the calling thread's work.
    static void finish();
};

} // namespace detail

/// Brook+'s stream of T elements, T one of float, int, uint, char, uchar, short, ushort, their
/// vectors, double, double2, or a struct typedef of a .br file.
template <class Value> class Stream {
public:
    /// The element type.
    using value_type = Value;

    /// An empty stream (every use records an error), to assign a stream to.
    Stream() : errors_(std::make_shared<detail::ErrorRecord>()) {}

    /// A stream of `rank` (1 to 4) extents `dims`, the fastest first: `Stream<float>(2, {w, h})`
    /// is the .br's `float s<h, w>`. When it cannot be made the stream records
    /// BR_ERROR_DECLARATION and is empty.
    Stream(unsigned short rank, const unsigned int* dims) {
        detail::ErrorRecord errors;
        handle_ =
            detail::StreamOperations::create(element_traits<Value>::type(), rank, dims, errors);
        adopt(errors);
    }
    /// Brook+'s Direct3D-shared streams: none here, so the stream records BR_ERROR_DECLARATION.
    Stream(unsigned short rank, const unsigned int* dims, const char* interop)
        : errors_(std::make_shared<detail::ErrorRecord>()) {
        (void)rank;
        (void)dims;
        errors_->record(BR_ERROR_DECLARATION,
                        std::string("Stream: no ") + (interop != nullptr ? interop : "(null)") +
                            " interoperability here; make the stream without it");
    }
    /// The stream behind a runtime handle (what `float s<h, w>;` in a .br file makes); an element
    /// type other than T records BR_ERROR_DECLARATION.
    explicit Stream(const stream& s) : handle_(s) {
        if (!s.valid()) {
            errors_ = std::make_shared<detail::ErrorRecord>();
            errors_->record(BR_ERROR_DECLARATION, "Stream: the stream handle is empty");
            return;
        }
        errors_ = detail::error_record(s);
        if (!(s.element_type() == element_traits<Value>::type())) {
            errors_->record(BR_ERROR_DECLARATION, "Stream<" + element_traits<Value>::type().name +
                                                      ">: the stream holds " +
                                                      s.element_type().name + " elements");
            handle_ = stream();
            return;
        }
        detail::record_call_errors(s);
    }

    /// The runtime handle sharing the stream (empty when the stream could not be made).
    operator stream() const { return handle_; } // NOLINT(google-explicit-constructor)
    /// The same, by name.
    const stream& handle() const { return handle_; }

    /// Copies the whole stream (a view: its region) from host memory laid out as for
    /// streamRead, `p` trusted to hold it. NULL records BR_ERROR_READ. `flags` ("async",
    /// "nocopy", others ignored) change nothing here: the copy is made before read returns.
    void read(const void* p, const char* flags = nullptr) const {
        (void)flags;
        detail::StreamOperations::read(handle_, p, *errors_);
    }
    /// Copies the whole stream out to host memory; as read, with BR_ERROR_WRITE. "async" writes
    /// are complete when write returns, so isSync() is then true.
    void write(void* p, const char* flags = nullptr) const {
        (void)flags;
        detail::StreamOperations::write(handle_, p, *errors_);
    }
    /// True when no read, write or kernel call involving the stream is outstanding: it waits
    /// for the calling thread's work, after which none is.
    bool isSync() const {
        detail::StreamOperations::finish();
        return true;
    }
    /// Waits for the reads, writes and kernel calls involving the stream.
    void finish() const { detail::StreamOperations::finish(); }

    /// A view of [start, end), `rank` bounds each, fastest first, sharing the storage (writes
    /// reach this stream at once). A bound past the stream or start > end: this stream records
    /// BR_ERROR_INVALID_PARAMATER and the view is invalid (its error() is that code).
    Stream domain(const unsigned int* start, const unsigned int* end) const {
        if (!handle_.valid()) {
            return invalid_view();
        }
        return adopt_view(handle_.domain(start, end));
    }
    /// The same with int bounds, `.x` the fastest: int for 1-D streams, int2..int4 for 2-D to
    /// 4-D.
    ///@{
    Stream domain(int start, int end) const { return view(&start, &end, 1); }
    Stream domain(int2 start, int2 end) const { return view(start, end, 2); }
    Stream domain(int3 start, int3 end) const { return view(start, end, 3); }
    Stream domain(int4 start, int4 end) const { return view(start, end, 4); }
    ///@}

    /// This stream with an execution domain of its first `n` elements: as an output (the
    /// first of a call) only they are written. The result shares the storage and the error
    /// state. n <= 0, n past the extent or a stream of rank above 1: this stream records
    /// BR_ERROR_INVALID_PARAMATER and the result is invalid.
    Stream execDomain(int n) const {
        if (!handle_.valid()) {
            return invalid_view();
        }
        return adopt_view(handle_.execDomain(n));
    }

    /// The device the stream lives on, `*count` = 1 (NULL and 0 on a backend that is no device:
    /// mpi, record).
    Device* getDevices(unsigned int* count) const { return handle_.getDevices(count); }

    /// Copies `source`'s elements into this stream: same rank and extents, else this stream
    /// records BR_ERROR_INVALID_PARAMATER. `source` may live on another backend.
    void assign(const Stream& source) const {
        detail::StreamOperations::assign(handle_, source.handle_, *errors_);
    }

    /// The stream's error code, BR_NO_ERROR when none, after its work is done; the code is
    /// reset.
    BRerror error() {
        detail::StreamOperations::finish();
        return errors_->take_code();
    }
    /// The lines recorded since the last call, "" when none; valid until the next call.
    const char* errorLog() { return errors_->take_log(); }

private:
    Stream(stream handle, std::shared_ptr<detail::ErrorRecord> errors)
        : handle_(std::move(handle)), errors_(std::move(errors)) {}

    /// Takes over the record of a construction: the stream's own when it was made.
    void adopt(detail::ErrorRecord& construction) {
        errors_ = handle_.valid() ? detail::error_record(handle_)
                                  : std::make_shared<detail::ErrorRecord>();
        if (const BRerror code = construction.take_code(); code != BR_NO_ERROR) {
            errors_->record(code, strip_newline(construction.take_log()));
        }
    }

    static std::string strip_newline(std::string text) {
        if (!text.empty() && text.back() == '\n') {
            text.pop_back();
        }
        return text;
    }

    Stream view(const int* start, const int* end, int rank) const {
        if (!handle_.valid()) {
            return invalid_view();
        }
        return adopt_view(detail::StreamOperations::domain(handle_, start, end, rank, *errors_));
    }

    /// The Stream of a view this stream's record made (errors recorded there, as `handle_`'s
    /// own record is errors_), or an invalid one when it could not be made.
    Stream adopt_view(const stream& result) const {
        if (!result.valid()) {
            return invalid_view();
        }
        return Stream(result, detail::error_record(result));
    }

    Stream invalid_view() const {
        auto errors = std::make_shared<detail::ErrorRecord>();
        errors->record(BR_ERROR_INVALID_PARAMATER, "Stream: the view is invalid");
        return Stream(stream(), std::move(errors));
    }

    stream handle_;
    std::shared_ptr<detail::ErrorRecord> errors_;
};

/// Brook+'s free functions on Stream<Value>: s.read(p), s.write(p).
///@{
template <class Value> void streamRead(const Stream<Value>& s, const void* p) {
    s.read(p);
}
template <class Value> void streamWrite(const Stream<Value>& s, void* p) {
    s.write(p);
}
///@}

/// A stream argument of a kernel object whose parameter holds Element: a Stream<Value> of those
/// elements (another element type does not compile) or a runtime handle, checked at the call.
template <class Element> class StreamArgument {
public:
    /// A Brook+ stream of these elements.
    template <class Given>
    requires detail::same_element_v<Element, Given>
    StreamArgument(const Stream<Given>& s) // NOLINT(google-explicit-constructor)
        : handle_(s.handle()) {}
    /// A runtime handle, whose element type the call checks.
    StreamArgument(const stream& s) : handle_(s) {} // NOLINT(google-explicit-constructor)

    /// The handle, which a variable output's call resizes in place.
    stream& handle() { return handle_; }

private:
    stream handle_;
};

} // namespace brook
