// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Kernel launch: check a call's arguments against the kernel's parameters, bind them into a
// Launch and hand it to the current backend.
//
// The outputs define the domain (all must share one shape). An input of another shape is resized
// (DESIGN.md §2) when each extent is a multiple or a divisor of the output's; dimensions align
// from the first, and an input of another rank reads index 0 of its extra dimensions or repeats
// along the output's (COMPAT §3.5), so backends only ever see inputs of the domain's rank. A
// stream that the call writes and also reads in any way other than as the same input element by
// element is snapshotted first, so gathers read the values from before the call; the plain
// in-place case (`k(a, a)`) needs no copy because generated code reads its inputs first.
//
// Variable outputs (`vout`) take two launches: a count pass (every element's number of pushes per
// vout, the ordinary outputs written to scratch so that the inputs are unchanged for the next
// pass), an exclusive prefix sum of the counts on the host, new dense storage for each vout
// stream, and the write pass, where element i stores its values from its prefix sum on. So the
// values are concatenated in element order without a sentinel value, and a GPU backend runs the
// same two passes. A vout stream and inputs that are all 2-D give a 2-D result (COMPAT.md §3.2):
// rows as wide as the widest input, the last row's tail padded after the write pass.
#include "core/launch.hpp"
#include "core/recorded_errors.hpp"

#include "core/call_domain.hpp"
#include "core/errors.hpp"
#include "core/host_fallback.hpp"
#include "core/write_control.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>

