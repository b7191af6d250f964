// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// streamScatterOp and streamGatherOp (their semantics are in brook/stream.hpp and COMPAT §3.4):
// read-modify-write of single elements through a reduce function's combine step, one element of
// dst after the other in row-major order, so that repeated indices see the earlier updates. That
// order makes the operation sequential by definition, so it runs on the host, through the
// backend's copies: every backend shares this code and its results. Each process works on the
// rows of dst it holds (all of them on one process; a rank's block under mpi): it reads its
// index elements and the src elements they name with Backend::read_elements, and streamGatherOp
// updates src with Backend::update_elements, which applies the updates in the row-major order
// of dst; so under mpi only the elements named move between ranks (docs/mpi.md).
#include "core/errors.hpp"
#include "core/launch.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace brook {

namespace {

using detail::describe_shape;
using detail::fatal;
using detail::Region;
using detail::StreamImpl;

/// A reduce function used as the operator of a gather or scatter: `acc = acc (+) value`.
class Operator {
public:
    Operator(const KernelInfo& op, const std::string& api) : op_(op) {
        const std::string label = api + ": the operator " + detail::call_label(op);
        if (!op.is_reduce) {
            fatal(api + ": the operator '" + op.name +
                  "' is a kernel; the operator must be a reduce function");
        }
        bool plain = op.params.size() == 2;
        for (const ParamInfo& param : op.params) {
            plain = plain && (param.kind == ParamKind::ReduceInput ||
                              param.kind == ParamKind::ReduceAccumulator);
        }
        if (!plain) {
            fatal(label + " takes " + std::to_string(op.params.size()) +
                  " parameters; an operator takes only its stream and its reduce argument");
        }
        // The operator runs on the host, whatever the backend: through its CPU code.
        combine_ = static_cast<const cpu::KernelCode*>(detail::backend_code(op, "cpu"))->combine;
        args_.resize(op.params.size());
        frame_.args = args_.data();
    }

    const ElementType& type() const { return op_.params[0].element_type(); }
    const char* name() const { return op_.name; }
    void apply(void* accumulator, const void* value) const { combine_(frame_, accumulator, value); }

private:
    const KernelInfo& op_;
    cpu::CombineFunction combine_ = nullptr;
    std::vector<cpu::Frame::Arg> args_;
    cpu::Frame frame_;
};

/// The rows of a stream this process holds (detail::held_rows) in host memory (C++ layout,
/// row-major); store() writes them back.
class HeldCopy {
public:
    explicit HeldCopy(const StreamImpl& impl)
        : impl_(impl), held_(detail::held_rows(impl)),
          bytes_(held_.region.count() * impl.type().size) {
        if (!bytes_.empty()) {
            impl.backend().read_local(impl.storage(), held_.region, bytes_.data());
        }
    }
    /// The row-major positions in the whole stream of the elements held: [first, end).
    std::size_t first() const { return held_.first * row_length(); }
    std::size_t end() const { return held_.end * row_length(); }
    std::byte* element(std::size_t k) { return bytes_.data() + k * impl_.type().size; }
    void store() {
        if (!bytes_.empty()) {
            impl_.backend().write(impl_.storage(), held_.region, bytes_.data());
        }
    }

private:
    std::size_t row_length() const {
        const Region& region = impl_.region();
        return region.extents[0] == 0 ? 0 : region.count() / region.extents[0];
    }

    const StreamImpl& impl_;
    detail::HeldRows held_;
    std::vector<std::byte> bytes_;
};

/// What an index position outside src does: stop the program (streamScatterOp's default), or
/// clamp to the extent (streamGatherOp, and streamScatterOp given brook::clamped(index)).
enum class OutOfRange { Stop, Clamp };

/// Reads the positions in src that the elements of an index stream name (COMPAT §3.4): float or
/// int components, one per dimension of src, `.x` the last dimension; a float v names (int)(v +
/// 0.5).
class IndexRule {
public:
    IndexRule(std::string api, const StreamImpl& index, const StreamImpl& src, OutOfRange rule)
        : api_(std::move(api)), src_(src), rule_(rule),
          floats_(index.type().fields[0].scalar == ScalarKind::Float32) {}

