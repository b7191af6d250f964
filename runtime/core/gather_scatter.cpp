// streamScatterOp and streamGatherOp (their semantics are in brook/stream.hpp): read-modify-write
// of single elements through a reduce function's combine step, one element after the other in
// row-major order, so that repeated indices see the earlier updates. That order makes the
// operation sequential by definition, so it runs on the host, on copies of the streams taken and
// stored back through the backend's read/write: every backend shares this code and its results.
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

/// The row-major position in `target` that index element `element` (floatN, `.x` the last
/// dimension) names, each component converted by the gather rule.
std::size_t target_position(const std::byte* element, const Region& target) {
    std::size_t position = 0;
    for (int d = 0; d < target.rank; ++d) {
        float v;
        std::memcpy(&v, element + static_cast<std::size_t>(target.rank - 1 - d) * sizeof v,
                    sizeof v);
        const std::size_t extent = target.extents[static_cast<std::size_t>(d)];
        position = position * extent + cpu::gather_index(v, extent);
    }
    return position;
}

struct Operands {
    const StreamImpl& dst;
    const StreamImpl& index;
    const StreamImpl& src;
};

/// Checks the streams of `api`: dst and src hold the operator's type, `index` has the extents of
/// `walked` (the stream gone through in order) and floatN elements for the N dimensions of
/// `addressed` (the stream it points into), which must not be empty.
Operands check_operands(const std::string& api, const Operator& op, const stream& dst,
                        const stream& index, const stream& src, bool walk_src) {
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
    const StreamImpl& walked = walk_src ? streams.src : streams.dst;
    const StreamImpl& addressed = walk_src ? streams.dst : streams.src;
    const char* walked_name = walk_src ? "src" : "dst";
    const char* addressed_name = walk_src ? "dst" : "src";
    const int rank = addressed.region().rank;
    const ElementType& index_type = streams.index.type();
    const bool floats = index_type.fields.size() == 1 &&
                        index_type.fields[0].scalar == ScalarKind::Float32 &&
                        index_type.fields[0].components == rank;
    if (!floats) {
        fatal(api + ": index is " + shape(streams.index) + ", but " + addressed_name + " is " +
              shape(addressed) + ", so the index needs " +
              (rank == 1 ? std::string("float") : "float" + std::to_string(rank)) +
              " elements (one component per dimension, .x the last)");
    }
    if (!streams.index.region().same_shape(walked.region())) {
        fatal(api + ": index is " + shape(streams.index) + " but " + walked_name + " is " +
              shape(walked) + "; the index needs the extents of " + walked_name);
    }
    if (addressed.region().count() == 0 && walked.region().count() != 0) {
        fatal(api + ": " + addressed_name + " is the empty stream " + shape(addressed) +
              ", so the index has nothing to point at");
    }
    return streams;
}

} // namespace

void streamScatterOp(const stream& dst, const stream& index, const stream& src,
                     const KernelInfo& op) {
    const std::string api = "streamScatterOp";
    const Operator apply(op, api);
    const Operands streams = check_operands(api, apply, dst, index, src, true);
    HostCopy targets(streams.dst);
    HostCopy positions(streams.index);
    HostCopy values(streams.src);
    const std::size_t count = streams.src.region().count();
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t j = target_position(positions.element(i), streams.dst.region());
        apply.apply(targets.element(j), values.element(i));
    }
    targets.store();
}

void streamGatherOp(const stream& dst, const stream& index, const stream& src,
                    const KernelInfo& op) {
    const std::string api = "streamGatherOp";
    const Operator apply(op, api);
    const Operands streams = check_operands(api, apply, dst, index, src, false);
    if (&streams.dst.storage() == &streams.src.storage()) {
        fatal(api + ": dst and src are the same stream (or views of it); the operation writes "
                    "both, so they must be different streams");
    }
    HostCopy results(streams.dst);
    HostCopy positions(streams.index);
    HostCopy sources(streams.src);
    const std::size_t size = streams.dst.type().size;
    std::vector<std::byte> old_value(size);
    const std::size_t count = streams.dst.region().count();
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t j = target_position(positions.element(i), streams.src.region());
        std::byte* fetched = results.element(i);
        std::memcpy(old_value.data(), fetched, size);
        std::memcpy(fetched, sources.element(j), size);
        apply.apply(sources.element(j), old_value.data());
    }
    results.store();
    sources.store();
}

} // namespace brook
