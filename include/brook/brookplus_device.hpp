// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Brook+'s device API (BROOKPLUS.md §3.5) over the runtime's backends: each backend that starts
// here is a device, typed "cal" for a GPU API (gl, cuda, vulkan: AMD's CAL was Brook+'s GPU
// layer) and "cpu" for the cpu backend, and a thread chooses the one its later streams and
// calls use.
//
//   unsigned int n = 0;
//   brook::Device* d = brook::getDevices("cal", &n);   // NULL and 0 without a GPU backend
//   if (n > 0) brook::useDevices(d, 1, NULL);           // this thread's later work runs there

namespace brook {

class Runtime;

/// One device: a backend that starts here. The objects are the library's, alive for the run.
class Device {
public:
    /// "cal" for a GPU backend, "cpu" for the cpu backend.
    const char* getType() const { return type_; }
    /// Brook+'s interoperability bindings: none here, "".
    const char* getBindings() const { return ""; }
    /// The backend's BRT_RUNTIME name ("gl", "cuda", "cpu").
    const char* getName() const;

    /// The backend behind the device, for the runtime.
    Runtime* runtime() const { return runtime_; }
    /// A device of `type` ("cal" or "cpu") for the started backend `runtime`.
    Device(const char* type, Runtime* runtime) : type_(type), runtime_(runtime) {}

private:
    const char* type_;
    Runtime* runtime_;
};

/// The devices of `type`: "cal" every GPU backend that starts, "cpu" the cpu backend, "all" the
/// GPU ones then cpu; `*count` how many. Anything else: NULL and 0. The array is the library's,
/// the same on every call.
Device* getDevices(const char* type, unsigned int* count);

/// Makes `devices[0]` the device of the calling thread's later streams and calls (Brook+ used one
/// device per call; `count` is accepted and the rest ignored). Streams stay where they were made:
/// a call mixing devices records BR_ERROR_KERNEL on its outputs through Stream<T>, and
/// Stream<T>::assign copies across. Returns the thread's previous device, with its count (1) in
/// `*old_count`; NULL when `old_count` is NULL. A NULL `devices` or a `count` of 0 changes
/// nothing.
Device* useDevices(Device* devices, unsigned int count, unsigned int* old_count);

} // namespace brook
