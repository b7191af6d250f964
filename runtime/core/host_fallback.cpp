// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Running a bound call on the host (core/host_fallback.hpp).
#include "core/host_fallback.hpp"

#include "core/launch.hpp"
#include "core/registry.hpp"

#include <cstddef>

namespace brook::detail {

HostLaunch::HostLaunch(Backend& backend, const Launch& launch)
    : backend_(backend), launch_(launch) {
    host_ = &started_backend("cpu", false, call_label(*launch.kernel)).backend();
    std::vector<std::byte> bytes;
    for (std::size_t i = 0; i < launch.args.size(); ++i) {
        const BoundStream& original = launch.args[i].stream;
        if (original.storage == nullptr) {
            continue;
        }
        const ParamInfo& param = launch.kernel->params[i];
        const Region& region = original.region;
        bytes.resize(region.count() * original.storage->element_size());
        backend.read(*original.storage, region, bytes.data());
        copies_.push_back(host_->allocate(param.element_type(), region.count()));
        const Region dense = Region::dense(region.rank, region.extents);
        host_->write(*copies_.back(), dense, bytes.data());
        launch_.args[i].stream = {copies_.back().get(), dense};
        if (param.written) {
            written_.push_back({i, original});
        }
    }
}

void HostLaunch::write_back() {
    std::vector<std::byte> bytes;
    for (const WrittenRegion& written : written_) {
        const BoundStream& copy = launch_.args[written.param].stream;
        bytes.resize(copy.region.count() * copy.storage->element_size());
        host_->read(*copy.storage, copy.region, bytes.data());
        backend_.write(*written.original.storage, written.original.region, bytes.data());
    }
}

} // namespace brook::detail