namespace brook {

namespace detail {

namespace {

const char* kind_word(ParamKind kind) {
    switch (kind) {
    case ParamKind::Constant:
        return "constant";
    case ParamKind::InputStream:
        return "input stream";
    case ParamKind::OutputStream:
        return "output stream";
    case ParamKind::Gather:
        return "gather array";
    case ParamKind::ReduceInput:
        return "reduce input";
    case ParamKind::ReduceAccumulator:
        return "reduce target";
    case ParamKind::VariableOutput:
        return "variable output";
    case ParamKind::ScatterOutput:
        return "scatter output";
    }
    return "argument";
}

std::string argument_label(const KernelInfo& kernel, std::size_t param) {
    const ParamInfo& info = kernel.params[param];
    return call_label(kernel) + ": " + kind_word(info.kind) + " '" + info.name + "'";
}

/// An input stream's region as a domain of `rank` dimensions reads it (COMPAT §3.5): the
/// dimensions align from the first (slowest); an input dimension past the domain's is read at
/// index 0 (dropped), a domain dimension past the input's repeats it (extent 1, stride 0).
Region aligned_input(const Region& in, int rank) {
    Region aligned = in;
    aligned.rank = rank;
    for (int d = std::min(in.rank, rank); d < 4; ++d) {
        const auto dim = static_cast<std::size_t>(d);
        aligned.extents[dim] = d < rank ? 1 : 0;
        aligned.strides[dim] = 0;
    }
    return aligned;
}

/// An input whose (aligned) extents are each a multiple or divisor of the domain's can be
/// resized to it.
void check_resizable(const KernelInfo& kernel, std::size_t param, const StreamImpl& input,
                     const Region& aligned, const StreamImpl& domain) {
    const Region& out = domain.region();
    bool fits = true;
    for (int d = 0; fits && d < out.rank; ++d) {
        const std::size_t a = aligned.extents[static_cast<std::size_t>(d)];
        const std::size_t b = out.extents[static_cast<std::size_t>(d)];
        fits = a % b == 0 || b % a == 0;
    }
    if (!fits) {
        const bool is_reduce = kernel.is_reduce;
        fatal(argument_label(kernel, param) + " is " +
              describe_shape(input.type(), input.region()) + ", which cannot be resized to the " +
              (is_reduce ? "reduce input" : "output") + " shape " +
              describe_shape(domain.type(), out) +
              ": each extent they share (counted from the first) must be a multiple or a divisor "
              "of the " +
              (is_reduce ? "reduce input's" : "output's"));
    }
}

/// An index of K components reads a stream of rank D when K >= D (the first D components) or
/// K = 1 (a row-major element offset); 1 < K < D names no element (COMPAT.md §1.9).
void check_gather(const KernelInfo& kernel, std::size_t param, const StreamImpl& gather) {
    const unsigned widths = kernel.params[param].gather_index_widths;
    const int rank = gather.region().rank;
    for (int width = 2; width < rank; ++width) {
        if (((widths >> width) & 1u) == 0) {
            continue;
        }
        const std::string vector = "float" + std::to_string(rank);
        fatal(argument_label(kernel, param) + " is " +
              describe_shape(gather.type(), gather.region()) + " with " + std::to_string(rank) +
              " dimensions, but the kernel indexes it with " + std::to_string(width) +
              " components: index it with one per dimension (" + std::to_string(rank) +
              " subscripts or a " + vector + ") or with one number, a row-major element offset");
    }
}

/// A gather read with element offsets (one index component) must be contiguous, a 1-D one too
/// (the kernels' Gather addresses an offset's element without a stride); another view is read
/// from a dense copy.
BoundStream offset_readable(const KernelInfo& kernel, std::size_t param, const StreamImpl& gather,
                            BoundStream bound, BoundCall& call) {
    const bool offsets = (kernel.params[param].gather_index_widths & 2u) != 0;
    if (!offsets || bound.region.contiguous()) {
        return bound;
    }
    Backend& backend = gather.backend();
    const std::size_t count = bound.region.count();
    std::vector<std::byte> host(count * gather.type().size);
    backend.read(*bound.storage, bound.region, host.data());
    std::shared_ptr<Storage> copy = backend.allocate(gather.type(), count);
    const Region dense = Region::dense(bound.region.rank, bound.region.extents);
    backend.write(*copy, dense, host.data());
    call.snapshots.push_back(copy);
    return {copy.get(), dense};
}

/// An input stream of a scatter call (BROOKPLUS.md §4.7) as the domain `domain` reads it: at
/// instance(), without resizing, so its dimensions align from the fastest (.x), and it is cut
/// to the domain's extents, which it must cover in each dimension it has. A domain dimension
/// past the input's repeats it; an input dimension past the domain's is read at index 0.
Region scatter_input(const KernelInfo& kernel, std::size_t param, const StreamImpl& input,
                     const StreamImpl& domain) {
    const Region& in = input.region();
    const Region& out = domain.region();
    Region cut = in;
    cut.rank = out.rank;
    for (int d = 0; d < 4; ++d) {
        const auto dim = static_cast<std::size_t>(d);
        const int component = out.rank - 1 - d; // 0 = .x
        const bool has_dimension = d < out.rank && component < in.rank;
        const auto from = static_cast<std::size_t>(in.rank - 1 - component);
        if (has_dimension && in.extents[from] < out.extents[dim]) {
            fatal(argument_label(kernel, param) + " is " + describe_shape(input.type(), in) +
                  ", smaller than the call's execution domain <" + describe_extents(out) +
                  ">, where a scatter kernel reads its inputs at instance() without resizing; "
                  "give the call a smaller domain (execDomain, domainSize) or a larger input");
        }
        cut.extents[dim] = has_dimension ? out.extents[dim] : d < out.rank ? 1 : 0;
        cut.strides[dim] = has_dimension ? in.strides[from] : 0;
    }
    return cut;
}

/// The stream as the call reads it: itself, or a copy when the call also writes its storage.
/// `element_wise`: the call reads it as the same element of each output that it writes, so
/// reading it where an output writes it (`k(a, a)`) needs no copy.
BoundStream read_binding(const StreamImpl& impl, bool element_wise,
                         std::span<const BoundStream> written, BoundCall& call) {
    BoundStream bound = impl.bound();
    for (const BoundStream& target : written) {
        if (target.storage != bound.storage) {
            continue;
        }
        if (element_wise && target.region == bound.region) {
            continue;
        }
        std::shared_ptr<Storage> copy =
            impl.backend().allocate(impl.type(), bound.storage->count());
        impl.backend().copy(*copy, *bound.storage);
        bound.storage = copy.get();
        call.snapshots.push_back(std::move(copy));
        break;
    }
    return bound;
}

/// The shape of a variable output that received `total` values, bound to a stream of shape
/// `bound`: <ceil(total / W), W> when that stream and every input stream are 2-D, W the inputs'
/// largest last extent, else <total>.
Region variable_output_shape(const KernelInfo& kernel, std::span<const KernelArg> args,
                             const Region& bound, std::size_t total) {
    bool rows = bound.rank == 2;
    std::size_t width = 0;
    for (std::size_t i = 0; rows && i < kernel.params.size(); ++i) {
        if (kernel.params[i].kind != ParamKind::InputStream) {
            continue;
        }
        const Region& input = args[i].stream_arg->impl()->region();
        rows = input.rank == 2;
        width = std::max(width, input.extents[1]);
    }
    if (!rows || width == 0) {
        return Region::dense(1, {total, 0, 0, 0});
    }
    return Region::dense(2, {(total + width - 1) / width, width, 0, 0});
}

/// `count` elements of `type` in C++ layout that stand for "no value" in the tail of a 2-D
/// variable output: +infinity in float fields, the largest value in the others (as +infinity
/// converts to a fixed or saturates).
std::vector<std::byte> padding_elements(const ElementType& type, std::size_t count) {
    std::vector<std::byte> bytes(type.size * count);
    for (std::size_t e = 0; e < count; ++e) {
        for (const FieldInfo& field : type.fields) {
            std::byte* at = bytes.data() + e * type.size + field.offset;
            for (int c = 0; c < field.components; ++c) {
                switch (field.scalar) {
                case ScalarKind::Float32: {
                    const float value = std::numeric_limits<float>::infinity();
                    std::memcpy(at, &value, sizeof value);
                    break;
                }
                case ScalarKind::Float64: {
                    const double value = std::numeric_limits<double>::infinity();
                    std::memcpy(at, &value, sizeof value);
                    break;
                }
                case ScalarKind::Int32: {
                    const std::int32_t value = std::numeric_limits<std::int32_t>::max();
                    std::memcpy(at, &value, sizeof value);
                    break;
                }
                case ScalarKind::UInt32:
                case ScalarKind::UInt16:
                case ScalarKind::UInt8:
                case ScalarKind::Fixed8:
                case ScalarKind::Fixed16:
                    std::memset(at, 0xFF, scalar_size(field.scalar));
                    break;
                case ScalarKind::Int8:
                    *at = std::byte{0x7F};
                    break;
                case ScalarKind::Int16: {
                    const std::int16_t value = std::numeric_limits<std::int16_t>::max();
                    std::memcpy(at, &value, sizeof value);
                    break;
                }
                }
                at += scalar_size(field.scalar);
            }
        }
    }
    return bytes;
}

/// The count pass, the prefix sums, the resizing of the vout streams and the write pass (see the
/// top of the file) of a bound call.
void run_with_variable_outputs(Backend& backend, std::span<const KernelArg> args,
                               std::span<const std::size_t> variable_outputs, BoundCall& call) {
    Launch& launch = call.launch;
    const KernelInfo& kernel = *launch.kernel;
    if (!backend.runs_variable_outputs()) {
        fatal(call_label(kernel) + " has variable outputs, which the " +
              std::string(backend.name()) + " backend does not run yet; use BRT_RUNTIME=cpu");
    }
    const std::size_t n = launch.element_count;
    std::vector<std::vector<std::size_t>> counters(variable_outputs.size(),
                                                   std::vector<std::size_t>(n, 0));
    launch.push_counters.assign(kernel.params.size(), nullptr);
    for (std::size_t k = 0; k < variable_outputs.size(); ++k) {
        launch.push_counters[variable_outputs[k]] = counters[k].data();
    }

    Launch count = launch;
    count.pass = Launch::Pass::Count;
    std::vector<std::unique_ptr<Storage>> scratch;
    for (std::size_t i = 0; i < kernel.params.size(); ++i) {
        if (kernel.params[i].kind == ParamKind::OutputStream) {
            scratch.push_back(backend.allocate(kernel.params[i].element_type(), n));
            count.args[i].stream = {scratch.back().get(),
                                    Region::dense(launch.rank, launch.extents)};
        }
    }
    backend.run_kernel(count);

    const std::vector<std::size_t> totals = backend.scan_variable_outputs(count);
    for (std::size_t k = 0; k < variable_outputs.size(); ++k) {
        const std::size_t total = totals[k];
        const std::size_t param = variable_outputs[k];
        StreamImpl& output = *args[param].output->impl();
        const Region shape = variable_output_shape(kernel, args, output.region(), total);
        // Inputs of this call may still read the old storage.
        call.snapshots.push_back(output.shared_storage());
        output.replace(backend.allocate(output.type(), shape.count()), shape);
        // The write pass fills the first `total` elements, in order.
        launch.args[param].stream = {&output.storage(), Region::dense(1, {total, 0, 0, 0})};
    }
    launch.pass = Launch::Pass::Write;
    backend.run_kernel(launch);
    for (std::size_t k = 0; k < variable_outputs.size(); ++k) {
        const StreamImpl& output = *args[variable_outputs[k]].output->impl();
        const std::size_t padding = output.region().count() - totals[k];
        if (padding == 0) {
            continue;
        }
        Region tail = Region::dense(1, {padding, 0, 0, 0});
        tail.offset = totals[k];
        backend.write(output.storage(), tail, padding_elements(output.type(), padding).data());
    }
}

/// Scratch for this thread's current call to run_kernel: vectors that keep their capacity from
/// call to call (a launch never starts another on its thread), so that issuing a kernel does not
/// allocate. Stale state from the previous call is dropped here.
struct CallScratch {
    std::vector<BoundStream> written;
    std::vector<std::size_t> variable_outputs;
    BoundCall call;

