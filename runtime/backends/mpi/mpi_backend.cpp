// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The mpi backend (docs/mpi.md): one Brook program over the ranks of an MPI job, each rank
// holding a block of every stream's rows (DistributedStorage) in the backend it wraps,
// BRT_RUNTIME=mpi:INNER (mpi alone is mpi:cpu).
//
// A kernel runs in one of two ways:
//  - by blocks, when the inner backend runs row blocks (Backend::runs_row_blocks) and every
//    output is a whole stream: each rank runs its block of the output's rows; an input that is a
//    whole stream of the output's shape is read where it lies; a gather whose rows brcc bounded
//    around the element's own (ParamInfo::row_from: a stencil, SGEMV's matrix) brings only the
//    rows the block reads from the ranks that hold them (MPI_Alltoallv); every other stream
//    argument (other gathers, resized inputs, views) is gathered whole on every rank first;
//    A call whose one output is a view runs by blocks too: each rank runs the rows of the view
//    that lie in its block of the stream, written where they lie; a streamed input of the
//    domain's shape (a whole stream or a view) brings the rows of its stream that those read
//    from the ranks holding them (MPI_Alltoallv), as a gather whose rows brcc bounded does
//    (segment's border rows and columns), and every other stream argument comes whole;
//    The two passes of a kernel with variable outputs run by blocks too: each rank counts its
//    block's values, one MPI_Allgather of the counts gives each rank its offset in the result
//    and the totals, and the values each rank pushed go to the ranks holding their slots
//    (MPI_Alltoallv), so the result is distributed and in element order;
//  - whole on every rank otherwise (views among several outputs, write masks, an inner backend
//    without row blocks): every stream the call touches is gathered, every rank runs
//    the whole call and keeps its own rows of what was written (a call with variable outputs:
//    both passes whole, the totals from the inner backend's own scan of its counters). Correct
//    in every case, and without the speed-up, so docs/mpi.md lists it as what is left to
//    distribute.
// A reduction to a value folds each rank's rows in the inner backend, then the ranks' partial
// results are joined in rank order by MPI_Allreduce with a non-commuting MPI_Op whose function
// folds a pair of them in the inner backend, so the operands keep their row-major order. A
// reduction to a stream folds each rank's rows into partial target rows, which go to the ranks
// holding those rows, where the partials of a row whose input straddles ranks are folded in rank
// order. Views as reduce input or target are reduced whole on every rank. streamScatterOp and
// streamGatherOp (core/gather_scatter.cpp) read and update single elements, which
// DistributedStorage::exchange_elements fetches from (and updates at) the ranks holding them.
#include "core/backend.hpp"
#include "core/checks.hpp"
#include "core/errors.hpp"
#include "core/launch.hpp"
#include "core/registry.hpp"

#include "distributed_storage.hpp"
#include "mpi_world.hpp"
#include "row_blocks.hpp"
#include "thread_lineage.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace brook::detail::mpi {

