// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// A stream's storage spread over the ranks: each rank holds one block of rows (block_of,
// row_blocks.hpp) in storage of its inner backend, and nothing of the others' rows.
//
// The seam's allocate() gives a count, not a shape, so the rows are learnt from use: the first
// region that reaches the storage (a streamRead, a launch) fixes the row length, the elements
// of one index of the slowest dimension (count / extents[0] for a region covering the storage,
// strides[0] for a view of it, 1 for 1-D). Every rank sees the same calls, so every rank
// decides the same. A launch that wants other rows redistributes the storage (relayout).
//
// BRT_MAX_MEMORY counts what each rank holds: the blocks, counted by the inner backend when it
// allocates them (at first use), not the whole stream; a block past the cap is reported as the
// whole stream, then the block.

#include "core/backend.hpp"

#include "mpi_world.hpp"
#include "row_blocks.hpp"

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace brook::detail::mpi {

/// Every element of a distributed stream in the inner backend, for one call
/// (DistributedStorage::whole): the rank's own storage, or a copy it owns.
class WholeStream {
public:
    WholeStream() = default;
    static WholeStream own(Storage* storage) { return WholeStream(nullptr, storage); }
    static WholeStream copy(std::unique_ptr<Storage> copy) {
        Storage* storage = copy.get();
        return WholeStream(std::move(copy), storage);
    }
    Storage* get() const { return storage_; }
    Storage& operator*() const { return *storage_; }
    explicit operator bool() const { return storage_ != nullptr; }

private:
    WholeStream(std::unique_ptr<Storage> copy, Storage* storage)
        : copy_(std::move(copy)), storage_(storage) {}

    std::unique_ptr<Storage> copy_;
    Storage* storage_ = nullptr;
};

class DistributedStorage final : public Storage {
public:
    DistributedStorage(Backend& inner, const World& world, const ElementType& type,
                       std::size_t count);
    ~DistributedStorage() override;

    /// Fixes the row length from `region` if no region has yet (see the top of the file).
    void adopt_rows_of(const Region& region);
    /// The elements of one row; 0 before a region fixed it.
    std::size_t row_length() const { return row_length_; }
    std::size_t rows() const { return row_length_ == 0 ? 0 : count() / row_length_; }
    /// This rank's rows.
    RowBlock block() const { return block_; }
    /// This rank's rows in its inner backend (null when it holds none).
    Storage* local() const { return local_.get(); }

    /// Spreads the storage by rows of `row_length` elements (collective when it changes). Adds
    /// the bytes received to `exchanged`.
    void relayout(std::size_t row_length, std::size_t& exchanged);
    /// Every element, in order, on every rank (collective). Adds the bytes received to
    /// `exchanged`.
    std::vector<std::byte> all_elements(std::size_t& exchanged) const;
    /// Every element in the inner backend (collective): this rank's own storage where it holds
    /// them all (one rank), so that what a call writes there is the stream's; else a copy
    /// gathered from every rank.
    WholeStream whole(std::size_t& exchanged);
    /// The rows `wanted[rank]` of this rank (every rank passes the same list) in new inner
    /// storage, each rank sending the others the wanted rows it holds (collective); null when
    /// this rank wants none. Adds the bytes received to `exchanged`.
    std::unique_ptr<Storage> rows_wanted(std::span<const RowBlock> wanted,
                                         std::size_t& exchanged) const;
    /// Takes this rank's rows from `whole`, inner storage of every element (no communication;
    /// nothing to take from this rank's own storage).
    void keep_block_of(const Storage& whole);

    /// streamRead's write: each rank stores the elements of `region` in its own rows, from its
    /// own `host` (all of the region's elements, row-major).
    void write(const Region& region, const void* host);
    /// streamWrite's read: every element of `region` to every rank's `host` (collective).
    void read(const Region& region, void* host, std::size_t& exchanged) const;
    /// The rows [first, end) of `region` this rank holds, after spreading the storage by the
    /// region's rows (collective when that changes the layout). Adds the bytes received to
    /// `exchanged`.
    std::array<std::size_t, 2> local_rows(const Region& region, std::size_t& exchanged);
    /// local_rows of every rank, in rank order (collective when the layout changes).
    std::vector<RowBlock> region_rows_by_rank(const Region& region, std::size_t& exchanged);
    /// streamWriteLocal's read: the elements of `region`, all in this rank's rows, to `host`
    /// (no communication).
    void read_local(const Region& region, void* host) const;
    /// The elements of `region` at row-major `positions` (this rank's list; every rank calls)
    /// into `values`, each from the rank holding it: the positions go there and the elements
    /// come back by MPI_Alltoallv, so only the elements named move. With `update`, the holder
    /// also replaces each element it serves by update(element), taking the ranks' lists in
    /// rank order, each in its order. Adds the bytes received to `exchanged`.
    void exchange_elements(const Region& region, std::span<const std::size_t> positions,
                           std::byte* values, const std::function<void(std::byte*)>* update,
                           std::size_t& exchanged);
    /// Copies `source` (same count and element size), taking its rows.
    void copy_from(const DistributedStorage& source);

private:
    std::size_t local_count() const { return block_.rows() * row_length_; }
    /// Rows of `row_length` elements (0: none fixed yet) in new zeroed local storage.
    void lay_out(std::size_t row_length);
    /// Stops the program when this rank's block would take it past BRT_MAX_MEMORY, naming the
    /// whole stream and what the program's streams hold, as every backend does, then the block
    /// and what this rank holds (the inner backend would name the block as if it were the
    /// stream).
    void check_block_fits_memory_cap() const;

    Backend* inner_;
    const World* world_;
    ElementType type_;
    std::size_t row_length_ = 0;
    RowBlock block_;
    std::unique_ptr<Storage> local_;
};

/// Only storage the mpi backend allocated reaches it: one backend serves the whole run.
inline DistributedStorage& distributed(Storage& storage) {
    return static_cast<DistributedStorage&>(storage);
}
inline const DistributedStorage& distributed(const Storage& storage) {
    return static_cast<const DistributedStorage&>(storage);
}

} // namespace brook::detail::mpi
