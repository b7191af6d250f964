// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// What a brook::stream handle points to: the element type, the backend storage (shared, so that
// views of a stream can share it) and the region of it the stream covers. A kernel call that
// fills a variable output gives that stream new storage and shape; every handle sees it.

#include "core/backend.hpp"
#include "core/registry.hpp"

#include "brook/recorded_errors.hpp"
#include "brook/stream.hpp"

#include <memory>
#include <string>

namespace brook::detail {

/// Also the StreamInfo that `->` on a handle reaches (BrookGPU's getters), and the owner of the
/// handles made from it there.
class StreamImpl : public StreamInfo, public std::enable_shared_from_this<StreamImpl> {
public:
    StreamImpl(Backend& backend, ElementType type, std::shared_ptr<Storage> storage, Region region)
        : backend_(&backend), type_(std::move(type)), storage_(std::move(storage)),
          region_(region) {}

    Backend& backend() const { return *backend_; }
    const ElementType& type() const { return type_; }
    Storage& storage() const { return *storage_; }
    const std::shared_ptr<Storage>& shared_storage() const { return storage_; }
    const Region& region() const { return region_; }
    BoundStream bound() const { return {storage_.get(), region_}; }
    /// True when the stream is all of its storage, in order (not a view of a larger stream).
    bool covers_storage() const {
        return region_.offset == 0 && region_.contiguous() && region_.count() == storage_->count();
    }
    /// The stream's error record (brook/recorded_errors.hpp); a view has its own.
    const std::shared_ptr<ErrorRecord>& errors() const { return errors_; }
    /// True when kernel calls taking this stream record their errors instead of stopping.
    bool records_call_errors() const { return records_call_errors_; }
    void record_call_errors() { records_call_errors_ = true; }

    /// Brook+'s execDomain(n) (BROOKPLUS.md §2.3): a call writing this stream first writes
    /// only its first n elements; 0 for the whole stream.
    std::size_t execution_elements() const { return execution_elements_; }
    /// Makes this handle `parent`'s stream with an execution domain of its first `elements`:
    /// the same storage, region and error record.
    void limit_execution(const StreamImpl& parent, std::size_t elements) {
        errors_ = parent.errors_;
        records_call_errors_ = parent.records_call_errors_;
        execution_elements_ = elements;
    }
    /// Makes the stream `region` of new storage (a variable output sized by a kernel call).
    void replace(std::shared_ptr<Storage> storage, const Region& region) {
        storage_ = std::move(storage);
        region_ = region;
    }

private:
    Backend* backend_;
    ElementType type_;
    std::shared_ptr<Storage> storage_;
    Region region_;
    std::shared_ptr<ErrorRecord> errors_ = std::make_shared<ErrorRecord>();
    bool records_call_errors_ = false;
    std::size_t execution_elements_ = 0;
    ThreadStreamCount counted_;
};

/// The rows [first, end) of a stream's region that this process holds, and that part of the
/// region: all of it on one process, a rank's block under mpi (Backend::local_rows).
struct HeldRows {
    std::size_t first = 0;
    std::size_t end = 0;
    Region region;
};
/// The rows of `impl` this process holds (collective under mpi, as Backend::local_rows).
HeldRows held_rows(const StreamImpl& impl);

/// "float4<100, 100>"
std::string describe_shape(const ElementType& type, const Region& region);
/// "100, 100": the extents of describe_shape, slowest first.
std::string describe_extents(const Region& region);

/// The implementation behind a handle; stops with a message naming `what` (e.g. "streamRead")
/// when the handle is empty.
const StreamImpl& checked_impl(const stream& s, const std::string& what);

} // namespace brook::detail
