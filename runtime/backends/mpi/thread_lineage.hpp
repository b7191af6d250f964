// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// A name for each host thread that is the same on every rank: its place in the tree of thread
// creations (the n-th thread that thread t made), which every rank's program builds alike when
// each thread makes its threads in program order. The mpi backend gives every such name its own
// MPI communicator (World::channel), so that threads racing for the backend meet their own
// counterparts on the other ranks whatever order each rank serves them in (docs/mpi.md, "Host
// threads").
//
// libbrook defines pthread_create, which the program's calls (std::thread's among them) reach
// before the C library's, to learn each thread's parent. Threads made while the thread making
// them is inside the backend (MPI's own, OpenMP's teams, a GPU driver's) are the libraries', not
// the program's: the number of those may differ between ranks, so they take no place in the
// tree and get no name.

#include <cstdint>
#include <optional>

namespace brook::detail::mpi {

/// This thread's name: the program's first thread has one, as does every thread a named thread
/// made outside the backend; nothing for the others.
std::optional<std::uint64_t> this_thread_lineage();

/// While it lives, this thread is inside the backend: the threads it makes get no name.
class InsideBackend {
public:
    InsideBackend() noexcept;
    ~InsideBackend();
    InsideBackend(const InsideBackend&) = delete;
    InsideBackend& operator=(const InsideBackend&) = delete;
};

} // namespace brook::detail::mpi
