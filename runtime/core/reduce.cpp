// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Reductions: fold the ReduceInput stream into the ReduceAccumulator argument, either a host
// variable (every element, in row-major order) or a stream of the same rank whose extents each
// divide the input's (target element j folds the contiguous block of input elements it covers).
// The backend may re-associate the fold across threads but never re-orders operands.
#include "core/call_domain.hpp"
#include "core/errors.hpp"
#include "core/launch.hpp"
#include "core/recorded_errors.hpp"

namespace brook {

namespace detail {

namespace {

/// Index of the only parameter of `kind`; generated reduce functions have exactly one.
std::size_t only_param(const KernelInfo& kernel, ParamKind kind, const char* what) {
    std::size_t found = kernel.params.size();
    for (std::size_t i = 0; i < kernel.params.size(); ++i) {
        if (kernel.params[i].kind != kind) {
            continue;
        }
        if (found != kernel.params.size()) {
            fatal(call_label(kernel) + " has more than one " + what + " parameter");
        }
        found = i;
    }
    if (found == kernel.params.size()) {
        fatal(call_label(kernel) + " has no " + what + " parameter");
    }
    return found;
}

void check_target_shape(const KernelInfo& kernel, std::size_t param, const StreamImpl& target,
                        const StreamImpl& input, std::size_t input_param) {
    const Region& out = target.region();
    const Region& in = input.region();
    bool divides = out.rank == in.rank;
    for (int d = 0; divides && d < in.rank; ++d) {
        const std::size_t target_extent = out.extents[static_cast<std::size_t>(d)];
        divides =
            target_extent != 0 && in.extents[static_cast<std::size_t>(d)] % target_extent == 0;
    }
    if (!divides) {
        fatal(call_label(kernel) + ": reduce target '" + kernel.params[param].name + "' is " +
              describe_shape(target.type(), out) + " but the reduce input '" +
              kernel.params[input_param].name + "' is " + describe_shape(input.type(), in) +
              "; a target stream needs the input's number of dimensions and extents that "
              "divide the input's");
    }
}

} // namespace

} // namespace detail

namespace {

/// The reduction call itself, which run_reduce runs as run_call says.
void run_reduce_now(const KernelInfo& kernel, std::span<const KernelArg> args,
                    std::source_location where) {
    using namespace detail;
    const CallSite site(where);
    if (take_call_domain(kernel.name)) {
        fatal_not_supported(call_label(kernel) +
                            " was given an execution domain (domainOffset, domainSize), which a "
                            "reduction does not take: it reduces its whole input");
    }
    if (!kernel.is_reduce) {
        fatal(call_label(kernel) + " is launched as a reduction, but it is a kernel");
    }
    check_argument_count(kernel, args);
    const std::size_t input_param = only_param(kernel, ParamKind::ReduceInput, "reduce input");
    const std::size_t target_param =
        only_param(kernel, ParamKind::ReduceAccumulator, "reduce target");
    const StreamImpl& input = typed_stream(kernel, input_param, args[input_param].stream_arg);
    if (input.region().count() == 0) {
        // Nothing to fold: the target, variable or stream, keeps its value (COMPAT §3.1).
        return;
    }
    const KernelArg& target_arg = args[target_param];
    const int input_index = static_cast<int>(input_param);
    BoundCall call;
    if (target_arg.output != nullptr) {
        const StreamImpl& target = typed_stream(kernel, target_param, target_arg.output);
        check_target_shape(kernel, target_param, target, input, input_param);
        const BoundStream written[] = {target.bound()};
        bind_arguments(kernel, args, input, written, call);
        const ProfileTimer timer;
        input.backend().reduce_to_stream(call.launch, input_index, target.bound());
        complete_call(input.backend(), call.launch, timer,
                      target.region().count() * target.type().size);
        return;
    }
    if (target_arg.reduce_value == nullptr || target_arg.reduce_value_type == nullptr) {
        fatal(call_label(kernel) + ": reduce target '" + kernel.params[target_param].name +
              "' was given neither a stream nor a variable");
    }
    if (!(*target_arg.reduce_value_type == input.type())) {
        fatal(call_label(kernel) + ": reduce target '" + kernel.params[target_param].name +
              "' is a " + target_arg.reduce_value_type->name + " variable but the reduce input '" +
              kernel.params[input_param].name + "' is " +
              describe_shape(input.type(), input.region()) + "; the variable must be a " +
              input.type().name);
    }
    bind_arguments(kernel, args, input, {}, call);
    const ProfileTimer timer;
    input.backend().reduce_to_value(call.launch, input_index, target_arg.reduce_value);
    complete_call(input.backend(), call.launch, timer, input.type().size);
}

} // namespace

void run_reduce(const KernelInfo& kernel, std::span<const KernelArg> args,
                std::source_location where) {
    detail::run_call(kernel, args, [&] { run_reduce_now(kernel, args, where); });
}

} // namespace brook
