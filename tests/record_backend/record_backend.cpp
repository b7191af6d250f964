// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The record backend (BRT_RUNTIME=record, loaded through BRT_BACKEND_PLUGINS): a backend that
// lives only in the tests and proves the backend seam. It keeps streams in host memory, so
// streamRead/streamWrite round-trip, but computes nothing: every kernel launch and reduction is
// appended as one line to the file BRT_RECORD_LOG names (when set), and so is each wait for the
// backend to finish (brook::finish, BRT_SYNC=1); reductions to a value give zero bytes.
// Conformance programs whose expected output needs no computed values (runtime misuse caught by
// the core) run on it unchanged.
#include "core/backend.hpp"
#include "core/registry.hpp"
#include "core/stream_impl.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace brook::detail {

namespace {

class RecordStorage final : public Storage {
public:
    RecordStorage(std::size_t element_size, std::size_t count)
        : Storage(element_size, count), bytes_(element_size * count) {}
    std::vector<std::byte>& bytes() { return bytes_; }

private:
    std::vector<std::byte> bytes_;
};

RecordStorage& record_storage(const Storage& storage) {
    return const_cast<RecordStorage&>(static_cast<const RecordStorage&>(storage));
}

/// Calls f(element offset in the storage, position in row-major order) for every element of
/// `region`.
template <class F> void for_each_element(const Region& region, F&& f) {
    const std::size_t count = region.count();
    for (std::size_t i = 0; i < count; ++i) {
        std::size_t rest = i;
        std::size_t offset = region.offset;
        for (int d = region.rank - 1; d >= 0; --d) {
            const auto dim = static_cast<std::size_t>(d);
            offset += (rest % region.extents[dim]) * region.strides[dim];
            rest /= region.extents[dim];
        }
        f(offset, i);
    }
}

std::string shape(int rank, const std::array<std::size_t, 4>& extents) {
    std::string text = "<";
    for (int d = 0; d < rank; ++d) {
        text += (d == 0 ? "" : ",") + std::to_string(extents[static_cast<std::size_t>(d)]);
    }
    return text + ">";
}

class RecordBackend final : public Backend {
public:
    std::string_view name() const override { return "record"; }
    std::string_view kernel_code_name() const override { return ""; }
    std::string device() const override { return "nothing (launches are only recorded)"; }

    std::unique_ptr<Storage> allocate(const ElementType& type, std::size_t count) override {
        return std::make_unique<RecordStorage>(type.size, count);
    }
    void write(Storage& storage, const Region& region, const void* host) override {
        const std::size_t size = storage.element_size();
        for_each_element(region, [&](std::size_t offset, std::size_t i) {
            std::memcpy(record_storage(storage).bytes().data() + offset * size,
                        static_cast<const std::byte*>(host) + i * size, size);
        });
    }
    void read(const Storage& storage, const Region& region, void* host) override {
        const std::size_t size = storage.element_size();
        for_each_element(region, [&](std::size_t offset, std::size_t i) {
            std::memcpy(static_cast<std::byte*>(host) + i * size,
                        record_storage(storage).bytes().data() + offset * size, size);
        });
    }
    void copy(Storage& target, const Storage& source) override {
        record_storage(target).bytes() = record_storage(source).bytes();
    }

    void finish() override { append("finish"); }

    void run_kernel(const Launch& launch) override { record("kernel", launch, ""); }
    void reduce_to_value(const Launch& launch, int input, void* result) override {
        const BoundStream& stream = launch.args[static_cast<std::size_t>(input)].stream;
        std::memset(result, 0, stream.storage->element_size());
        record("reduce", launch, " to a value");
    }
    void reduce_to_stream(const Launch& launch, int /*input*/, const BoundStream& target) override {
        record("reduce", launch, " to " + shape(target.region.rank, target.region.extents));
    }

private:
    /// `kernel saxpy <2,2> dense: constant input<2,2> input<2,2> output-stream<2,2>`.
    static void record(const char* what, const Launch& launch, const std::string& target) {
        std::string line = std::string(what) + " " + launch.kernel->name + " " +
                           shape(launch.rank, launch.extents) + (launch.dense ? " dense" : "") +
                           target + ":";
        for (std::size_t i = 0; i < launch.args.size(); ++i) {
            const ParamInfo& param = launch.kernel->params[i];
            line += std::string(" ") + param_kind_words(param.kind);
            const BoundArg& arg = launch.args[i];
            if (arg.stream.storage != nullptr) {
                line += shape(arg.stream.region.rank, arg.stream.region.extents);
            }
        }
        append(line);
    }

    /// Appends `line` to BRT_RECORD_LOG, when it is set.
    static void append(const std::string& line) {
        const char* path = std::getenv("BRT_RECORD_LOG");
        if (path == nullptr) {
            return;
        }
        std::FILE* log = std::fopen(path, "a");
        if (log == nullptr) {
            throw std::runtime_error(std::string("cannot append to BRT_RECORD_LOG=") + path);
        }
        std::fprintf(log, "%s\n", line.c_str());
        std::fclose(log);
    }
};

const BackendRegistration record_registration({
    .name = "record",
    .auto_rank = -1,
    .create = [] { return std::unique_ptr<Backend>(std::make_unique<RecordBackend>()); },
});

} // namespace

} // namespace brook::detail