namespace {

/// BRT_MPI_CHECK=1: every call's kernel and shapes are compared across the ranks.
bool checking_calls() {
    static const bool enabled = environment_switch("BRT_MPI_CHECK");
    return enabled;
}

/// FNV-1a over `bytes`, continuing `hash`.
std::uint64_t mixed(std::uint64_t hash, const void* bytes, std::size_t size) {
    const auto* at = static_cast<const unsigned char*>(bytes);
    for (std::size_t i = 0; i < size; ++i) {
        hash = (hash ^ at[i]) * 1099511628211ull;
    }
    return hash;
}

/// What must be the same on every rank about a call: the kernel, the domain, each stream
/// argument's shape.
std::uint64_t call_signature(const Launch& launch) {
    std::uint64_t hash = 14695981039346656037ull;
    hash = mixed(hash, launch.kernel->name, std::strlen(launch.kernel->name));
    hash = mixed(hash, launch.extents.data(), sizeof launch.extents);
    for (const BoundArg& arg : launch.args) {
        if (arg.stream.storage != nullptr) {
            hash = mixed(hash, arg.stream.region.extents.data(), sizeof arg.stream.region.extents);
        }
    }
    return hash;
}

/// The state MPI's reduction operator needs: MPI_Op functions take no user pointer. Set for the
/// duration of one MPI_Allreduce, which calls the operator on the thread that called it.
struct PairFold {
    Backend* inner = nullptr;
    const Launch* launch = nullptr; ///< the rank's local reduction
    int input = 0;
    std::size_t element_size = 0;
};
thread_local PairFold pair_fold;

/// A partial result as the ranks exchange it: the value, then a byte saying whether the rank had
/// elements. MPI hands the operator records at any alignment, so values are folded in an
/// aligned copy: the inner backend's fold takes the value as the element type itself.
void join_partials(void* in, void* inout, int* length, MPI_Datatype* /*type*/) {
    const std::size_t size = pair_fold.element_size;
    std::vector<std::byte> folded(size); // operator new's alignment suits every element type
    for (int i = 0; i < *length; ++i) {
        auto* lower = static_cast<std::byte*>(in) + static_cast<std::size_t>(i) * (size + 1);
        auto* upper = static_cast<std::byte*>(inout) + static_cast<std::size_t>(i) * (size + 1);
        if (lower[size] == std::byte{0}) {
            continue;
        }
        if (upper[size] == std::byte{0}) {
            std::memcpy(upper, lower, size + 1);
            continue;
        }
        // lower (+) upper: the pair as a two-element stream, folded in order.
        Backend& inner = *pair_fold.inner;
        std::unique_ptr<Storage> pair = inner.allocate(
            pair_fold.launch->kernel->params[static_cast<std::size_t>(pair_fold.input)]
                .element_type(),
            2);
        inner.write(*pair, Region::dense(1, {1, 0, 0, 0}), lower);
        Region second = Region::dense(1, {1, 0, 0, 0});
        second.offset = 1;
        inner.write(*pair, second, upper);
        Launch fold = *pair_fold.launch;
        fold.args[static_cast<std::size_t>(pair_fold.input)].stream = {
            pair.get(), Region::dense(1, {2, 0, 0, 0}), 0};
        fold.rank = 1;
        fold.extents = {2, 0, 0, 0};
        fold.element_count = 2;
        fold.dense = true;
        inner.reduce_to_value(fold, pair_fold.input, folded.data());
        std::memcpy(upper, folded.data(), size);
    }
}

/// True when `region` is all of its storage, in order.
bool whole_stream(const BoundStream& bound) {
    return bound.region.offset == 0 && bound.region.contiguous() &&
           bound.region.count() == bound.storage->count();
}

/// BRT_PROFILE=1: the bytes each kernel (and streamWrite) brought to a rank from the others, per
/// call and in all, summed over the ranks, printed by rank 0 at exit under the profile's table.
class ExchangeProfile {
public:
    explicit ExchangeProfile(const World& world) : world_(&world) {
        const char* value = std::getenv("BRT_PROFILE");
        enabled_ = value != nullptr && std::string_view(value) == "1";
    }
    ExchangeProfile(const ExchangeProfile&) = delete;
    ExchangeProfile& operator=(const ExchangeProfile&) = delete;
    ~ExchangeProfile() {
        if (!enabled_) {
            return;
        }
        // Every rank makes the same calls (SPMD), so every rank has the same names in the same
        // order.
        std::vector<unsigned long long> bytes;
        for (const auto& [name, entry] : entries_) {
            bytes.push_back(entry.bytes);
        }
        std::vector<unsigned long long> total(bytes.size());
        MPI_Reduce(bytes.data(), total.data(), static_cast<int>(bytes.size()),
                   MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        if (world_->rank() != 0) {
            return;
        }
        std::fprintf(stderr, "brook: mpi: bytes exchanged on %d ranks\n", world_->ranks());
        std::fprintf(stderr, "  %-24s %8s %16s %16s\n", "kernel", "calls", "bytes", "bytes/call");
        std::size_t row = 0;
        for (const auto& [name, entry] : entries_) {
            std::fprintf(stderr, "  %-24s %8zu %16llu %16llu\n", name.c_str(), entry.calls,
                         total[row], total[row] / entry.calls);
            ++row;
        }
    }

    void add(std::string_view name, std::size_t bytes) {
        if (!enabled_) {
            return;
        }
        const std::lock_guard lock(mutex_);
        Entry& entry = entries_[std::string(name)];
        ++entry.calls;
        entry.bytes += bytes;
    }

private:
    struct Entry {
        std::size_t calls = 0;
        unsigned long long bytes = 0;
    };
    const World* world_;
    bool enabled_ = false;
    std::mutex mutex_;
    std::map<std::string, Entry> entries_;
};

class MpiBackend final : public Backend {
public:
    explicit MpiBackend(std::unique_ptr<Backend> inner)
        : inner_(std::move(inner)), name_("mpi:" + std::string(inner_->name())) {
        check(MPI_Op_create(join_partials, 0, &join_op_), "MPI_Op_create");
        // Streams get their inner storage when first used, later than the inner backend would
        // have made it alone. One allocation now creates what its storage relies on (the host
        // allocator's record of blocks) before any stream, so that it outlives static streams
        // at exit, as it does when the inner backend runs alone.
        inner_->allocate(element_traits<float>::type(), 1);
    }
    ~MpiBackend() override { MPI_Op_free(&join_op_); }
    MpiBackend(const MpiBackend&) = delete;
    MpiBackend& operator=(const MpiBackend&) = delete;

    std::string_view name() const override { return name_; }
    std::string_view kernel_code_name() const override { return inner_->kernel_code_name(); }
    std::string device() const override { return world_.description() + " on " + inner_->device(); }
    bool software_renderer() const override { return inner_->software_renderer(); }
    void finish() override {
        const Serving serving(*this);
        inner_->finish();
    }

    std::unique_ptr<Storage> allocate(const ElementType& type, std::size_t count) override {
        return std::make_unique<DistributedStorage>(*inner_, world_, type, count);
    }
    void write(Storage& storage, const Region& region, const void* host) override {
        const Serving serving(*this);
        distributed(storage).write(region, host);
    }
    void read(const Storage& storage, const Region& region, void* host) override {
        const Serving serving(*this);
        std::size_t exchanged = 0;
        distributed(storage).read(region, host, exchanged);
        exchanges_.add("streamWrite", exchanged);
    }
    void copy(Storage& target, const Storage& source) override {
        const Serving serving(*this);
        distributed(target).copy_from(distributed(source));
    }
    std::array<std::size_t, 2> local_rows(Storage& storage, const Region& region) override {
        const Serving serving(*this);
        std::size_t exchanged = 0;
        const std::array<std::size_t, 2> rows = distributed(storage).local_rows(region, exchanged);
        exchanges_.add("local rows", exchanged);
        return rows;
    }
    void read_elements(Storage& storage, const Region& region,
                       std::span<const std::size_t> positions, void* values,
                       std::string_view caller) override {
        const Serving serving(*this);
        std::size_t exchanged = 0;
        distributed(storage).exchange_elements(region, positions, static_cast<std::byte*>(values),
                                               nullptr, exchanged);
        exchanges_.add(caller, exchanged);
    }
    void update_elements(Storage& storage, const Region& region,
                         std::span<const std::size_t> positions, void* values,
                         const std::function<void(std::byte*)>& update,
                         std::string_view caller) override {
        const Serving serving(*this);
        std::size_t exchanged = 0;
        distributed(storage).exchange_elements(region, positions, static_cast<std::byte*>(values),
                                               &update, exchanged);
        exchanges_.add(caller, exchanged);
    }
    void read_local(const Storage& storage, const Region& region, void* host) override {
        const Serving serving(*this);
        distributed(storage).read_local(region, host);
    }

