// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Streams and the host API that moves data in and out of them. A stream handle shares one
// StreamImpl; the element data lives in backend Storage. streamRead/streamWrite hand host memory
// (the element's C++ layout) to the backend, all of a stream or (streamReadLocal/WriteLocal)
// only the rows this process holds (Backend::local_rows); streamSwap exchanges two handles, so
// the other handles of either stream keep theirs.
#include "core/backend.hpp"
#include "core/errors.hpp"
#include "core/profiler.hpp"
#include "core/registry.hpp"
#include "core/stream_impl.hpp"

#include "brook/stream.hpp"

#include <array>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace brook {

namespace detail {

Region Region::dense(int rank, const std::array<std::size_t, 4>& extents) {
    Region region;
    region.rank = rank;
    region.extents = extents;
    std::size_t stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
        region.strides[static_cast<std::size_t>(d)] = stride;
        stride *= extents[static_cast<std::size_t>(d)];
    }
    return region;
}

std::size_t Region::count() const {
    std::size_t n = 1;
    for (int d = 0; d < rank; ++d) {
        n *= extents[static_cast<std::size_t>(d)];
    }
    return n;
}

bool Region::contiguous() const {
    std::size_t stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
        const auto dim = static_cast<std::size_t>(d);
        // A dimension of extent 1 is never stepped over, so its stride does not matter.
        if (extents[dim] != 1 && strides[dim] != stride) {
            return false;
        }
        stride *= extents[dim];
    }
    return true;
}

bool Region::same_shape(const Region& other) const {
    if (rank != other.rank) {
        return false;
    }
    for (int d = 0; d < rank; ++d) {
        if (extents[static_cast<std::size_t>(d)] != other.extents[static_cast<std::size_t>(d)]) {
            return false;
        }
    }
    return true;
}

std::string describe_extents(const Region& region) {
    std::string text;
    for (int d = 0; d < region.rank; ++d) {
        if (d > 0) {
            text += ", ";
        }
        text += std::to_string(region.extents[static_cast<std::size_t>(d)]);
    }
    return text;
}

std::string describe_shape(const ElementType& type, const Region& region) {
    return type.name + "<" + describe_extents(region) + ">";
}

const StreamImpl& checked_impl(const stream& s, const std::string& what) {
    if (!s.valid()) {
        fatal(what + ": the stream handle is empty (no stream was assigned to it)");
    }
    return *s.impl();
}

namespace {

/// Records a copy `api` of `count` elements of `impl` in the profile.
void record_copy(const ProfileTimer& timer, Activity activity, const char* api,
                 const StreamImpl& impl, std::size_t count) {
    timer.record(activity, api, count, count * impl.type().size);
}

} // namespace

} // namespace detail

using detail::Activity;
using detail::checked_impl;
using detail::fatal;
using detail::ProfileTimer;
using detail::profiling;

namespace {

/// The region of a new stream of `extents` elements of `type`, and its element count; stops the
/// program, saying why, for extents no stream can have.
std::pair<detail::Region, std::size_t> new_stream_region(const ElementType& type,
                                                         std::span<const long long> extents) {
    std::string shape = type.name + "<";
    for (std::size_t d = 0; d < extents.size(); ++d) {
        shape += (d > 0 ? ", " : "") + std::to_string(extents[d]);
    }
    shape += ">";
    if (extents.empty() || extents.size() > 4) {
        fatal("cannot create stream " + shape + ": a stream has 1 to 4 dimensions, not " +
              std::to_string(extents.size()));
    }
    std::array<std::size_t, 4> dims{};
    std::size_t count = 1;
    for (std::size_t d = 0; d < extents.size(); ++d) {
        if (extents[d] < 0) {
            fatal("cannot create stream " + shape + ": extent " + std::to_string(d) + " is " +
                  std::to_string(extents[d]) + ", but an extent cannot be negative");
        }
        dims[d] = static_cast<std::size_t>(extents[d]);
        // An extent of 0 makes an empty stream (COMPAT §3.1), which every operation skips.
        if (dims[d] != 0 && count > std::numeric_limits<std::size_t>::max() / type.size / dims[d]) {
            fatal("cannot create stream " + shape + ": it is too large for memory");
        }
        count *= dims[d];
    }
    return {detail::Region::dense(static_cast<int>(extents.size()), dims), count};
}

} // namespace

stream::stream(const ElementType& type, std::span<const long long> extents,
               const std::source_location& where) {
    const detail::CallSite site(where);
    const auto [region, count] = new_stream_region(type, extents);
    detail::Backend& backend = detail::current_backend();
    impl_ =
        std::make_shared<detail::StreamImpl>(backend, type, backend.allocate(type, count), region);
}

