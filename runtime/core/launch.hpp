// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Argument checking and binding shared by kernel launches (launch.cpp) and reductions
// (reduce.cpp). Every check names the kernel, the argument and the shapes involved.

#include "core/backend.hpp"
#include "core/profiler.hpp"
#include "core/stream_impl.hpp"

#include "brook/kernel_abi.hpp"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace brook::detail {

/// "kernel 'saxpy'" or "reduce 'sum'", the start of every message about a call.
std::string call_label(const KernelInfo& kernel);

/// The code brcc emitted for `kernel` on `backend` (see KernelInfo::backends); stops with a
/// message saying how to build the program when it was built without that backend.
const void* backend_code(const KernelInfo& kernel, std::string_view backend);

/// Stops unless `args` has one argument per parameter of `kernel`.
void check_argument_count(const KernelInfo& kernel, std::span<const KernelArg> args);

/// The stream passed for parameter `param`, checked to be a stream with the parameter's
/// element type (it may be empty).
const StreamImpl& typed_stream(const KernelInfo& kernel, std::size_t param, const stream* s);

/// A launch being put together, with the snapshots it reads from.
struct BoundCall {
    Launch launch;
    /// Copies of streams that the call both reads (as gather, resized input or reduce input)
    /// and writes: the read side sees the values from before the call.
    std::vector<std::shared_ptr<Storage>> snapshots;
};

/// How bind_arguments binds a call.
struct BindOptions {
    /// A scatter kernel's call (BROOKPLUS.md §4.7): its input streams are read at instance(),
    /// cut to the domain rather than resized, and copied where the call writes their storage.
    bool scatter = false;
    /// The call runs on the host (core/host_fallback.hpp): the launch takes the kernel's cpu
    /// code, whatever the domain's backend runs.
    bool on_host = false;
};

/// Checks and binds every argument of `kernel` except reduce accumulators: constants, input
/// streams (resized to `domain` when their shape differs), gathers, the reduce input and
/// outputs. `written` are the streams the call writes. Fills launch.args and launch.dense; the
/// caller sets the domain.
void bind_arguments(const KernelInfo& kernel, std::span<const KernelArg> args,
                    const StreamImpl& domain, std::span<const BoundStream> written, BoundCall& call,
                    const BindOptions& options = {});

/// Reads the settings of calls from the environment: BRT_SYNC and BRT_PROFILE. The registry
/// calls it once, as the first backend starts, before any call.
void read_call_settings();

/// Whether calls wait for their backend: under BRT_SYNC=1 (as CUDA_LAUNCH_BLOCKING=1 does) and
/// while profiling, so that a call's time is its own. Set by read_call_settings.
extern bool calls_wait;

/// Waits for `backend` to finish the call and, while profiling, records it: its elements and
/// the bytes of every stream it read and wrote, plus `result_bytes` (a reduction's target).
void wait_for_call(Backend& backend, const Launch& launch, const ProfileTimer& timer,
                   std::size_t result_bytes);

/// The end of a kernel or reduce call that `backend` ran from `timer`'s start: unless calls wait,
/// one test of a flag.
inline void complete_call(Backend& backend, const Launch& launch, const ProfileTimer& timer,
                          std::size_t result_bytes) {
    if (calls_wait) [[unlikely]] {
        wait_for_call(backend, launch, timer, result_bytes);
    }
}

} // namespace brook::detail
