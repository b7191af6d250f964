// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// RAII owners of driver objects: device memory, pinned host memory, modules, streams and the
// retained primary context. Each releases its object through the Driver that made it, which must
// outlive it; destructors ignore release errors, since by then there is no one left to tell.

#include "backends/cuda/cuda_driver.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace brook::detail::cuda {

/// A driver object of type `Handle` owned by this value; the Driver entry `Release` frees it.
template <typename Handle, auto Release> class Owned {
public:
    Owned() = default;
    Owned(const Driver& driver, Handle handle) : driver_(&driver), handle_(handle) {}
    ~Owned() { reset(); }
    Owned(Owned&& other) noexcept
        : driver_(other.driver_), handle_(std::exchange(other.handle_, Handle{})) {}
    Owned& operator=(Owned&& other) noexcept {
        if (this != &other) {
            reset();
            driver_ = other.driver_;
            handle_ = std::exchange(other.handle_, Handle{});
        }
        return *this;
    }
    Owned(const Owned&) = delete;
    Owned& operator=(const Owned&) = delete;

    Handle get() const { return handle_; }
    explicit operator bool() const { return handle_ != Handle{}; }
    void reset() {
        if (handle_ != Handle{}) {
            (driver_->*Release)(handle_);
        }
        handle_ = Handle{};
    }

private:
    const Driver* driver_ = nullptr;
    Handle handle_{};
};

using DeviceMemory = Owned<CUdeviceptr, &Driver::cuMemFree_v2>;
using PinnedMemory = Owned<void*, &Driver::cuMemFreeHost>;
using Module = Owned<CUmodule, &Driver::cuModuleUnload>;
using Stream = Owned<CUstream, &Driver::cuStreamDestroy_v2>;

/// `bytes` of device memory in the current context. Zero bytes gives an empty handle, since the
/// driver rejects zero-sized allocations and an empty stream still needs a buffer.
inline DeviceMemory allocate_device(const Driver& driver, std::size_t bytes) {
    CUdeviceptr pointer = 0;
    if (bytes != 0) {
        driver.check(driver.cuMemAlloc(&pointer, bytes),
                     "cannot allocate " + std::to_string(bytes) + " bytes of device memory");
    }
    return {driver, pointer};
}

/// `bytes` of page-locked host memory, which asynchronous copies need to overlap with kernels.
inline PinnedMemory allocate_pinned(const Driver& driver, std::size_t bytes) {
    void* pointer = nullptr;
    if (bytes != 0) {
        driver.check(driver.cuMemAllocHost(&pointer, bytes),
                     "cannot allocate " + std::to_string(bytes) + " bytes of pinned host memory");
    }
    return {driver, pointer};
}

/// A stream that does not synchronise with the legacy default stream.
inline Stream create_stream(const Driver& driver) {
    CUstream stream = nullptr;
    driver.check(driver.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cannot create a stream");
    return {driver, stream};
}

/// The module of a CUBIN or PTX image; `name` (a program name) only goes into the error message.
inline Module load_module(const Driver& driver, std::string_view image, std::string_view name) {
    CUmodule module = nullptr;
    driver.check(driver.cuModuleLoadData(&module, image.data()),
                 "cannot load the module of " + std::string(name));
    return {driver, module};
}

/// The kernel `name` (its mangled or extern "C" name) of a loaded module.
inline CUfunction get_function(const Driver& driver, const Module& module,
                               const std::string& name) {
    CUfunction function = nullptr;
    driver.check(driver.cuModuleGetFunction(&function, module.get(), name.c_str()),
                 "no kernel " + name + " in its module");
    return function;
}

/// The device's primary context, retained for the lifetime of this value (the context the
/// runtime API would use too, so the two can share memory).
class PrimaryContext {
public:
    PrimaryContext(const Driver& driver, CUdevice device) : driver_(&driver), device_(device) {
        driver.check(driver.cuDevicePrimaryCtxRetain(&context_, device),
                     "cannot retain the primary context of device " + std::to_string(device));
    }
    ~PrimaryContext() {
        if (context_ != nullptr) {
            driver_->cuDevicePrimaryCtxRelease(device_);
        }
    }
    PrimaryContext(PrimaryContext&& other) noexcept
        : driver_(other.driver_), device_(other.device_),
          context_(std::exchange(other.context_, nullptr)) {}
    PrimaryContext& operator=(PrimaryContext&&) = delete;
    PrimaryContext(const PrimaryContext&) = delete;
    PrimaryContext& operator=(const PrimaryContext&) = delete;

    CUcontext get() const { return context_; }
    /// Makes this context current on the calling thread, as every driver call needs.
    void make_current() const {
        driver_->check(driver_->cuCtxSetCurrent(context_), "cannot make the context current");
    }

private:
    const Driver* driver_;
    CUdevice device_;
    CUcontext context_ = nullptr;
};

} // namespace brook::detail::cuda