    /// The row-major position in src of index element `element`, the `p`th of the index.
    std::size_t position(const std::byte* element, std::size_t p) const {
        const Region& source = src_.region();
        std::size_t position = 0;
        for (int d = 0; d < source.rank; ++d) {
            const int component = source.rank - 1 - d;
            const std::size_t extent = source.extents[static_cast<std::size_t>(d)];
            position = position * extent + along(element, component, extent, p);
        }
        return position;
    }

private:
    /// Component `component` of the element as an index below `extent`.
    std::size_t along(const std::byte* element, int component, std::size_t extent,
                      std::size_t p) const {
        // Float and int components are both 4 bytes.
        const std::byte* value = element + static_cast<std::size_t>(component) * 4;
        // Compared in the component's own type first: converting a value outside size_t (or
        // NaN) is undefined. A float in [0, 1) truncates to 0.
        bool below = false;
        bool above = false;
        std::size_t index = 0;
        std::string shown;
        if (floats_) {
            float v;
            std::memcpy(&v, value, sizeof v);
            const float rounded = v + 0.5f;
            below = !(rounded >= 0.0f); // NaN is below
            above = rounded >= static_cast<float>(extent);
            index = below || above ? 0 : static_cast<std::size_t>(rounded);
            shown = format_float(v);
        } else {
            std::int32_t v;
            std::memcpy(&v, value, sizeof v);
            below = v < 0;
            above = !below && static_cast<std::size_t>(v) >= extent;
            index = below || above ? 0 : static_cast<std::size_t>(v);
            shown = std::to_string(v);
        }
        if (!below && !above) {
            return index;
        }
        if (rule_ == OutOfRange::Stop) {
            out_of_range(p, component, shown, extent);
        }
        return above ? extent - 1 : 0;
    }

    [[noreturn]] void out_of_range(std::size_t p, int component, const std::string& shown,
                                   std::size_t extent) const {
        const int rank = src_.region().rank;
        const std::string which = rank == 1 ? "" : std::string(" .") + "xyzw"[component];
        fatal(api_ + ": index element " + std::to_string(p) + which + " is " + shown +
              ", outside src " + describe_shape(src_.type(), src_.region()) + ", whose extent " +
              (rank == 1 ? "" : "in that dimension ") + "is " + std::to_string(extent) +
              " (positions 0 to " + std::to_string(extent - 1) +
              "); fix the index, or pass brook::clamped(index) to clamp positions to src");
    }

    static std::string format_float(float v) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", static_cast<double>(v));
        return text;
    }

    std::string api_;
    const StreamImpl& src_;
    OutOfRange rule_;
    bool floats_;
};

/// The elements of `impl` at row-major `positions` (Backend::read_elements).
std::vector<std::byte> elements_at(const StreamImpl& impl, std::span<const std::size_t> positions,
                                   std::string_view caller) {
    std::vector<std::byte> values(positions.size() * impl.type().size);
    impl.backend().read_elements(impl.storage(), impl.region(), positions, values.data(), caller);
    return values;
}

/// The positions in src named by the index elements of the rows of dst this process holds.
std::vector<std::size_t> source_positions(const std::string& api, const HeldCopy& targets,
                                          const StreamImpl& index, const IndexRule& rule) {
    std::vector<std::size_t> own(targets.end() - targets.first());
    for (std::size_t k = 0; k < own.size(); ++k) {
        own[k] = targets.first() + k;
    }
    const std::vector<std::byte> positions = elements_at(index, own, api + " index");
    std::vector<std::size_t> sources(own.size());
    for (std::size_t k = 0; k < own.size(); ++k) {
        sources[k] = rule.position(positions.data() + k * index.type().size, own[k]);
    }
    return sources;
}

struct Operands {
    const StreamImpl& dst;
    const StreamImpl& index;
    const StreamImpl& src;
};

/// Checks the streams of `api`: dst and src hold the operator's type and are different streams,
/// `index` has dst's extents and floatN or intN elements for the N dimensions of src, which
/// must not be empty unless dst is.
Operands check_operands(const std::string& api, const Operator& op, const stream& dst,
                        const stream& index, const stream& src) {
    const Operands streams{detail::checked_impl(dst, api + " (dst)"),
                           detail::checked_impl(index, api + " (index)"),
                           detail::checked_impl(src, api + " (src)")};
    const auto shape = [](const StreamImpl& s) { return describe_shape(s.type(), s.region()); };
    for (const auto& [name, s] : {std::pair{"dst", &streams.dst}, std::pair{"src", &streams.src}}) {
        if (!(s->type() == op.type())) {
            fatal(api + ": " + name + " is " + shape(*s) + ", but the operator '" + op.name() +
                  "' works on " + op.type().name + " elements");
        }
    }
    if (&streams.dst.storage() == &streams.src.storage()) {
        fatal(api + ": dst and src are the same stream (or views of it); the operation reads "
                    "one while it writes the other, so pass two different streams");
    }
    const int rank = streams.src.region().rank;
    const ElementType& index_type = streams.index.type();
    const bool positions = index_type.fields.size() == 1 &&
                           (index_type.fields[0].scalar == ScalarKind::Float32 ||
                            index_type.fields[0].scalar == ScalarKind::Int32) &&
                           index_type.fields[0].components == rank;
    if (!positions) {
        const std::string width = rank == 1 ? "" : std::to_string(rank);
        fatal(api + ": index is " + shape(streams.index) + ", but src is " + shape(streams.src) +
              ", so the index needs float" + width + " or int" + width +
              " elements (one component per dimension, .x the last)");
    }
    if (!streams.index.region().same_shape(streams.dst.region())) {
        fatal(api + ": index is " + shape(streams.index) + " but dst is " + shape(streams.dst) +
              "; the index needs the extents of dst (one position of src per element of dst)");
    }
    if (streams.src.region().count() == 0 && streams.dst.region().count() != 0) {
        fatal(api + ": src is the empty stream " + shape(streams.src) +
              ", so the index has nothing to point at");
    }
    return streams;
}

} // namespace