    void run_kernel(const Launch& launch) override {
        const Serving serving(*this);
        begin_call(launch);
        switch (launch.pass) {
        case Launch::Pass::Single:
            exchanges_.add(launch.kernel->name,
                           runs_by_blocks(launch) ? run_by_blocks(launch) : run_whole(launch));
            return;
        case Launch::Pass::Count:
            // The call's bytes are recorded once, after its write pass. Ordinary outputs beside
            // variable ones (brcc refuses them; a hand-written KernelInfo may have them) could be
            // views, which the write pass could not run by blocks: such a call runs whole.
            variable_call_.counted_by_blocks =
                runs_by_blocks(launch) && !has_ordinary_outputs(*launch.kernel);
            variable_call_.exchanged =
                variable_call_.counted_by_blocks ? run_by_blocks(launch) : run_whole(launch);
            return;
        case Launch::Pass::Write:
            variable_call_.exchanged += variable_call_.counted_by_blocks
                                            ? write_variable_outputs(launch)
                                            : run_whole(launch);
            exchanges_.add(launch.kernel->name, variable_call_.exchanged);
            return;
        }
    }
    bool runs_variable_outputs() const override { return inner_->runs_variable_outputs(); }
    /// After a count pass by blocks: each rank's counters of its own elements become slots from
    /// 0 in the values its block pushes, and one MPI_Allgather of every rank's count per
    /// variable output gives each rank its offset in the result (the exclusive scan of the
    /// counts over the ranks before it), the totals, and where every rank's values go.
    std::vector<std::size_t> scan_variable_outputs(const Launch& count) override {
        const Serving serving(*this);
        if (!variable_call_.counted_by_blocks) {
            // The count pass ran whole in the inner backend, which keeps its counters where it
            // counted them (cuda: on the device, for its write pass).
            std::vector<std::size_t> totals;
            run_on_every_rank([&] { totals = inner_->scan_variable_outputs(count); });
            return totals;
        }
        const RowBlock block = block_of(count.extents[0], world_.rank(), world_.ranks());
        const std::size_t row_length = row_length_of(count);
        std::vector<std::size_t> mine;
        variable_call_.pushed.clear();
        for (std::size_t param = 0; param < count.push_counters.size(); ++param) {
            std::size_t* counters = count.push_counters[param];
            if (counters == nullptr) {
                continue;
            }
            mine.push_back(counts_to_slots(
                std::span(counters + block.first * row_length, block.rows() * row_length)));
            variable_call_.pushed.push_back({param, {}});
        }
        const auto ranks = static_cast<std::size_t>(world_.ranks());
        std::vector<std::size_t> all(mine.size() * ranks);
        const std::vector<std::size_t> per_rank(ranks, mine.size());
        variable_call_.exchanged +=
            world_.all_gather(mine.data(), per_rank, sizeof(std::size_t), all.data());
        std::vector<std::size_t> totals;
        for (std::size_t k = 0; k < variable_call_.pushed.size(); ++k) {
            std::size_t total = 0;
            for (std::size_t q = 0; q < ranks; ++q) {
                variable_call_.pushed[k].per_rank.push_back(all[q * mine.size() + k]);
                total += all[q * mine.size() + k];
            }
            totals.push_back(total);
        }
        return totals;
    }
    bool tracks_elements() const override { return inner_->tracks_elements(); }

    void reduce_to_value(const Launch& launch, int input, void* result) override {
        const Serving serving(*this);
        begin_call(launch);
        const auto index = static_cast<std::size_t>(input);
        const BoundStream& bound = launch.args[index].stream;
        DistributedStorage& storage = distributed(*bound.storage);
        const std::size_t size = storage.element_size();
        std::vector<std::byte> partial(size + 1);
        std::size_t exchanged = 0;
        Launch local = launch;
        std::map<Storage*, WholeStream> gathers;
        bind_whole_except(local, input, gathers, exchanged);
        WholeStream whole;
        if (whole_stream(bound) && launch.rank > 0) {
            // Fold this rank's rows: a contiguous run of the row-major order.
            storage.relayout(row_length_of(launch), exchanged);
            const RowBlock block = storage.block();
            local.extents[0] = block.rows();
            local.element_count = block.rows() * storage.row_length();
            local.args[index].stream = {storage.local(), Region::dense(launch.rank, local.extents),
                                        0};
        } else {
            // A view: rank 0 folds all of it, the others give nothing to join.
            whole = storage.whole(exchanged);
            local.args[index].stream = {whole.get(), bound.region, 0};
        }
        if (local.element_count != 0 && (!whole || world_.rank() == 0)) {
            inner_->reduce_to_value(local, input, partial.data());
            partial[size] = std::byte{1};
        }
        MPI_Datatype partial_type = MPI_DATATYPE_NULL;
        check(MPI_Type_contiguous(static_cast<int>(size + 1), MPI_BYTE, &partial_type),
              "MPI_Type_contiguous");
        check(MPI_Type_commit(&partial_type), "MPI_Type_commit");
        pair_fold = {inner_.get(), &local, input, size};
        const int code = MPI_Allreduce(MPI_IN_PLACE, partial.data(), 1, partial_type, join_op_,
                                       world_.channel());
        pair_fold = {};
        MPI_Type_free(&partial_type);
        check(code, "MPI_Allreduce");
        std::memcpy(result, partial.data(), size);
        // The partial results: log2(ranks) exchanges of one each, as MPI's tree does them.
        exchanges_.add(launch.kernel->name, exchanged + partial.size() * tree_depth());
    }

