// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The MPI side of the mpi backend: starting and stopping MPI, this process's rank, the
// collectives the backend uses (with Brook's error for an MPI failure), and stopping every rank
// when one fails. docs/mpi.md has the semantics; row_blocks.hpp, which rows each rank holds.

#include "brook/errors.hpp"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace brook::detail::mpi {

/// MPI for the life of the backend: MPI_Init_thread at the start (unless the program started
/// MPI itself), MPI_Finalize at the end. While it lives, an error on one rank prints its message
/// and stops every rank with MPI_Abort (unless the program installed its own error handler).
class World {
public:
    World();
    ~World();
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    int rank() const { return rank_; }
    int ranks() const { return ranks_; }
    /// "Open MPI v4.1.4, rank 0 of 2".
    std::string description() const;
    /// Whether MPI serves several threads at once (MPI_THREAD_MULTIPLE); else the backend must
    /// serve one call at a time, and every thread shares one channel.
    bool threads_concurrent() const { return threads_concurrent_; }
    /// The communicator of this thread's collectives: with threads_concurrent(), its own, the
    /// same on every rank for the thread of the same name (thread_lineage.hpp), made at the
    /// thread's first collective; the members below use it.
    MPI_Comm channel() const;

    /// Every rank's `mine` (element_size * counts[rank] bytes), concatenated in rank order into
    /// `all`; `counts` are the elements each rank gives. Returns the bytes this rank received
    /// from the others.
    std::size_t all_gather(const void* mine, std::span<const std::size_t> counts,
                           std::size_t element_size, void* all) const;
    /// MPI_Alltoallv in elements of `element_size` bytes: rank q gets send_counts[q] elements
    /// from send_offsets[q] of `send` (these may overlap), and this rank's `receive` gets
    /// receive_counts[q] elements from rank q at receive_offsets[q]. Returns the bytes this rank
    /// received from the others.
    std::size_t all_to_all(const void* send, std::span<const std::size_t> send_counts,
                           std::span<const std::size_t> send_offsets, void* receive,
                           std::span<const std::size_t> receive_counts,
                           std::span<const std::size_t> receive_offsets,
                           std::size_t element_size) const;
    /// MPI_Alltoall of one count per rank: `receive[q]` gets rank q's `send[me]`. Returns the
    /// bytes this rank received from the others.
    std::size_t exchange_counts(std::span<const std::size_t> send,
                                std::span<std::size_t> receive) const;
    /// Whether an error stops every rank through this World's handler (the program installed
    /// none of its own).
    bool stops_every_rank_on_error() const;
    /// Which ranks' errors stop_if_any_failed prints.
    enum class Report {
        FirstFailure, ///< the lowest failing rank's alone
        EveryFailure, ///< each failing rank's, all printed before the job stops
    };
    /// Every rank calls this at the same point, with the error it met there or nullptr. When
    /// some rank met one, the ranks print as `report` says (the message, tagged with the rank,
    /// as the handler prints it), the lowest failing rank alone calls MPI_Abort, and the others
    /// wait for that abort to end them. Returns when no rank failed.
    void stop_if_any_failed(const brook::error* failure, Report report) const;
    /// True when every rank passes the same `value` (BRT_MPI_CHECK).
    bool same_everywhere(std::uint64_t value) const;

private:
    int rank_ = 0;
    int ranks_ = 1;
    bool started_mpi_ = false;
    bool threads_concurrent_ = false;
    /// What the threads' channels are made from (MPI_Comm_create_group, tagged with the
    /// thread's name), and the only channel without threads_concurrent_.
    MPI_Comm channels_ = MPI_COMM_NULL;
    MPI_Group everyone_ = MPI_GROUP_NULL;
    int largest_tag_ = 32767;
};

/// Stops the program with Brook's error for a failed MPI call `what` returning `code`.
void check(int code, const char* what);

} // namespace brook::detail::mpi