namespace {

void scatter(const stream& dst, const stream& index, const stream& src, const KernelInfo& op,
             OutOfRange rule, const std::source_location& where) {
    const detail::CallSite site(where);
    const std::string api = "streamScatterOp";
    const Operator apply(op, api);
    const Operands streams = check_operands(api, apply, dst, index, src);
    if (streams.dst.region().count() == 0) {
        return;
    }
    const IndexRule positions_in_src(api, streams.index, streams.src, rule);
    HeldCopy targets(streams.dst);
    // Every position is checked before dst changes, so a handler that throws leaves it as it was.
    const std::vector<std::size_t> sources =
        source_positions(api, targets, streams.index, positions_in_src);
    const std::vector<std::byte> values = elements_at(streams.src, sources, api + " src");
    const std::size_t size = streams.src.type().size;
    for (std::size_t k = 0; k < sources.size(); ++k) {
        apply.apply(targets.element(k), values.data() + k * size);
    }
    targets.store();
}

} // namespace

void streamScatterOp(const stream& dst, const stream& index, const stream& src,
                     const KernelInfo& op, std::source_location where) {
    scatter(dst, index, src, op, OutOfRange::Stop, where);
}

void streamScatterOp(const stream& dst, const ClampedIndex& index, const stream& src,
                     const KernelInfo& op, std::source_location where) {
    scatter(dst, index.index, src, op, OutOfRange::Clamp, where);
}

void streamGatherOp(const stream& dst, const stream& index, const stream& src,
                    const KernelInfo& op, std::source_location where) {
    const detail::CallSite site(where);
    const std::string api = "streamGatherOp";
    const Operator apply(op, api);
    const Operands streams = check_operands(api, apply, dst, index, src);
    if (streams.dst.region().count() == 0) {
        return;
    }
    const IndexRule positions_in_src(api, streams.index, streams.src, OutOfRange::Clamp);
    HeldCopy results(streams.dst);
    const std::vector<std::size_t> sources =
        source_positions(api, results, streams.index, positions_in_src);
    const std::size_t size = streams.dst.type().size;
    std::vector<std::byte> old_value(size);
    // dst[p] takes the old src[j], fetched straight into `results`; both of the operator's
    // arguments are that old value, and src[j] takes the reduce one.
    streams.src.backend().update_elements(
        streams.src.storage(), streams.src.region(), sources, results.element(0),
        [&](std::byte* source) {
            std::memcpy(old_value.data(), source, size);
            apply.apply(source, old_value.data());
        },
        api + " src");
    results.store();
}

namespace detail {

void Backend::read_elements(Storage& storage, const Region& region,
                            std::span<const std::size_t> positions, void* values,
                            std::string_view /*caller*/) {
    const std::size_t size = storage.element_size();
    std::vector<std::byte> all(region.count() * size);
    read(storage, region, all.data());
    auto* into = static_cast<std::byte*>(values);
    for (std::size_t k = 0; k < positions.size(); ++k) {
        std::memcpy(into + k * size, all.data() + positions[k] * size, size);
    }
}

void Backend::update_elements(Storage& storage, const Region& region,
                              std::span<const std::size_t> positions, void* values,
                              const std::function<void(std::byte*)>& update,
                              std::string_view /*caller*/) {
    const std::size_t size = storage.element_size();
    std::vector<std::byte> all(region.count() * size);
    read(storage, region, all.data());
    auto* into = static_cast<std::byte*>(values);
    for (std::size_t k = 0; k < positions.size(); ++k) {
        std::byte* element = all.data() + positions[k] * size;
        std::memcpy(into + k * size, element, size);
        update(element);
    }
    write(storage, region, all.data());
}

} // namespace detail

} // namespace brook