    void reduce_to_stream(const Launch& launch, int input, const BoundStream& target) override {
        const Serving serving(*this);
        begin_call(launch);
        std::size_t exchanged = 0;
        const BoundStream& source = launch.args[static_cast<std::size_t>(input)].stream;
        if (whole_stream(source) && whole_stream(target) && launch.rank > 0) {
            reduce_rows_to_stream(launch, input, target, exchanged);
            exchanges_.add(launch.kernel->name, exchanged);
            return;
        }
        // A view: every rank folds the whole input into the whole target and keeps its rows.
        Launch local = launch;
        std::map<Storage*, WholeStream> wholes;
        bind_whole(local, wholes, exchanged);
        DistributedStorage& written = distributed(*target.storage);
        written.adopt_rows_of(target.region);
        WholeStream& whole_target = wholes[target.storage];
        if (!whole_target) {
            whole_target = written.whole(exchanged);
        }
        inner_->reduce_to_stream(local, input, {whole_target.get(), target.region, 0});
        written.keep_block_of(*whole_target);
        exchanges_.add(launch.kernel->name, exchanged);
    }

private:
    /// Under BRT_MPI_CHECK=1, stops every rank when they are not making the same call.
    /// The start of every kernel and reduction call. What the host printed so far goes out
    /// first: a call may fail on one rank only (a BRT_CHECK fault in its block), whose
    /// MPI_Abort then kills the other ranks, which would lose what they printed but had not
    /// flushed (stdout is fully buffered when it is not a terminal, as under mpirun).
    void begin_call(const Launch& launch) const {
        std::fflush(stdout);
        check_same_call(launch);
    }

    /// This rank's part of a kernel call, which every rank reaches at the same point. Under
    /// BRT_CHECK=1 a division fault may stop some ranks and not others: the lowest rank that
    /// failed, whose rows come first in row-major order, reports the call's first fault.
    template <class Part> void run_on_every_rank(Part&& part) {
        if (checks_enabled()) {
            stop_together(World::Report::FirstFailure, part);
        } else {
            part();
        }
    }

    /// Runs `part`, which every rank reaches at the same point, and stops every rank when it
    /// failed on any (World::stop_if_any_failed), so that one rank alone calls MPI_Abort:
    /// several calling it at once sometimes crash Open MPI 4.1's mpirun (SIGSEGV in
    /// PMIx_server_finalize, exit status 139 instead of 1, in 7 of 40 runs of the two
    /// conformance programs where several of 4 ranks fault). It costs an MPI_Allreduce, so only
    /// the checking modes use it. A handler the program installed gets the error as usual.
    template <class Part> void stop_together(World::Report report, Part&& part) const {
        if (!world_.stops_every_rank_on_error()) {
            part();
            return;
        }
        std::optional<brook::error> failure;
        try {
            const ThrowErrorsOnThisThread throwing;
            part();
        } catch (const brook::error& e) {
            failure = e;
        }
        world_.stop_if_any_failed(failure ? &*failure : nullptr, report);
    }

    void check_same_call(const Launch& launch) const {
        if (!checking_calls()) {
            return;
        }
        const bool same = world_.same_everywhere(call_signature(launch));
        stop_together(World::Report::EveryFailure, [&] {
            if (!same) {
                fatal(call_label(*launch.kernel) +
                      " is not the call every rank makes here (BRT_MPI_CHECK=1): the ranks' host "
                      "code took different paths; every rank must make the same calls on streams "
                      "of the same shapes");
            }
        });
    }

    /// The elements of one row of the launch's domain.
    static std::size_t row_length_of(const Launch& launch) {
        return launch.extents[0] == 0 ? 1 : launch.element_count / launch.extents[0];
    }

    static bool has_ordinary_outputs(const KernelInfo& kernel) {
        return std::ranges::any_of(kernel.params, [](const ParamInfo& param) {
            return param.kind == ParamKind::OutputStream;
        });
    }

    bool runs_by_blocks(const Launch& launch) const {
        if (!inner_->runs_row_blocks() || launch.element_flags != nullptr || launch.rank == 0) {
            return false;
        }
        for (std::size_t i = 0; i < launch.args.size(); ++i) {
            if (launch.kernel->params[i].kind == ParamKind::OutputStream &&
                !whole_stream(launch.args[i].stream)) {
                return output_view(launch).has_value();
            }
        }
        return true;
    }

    /// The parameter of `launch`'s output when it is a view and the call's only output, whose
    /// rows then decide which rank runs which rows of the domain; nothing otherwise.
    static std::optional<std::size_t> output_view(const Launch& launch) {
        std::optional<std::size_t> view;
        int outputs = 0;
        for (std::size_t i = 0; i < launch.args.size(); ++i) {
            const ParamKind kind = launch.kernel->params[i].kind;
            if (kind != ParamKind::OutputStream && kind != ParamKind::VariableOutput) {
                continue;
            }
            ++outputs;
            if (kind == ParamKind::OutputStream && !whole_stream(launch.args[i].stream)) {
                view = i;
            }
        }
        return outputs == 1 ? view : std::nullopt;
    }