stream stream::borrow(const ElementType& type, std::span<const long long> extents, void* host,
                      const std::source_location& where) {
    const detail::CallSite site(where);
    const auto [region, count] = new_stream_region(type, extents);
    detail::Backend& backend = detail::current_backend();
    std::unique_ptr<detail::Storage> storage = backend.borrow(type, count, host);
    if (!storage) {
        return stream();
    }
    return stream(std::make_shared<detail::StreamImpl>(backend, type, std::move(storage), region));
}

const ElementType& stream::element_type() const {
    return checked_impl(*this, "stream::element_type").type();
}

int stream::rank() const {
    return checked_impl(*this, "stream::rank").region().rank;
}

std::vector<std::size_t> stream::extents() const {
    const detail::Region& region = checked_impl(*this, "stream::extents").region();
    return {region.extents.begin(), region.extents.begin() + region.rank};
}

std::size_t stream::size() const {
    return checked_impl(*this, "stream::size").region().count();
}

std::string stream::describe() const {
    if (!valid()) {
        return "an empty stream handle";
    }
    return detail::describe_shape(impl_->type(), impl_->region());
}

stream stream::domain(int lo, int hi, std::source_location where) const {
    return domain_view(&lo, &hi, 1, where);
}
stream stream::domain(int2 lo, int2 hi, std::source_location where) const {
    const int l[] = {lo.x, lo.y};
    const int h[] = {hi.x, hi.y};
    return domain_view(l, h, 2, where);
}
stream stream::domain(int3 lo, int3 hi, std::source_location where) const {
    const int l[] = {lo.x, lo.y, lo.z};
    const int h[] = {hi.x, hi.y, hi.z};
    return domain_view(l, h, 3, where);
}
stream stream::domain(int4 lo, int4 hi, std::source_location where) const {
    const int l[] = {lo.x, lo.y, lo.z, lo.w};
    const int h[] = {hi.x, hi.y, hi.z, hi.w};
    return domain_view(l, h, 4, where);
}

stream stream::domain_view(const int* lo, const int* hi, int components,
                           const std::source_location& where) const {
    const detail::CallSite site(where);
    const detail::StreamImpl& impl = checked_impl(*this, "domain");
    const detail::Region& parent = impl.region();
    std::string bounds = "[";
    for (int i = 0; i < components; ++i) {
        bounds += (i > 0 ? ", " : "") + std::to_string(lo[i]);
    }
    bounds += "] to [";
    for (int i = 0; i < components; ++i) {
        bounds += (i > 0 ? ", " : "") + std::to_string(hi[i]);
    }
    bounds += ")";
    if (components != parent.rank) {
        fatal("domain of stream " + describe() + ": the bounds have " + std::to_string(components) +
              " component" + (components == 1 ? "" : "s") + " but the stream has " +
              std::to_string(parent.rank) + " dimension" + (parent.rank == 1 ? "" : "s"));
    }
    detail::Region region = parent;
    for (int i = 0; i < components; ++i) {
        const auto dim = static_cast<std::size_t>(parent.rank - 1 - i);
        const auto extent = static_cast<long long>(parent.extents[dim]);
        // lo == hi is an empty view (COMPAT §3.1): a loop's last pass may have nothing left.
        if (lo[i] < 0 || lo[i] > hi[i] || hi[i] > extent) {
            fatal("domain " + bounds + " of stream " + describe() +
                  " is reversed or outside the stream (each lower bound must be at least 0 and "
                  "at most its upper bound, which must not pass the extent)");
        }
        region.offset += static_cast<std::size_t>(lo[i]) * parent.strides[dim];
        region.extents[dim] = static_cast<std::size_t>(hi[i] - lo[i]);
    }
    auto view = std::make_shared<detail::StreamImpl>(impl.backend(), impl.type(),
                                                     impl.shared_storage(), region);
    if (impl.records_call_errors()) {
        view->record_call_errors();
    }
    return stream(std::move(view));
}

