// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The runtime operations behind Brook+'s brook::Stream<T> (brook/brookplus_stream.hpp): each is
// the host API call BrookGPU programs make, run with errors thrown instead of stopping the
// program, and recorded on the stream with Brook+'s code.

#include "core/errors.hpp"

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
    recording(errors, BR_ERROR_READ, [&] { streamRead(s, data); });
}

void StreamOperations::write(const stream& s, void* data, ErrorRecord& errors) {
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