    /// `region`, rows [first, ...) of which lie in `rows`, storage holding the region's stream
    /// from element `held` on: region row r lies at element offset + r * stride of the stream,
    /// so at (offset + first * stride - held) + (r - first) * stride of `rows`.
    static BoundStream rows_held_from(Storage* rows, Region region, std::size_t first,
                                      std::size_t held) {
        const std::size_t stride = std::max<std::size_t>(region.strides[0], 1);
        region.offset = region.offset + first * stride - held;
        return {rows, region, first};
    }

    /// Binds output `param` of `local`, a view, to this rank's block of its stream and returns,
    /// for every rank, the rows of the view it holds, which it runs
    /// (DistributedStorage::region_rows_by_rank lays the stream out so that no row of the view
    /// straddles two ranks).
    std::vector<RowBlock> bind_output_view(Launch& local, std::size_t param,
                                           std::size_t& exchanged) {
        BoundStream& bound = local.args[param].stream;
        DistributedStorage& storage = distributed(*bound.storage);
        std::vector<RowBlock> rows = storage.region_rows_by_rank(bound.region, exchanged);
        const RowBlock mine = rows[static_cast<std::size_t>(world_.rank())];
        bound = mine.rows() == 0 ? BoundStream{}
                                 : rows_held_from(storage.local(), bound.region, mine.first,
                                                  storage.block().first * storage.row_length());
        return rows;
    }

    /// Binds `bound`, a streamed input of the domain's shape in a call whose output is a view,
    /// to the rows of its stream that this rank's rows of the view read, fetched from the ranks
    /// holding them (`view_rows`: every rank's rows of the view; MPI_Alltoallv). Returns false,
    /// binding nothing, for an input whose rows do not lie in rows of its stream.
    bool bind_input_rows(BoundStream& bound, const std::vector<RowBlock>& view_rows,
                         std::vector<std::unique_ptr<Storage>>& fetched_rows,
                         std::size_t& exchanged) {
        const std::size_t length = bound.region.rank > 1 ? bound.region.strides[0] : 1;
        const std::optional<std::size_t> row0 =
            first_stream_row(bound.region, bound.storage->count(), length);
        if (!row0) {
            return false;
        }
        DistributedStorage& storage = distributed(*bound.storage);
        storage.relayout(length, exchanged);
        const std::vector<RowBlock> wanted = shifted(view_rows, *row0);
        const RowBlock mine = view_rows[static_cast<std::size_t>(world_.rank())];
        // `rows` holds the stream from its row `held` on; a rank that runs nothing binds nothing.
        const auto bind_rows_from = [&](Storage* rows, std::size_t held) {
            bound = mine.rows() == 0
                        ? BoundStream{}
                        : rows_held_from(rows, bound.region, mine.first, held * length);
        };
        if (within_own_rows(wanted, storage.rows())) {
            // Every rank reads only rows it holds (always so on one rank): no copy, no exchange.
            bind_rows_from(storage.local(), storage.block().first);
            return true;
        }
        fetched_rows.push_back(storage.rows_wanted(wanted, exchanged));
        bind_rows_from(fetched_rows.back().get(), *row0 + mine.first);
        return true;
    }

    /// The write pass of a variable-output call whose count pass ran by blocks (see
    /// scan_variable_outputs). Returns the bytes this rank received.
    std::size_t write_variable_outputs(const Launch& launch) {
        // Each rank pushes its block's values into storage of its own, from slot 0 ...
        const auto me = static_cast<std::size_t>(world_.rank());
        std::map<std::size_t, BoundStream> pushed_into;
        std::vector<std::unique_ptr<Storage>> values;
        for (const PushedValues& pushed : variable_call_.pushed) {
            const std::size_t mine = pushed.per_rank[me];
            values.push_back(
                mine == 0
                    ? nullptr
                    : inner_->allocate(launch.kernel->params[pushed.param].element_type(), mine));
            pushed_into[pushed.param] = {values.back().get(), Region::dense(1, {mine, 0, 0, 0}), 0};
        }
        std::size_t exchanged = run_by_blocks(launch, pushed_into);
        // ... then sends them to the ranks that hold their slots of the result.
        for (std::size_t k = 0; k < variable_call_.pushed.size(); ++k) {
            exchanged += spread_pushed_values(launch.args[variable_call_.pushed[k].param].stream,
                                              variable_call_.pushed[k].per_rank, values[k].get());
        }
        return exchanged;
    }

    /// Sends the values this rank pushed (slots [o, o + n) of the result, o the counts of the
    /// ranks before it, in element order) to the ranks holding those slots of `result`, laid
    /// out by elements (MPI_Alltoallv). Returns the bytes this rank received.
    std::size_t spread_pushed_values(const BoundStream& result,
                                     std::span<const std::size_t> per_rank, const Storage* values) {
        std::size_t exchanged = 0;
        DistributedStorage& target = distributed(*result.storage);
        target.relayout(1, exchanged);
        const std::size_t size = target.element_size();
        const auto me = static_cast<std::size_t>(world_.rank());
        std::vector<std::byte> mine(per_rank[me] * size);
        if (values != nullptr) {
            inner_->read(*values, Region::dense(1, {per_rank[me], 0, 0, 0}), mine.data());
        }
        // The slots follow each other in rank order, so they arrive in order from held.first.
        const RowExchange plan = plan_row_exchange(slots_by_rank(per_rank),
                                                   blocks_of(target.rows(), world_.ranks()), me, 1);
        const RowBlock held = target.block();
        // The slots past the total (a 2-D result's padding) stay zero: the core fills them.
        std::vector<std::byte> received(held.rows() * size);
        exchanged +=
            world_.all_to_all(mine.data(), plan.send_counts, plan.send_offsets, received.data(),
                              plan.receive_counts, plan.receive_offsets, size);
        if (target.local() != nullptr) {
            inner_->write(*target.local(), Region::dense(1, {held.rows(), 0, 0, 0}),
                          received.data());
        }
        return exchanged;
    }