stream make_iterator_stream(const ElementType& type, std::span<const long long> extents,
                            std::span<const float> begin, std::span<const float> end,
                            const std::source_location& where) {
    const detail::CallSite site(where);
    const bool floats = type.fields.size() == 1 && type.fields[0].scalar == ScalarKind::Float32 &&
                        type.fields[0].offset == 0;
    if (!floats) {
        fatal("cannot create an iterator of " + type.name +
              ": iterators hold float, float2, float3 or float4");
    }
    const stream s(type, extents);
    const detail::Region& region = s.impl()->region();
    const int components = type.fields[0].components;
    if (region.rank > 1 && components != region.rank) {
        fatal("cannot create iterator " + s.describe() + ": a " + std::to_string(region.rank) +
              "-D iterator needs a value of " + std::to_string(region.rank) +
              " components, one per dimension");
    }
    const auto width = static_cast<std::size_t>(components);
    if (begin.size() != width || end.size() != width) {
        fatal("cannot create iterator " + s.describe() + ": its bounds have " +
              std::to_string(begin.size()) + " components");
    }
    const std::size_t count = region.count();
    std::vector<std::byte> host(count * type.size);
    for (std::size_t i = 0; i < count; ++i) {
        std::size_t rest = i;
        std::array<std::size_t, 4> coords{};
        for (int d = region.rank - 1; d >= 0; --d) {
            const auto dim = static_cast<std::size_t>(d);
            coords[dim] = rest % region.extents[dim];
            rest /= region.extents[dim];
        }
        for (std::size_t k = 0; k < width; ++k) {
            // Component k (.x first) follows dimension rank-1-k; a 1-D stream's all follow i.
            const std::size_t dim =
                region.rank == 1 ? 0 : static_cast<std::size_t>(region.rank) - 1 - k;
            const float value = begin[k] + (end[k] - begin[k]) * static_cast<float>(coords[dim]) /
                                               static_cast<float>(region.extents[dim]);
            std::memcpy(host.data() + i * type.size + k * sizeof(float), &value, sizeof value);
        }
    }
    streamRead(s, host.data(), where);
    return s;
}

namespace {

/// Which elements a host copy moves: the whole stream, or the rows this process holds.
enum class Scope : unsigned char { Whole, Local };

/// The part of `impl` a copy of `scope` moves.
detail::Region copied_region(const detail::StreamImpl& impl, Scope scope) {
    return scope == Scope::Whole ? impl.region() : detail::held_rows(impl).region;
}

/// Stops unless a host buffer of `bytes` bytes holds the `region` of `s` for `api`.
void check_buffer(const char* api, const stream& s, const detail::StreamImpl& impl,
                  const detail::Region& region, Scope scope, std::size_t bytes) {
    const std::size_t needed = region.count() * impl.type().size;
    if (bytes >= needed) {
        return;
    }
    const std::string elements = std::to_string(region.count()) + " " + impl.type().name + " of " +
                                 std::to_string(impl.type().size) + " bytes";
    if (scope == Scope::Local) {
        fatal(std::string(api) + ": the host buffer has " + std::to_string(bytes) +
              " bytes, but the rows of stream " + s.describe() + " this process holds need " +
              std::to_string(needed) + " (" + elements +
              "); size the buffer by brook::local_region(stream).elements");
    }
    fatal(std::string(api) + ": the host buffer has " + std::to_string(bytes) +
          " bytes, but stream " + s.describe() + " needs " + std::to_string(needed) + " (" +
          elements +
          "); pass a buffer that holds the whole stream, or copy a smaller domain of it");
}

/// streamRead (of the rows `scope` says) of a buffer of `bytes` bytes, or of unknown size.
void read(const char* api, const stream& s, const void* data, std::optional<std::size_t> bytes,
          Scope scope) {
    const detail::StreamImpl& impl = checked_impl(s, api);
    const detail::Region region = copied_region(impl, scope);
    if (bytes) {
        check_buffer(api, s, impl, region, scope, *bytes);
    }
    if (region.count() == 0) {
        return;
    }
    if (data == nullptr) {
        fatal(std::string(api) + ": the host pointer for stream " + s.describe() + " is null");
    }
    const ProfileTimer timer;
    // Every backend's write stores only the rows its process holds, from the host elements of
    // `region`: so a region of this process's rows reads nothing from other processes.
    impl.backend().write(impl.storage(), region, data);
    if (profiling()) [[unlikely]] {
        detail::record_copy(timer, Activity::StreamRead, api, impl, region.count());
    }
}

/// streamWrite (of the rows `scope` says) to a buffer of `bytes` bytes, or of unknown size.
void write(const char* api, const stream& s, void* data, std::optional<std::size_t> bytes,
           Scope scope) {
    const detail::StreamImpl& impl = checked_impl(s, api);
    const detail::Region region = copied_region(impl, scope);
    if (bytes) {
        check_buffer(api, s, impl, region, scope, *bytes);
    }
    // An empty stream (a variable output that received nothing) has nothing to copy.
    if (region.count() == 0) {
        return;
    }
    if (data == nullptr) {
        fatal(std::string(api) + ": the host pointer for stream " + s.describe() + " is null");
    }
    const ProfileTimer timer;
    if (scope == Scope::Local) {
        impl.backend().read_local(impl.storage(), region, data);
    } else {
        impl.backend().read(impl.storage(), region, data);
    }
    if (profiling()) [[unlikely]] {
        detail::record_copy(timer, Activity::StreamWrite, api, impl, region.count());
    }
}

/// The bytes of `count` elements of the stream behind `s` (0 for an empty handle, which the
/// copy itself then reports).
std::size_t element_bytes(const stream& s, std::size_t count) {
    return s.valid() ? count * s.element_type().size : 0;
}

} // namespace

