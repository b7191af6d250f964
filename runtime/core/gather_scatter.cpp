// streamScatterOp and streamGatherOp (their semantics are in brook/stream.hpp and COMPAT §3.4):
// read-modify-write of single elements through a reduce function's combine step, one element of
// dst after the other in row-major order, so that repeated indices see the earlier updates. That
// order makes the operation sequential by definition, so it runs on the host, on copies of the
// streams taken and stored back through the backend's read/write: every backend shares this code
// and its results.
#include "core/errors.hpp"
#include "core/launch.hpp"

#include <cstring>
#include <string>
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

/// A stream's elements in host memory (C++ layout, row-major); store() writes them back.
class HostCopy {
public:
    explicit HostCopy(const StreamImpl& impl)
        : impl_(impl), bytes_(impl.region().count() * impl.type().size) {
        if (!bytes_.empty()) {
            impl.backend().read(impl.storage(), impl.region(), bytes_.data());
        }
    }
    std::byte* element(std::size_t i) { return bytes_.data() + i * impl_.type().size; }
    void store() {
        if (!bytes_.empty()) {
            impl_.backend().write(impl_.storage(), impl_.region(), bytes_.data());
        }
    }

private:
    const StreamImpl& impl_;
    std::vector<std::byte> bytes_;
};

/// The row-major position in `source` that index element `element` (floatN, `.x` the last
/// dimension) names: each component v is (int)(v + 0.5), clamped to its extent (COMPAT §3.4).
std::size_t source_position(const std::byte* element, const Region& source) {
    std::size_t position = 0;
    for (int d = 0; d < source.rank; ++d) {
        float v;
        std::memcpy(&v, element + static_cast<std::size_t>(source.rank - 1 - d) * sizeof v,
                    sizeof v);
        const std::size_t extent = source.extents[static_cast<std::size_t>(d)];
        const float rounded = v + 0.5f;
        // Compared as floats first: the conversion of a value outside size_t (or NaN) is
        // undefined. Below 1 truncation gives 0, the clamp's lower end.
        std::size_t index = 0;
        if (rounded >= static_cast<float>(extent)) {
            index = extent - 1;
        } else if (rounded >= 1.0f) {
            index = static_cast<std::size_t>(rounded);
        }
        position = position * extent + index;
    }
    return position;
}

struct Operands {
    const StreamImpl& dst;
    const StreamImpl& index;
    const StreamImpl& src;
};

/// Checks the streams of `api`: dst and src hold the operator's type and are different streams,
/// `index` has dst's extents and floatN elements for the N dimensions of src, which must not be
/// empty unless dst is.
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
    const bool floats = index_type.fields.size() == 1 &&
                        index_type.fields[0].scalar == ScalarKind::Float32 &&
                        index_type.fields[0].components == rank;
    if (!floats) {
        fatal(api + ": index is " + shape(streams.index) + ", but src is " + shape(streams.src) +
              ", so the index needs " +
              (rank == 1 ? std::string("float") : "float" + std::to_string(rank)) +
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

void streamScatterOp(const stream& dst, const stream& index, const stream& src,
                     const KernelInfo& op, std::source_location where) {
    const detail::CallSite site(where);
    const std::string api = "streamScatterOp";
    const Operator apply(op, api);
    const Operands streams = check_operands(api, apply, dst, index, src);
    HostCopy targets(streams.dst);
    HostCopy positions(streams.index);
    HostCopy values(streams.src);
    const std::size_t count = streams.dst.region().count();
    for (std::size_t p = 0; p < count; ++p) {
        const std::size_t j = source_position(positions.element(p), streams.src.region());
        apply.apply(targets.element(p), values.element(j));
    }
    targets.store();
}

void streamGatherOp(const stream& dst, const stream& index, const stream& src,
                    const KernelInfo& op, std::source_location where) {
    const detail::CallSite site(where);
    const std::string api = "streamGatherOp";
    const Operator apply(op, api);
    const Operands streams = check_operands(api, apply, dst, index, src);
    HostCopy results(streams.dst);
    HostCopy positions(streams.index);
    HostCopy sources(streams.src);
    const std::size_t size = streams.dst.type().size;
    std::vector<std::byte> old_value(size);
    const std::size_t count = streams.dst.region().count();
    for (std::size_t p = 0; p < count; ++p) {
        std::byte* source =
            sources.element(source_position(positions.element(p), streams.src.region()));
        std::memcpy(results.element(p), source, size);
        // Both of the operator's arguments are the old src[j]; src[j] takes the reduce one.
        std::memcpy(old_value.data(), source, size);
        apply.apply(source, old_value.data());
    }
    results.store();
    sources.store();
}

} // namespace brook