    /// Each rank runs its block of the domain's rows (see the top of the file); a variable
    /// output is bound as `pushed_into` says (nothing: a count pass). Returns the bytes this
    /// rank received.
    std::size_t run_by_blocks(const Launch& launch,
                              const std::map<std::size_t, BoundStream>& pushed_into = {}) {
        std::size_t exchanged = 0;
        const std::size_t row_length = row_length_of(launch);
        Launch local = launch;
        std::map<Storage*, WholeStream> wholes;
        std::vector<std::unique_ptr<Storage>> fetched_rows;
        // An output view's rows, not the domain's even blocks, say what each rank runs: the
        // streamed inputs then bring the rows those read.
        const std::optional<std::size_t> view = output_view(launch);
        const std::vector<RowBlock> view_rows =
            view ? bind_output_view(local, *view, exchanged) : std::vector<RowBlock>{};
        const std::vector<RowBlock> domain_rows =
            view ? view_rows : blocks_of(launch.extents[0], world_.ranks());
        const RowBlock block = domain_rows[static_cast<std::size_t>(world_.rank())];
        for (std::size_t i = 0; i < local.args.size(); ++i) {
            BoundStream& bound = local.args[i].stream;
            if (bound.storage == nullptr || i == view) {
                continue;
            }
            const ParamKind kind = launch.kernel->params[i].kind;
            if (kind == ParamKind::VariableOutput) {
                const auto into = pushed_into.find(i);
                bound = into == pushed_into.end() ? BoundStream{} : into->second;
                continue;
            }
            if (view && kind == ParamKind::InputStream &&
                bound.region.same_shape(Region::dense(launch.rank, launch.extents)) &&
                bind_input_rows(bound, view_rows, fetched_rows, exchanged)) {
                continue;
            }
            const bool in_place =
                !view && (kind == ParamKind::OutputStream || kind == ParamKind::InputStream) &&
                whole_stream(bound) &&
                bound.region.same_shape(Region::dense(launch.rank, launch.extents));
            DistributedStorage& storage = distributed(*bound.storage);
            if (in_place) {
                storage.relayout(row_length, exchanged);
                bound = {storage.local(), bound.region, block.first};
                continue;
            }
            if (const std::vector<RowBlock> wanted = rows_read(launch, i, domain_rows);
                !wanted.empty()) {
                storage.relayout(bound.region.count() / bound.region.extents[0], exchanged);
                if (within_own_rows(wanted, storage.rows())) {
                    // Every rank reads only rows it holds (a[row][j]; any gather on one rank):
                    // its block serves as it is, with no copy and no exchange.
                    bound = {storage.local(), bound.region, storage.block().first};
                    continue;
                }
                fetched_rows.push_back(storage.rows_wanted(wanted, exchanged));
                bound = {fetched_rows.back().get(), bound.region,
                         wanted[static_cast<std::size_t>(world_.rank())].first};
                continue;
            }
            WholeStream& whole = wholes[bound.storage];
            if (!whole) {
                storage.adopt_rows_of(bound.region);
                whole = storage.whole(exchanged);
            }
            bound = {whole.get(), bound.region, 0};
        }
        run_on_every_rank([&] {
            if (block.rows() != 0) {
                local.first_row = block.first;
                local.end_row = block.end;
                inner_->run_kernel(local);
            }
        });
        return exchanged;
    }

    /// reduce_to_stream of whole streams by blocks: target row j folds input rows
    /// [j b, (j + 1) b). Each rank folds the input rows it holds into partial target rows, sends
    /// each to the rank holding that target row (MPI_Alltoallv), and a target row whose input
    /// rows straddle ranks is folded from its partials in rank order, so the operands keep their
    /// row-major order.
    void reduce_rows_to_stream(const Launch& launch, int input, const BoundStream& target,
                               std::size_t& exchanged) {
        const auto param = static_cast<std::size_t>(input);
        DistributedStorage& source = distributed(*launch.args[param].stream.storage);
        DistributedStorage& result = distributed(*target.storage);
        Launch with_gathers = launch;
        std::map<Storage*, WholeStream> gathers;
        bind_whole_except(with_gathers, input, gathers, exchanged);
        const Region& shape = target.region;
        const std::size_t input_rows = launch.extents[0];
        const std::size_t target_rows = shape.extents[0];
        const std::size_t per_target = input_rows / target_rows;
        const std::size_t input_row_length = row_length_of(launch);
        const std::size_t target_row_length = shape.count() / target_rows;
        const std::size_t size = result.element_size();
        source.relayout(input_row_length, exchanged);
        result.relayout(target_row_length, exchanged);
        const int ranks = world_.ranks();
        const auto me = static_cast<std::size_t>(world_.rank());
        // The target rows each rank's input rows fold into (some of them partly), in rank order.
        std::vector<RowBlock> covered;
        for (const RowBlock& rows : blocks_of(input_rows, ranks)) {
            covered.push_back(target_rows_of(rows, per_target));
        }

        // This rank's partial target rows, one inner reduction per run of input rows.
        const RowBlock mine = covered[me];
        const RowBlock held = source.block();
        std::vector<std::byte> partials(mine.rows() * target_row_length * size);
        if (mine.rows() != 0) {
            std::unique_ptr<Storage> folded = inner_->allocate(
                launch.kernel->params[param].element_type(), mine.rows() * target_row_length);
            for (const RowBlock& run : fold_runs(held, per_target)) {
                Launch local = with_gathers;
                local.extents[0] = run.rows();
                local.element_count = run.rows() * input_row_length;
                Region rows = Region::dense(launch.rank, local.extents);
                rows.offset = (run.first - held.first) * input_row_length;
                local.args[param].stream = {source.local(), rows, 0};
                std::array<std::size_t, 4> into = shape.extents;
                into[0] = (run.rows() + per_target - 1) / per_target;
                Region targets = Region::dense(shape.rank, into);
                targets.offset = (run.first / per_target - mine.first) * target_row_length;
                inner_->reduce_to_stream(local, input, {folded.get(), targets, 0});
            }
            inner_->read(*folded, Region::dense(1, {partials.size() / size, 0, 0, 0}),
                         partials.data());
        }

        // Each partial row to the rank that holds its target row, arriving in rank order.
        const RowExchange plan =
            plan_row_exchange(covered, blocks_of(target_rows, ranks), me, target_row_length);
        std::vector<std::byte> received(plan.received * size);
        exchanged +=
            world_.all_to_all(partials.data(), plan.send_counts, plan.send_offsets, received.data(),
                              plan.receive_counts, plan.receive_offsets, size);
        const RowBlock owned = result.block();
        if (owned.rows() == 0) {
            return;
        }

        // Each owned target row: its one partial, or its partials folded in rank order.
        std::vector<std::byte> rows(owned.rows() * target_row_length * size);
        const std::size_t row_bytes = target_row_length * size;
        for (std::size_t j = owned.first; j < owned.end; ++j) {
            std::vector<const std::byte*> parts;
            for (std::size_t q = 0; q < covered.size(); ++q) {
                const RowBlock got = overlap(covered[q], owned);
                if (j >= got.first && j < got.end) {
                    parts.push_back(received.data() + plan.receive_offsets[q] * size +
                                    (j - got.first) * row_bytes);
                }
            }
            std::byte* into = rows.data() + (j - owned.first) * row_bytes;
            if (parts.size() == 1) {
                std::memcpy(into, parts[0], row_bytes);
                continue;
            }
            fold_in_order(with_gathers, input, shape, parts, into);
        }
        inner_->write(*result.local(), Region::dense(1, {rows.size() / size, 0, 0, 0}),
                      rows.data());
    }

