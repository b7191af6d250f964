// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The runtime operations behind Brook+'s brook::Stream<T> (brook/brookplus_stream.hpp): each is
// the host API call BrookGPU programs make, run with errors thrown instead of stopping the
// program, and recorded on the stream with Brook+'s code.

#include "core/errors.hpp"
#include "core/stream_impl.hpp"

#include "brook/brookplus_stream.hpp"

#include <string>
#include <vector>

namespace brook::detail {

namespace {

/// Runs `operation`; an error it reports is recorded on `errors` with `code`. True when it ran
/// without one.
template <class Operation>
bool recording(ErrorRecord& errors, BRerror code, Operation&& operation) {
    try {
        const ThrowErrorsOnThisThread throwing;
        operation();
        return true;
    } catch (const error& failure) {
        errors.record(code, failure.what());
        return false;
    }
}

/// `s`, once the program is stopped where it is an empty handle: Brook+'s `member` called on
/// a .br file's stream that holds none.
const stream& checked(const stream& s, const char* member) {
    checked_impl(s, member);
    return s;
}

} // namespace

stream StreamOperations::create(const ElementType& type, unsigned rank, const unsigned* dims,
                                ErrorRecord& errors) {
    if (rank < 1 || rank > 4 || dims == nullptr) {
        errors.record(BR_ERROR_DECLARATION,
                      "Stream: a stream has 1 to 4 dimensions, not " + std::to_string(rank) +
                          (dims == nullptr && rank >= 1 && rank <= 4 ? " with no extents" : ""));
        return stream();
    }
    // A backend that cannot start stops the program with its message, as for every program:
    // it is not an error of this stream.
    backend_name();
    // Brook+ lists extents fastest first; the runtime, slowest first.
    std::vector<long long> extents(rank);
    for (unsigned i = 0; i < rank; ++i) {
        extents[rank - 1 - i] = dims[i];
    }
    stream made;
    if (recording(errors, BR_ERROR_DECLARATION, [&] { made = stream(type, extents); })) {
        record_call_errors(made);
    }
    return made;
}

void StreamOperations::read(const stream& s, const void* data, ErrorRecord& errors) {
    if (data == nullptr) {
        errors.record(BR_ERROR_READ, "Stream::read: the host pointer is NULL");
        return;
    }
    recording(errors, BR_ERROR_READ, [&] { streamRead(s, data); });
}

void StreamOperations::write(const stream& s, void* data, ErrorRecord& errors) {
    if (data == nullptr) {
        errors.record(BR_ERROR_WRITE, "Stream::write: the host pointer is NULL");
        return;
    }
    recording(errors, BR_ERROR_WRITE, [&] { streamWrite(s, data); });
}

stream StreamOperations::domain(const stream& s, const int* start, const int* end, int rank,
                                ErrorRecord& errors) {
    stream view;
    recording(errors, BR_ERROR_INVALID_PARAMATER, [&] {
        switch (rank) {
        case 1:
            view = s.domain(start[0], end[0]);
            break;
        case 2:
            view = s.domain(int2(start[0], start[1]), int2(end[0], end[1]));
            break;
        case 3:
            view = s.domain(int3(start[0], start[1], start[2]), int3(end[0], end[1], end[2]));
            break;
        default:
            view = s.domain(int4(start[0], start[1], start[2], start[3]),
                            int4(end[0], end[1], end[2], end[3]));
            break;
        }
    });
    return view;
}

stream StreamOperations::exec_domain(const stream& s, int n, ErrorRecord& errors) {
    stream limited;
    recording(errors, BR_ERROR_INVALID_PARAMATER, [&] {
        const StreamImpl& impl = checked_impl(s, "Stream::execDomain");
        const Region& region = impl.region();
        if (region.rank != 1 || n <= 0 || static_cast<std::size_t>(n) > region.extents[0]) {
            fatal("Stream::execDomain(" + std::to_string(n) + ") of stream " + s.describe() +
                  ": an execution domain is the first n elements of a 1-D stream, 0 < n <= " +
                  "its extent");
        }
        auto view = std::make_shared<StreamImpl>(impl.backend(), impl.type(), impl.shared_storage(),
                                                 region);
        view->limit_execution(impl, static_cast<std::size_t>(n));
        limited = stream(std::move(view));
    });
    return limited;
}

void StreamOperations::assign(const stream& target, const stream& source, ErrorRecord& errors) {
    recording(errors, BR_ERROR_INVALID_PARAMATER, [&] {
        if (!source.valid() || !target.valid()) {
            fatal("Stream::assign: " + std::string(source.valid() ? "this" : "the source") +
                  " stream is invalid");
        }
        if (source.extents() != target.extents() ||
            !(source.element_type() == target.element_type())) {
            fatal("Stream::assign: the source is " + source.describe() + " but this stream is " +
                  target.describe() + "; assign copies between streams of one type and shape");
        }
        // Through host memory: the streams may live on different backends.
        std::vector<unsigned char> elements(source.size() * source.element_type().size);
        streamWrite(source, elements.data());
        streamRead(target, elements.data());
    });
}

void StreamOperations::finish() {
    brook::finish();
}

} // namespace brook::detail

namespace brook {

// Brook+'s members of a .br file's streams: Stream<T>'s operations on the stream's own record.

void stream::read(const void* data, const char* flags) const {
    (void)flags; // as Stream<T>::read: the copy is made before it returns
    detail::StreamOperations::read(*this, data,
                                   *detail::error_record(detail::checked(*this, "read")));
}

void stream::write(void* data, const char* flags) const {
    (void)flags;
    detail::StreamOperations::write(*this, data,
                                    *detail::error_record(detail::checked(*this, "write")));
}

BRerror stream::error() const {
    if (!valid()) {
        return BR_ERROR_INVALID_PARAMATER;
    }
    detail::StreamOperations::finish();
    return detail::error_record(*this)->take_code();
}

const char* stream::errorLog() const {
    if (!valid()) {
        return "the stream is invalid: a failed domain or execDomain made it\n";
    }
    return detail::error_record(*this)->take_log();
}

bool stream::isSync() const {
    detail::StreamOperations::finish();
    return true;
}

void stream::finish() const {
    detail::StreamOperations::finish();
}

stream stream::domain(const unsigned* start, const unsigned* end) const {
    const int rank = detail::checked(*this, "domain").rank();
    int lo[4] = {};
    int hi[4] = {};
    for (int i = 0; i < rank; ++i) {
        lo[i] = static_cast<int>(start[i]);
        hi[i] = static_cast<int>(end[i]);
    }
    return detail::StreamOperations::domain(*this, lo, hi, rank, *detail::error_record(*this));
}

stream stream::execDomain(int n) const {
    return detail::StreamOperations::exec_domain(
        *this, n, *detail::error_record(detail::checked(*this, "execDomain")));
}

void stream::assign(const stream& source) const {
    detail::StreamOperations::assign(*this, source,
                                     *detail::error_record(detail::checked(*this, "assign")));
}

Device* stream::getDevices(unsigned* count) const {
    return detail::StreamOperations::device_of(*this, count);
}

} // namespace brook