void streamRead(const stream& s, const void* data, std::source_location where) {
    const detail::CallSite site(where);
    read("streamRead", s, data, std::nullopt, Scope::Whole);
}

void streamWrite(const stream& s, void* data, std::source_location where) {
    const detail::CallSite site(where);
    write("streamWrite", s, data, std::nullopt, Scope::Whole);
}

void streamRead(const stream& s, const void* data, std::size_t count, std::source_location where) {
    const detail::CallSite site(where);
    read("streamRead", s, data, element_bytes(s, count), Scope::Whole);
}

void streamWrite(const stream& s, void* data, std::size_t count, std::source_location where) {
    const detail::CallSite site(where);
    write("streamWrite", s, data, element_bytes(s, count), Scope::Whole);
}

LocalRegion local_region(const stream& s, std::source_location where) {
    const detail::CallSite site(where);
    const detail::StreamImpl& impl = checked_impl(s, "local_region");
    const detail::HeldRows held = detail::held_rows(impl);
    return {held.first, held.end - held.first, held.region.count()};
}

void streamReadLocal(const stream& s, const void* data, std::source_location where) {
    const detail::CallSite site(where);
    read("streamReadLocal", s, data, std::nullopt, Scope::Local);
}

void streamWriteLocal(const stream& s, void* data, std::source_location where) {
    const detail::CallSite site(where);
    write("streamWriteLocal", s, data, std::nullopt, Scope::Local);
}

void streamReadLocal(const stream& s, const void* data, std::size_t count,
                     std::source_location where) {
    const detail::CallSite site(where);
    read("streamReadLocal", s, data, element_bytes(s, count), Scope::Local);
}

void streamWriteLocal(const stream& s, void* data, std::size_t count, std::source_location where) {
    const detail::CallSite site(where);
    write("streamWriteLocal", s, data, element_bytes(s, count), Scope::Local);
}

namespace detail {

void read_sized(const stream& s, const void* data, std::size_t bytes,
                const std::source_location& where) {
    const CallSite site(where);
    read("streamRead", s, data, bytes, Scope::Whole);
}

void write_sized(const stream& s, void* data, std::size_t bytes,
                 const std::source_location& where) {
    const CallSite site(where);
    write("streamWrite", s, data, bytes, Scope::Whole);
}

void read_local_sized(const stream& s, const void* data, std::size_t bytes,
                      const std::source_location& where) {
    const CallSite site(where);
    read("streamReadLocal", s, data, bytes, Scope::Local);
}

void write_local_sized(const stream& s, void* data, std::size_t bytes,
                       const std::source_location& where) {
    const CallSite site(where);
    write("streamWriteLocal", s, data, bytes, Scope::Local);
}

std::array<std::size_t, 2> Backend::local_rows(Storage& /*storage*/, const Region& region) {
    return {0, region.rank == 0 ? 0 : region.extents[0]};
}

HeldRows held_rows(const StreamImpl& impl) {
    const Region& region = impl.region();
    if (region.count() == 0) {
        return {0, region.extents[0], region};
    }
    const auto [first, end] = impl.backend().local_rows(impl.storage(), region);
    Region rows = region;
    rows.offset += first * region.strides[0];
    rows.extents[0] = end - first;
    return {first, end, rows};
}

} // namespace detail

void streamSwap(stream& a, stream& b) {
    // Handles, not contents: whatever the shapes, and free, so ping-pong loops copy nothing.
    // Other handles of either stream (copies, views, by-value parameters) keep what they had.
    std::swap(a, b);
}

float4 streamSize(const stream& s, std::source_location where) {
    const detail::CallSite site(where);
    const detail::Region& region = checked_impl(s, "streamSize").region();
    float4 size;
    for (int d = 0; d < region.rank; ++d) {
        size[region.rank - 1 - d] = static_cast<float>(region.extents[static_cast<std::size_t>(d)]);
    }
    return size;
}

} // namespace brook
