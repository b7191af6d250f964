// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Kernel calls that record their errors on their outputs instead of stopping the program
// (brook/recorded_errors.hpp says which): run_kernel and run_reduce run through run_call.

#include "core/errors.hpp"

#include "brook/kernel_abi.hpp"
#include "brook/recorded_errors.hpp"

#include <memory>
#include <span>
#include <vector>

namespace brook::detail {

/// True when the call with `args` records its errors: a kernel object makes it, or one of its
/// streams was made by brook::Stream<T>.
bool records_call_errors(std::span<const KernelArg> args);

/// The error records of the call's outputs (ordinary, variable and reduce-target streams).
std::vector<std::shared_ptr<ErrorRecord>> output_records(std::span<const KernelArg> args);

/// Records on each of `outputs` the code of each input or gather stream of the call in error.
void carry_input_errors(const KernelInfo& kernel, std::span<const KernelArg> args,
                        std::span<const std::shared_ptr<ErrorRecord>> outputs);

/// Records `failure`, the call's own error, on each of `outputs` (printed under BRT_VERBOSE=1
/// when there is none to keep it, a reduction into a host variable).
void record_call_failure(std::span<const std::shared_ptr<ErrorRecord>> outputs,
                         const error& failure);

/// Runs `call`, the kernel call of `kernel` with `args`: as it is when the call does not record
/// its errors, else after carrying the inputs' errors to the outputs, with its own error
/// recorded there instead of stopping the program. The call still runs when its inputs are in
/// error, as in Brook+.
template <class Call>
void run_call(const KernelInfo& kernel, std::span<const KernelArg> args, Call&& call) {
    if (!records_call_errors(args)) {
        call();
        return;
    }
    const std::vector<std::shared_ptr<ErrorRecord>> outputs = output_records(args);
    carry_input_errors(kernel, args, outputs);
    try {
        const ThrowErrorsOnThisThread throwing;
        call();
    } catch (const error& failure) {
        record_call_failure(outputs, failure);
    }
}

} // namespace brook::detail