    /// Folds target rows `parts` (each target_row_length elements, in rank order) element by
    /// element into `into`: the parts as the rows of a small stream reduced to one row.
    void fold_in_order(const Launch& launch, int input, const Region& shape,
                       const std::vector<const std::byte*>& parts, std::byte* into) {
        const auto param = static_cast<std::size_t>(input);
        const ElementType& type = launch.kernel->params[param].element_type();
        const std::size_t row_length = shape.count() / shape.extents[0];
        const std::size_t row_bytes = row_length * type.size;
        std::array<std::size_t, 4> extents = shape.extents;
        extents[0] = parts.size();
        std::unique_ptr<Storage> stacked = inner_->allocate(type, parts.size() * row_length);
        std::vector<std::byte> bytes(parts.size() * row_bytes);
        for (std::size_t k = 0; k < parts.size(); ++k) {
            std::memcpy(bytes.data() + k * row_bytes, parts[k], row_bytes);
        }
        inner_->write(*stacked, Region::dense(1, {parts.size() * row_length, 0, 0, 0}),
                      bytes.data());
        std::array<std::size_t, 4> one = shape.extents;
        one[0] = 1;
        std::unique_ptr<Storage> folded = inner_->allocate(type, row_length);
        Launch local = launch;
        local.rank = shape.rank;
        local.extents = extents;
        local.element_count = parts.size() * row_length;
        local.dense = true;
        local.args[param].stream = {stacked.get(), Region::dense(shape.rank, extents), 0};
        inner_->reduce_to_stream(local, input, {folded.get(), Region::dense(shape.rank, one), 0});
        inner_->read(*folded, Region::dense(1, {row_length, 0, 0, 0}), into);
    }

    /// For a whole stream gathered by rows brcc bounded (ParamInfo::row_from) around the
    /// element's row in the domain: the rows of it each rank reads when it runs the domain's
    /// rows `domain_rows[rank]` (clamped to the stream, as gathers are). Empty when any row may
    /// be read.
    std::vector<RowBlock> rows_read(const Launch& launch, std::size_t param,
                                    std::span<const RowBlock> domain_rows) const {
        const ParamInfo& info = launch.kernel->params[param];
        const Region& gather = launch.args[param].stream.region;
        if (info.kind != ParamKind::Gather || info.row_from < 0 ||
            info.row_from != launch.rank - 1 || !whole_stream(launch.args[param].stream) ||
            std::popcount(info.gather_index_widths) != 1 ||
            std::countr_zero(info.gather_index_widths) != gather.rank || gather.extents[0] == 0) {
            return {};
        }
        // The row is the element's own only when indexof's stream has the domain's shape.
        const auto position = static_cast<std::size_t>(info.row_stream);
        const ParamKind position_kind = launch.kernel->params[position].kind;
        if ((position_kind != ParamKind::InputStream && position_kind != ParamKind::OutputStream) ||
            !launch.args[position].stream.region.same_shape(
                Region::dense(launch.rank, launch.extents))) {
            return {};
        }
        long long reach_low = info.row_reach_low;
        long long reach_high = info.row_reach_high;
        if (info.row_shift >= 0) {
            const std::optional<double> shift = constant_component(
                launch, static_cast<std::size_t>(info.row_shift), info.row_shift_component);
            const auto rows_in_reach = static_cast<double>(gather.extents[0]);
            if (!shift || !(std::fabs(*shift) <= rows_in_reach)) {
                return {}; // NaN, or past every row: the clamp decides, so any row may be read
            }
            reach_low += static_cast<long long>(std::floor(*shift));
            reach_high += static_cast<long long>(std::ceil(*shift));
        }
        return rows_in_reach(domain_rows, reach_low, reach_high, gather.extents[0]);
    }

