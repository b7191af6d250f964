#pragma once
// What a brook::stream handle points to: the element type, the backend storage (shared, so that
// views of a stream can share it) and the region of it the stream covers.

#include "core/backend.hpp"

#include "brook/stream.hpp"

#include <memory>
#include <string>

namespace brook::detail {

class StreamImpl {
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

private:
    Backend* backend_;
    ElementType type_;
    std::shared_ptr<Storage> storage_;
    Region region_;
};

/// "float4<100, 100>"
std::string describe_shape(const ElementType& type, const Region& region);

/// The implementation behind a handle; stops with a message naming `what` (e.g. "streamRead")
/// when the handle is empty.
const StreamImpl& checked_impl(const stream& s, const std::string& what);

} // namespace brook::detail
