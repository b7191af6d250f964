// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Moving a distributed stream's elements: a rank's rows are one contiguous run of the storage
// (rows are row-major), so this rank's part of the storage is elements [first * L, end * L) for
// row length L, and gathering every rank's part in rank order gives the whole storage.
#include "distributed_storage.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>

namespace brook::detail::mpi {

namespace {

Region run_of(std::size_t offset, std::size_t count) {
    Region region = Region::dense(1, {count, 0, 0, 0});
    region.offset = offset;
    return region;
}

bool covers(const Region& region, std::size_t count) {
    return region.offset == 0 && region.contiguous() && region.count() == count;
}

/// The index in the storage of the element at row-major position `k` of `region`.
std::size_t storage_index(const Region& region, std::size_t k) {
    std::size_t at = region.offset;
    for (int d = region.rank - 1; d >= 0; --d) {
        const auto dim = static_cast<std::size_t>(d);
        at += k % region.extents[dim] * region.strides[dim];
        k /= region.extents[dim];
    }
    return at;
}

/// Calls visit(k, s) for the region's elements in row-major order: k counts them, s is the
/// element's index in the storage.
template <class Visit> void for_each_element(const Region& region, Visit visit) {
    const std::size_t count = region.count();
    for (std::size_t k = 0; k < count; ++k) {
        visit(k, storage_index(region, k));
    }
}

/// The bytes of every distributed stream alive, whole: what the program's streams hold, as the
/// other backends count it (each rank knows every stream's size, since every rank makes them).
std::atomic<std::size_t> distributed_bytes{0};

} // namespace

DistributedStorage::DistributedStorage(Backend& inner, const World& world, const ElementType& type,
                                       std::size_t count)
    : Storage(type.size, count, Uncounted{}), inner_(&inner), world_(&world), type_(type) {
    if (type.size != 0 && count > std::numeric_limits<std::size_t>::max() / type.size) {
        fatal("a stream of " + std::to_string(count) + " elements of " + std::to_string(type.size) +
              " bytes is larger than this machine can address");
    }
    distributed_bytes.fetch_add(count * type.size, std::memory_order_relaxed);
}

DistributedStorage::~DistributedStorage() {
    distributed_bytes.fetch_sub(count() * element_size(), std::memory_order_relaxed);
}

void DistributedStorage::adopt_rows_of(const Region& region) {
    if (row_length_ != 0) {
        return;
    }
    const std::size_t length = row_length_for(region, count(), covers(region, count()));
    lay_out(length == 0 ? 1 : length);
}

void DistributedStorage::relayout(std::size_t row_length, std::size_t& exchanged) {
    if (row_length == row_length_) {
        return;
    }
    if (row_length_ == 0) {
        // Nothing held yet: zeros in any layout.
        lay_out(row_length);
        return;
    }
    const std::vector<std::byte> all = all_elements(exchanged);
    lay_out(row_length);
    if (local_ != nullptr) {
        inner_->write(*local_, run_of(0, local_count()),
                      all.data() + block_.first * row_length_ * element_size());
    }
}

void DistributedStorage::lay_out(std::size_t row_length) {
    row_length_ = row_length;
    block_ = row_length == 0 ? RowBlock{} : block_of(rows(), world_->rank(), world_->ranks());
    local_.reset();
    if (local_count() != 0) {
        check_block_fits_memory_cap();
        local_ = inner_->allocate(type_, local_count());
    }
}

void DistributedStorage::check_block_fits_memory_cap() const {
    const std::optional<std::size_t>& cap = memory_cap();
    const std::size_t block_bytes = local_count() * element_size();
    const std::size_t held = storage_bytes_held();
    if (!cap || fits_memory_cap(block_bytes, held, *cap)) {
        return;
    }
    // This stream is among the distributed ones from its declaration.
    const std::size_t program_held =
        distributed_bytes.load(std::memory_order_relaxed) - count() * element_size();
    fatal(memory_cap_exceeded(count(), element_size(), program_held, *cap) + " per process; rank " +
          std::to_string(world_->rank()) + " of " + std::to_string(world_->ranks()) +
          " would hold rows " + std::to_string(block_.first) + " to " +
          std::to_string(block_.end - 1) + " of it, " + std::to_string(block_bytes) +
          " bytes, beside the " + std::to_string(held) +
          " bytes it holds; raise BRT_MAX_MEMORY, run more processes or make the stream smaller");
}

std::vector<std::byte> DistributedStorage::all_elements(std::size_t& exchanged) const {
    if (row_length_ == 0) {
        // Never used: zeros everywhere, as allocate() promises.
        return std::vector<std::byte>(count() * element_size());
    }
    std::vector<std::byte> mine(local_count() * element_size());
    if (local_ != nullptr) {
        inner_->read(*local_, run_of(0, local_count()), mine.data());
    }
    std::vector<std::size_t> counts(static_cast<std::size_t>(world_->ranks()));
    for (int r = 0; r < world_->ranks(); ++r) {
        counts[static_cast<std::size_t>(r)] =
            block_of(rows(), r, world_->ranks()).rows() * row_length_;
    }
    std::vector<std::byte> all(count() * element_size());
    exchanged += world_->all_gather(mine.data(), counts, element_size(), all.data());
    return all;
}

WholeStream DistributedStorage::whole(std::size_t& exchanged) {
    if (world_->ranks() == 1 && local_ != nullptr) {
        return WholeStream::own(local_.get());
    }
    const std::vector<std::byte> all = all_elements(exchanged);
    std::unique_ptr<Storage> copy = inner_->allocate(type_, count());
    if (count() != 0) {
        inner_->write(*copy, run_of(0, count()), all.data());
    }
    return WholeStream::copy(std::move(copy));
}

std::unique_ptr<Storage> DistributedStorage::rows_wanted(std::span<const RowBlock> wanted,
                                                         std::size_t& exchanged) const {
    const auto me = static_cast<std::size_t>(world_->rank());
    std::vector<std::byte> mine(local_count() * element_size());
    if (local_ != nullptr) {
        inner_->read(*local_, run_of(0, local_count()), mine.data());
    }
    // Every rank's block is block_of its rows, so the rows arrive in order from wanted[me].first.
    const RowExchange plan =
        plan_row_exchange(blocks_of(rows(), world_->ranks()), wanted, me, row_length_);
    const std::size_t count = wanted[me].rows() * row_length_;
    std::vector<std::byte> gathered(count * element_size());
    exchanged +=
        world_->all_to_all(mine.data(), plan.send_counts, plan.send_offsets, gathered.data(),
                           plan.receive_counts, plan.receive_offsets, element_size());
    if (count == 0) {
        return nullptr;
    }
    std::unique_ptr<Storage> rows = inner_->allocate(type_, count);
    inner_->write(*rows, run_of(0, count), gathered.data());
    return rows;
}

void DistributedStorage::keep_block_of(const Storage& whole) {
    if (local_ == nullptr || &whole == local_.get()) {
        return;
    }
    std::vector<std::byte> mine(local_count() * element_size());
    inner_->read(whole, run_of(block_.first * row_length_, local_count()), mine.data());
    inner_->write(*local_, run_of(0, local_count()), mine.data());
}

void DistributedStorage::write(const Region& region, const void* host) {
    adopt_rows_of(region);
    if (local_ == nullptr) {
        return;
    }
    const auto* bytes = static_cast<const std::byte*>(host);
    const std::size_t size = element_size();
    const std::size_t first = block_.first * row_length_;
    if (covers(region, count())) {
        inner_->write(*local_, run_of(0, local_count()), bytes + first * size);
        return;
    }
    if (region.contiguous()) {
        // One run of the storage (streamReadLocal's rows among them): its part in this rank's
        // rows, copied straight.
        const std::size_t from = std::max(first, region.offset);
        const std::size_t to = std::min(first + local_count(), region.offset + region.count());
        if (from < to) {
            inner_->write(*local_, run_of(from - first, to - from),
                          bytes + (from - region.offset) * size);
        }
        return;
    }
    // A view: patch this rank's rows where the view has elements.
    std::vector<std::byte> mine(local_count() * size);
    inner_->read(*local_, run_of(0, local_count()), mine.data());
    const std::size_t end = first + local_count();
    for_each_element(region, [&](std::size_t k, std::size_t at) {
        if (at >= first && at < end) {
            std::memcpy(mine.data() + (at - first) * size, bytes + k * size, size);
        }
    });
    inner_->write(*local_, run_of(0, local_count()), mine.data());
}

void DistributedStorage::read(const Region& region, void* host, std::size_t& exchanged) const {
    const std::vector<std::byte> all = all_elements(exchanged);
    auto* bytes = static_cast<std::byte*>(host);
    const std::size_t size = element_size();
    if (covers(region, count())) {
        std::memcpy(bytes, all.data(), all.size());
        return;
    }
    for_each_element(region, [&](std::size_t k, std::size_t at) {
        std::memcpy(bytes + k * size, all.data() + at * size, size);
    });
}

std::array<std::size_t, 2> DistributedStorage::local_rows(const Region& region,
                                                          std::size_t& exchanged) {
    const RowBlock mine =
        region_rows_by_rank(region, exchanged)[static_cast<std::size_t>(world_->rank())];
    return {mine.first, mine.end};
}

std::vector<RowBlock> DistributedStorage::region_rows_by_rank(const Region& region,
                                                              std::size_t& exchanged) {
    // Rows of the region's own length: the region's rows then never straddle two ranks.
    const std::size_t length = row_length_for(region, count(), covers(region, count()));
    relayout(length, exchanged);
    return view_rows_by_rank(region, length, rows(), world_->ranks());
}

void DistributedStorage::read_local(const Region& region, void* host) const {
    if (region.count() == 0) {
        return;
    }
    const std::size_t first = block_.first * row_length_;
    if (region.contiguous()) {
        inner_->read(*local_, run_of(region.offset - first, region.count()), host);
        return;
    }
    std::vector<std::byte> mine(local_count() * element_size());
    inner_->read(*local_, run_of(0, local_count()), mine.data());
    auto* bytes = static_cast<std::byte*>(host);
    const std::size_t size = element_size();
    for_each_element(region, [&](std::size_t k, std::size_t at) {
        std::memcpy(bytes + k * size, mine.data() + (at - first) * size, size);
    });
}

void DistributedStorage::exchange_elements(const Region& region,
                                           std::span<const std::size_t> positions,
                                           std::byte* values,
                                           const std::function<void(std::byte*)>* update,
                                           std::size_t& exchanged) {
    adopt_rows_of(region);
    const auto ranks = static_cast<std::size_t>(world_->ranks());
    const std::size_t size = element_size();
    // The requests, grouped by the rank holding their element, each group in the order of
    // `positions`; slot[k] is where position k's request (and its answer) sits.
    std::vector<std::size_t> holder(positions.size());
    std::vector<std::size_t> send_counts(ranks), send_offsets(ranks);
    for (std::size_t k = 0; k < positions.size(); ++k) {
        holder[k] =
            holder_of(storage_index(region, positions[k]) / row_length_, rows(), world_->ranks());
        ++send_counts[holder[k]];
    }
    for (std::size_t q = 1; q < ranks; ++q) {
        send_offsets[q] = send_offsets[q - 1] + send_counts[q - 1];
    }
    std::vector<std::size_t> requests(positions.size());
    std::vector<std::size_t> slot(positions.size());
    std::vector<std::size_t> next = send_offsets;
    for (std::size_t k = 0; k < positions.size(); ++k) {
        slot[k] = next[holder[k]]++;
        requests[slot[k]] = storage_index(region, positions[k]);
    }
    std::vector<std::size_t> receive_counts(ranks), receive_offsets(ranks);
    exchanged += world_->exchange_counts(send_counts, receive_counts);
    for (std::size_t q = 1; q < ranks; ++q) {
        receive_offsets[q] = receive_offsets[q - 1] + receive_counts[q - 1];
    }
    std::vector<std::size_t> asked(receive_offsets[ranks - 1] + receive_counts[ranks - 1]);
    exchanged += world_->all_to_all(requests.data(), send_counts, send_offsets, asked.data(),
                                    receive_counts, receive_offsets, sizeof(std::size_t));

    // This rank's answers: the ranks' requests come in rank order, so the updates follow the
    // row-major order of the elements that asked.
    std::vector<std::byte> mine(local_count() * size);
    if (local_ != nullptr) {
        inner_->read(*local_, run_of(0, local_count()), mine.data());
    }
    const std::size_t first = block_.first * row_length_;
    std::vector<std::byte> answers(asked.size() * size);
    for (std::size_t i = 0; i < asked.size(); ++i) {
        std::byte* element = mine.data() + (asked[i] - first) * size;
        std::memcpy(answers.data() + i * size, element, size);
        if (update != nullptr) {
            (*update)(element);
        }
    }
    if (update != nullptr && local_ != nullptr) {
        inner_->write(*local_, run_of(0, local_count()), mine.data());
    }
    std::vector<std::byte> replies(positions.size() * size);
    exchanged += world_->all_to_all(answers.data(), receive_counts, receive_offsets, replies.data(),
                                    send_counts, send_offsets, size);
    for (std::size_t k = 0; k < positions.size(); ++k) {
        std::memcpy(values + k * size, replies.data() + slot[k] * size, size);
    }
}

void DistributedStorage::copy_from(const DistributedStorage& source) {
    // Every element is replaced: a fresh layout, nothing moved.
    lay_out(source.row_length_);
    if (local_ != nullptr) {
        inner_->copy(*local_, *source.local_);
    }
}

} // namespace brook::detail::mpi
