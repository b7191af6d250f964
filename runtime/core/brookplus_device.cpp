// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Brook+'s device API (brook/brookplus_device.hpp): the backends that start here as devices, and
// the calling thread's choice among them.

#include "core/registry.hpp"
#include "core/stream_impl.hpp"

#include "brook/brookplus_device.hpp"
#include "brook/brookplus_stream.hpp"
#include "brook/runtime_control.hpp"

#include <cstring>
#include <vector>

namespace brook {

namespace {

/// Every device: the GPU backends that start, then cpu. Started once, on first use.
struct DeviceList {
    std::vector<Device> devices;
    std::size_t gpu_count = 0;

    DeviceList() {
        std::vector<Device> cpus;
        for (detail::StartedBackend* backend : detail::startable_backends()) {
            if (backend->backend().gpu_api()) {
                devices.emplace_back("cal", backend);
            } else if (backend->name() == "cpu") {
                cpus.emplace_back("cpu", backend);
            }
        }
        gpu_count = devices.size();
        devices.insert(devices.end(), cpus.begin(), cpus.end());
    }

    static DeviceList& get() {
        static DeviceList list;
        return list;
    }

    /// The device of `runtime`, or null when it is none of them (mpi, record).
    Device* of(Runtime* runtime) {
        for (Device& device : devices) {
            if (device.runtime() == runtime) {
                return &device;
            }
        }
        return nullptr;
    }
};

} // namespace

const char* Device::getName() const {
    return runtime_->name();
}

Device* getDevices(const char* type, unsigned int* count) {
    DeviceList& list = DeviceList::get();
    std::size_t first = 0;
    std::size_t end = 0;
    if (type != nullptr && std::strcmp(type, "cal") == 0) {
        end = list.gpu_count;
    } else if (type != nullptr && std::strcmp(type, "cpu") == 0) {
        first = list.gpu_count;
        end = list.devices.size();
    } else if (type != nullptr && std::strcmp(type, "all") == 0) {
        end = list.devices.size();
    }
    if (count != nullptr) {
        *count = static_cast<unsigned int>(end - first);
    }
    return end > first ? list.devices.data() + first : nullptr;
}

namespace detail {

// Here, beside the device list; the other StreamOperations are in brookplus_stream.cpp.
Device* StreamOperations::device_of(const stream& s, unsigned int* count) {
    Device* device = nullptr;
    if (s.valid()) {
        for (Device& candidate : DeviceList::get().devices) {
            const auto* started = static_cast<const StartedBackend*>(candidate.runtime());
            if (&started->backend() == &s.impl()->backend()) {
                device = &candidate;
            }
        }
    }
    if (count != nullptr) {
        *count = device != nullptr ? 1 : 0;
    }
    return device;
}

} // namespace detail

Device* useDevices(Device* devices, unsigned int count, unsigned int* old_count) {
    Device* previous = DeviceList::get().of(runtime());
    if (devices != nullptr && count > 0) {
        setRuntime(devices[0].runtime());
    }
    if (old_count == nullptr) {
        return nullptr;
    }
    *old_count = previous != nullptr ? 1 : 0;
    return previous;
}

} // namespace brook