    static CallScratch& fresh() {
        thread_local CallScratch scratch;
        scratch.written.clear();
        scratch.variable_outputs.clear();
        scratch.call.snapshots.clear();
        scratch.call.launch.push_counters.clear();
        scratch.call.launch.pass = Launch::Pass::Single;
        return scratch;
    }
};

} // namespace

std::string call_label(const KernelInfo& kernel) {
    return std::string(kernel.is_reduce ? "reduce '" : "kernel '") + kernel.name + "'";
}

std::vector<std::size_t> Backend::scan_variable_outputs(const Launch& count) {
    std::vector<std::size_t> totals;
    for (std::size_t* counters : count.push_counters) {
        if (counters == nullptr) {
            continue;
        }
        std::size_t total = 0;
        for (std::size_t i = 0; i < count.element_count; ++i) {
            const std::size_t pushed = counters[i];
            counters[i] = total;
            total += pushed;
        }
        totals.push_back(total);
    }
    return totals;
}

const void* backend_code(const KernelInfo& kernel, std::string_view backend) {
    const void* code = kernel.code_for(backend);
    if (code == nullptr) {
        fatal(call_label(kernel) + " has no code for the " + std::string(backend) +
              " backend: build the program with brcc's --backends including " +
              std::string(backend) + " (the default)");
    }
    return code;
}

bool calls_wait = false;

void read_call_settings() {
    read_profile_setting();
    const char* sync = std::getenv("BRT_SYNC");
    calls_wait = profiling() || (sync != nullptr && std::string_view(sync) == "1");
}

void wait_for_call(Backend& backend, const Launch& launch, const ProfileTimer& timer,
                   std::size_t result_bytes) {
    backend.finish();
    if (!profiling()) {
        return;
    }
    std::size_t bytes = result_bytes;
    for (const BoundArg& arg : launch.args) {
        if (arg.stream.storage != nullptr) {
            bytes += arg.stream.region.count() * arg.stream.storage->element_size();
        }
    }
    const Activity activity = launch.kernel->is_reduce ? Activity::Reduce : Activity::Kernel;
    timer.record(activity, launch.kernel->name, launch.element_count, bytes);
}

void check_argument_count(const KernelInfo& kernel, std::span<const KernelArg> args) {
    if (args.size() != kernel.params.size()) {
        fatal(call_label(kernel) + " takes " + std::to_string(kernel.params.size()) +
              " arguments but was given " + std::to_string(args.size()));
    }
}

const StreamImpl& typed_stream(const KernelInfo& kernel, std::size_t param, const stream* s) {
    const ParamInfo& info = kernel.params[param];
    if (s == nullptr) {
        fatal(argument_label(kernel, param) + " was not given a stream");
    }
    if (!s->valid()) {
        fatal(argument_label(kernel, param) +
              " is an empty stream handle (no stream was assigned to it)");
    }
    const StreamImpl& impl = *s->impl();
    if (const Backend& runs = current_backend(); &impl.backend() != &runs) {
        fatal_kernel_failure(argument_label(kernel, param) + " is a stream of the " +
                             std::string(impl.backend().name()) +
                             " backend, but this thread runs on " + std::string(runs.name()) +
                             "; pass streams only to kernels of a thread on their backend");
    }
    const ElementType& expected = info.element_type();
    if (!(impl.type() == expected)) {
        fatal(argument_label(kernel, param) + " is " + describe_shape(impl.type(), impl.region()) +
              ", but the parameter takes " + expected.name + " elements");
    }
    return impl;
}

namespace {

/// `typed_stream`, which must hold elements: the call reads it for a domain that has some.
const StreamImpl& read_stream(const KernelInfo& kernel, std::size_t param, const stream* s,
                              const StreamImpl& domain) {
    const StreamImpl& impl = typed_stream(kernel, param, s);
    if (impl.region().count() == 0) {
        fatal(argument_label(kernel, param) + " is the empty stream " +
              describe_shape(impl.type(), impl.region()) + ", which has nothing to read for the " +
              (kernel.is_reduce ? "reduce input " : "outputs ") +
              describe_shape(domain.type(), domain.region()) +
              "; give it elements, or make the call's outputs empty too");
    }
    return impl;
}

} // namespace

void bind_arguments(const KernelInfo& kernel, std::span<const KernelArg> args,
                    const StreamImpl& domain, std::span<const BoundStream> written, BoundCall& call,
                    const BindOptions& options) {
    Launch& launch = call.launch;
    // Before any work: a backend never sees a kernel it has no code for.
    const std::string_view code =
        options.on_host ? std::string_view("cpu") : domain.backend().kernel_code_name();
    launch.code = code.empty() ? nullptr : backend_code(kernel, code);
    launch.kernel = &kernel;
    launch.args.assign(kernel.params.size(), BoundArg{});
    launch.dense = true;
    for (std::size_t i = 0; i < kernel.params.size(); ++i) {
        const ParamKind kind = kernel.params[i].kind;
        const KernelArg& arg = args[i];
        BoundArg& bound = launch.args[i];
        switch (kind) {
        case ParamKind::Constant:
            if (arg.constant == nullptr) {
                fatal(argument_label(kernel, i) + " was not given a value");
            }
            bound.constant = arg.constant;
            break;
        case ParamKind::InputStream: {
            const StreamImpl& input = read_stream(kernel, i, arg.stream_arg, domain);
            Region aligned;
            if (options.scatter) {
                aligned = scatter_input(kernel, i, input, domain);
            } else {
                aligned = aligned_input(input.region(), domain.region().rank);
                check_resizable(kernel, i, input, aligned, domain);
            }
            bound.stream = read_binding(input, !options.scatter, written, call);
            bound.stream.region = aligned;
            break;
        }
        case ParamKind::OutputStream:
        case ParamKind::VariableOutput:
            bound.stream = typed_stream(kernel, i, arg.output).bound();
            break;
        case ParamKind::ScatterOutput: {
            const StreamImpl& target = typed_stream(kernel, i, arg.output);
            check_gather(kernel, i, target);
            bound.stream = target.bound();
            break;
        }
        case ParamKind::Gather: {
            const StreamImpl& gather = read_stream(kernel, i, arg.stream_arg, domain);
            check_gather(kernel, i, gather);
            bound.stream = offset_readable(kernel, i, gather,
                                           read_binding(gather, false, written, call), call);
            break;
        }
        case ParamKind::ReduceInput:
            bound.stream =
                read_binding(typed_stream(kernel, i, arg.stream_arg), false, written, call);
            break;
        case ParamKind::ReduceAccumulator:
            break;
        }
        const bool element_wise = kind == ParamKind::InputStream ||
                                  kind == ParamKind::OutputStream || kind == ParamKind::ReduceInput;
        if (element_wise && !(bound.stream.region.same_shape(domain.region()) &&
                              bound.stream.region.contiguous())) {
            launch.dense = false;
        }
    }
    const Region& region = domain.region();
    launch.rank = region.rank;
    launch.extents = region.extents;
    launch.element_count = region.count();
}

} // namespace detail

namespace {

/// A scatter call's execution domain (BROOKPLUS.md §4.7): `region` its shape, slowest dimension
/// first, and `box` the positions it runs.
struct ScatterDomain {
    detail::Region region;
    detail::DomainBox box;
};

/// The scatter output `target`'s extents, or the call's own domain: from its offset (absolute,
/// as instance() is) to offset + size in each dimension, not clipped to `target`; an offset
/// alone runs to target's extent. A size may give the domain more dimensions than target has.
ScatterDomain scatter_domain(const detail::StreamImpl& target,
                             const std::optional<detail::CallDomain>& call) {
    const detail::Region& own = target.region();
    int rank = own.rank;
    for (int c = 0; call && call->has_size && c < 4; ++c) {
        if (call->size[static_cast<std::size_t>(c)] > 1) {
            rank = std::max(rank, c + 1);
        }
    }
    ScatterDomain domain;
    std::array<std::size_t, 4> extents{};
    for (int d = 0; d < rank; ++d) {
        // Extents are slowest first; a domain's components fastest first.
        const auto dim = static_cast<std::size_t>(d);
        const int component = rank - 1 - d;
        const std::size_t target_extent =
            component < own.rank ? own.extents[static_cast<std::size_t>(own.rank - 1 - component)]
                                 : 1;
        const auto c = static_cast<std::size_t>(component);
        const std::size_t low = call ? call->offset[c] : 0;
        const std::size_t high =
            call && call->has_size ? low + call->size[c] : std::max(target_extent, low);
        domain.box.low[dim] = low;
        domain.box.high[dim] = high;
        extents[dim] = high;
    }
    domain.region = detail::Region::dense(rank, extents);
    return domain;
}

/// Brook+'s rules for a call of a kernel with thread groups (BROOKPLUS.md §4.8): its domain is
/// whole groups, and every thread of a group runs (no element is skipped, so that each reaches
/// the group's barriers).
void check_whole_groups(const KernelInfo& kernel, const detail::Launch& launch,
                        const detail::DomainBox* box) {
    using namespace detail;
    if (launch.element_count % kernel.group_size != 0) {
        fatal(call_label(kernel) + " runs in groups of " + std::to_string(kernel.group_size) +
              " threads, but its execution domain has " + std::to_string(launch.element_count) +
              " elements, which is not a whole number of groups; give the call a domain "
              "(domainSize, execDomain, the scatter output's extents) of a multiple of " +
              std::to_string(kernel.group_size) + " elements");
    }
    if (box != nullptr) {
        fatal_not_supported(call_label(kernel) +
                            " runs in thread groups, which run whole, so it cannot take a "
                            "domainOffset; give it a domainSize alone");
    }
}

/// A call of a kernel with a scatter output `target` (BROOKPLUS.md §4.7), `written` holding it,
/// over its execution domain: natively where the backend scatters, else on the host.
void run_scatter_call(const KernelInfo& kernel, std::span<const KernelArg> args,
                      const detail::StreamImpl& target,
                      const std::optional<detail::CallDomain>& call_domain,
                      std::span<const detail::BoundStream> written, detail::BoundCall& call) {
    using namespace detail;
    const ScatterDomain domain = scatter_domain(target, call_domain);
    for (int d = 0; d < domain.region.rank; ++d) {
        const auto dim = static_cast<std::size_t>(d);
        if (domain.box.low[dim] >= domain.box.high[dim]) {
            return; // an empty domain: nothing to run
        }
    }
    Backend& backend = target.backend();
    // A backend that runs no generated code (the tests' record backend) sees the call as it is.
    const bool native = backend.runs_scatter() && (kernel.group_size == 0 || backend.runs_groups());
    const bool on_host = !native && !backend.kernel_code_name().empty();
    const StreamImpl shape(backend, target.type(), target.shared_storage(), domain.region);
    bind_arguments(kernel, args, shape, written, call, {.scatter = true, .on_host = on_host});
    const DomainBox* box = domain.box.covers(call.launch) ? nullptr : &domain.box;
    if (kernel.group_size != 0) {
        check_whole_groups(kernel, call.launch, box);
    }
    const ProfileTimer timer;
    if (on_host) {
        HostLaunch host(backend, call.launch);
        run_controlled(host.host(), host.launch(), box);
        host.write_back();
    } else {
        run_controlled(backend, call.launch, box);
    }
    complete_call(backend, call.launch, timer, 0);
    call.snapshots.clear();
}

/// The kernel call itself, which run_kernel runs as run_call says.
void run_kernel_now(const KernelInfo& kernel, std::span<const KernelArg> args,
                    std::source_location where) {
    using namespace detail;
    const CallSite site(where);
    // Taken first, so that it applies to this call only, whatever happens to it.
    std::optional<CallDomain> call_domain = take_call_domain(kernel.name);
    if (kernel.is_reduce) {
        fatal(call_label(kernel) + " is launched as a kernel, but it is a reduce function");
    }
    check_argument_count(kernel, args);
    const StreamImpl* domain = nullptr;
    std::size_t domain_param = 0;
    CallScratch& scratch = CallScratch::fresh();
    std::vector<BoundStream>& written = scratch.written;
    std::vector<std::size_t>& variable_outputs = scratch.variable_outputs;
    const StreamImpl* scatter_target = nullptr;
    for (std::size_t i = 0; i < kernel.params.size(); ++i) {
        const ParamKind kind = kernel.params[i].kind;
        if (kind == ParamKind::ScatterOutput) {
            // brcc allows one, and no other output beside it.
            scatter_target = &typed_stream(kernel, i, args[i].output);
            written.push_back(scatter_target->bound());
            continue;
        }
        if (kind == ParamKind::VariableOutput) {
            const StreamImpl& output = typed_stream(kernel, i, args[i].output);
            if (!output.covers_storage()) {
                fatal(argument_label(kernel, i) + " is a domain of a larger stream, " +
                      describe_shape(output.type(), output.region()) +
                      "; a variable output must be a whole stream, since the call resizes it");
            }
            written.push_back(output.bound());
            variable_outputs.push_back(i);
            continue;
        }
        if (kind != ParamKind::OutputStream) {
            continue;
        }
        const StreamImpl& output = typed_stream(kernel, i, args[i].output);
        written.push_back(output.bound());
        if (domain == nullptr) {
            domain = &output;
            domain_param = i;
        } else if (!output.region().same_shape(domain->region())) {
            fatal(call_label(kernel) + ": output stream '" + kernel.params[i].name + "' is " +
                  describe_shape(output.type(), output.region()) + " but output stream '" +
                  kernel.params[domain_param].name + "' is " +
                  describe_shape(domain->type(), domain->region()) +
                  "; all outputs of a call must have the same shape");
        }
    }
    // Brook+'s execDomain(n) on the first output: its first n elements, unless the kernel
    // object was given a domain of its own.
    const StreamImpl* first_output = scatter_target != nullptr ? scatter_target : domain;
    if (!call_domain && first_output != nullptr && first_output->execution_elements() != 0) {
        call_domain =
            CallDomain{.size = {static_cast<unsigned>(first_output->execution_elements()), 1, 1, 1},
                       .has_size = true};
    }
    if (scatter_target != nullptr) {
        run_scatter_call(kernel, args, *scatter_target, call_domain, written, scratch.call);
        return;
    }
    // A kernel whose only outputs are variable runs over its first input stream.
    for (std::size_t i = 0;
         domain == nullptr && !variable_outputs.empty() && i < kernel.params.size(); ++i) {
        if (kernel.params[i].kind == ParamKind::InputStream) {
            domain = &typed_stream(kernel, i, args[i].stream_arg);
        }
    }
    if (domain == nullptr) {
        fatal(call_label(kernel) + " has no output stream" +
              (variable_outputs.empty() ? "" : " and no input stream") +
              ", so it has nothing to run over");
    }
    if (domain->region().count() == 0) {
        // Nothing to compute, so nothing else to check (COMPAT §3.1); a variable output
        // receives no values.
        for (const std::size_t param : variable_outputs) {
            StreamImpl& output = *args[param].output->impl();
            output.replace(domain->backend().allocate(output.type(), 0),
                           Region::dense(1, {0, 0, 0, 0}));
        }
        return;
    }
    if (call_domain && !variable_outputs.empty()) {
        fatal_not_supported(
            call_label(kernel) +
            " has variable outputs, which run over every element of its domain, "
            "so it cannot take an execution domain (domainOffset, domainSize, execDomain)");
    }
    BoundCall& call = scratch.call;
    bind_arguments(kernel, args, *domain, written, call);
    const ProfileTimer timer;
    if (variable_outputs.empty()) {
        std::optional<DomainBox> box;
        if (call_domain) {
            box = DomainBox::clipped(*call_domain, call.launch);
        }
        run_controlled(domain->backend(), call.launch, box ? &*box : nullptr);
    } else {
        check_runs_every_element(call.launch);
        run_with_variable_outputs(domain->backend(), args, variable_outputs, call);
        note_every_element_written(call.launch);
    }
    complete_call(domain->backend(), call.launch, timer, 0);
    // Snapshots can be whole streams: free them now, not at the next call.
    call.snapshots.clear();
}

} // namespace

void run_kernel(const KernelInfo& kernel, std::span<const KernelArg> args,
                std::source_location where) {
    detail::run_call(kernel, args, [&] { run_kernel_now(kernel, args, where); });
}

} // namespace brook
