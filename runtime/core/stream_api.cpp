// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// BrookGPU's C++ stream interface (COMPAT.md 2.3) over the runtime's streams: the constructors
// from field lists and extent arrays, the member forms of streamRead/streamWrite/streamSwap,
// the StreamInfo getters behind `->` (the StreamImpl itself) and the iterator object. Each one
// checks what it is given and hands over to the functions of core/stream.cpp.
#include "core/errors.hpp"
#include "core/stream_impl.hpp"
#include "core/stream_type.hpp"

#include "brook/gather_argument.hpp"
#include "brook/stream.hpp"

#include <string>
#include <vector>

namespace brook {

using detail::fatal;

namespace {

/// The extents before the -1 that ends them in `values` (BrookGPU's variadic form); stops with a
/// message naming `what` when there are more than four or no -1.
std::vector<long long> extents_until_minus_one(std::span<const long long> values,
                                               const char* what) {
    std::vector<long long> extents;
    for (const long long value : values) {
        if (value == -1) {
            return extents;
        }
        if (extents.size() == 4) {
            break;
        }
        extents.push_back(value);
    }
    fatal(std::string(what) + ": the extents (1 to 4 of them) must be followed by -1");
}

/// What `->` on an empty handle reaches: no stream, so each getter reports the empty handle at
/// the getter's call (operator-> itself has no parameter to take a location by).
class EmptyStream final : public StreamInfo {};
EmptyStream empty_stream;

/// The stream behind `s`, which `getter` (called at `where`) reads.
const detail::StreamImpl& impl_of(const StreamInfo& s, const char* getter,
                                  const std::source_location& where) {
    if (&s == &empty_stream) {
        const detail::CallSite site(where);
        fatal(std::string("stream->") + getter +
              "(): the stream handle is empty (no stream was assigned to it)");
    }
    return static_cast<const detail::StreamImpl&>(s);
}

/// A handle sharing the stream behind `s`, for `method` called at `where`.
stream handle_of(const StreamInfo& s, const char* method, const std::source_location& where) {
    return stream(
        std::const_pointer_cast<detail::StreamImpl>(impl_of(s, method, where).shared_from_this()));
}

} // namespace

stream stream::from_field_list(const StreamType* fields, std::span<const long long> values,
                               const std::source_location& where) {
    const detail::CallSite site(where);
    const std::vector<long long> extents = extents_until_minus_one(values, "brook::stream");
    return stream(detail::element_type_of(fields, "brook::stream"), extents);
}

stream::stream(const unsigned* extents, unsigned dims, const StreamType* fields, bool /*read_only*/,
               std::source_location where) {
    const detail::CallSite site(where);
    if (extents == nullptr && dims > 0) {
        fatal("brook::stream: the extents pointer is null");
    }
    const std::vector<long long> values(extents, extents + dims);
    *this = stream(detail::element_type_of(fields, "brook::stream"), values);
}

void stream::read(const void* data, std::source_location where) const {
    // A stream of Brook+'s error model (.br code that asks for errors) records a failed copy.
    if (valid() && impl_->records_call_errors()) {
        const char* no_flags = nullptr;
        read(data, no_flags);
        return;
    }
    streamRead(*this, data, where);
}

void stream::write(void* data, std::source_location where) const {
    if (valid() && impl_->records_call_errors()) {
        const char* no_flags = nullptr;
        write(data, no_flags);
        return;
    }
    streamWrite(*this, data, where);
}

void stream::swap(stream& other) {
    streamSwap(*this, other);
}

stream::operator StreamInfo*() const {
    return impl_.get();
}

StreamInfo* stream::operator->() const {
    if (!valid()) {
        return &empty_stream;
    }
    return impl_.get();
}

const unsigned* StreamInfo::getExtents(std::source_location where) const {
    const detail::Region& region = impl_of(*this, "getExtents", where).region();
    for (int d = 0; d < region.rank; ++d) {
        extents_[d] = static_cast<unsigned>(region.extents[static_cast<std::size_t>(d)]);
    }
    return extents_;
}

unsigned StreamInfo::getDimension(std::source_location where) const {
    return static_cast<unsigned>(impl_of(*this, "getDimension", where).region().rank);
}

unsigned StreamInfo::getTotalSize(std::source_location where) const {
    return static_cast<unsigned>(impl_of(*this, "getTotalSize", where).region().count());
}

unsigned StreamInfo::getFieldCount(std::source_location where) const {
    return static_cast<unsigned>(impl_of(*this, "getFieldCount", where).type().fields.size());
}

StreamType StreamInfo::getIndexedFieldType(unsigned i, std::source_location where) const {
    const ElementType& type = impl_of(*this, "getIndexedFieldType", where).type();
    if (i >= type.fields.size()) {
        const detail::CallSite site(where);
        fatal("Stream::getIndexedFieldType: field " + std::to_string(i) + " of " + type.name +
              ", which has " + std::to_string(type.fields.size()) + " field(s)");
    }
    return detail::stream_type_of(type.fields[i]);
}

unsigned StreamInfo::getElementSize(std::source_location where) const {
    return static_cast<unsigned>(impl_of(*this, "getElementSize", where).type().size);
}

void StreamInfo::Read(const void* data, std::source_location where) {
    streamRead(handle_of(*this, "Read", where), data, where);
}

void StreamInfo::Write(void* data, std::source_location where) const {
    streamWrite(handle_of(*this, "Write", where), data, where);
}

stream iter::from_values(StreamType type, std::initializer_list<double> values,
                         const std::source_location& where) {
    const detail::CallSite site(where);
    if (type < __BRTFLOAT || type > __BRTFLOAT4) {
        fatal("brook::iter: the type is " + std::to_string(static_cast<int>(type)) +
              ", but an iterator holds __BRTFLOAT, __BRTFLOAT2, __BRTFLOAT3 or __BRTFLOAT4");
    }
    std::vector<long long> whole;
    for (const double value : values) {
        whole.push_back(static_cast<long long>(value));
    }
    const std::vector<long long> extents = extents_until_minus_one(whole, "brook::iter");
    const auto components = static_cast<std::size_t>(type - __BRTFLOAT + 1);
    const std::size_t first = extents.size() + 1;
    if (values.size() < first + 2 * components) {
        fatal("brook::iter: after the -1 that ends the extents come " + std::to_string(components) +
              " start and " + std::to_string(components) + " end values; " +
              std::to_string(values.size() - first) + " were given");
    }
    std::vector<float> bounds;
    for (std::size_t i = first; i < first + 2 * components; ++i) {
        bounds.push_back(static_cast<float>(values.begin()[i]));
    }
    const std::span<const float> all(bounds);
    const StreamType fields[] = {type, __BRTNONE};
    return make_iterator_stream(detail::element_type_of(fields, "brook::iter"), extents,
                                all.first(components), all.last(components), where);
}

namespace detail {

stream constant_buffer(const ElementType& type, std::span<const long long> extents,
                       const void* values, std::source_location where) {
    stream made(type, extents, where);
    streamRead(made, values, where);
    return made;
}

} // namespace detail

} // namespace brook