    /// Component `component` of the float or int constant argument `param` of `launch`;
    /// nothing for another type.
    static std::optional<double> constant_component(const Launch& launch, std::size_t param,
                                                    int component) {
        const ElementType& type = launch.kernel->params[param].element_type();
        const FieldInfo& field = type.fields.front();
        const auto* at = static_cast<const std::byte*>(launch.args[param].constant) + field.offset +
                         static_cast<std::size_t>(component) * scalar_size(field.scalar);
        if (field.scalar == ScalarKind::Float32) {
            float value = 0.0f;
            std::memcpy(&value, at, sizeof value);
            return value;
        }
        if (field.scalar == ScalarKind::Int32) {
            std::int32_t value = 0;
            std::memcpy(&value, at, sizeof value);
            return value;
        }
        return std::nullopt;
    }

    /// Binds every stream argument of `launch` to a whole copy in the inner backend, one per
    /// storage.
    void bind_whole(Launch& launch, std::map<Storage*, WholeStream>& wholes,
                    std::size_t& exchanged) {
        bind_whole_except(launch, -1, wholes, exchanged);
    }

    /// bind_whole for every stream argument but `except` (a reduction's input, which the caller
    /// binds by blocks): the gathers a reduce operator may read.
    void bind_whole_except(Launch& launch, int except, std::map<Storage*, WholeStream>& wholes,
                           std::size_t& exchanged) {
        for (std::size_t i = 0; i < launch.args.size(); ++i) {
            BoundStream& bound = launch.args[i].stream;
            if (bound.storage == nullptr || static_cast<int>(i) == except) {
                continue;
            }
            WholeStream& whole = wholes[bound.storage];
            if (!whole) {
                DistributedStorage& storage = distributed(*bound.storage);
                storage.adopt_rows_of(bound.region);
                whole = storage.whole(exchanged);
            }
            bound.storage = whole.get();
        }
    }

    /// Every rank runs the whole call and keeps its rows of what it wrote. Returns the bytes
    /// this rank received.
    std::size_t run_whole(const Launch& launch) {
        std::size_t exchanged = 0;
        Launch local = launch;
        std::map<Storage*, WholeStream> wholes;
        bind_whole(local, wholes, exchanged);
        WholeStream flags;
        if (launch.element_flags != nullptr) {
            DistributedStorage& storage = distributed(*launch.element_flags);
            storage.adopt_rows_of(Region::dense(launch.rank, launch.extents));
            flags = storage.whole(exchanged);
            local.element_flags = flags.get();
        }
        run_on_every_rank([&] { inner_->run_kernel(local); });
        for (std::size_t i = 0; i < launch.args.size(); ++i) {
            const ParamKind kind = launch.kernel->params[i].kind;
            Storage* storage = launch.args[i].stream.storage;
            if (storage != nullptr &&
                (kind == ParamKind::OutputStream || kind == ParamKind::VariableOutput)) {
                distributed(*storage).keep_block_of(*wholes[storage]);
            }
        }
        if (flags) {
            distributed(*launch.element_flags).keep_block_of(*flags);
        }
        return exchanged;
    }

    /// The rounds of a tree over the ranks: ceil(log2(ranks)).
    std::size_t tree_depth() const {
        std::size_t depth = 0;
        while ((std::size_t{1} << depth) < static_cast<std::size_t>(world_.ranks())) {
            ++depth;
        }
        return depth;
    }

    /// A variable output of the call between its count and write passes: its parameter and
    /// the number of values each rank's block pushes to it.
    struct PushedValues {
        std::size_t param = 0;
        std::vector<std::size_t> per_rank;
    };

    /// One call on this thread: inside the backend (the threads it makes are the libraries',
    /// thread_lineage.hpp) and, where MPI serves one thread at a time, the only call.
    class Serving {
    public:
        explicit Serving(MpiBackend& backend) : alone_(backend.mutex_, std::defer_lock) {
            if (!backend.world_.threads_concurrent()) {
                alone_.lock();
            }
        }

    private:
        InsideBackend inside_;
        std::unique_lock<std::mutex> alone_;
    };

    /// The variable-output call in progress on a thread (the core runs its count pass, the
    /// scan and its write pass back to back, on the calling thread): whether its count pass
    /// ran by blocks, its variable outputs, and the bytes received so far.
    struct VariableCall {
        bool counted_by_blocks = false;
        std::vector<PushedValues> pushed;
        std::size_t exchanged = 0;
    };

    World world_;
    ExchangeProfile exchanges_{world_};
    static thread_local VariableCall variable_call_;
    std::unique_ptr<Backend> inner_;
    std::string name_;
    MPI_Op join_op_ = MPI_OP_NULL;
    std::mutex mutex_;
};

thread_local MpiBackend::VariableCall MpiBackend::variable_call_;

const BackendRegistration mpi_registration({
    .name = "mpi",
    .auto_rank = -1,
    // The registry starts a wrapping backend with create_wrapping only.
    .create = nullptr,
    .create_wrapping = [](std::string_view inner) -> std::unique_ptr<Backend> {
        if (inner == "mpi" || inner.starts_with("mpi:")) {
            throw std::runtime_error("the mpi backend cannot wrap itself; name a local backend "
                                     "after the colon (mpi:cpu)");
        }
        // MPI, the inner backend and the libraries they use start their own threads.
        const InsideBackend inside;
        return std::make_unique<MpiBackend>(create_backend(inner.empty() ? "cpu" : inner));
    },
});

} // namespace

} // namespace brook::detail::mpi
