// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// MPI_Init_thread asks for MPI_THREAD_MULTIPLE: host threads use the backend at once, each
// thread's collectives on its own channel, a communicator shared with the thread of the same
// name on every other rank (thread_lineage.hpp), so that whatever order each rank serves its
// threads in, every collective meets its counterparts. Where MPI gives less (a program that
// started MPI itself at a lower level), the backend serves one call at a time on one channel,
// and threads must then make their calls in the same order on every rank.
//
// Errors: Brook's default handler prints the message and exits, which on one rank would leave
// the others waiting forever in their next collective (and MPI_Finalize at exit would wait for
// them too). While MPI runs, the handler prints the same line, tagged with the rank, and calls
// MPI_Abort, which stops every rank of the job. Where every rank reaches the same point and
// some may fail there (the checking modes), stop_if_any_failed has them agree first, so that
// one rank alone calls MPI_Abort.
#include "mpi_world.hpp"

#include "thread_lineage.hpp"

#include "core/errors.hpp"

#include <mpi.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <utility>
#include <vector>

namespace brook::detail::mpi {

namespace {

/// Prints `e` as every rank's errors are printed: tagged with the rank, after what the program
/// wrote to stdout.
void print_tagged(const brook::error& e) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::fflush(stdout);
    std::fprintf(stderr, "%s (mpi rank %d)\n", e.what(), rank);
    std::fflush(stderr);
}

/// The error handler while MPI runs: see the top of the file.
void abort_all_ranks(const brook::error& e) {
    print_tagged(e);
    MPI_Abort(MPI_COMM_WORLD, 1);
    std::_Exit(1);
}

int as_count(std::size_t count) {
    if (count > static_cast<std::size_t>(INT_MAX)) {
        fatal("mpi backend: a block of " + std::to_string(count) +
              " elements is more than one MPI message carries here (INT_MAX); use more ranks");
    }
    return static_cast<int>(count);
}

} // namespace

void check(int code, const char* what) {
    if (code == MPI_SUCCESS) {
        return;
    }
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    fatal(std::string("mpi backend: ") + what + " failed: " + std::string(text, length));
}

World::World() {
    int initialized = 0;
    MPI_Initialized(&initialized);
    int provided = 0;
    if (initialized == 0) {
        check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided), "MPI_Init_thread");
        started_mpi_ = true;
    } else {
        MPI_Query_thread(&provided);
    }
    if (provided < MPI_THREAD_SERIALIZED) {
        fatal("mpi backend: this MPI gives thread level " + std::to_string(provided) +
              ", and the backend needs MPI_THREAD_SERIALIZED at least (MPI_THREAD_MULTIPLE for "
              "host threads that use Brook at once)");
    }
    threads_concurrent_ = provided == MPI_THREAD_MULTIPLE;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
    check(MPI_Comm_dup(MPI_COMM_WORLD, &channels_), "MPI_Comm_dup");
    MPI_Comm_set_errhandler(channels_, MPI_ERRORS_RETURN);
    MPI_Comm_group(MPI_COMM_WORLD, &everyone_);
    int* tag_bound = nullptr;
    int found = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_bound, &found);
    if (found != 0 && tag_bound != nullptr) {
        largest_tag_ = *tag_bound;
    }
    if (const error_handler previous = set_error_handler(abort_all_ranks); previous != nullptr) {
        // The program's own handler stays: it decides what an error means.
        set_error_handler(previous);
    }
}

World::~World() {
    if (const error_handler ours = set_error_handler(nullptr); ours != abort_all_ranks) {
        set_error_handler(ours);
    }
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized == 0) {
        MPI_Group_free(&everyone_);
        MPI_Comm_free(&channels_);
    }
    if (started_mpi_ && finalized == 0) {
        MPI_Finalize();
    }
}

namespace {

/// This thread's channels, one per World (a program has one), freed when the thread ends.
class ThreadChannels {
public:
    ThreadChannels() = default;
    ThreadChannels(const ThreadChannels&) = delete;
    ThreadChannels& operator=(const ThreadChannels&) = delete;
    ~ThreadChannels() {
        int finalized = 0;
        MPI_Finalized(&finalized);
        if (finalized != 0) {
            return;
        }
        for (auto& [world, channel] : channels_) {
            MPI_Comm_free(&channel);
        }
    }
    MPI_Comm* find(const World* world) {
        for (auto& [owner, channel] : channels_) {
            if (owner == world) {
                return &channel;
            }
        }
        return nullptr;
    }
    void add(const World* world, MPI_Comm channel) { channels_.emplace_back(world, channel); }

private:
    std::vector<std::pair<const World*, MPI_Comm>> channels_;
};

thread_local ThreadChannels thread_channels;

} // namespace

MPI_Comm World::channel() const {
    if (!threads_concurrent_) {
        return channels_;
    }
    if (const MPI_Comm* made = thread_channels.find(this)) {
        return *made;
    }
    const std::optional<std::uint64_t> lineage = this_thread_lineage();
    if (!lineage) {
        fatal("mpi backend: a thread that the backend or a library it uses started (not one the "
              "program made with pthread_create or std::thread outside Brook calls) called "
              "Brook: its counterparts on the other ranks cannot be told apart");
    }
    // Threads of different names make their channels at once on every rank; the tag tells
    // the calls apart (names that share a tag would only meet if made at the same moment).
    const auto tag = static_cast<int>(*lineage % (static_cast<std::uint64_t>(largest_tag_) + 1));
    MPI_Comm made = MPI_COMM_NULL;
    check(MPI_Comm_create_group(channels_, everyone_, tag, &made), "MPI_Comm_create_group");
    MPI_Comm_set_errhandler(made, MPI_ERRORS_RETURN);
    thread_channels.add(this, made);
    return made;
}

std::string World::description() const {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    std::string library(version, static_cast<std::size_t>(length));
    library = library.substr(0, library.find_first_of(",\n"));
    return library + ", rank " + std::to_string(rank_) + " of " + std::to_string(ranks_);
}

std::size_t World::all_gather(const void* mine, std::span<const std::size_t> counts,
                              std::size_t element_size, void* all) const {
    MPI_Datatype element = MPI_DATATYPE_NULL;
    check(MPI_Type_contiguous(as_count(element_size), MPI_BYTE, &element), "MPI_Type_contiguous");
    check(MPI_Type_commit(&element), "MPI_Type_commit");
    std::vector<int> sizes(counts.size());
    std::vector<int> offsets(counts.size());
    std::size_t offset = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
        sizes[r] = as_count(counts[r]);
        offsets[r] = as_count(offset);
        offset += counts[r];
    }
    const int code = MPI_Allgatherv(mine, sizes[static_cast<std::size_t>(rank_)], element, all,
                                    sizes.data(), offsets.data(), element, channel());
    MPI_Type_free(&element);
    check(code, "MPI_Allgatherv");
    return (offset - counts[static_cast<std::size_t>(rank_)]) * element_size;
}

std::size_t World::all_to_all(const void* send, std::span<const std::size_t> send_counts,
                              std::span<const std::size_t> send_offsets, void* receive,
                              std::span<const std::size_t> receive_counts,
                              std::span<const std::size_t> receive_offsets,
                              std::size_t element_size) const {
    const auto as_counts = [](std::span<const std::size_t> values) {
        std::vector<int> counts(values.size());
        for (std::size_t r = 0; r < values.size(); ++r) {
            counts[r] = as_count(values[r]);
        }
        return counts;
    };
    const std::vector<int> sends = as_counts(send_counts);
    const std::vector<int> send_at = as_counts(send_offsets);
    const std::vector<int> receives = as_counts(receive_counts);
    const std::vector<int> receive_at = as_counts(receive_offsets);
    MPI_Datatype element = MPI_DATATYPE_NULL;
    check(MPI_Type_contiguous(as_count(element_size), MPI_BYTE, &element), "MPI_Type_contiguous");
    check(MPI_Type_commit(&element), "MPI_Type_commit");
    const int code = MPI_Alltoallv(send, sends.data(), send_at.data(), element, receive,
                                   receives.data(), receive_at.data(), element, channel());
    MPI_Type_free(&element);
    check(code, "MPI_Alltoallv");
    std::size_t received = 0;
    for (std::size_t r = 0; r < receive_counts.size(); ++r) {
        if (r != static_cast<std::size_t>(rank_)) {
            received += receive_counts[r] * element_size;
        }
    }
    return received;
}

std::size_t World::exchange_counts(std::span<const std::size_t> send,
                                   std::span<std::size_t> receive) const {
    static_assert(sizeof(std::size_t) == sizeof(unsigned long long));
    check(MPI_Alltoall(send.data(), 1, MPI_UNSIGNED_LONG_LONG, receive.data(), 1,
                       MPI_UNSIGNED_LONG_LONG, channel()),
          "MPI_Alltoall");
    return (receive.size() - 1) * sizeof(std::size_t);
}

bool World::stops_every_rank_on_error() const {
    return installed_error_handler() == abort_all_ranks;
}

void World::stop_if_any_failed(const brook::error* failure, Report report) const {
    int first = failure != nullptr ? rank_ : ranks_;
    check(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, channel()), "MPI_Allreduce");
    if (first == ranks_) {
        return;
    }
    if (report == Report::EveryFailure) {
        if (failure != nullptr) {
            print_tagged(*failure);
        }
        MPI_Barrier(channel());
    } else if (first == rank_) {
        print_tagged(*failure);
    }
    if (first == rank_) {
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    // Never completes: rank `first` is in MPI_Abort, which ends this process too.
    MPI_Barrier(channel());
    std::_Exit(1);
}

bool World::same_everywhere(std::uint64_t value) const {
    std::uint64_t bounds[2] = {value, ~value};
    check(MPI_Allreduce(MPI_IN_PLACE, bounds, 2, MPI_UINT64_T, MPI_MAX, channel()),
          "MPI_Allreduce");
    return bounds[0] == value && bounds[1] == ~value;
}

} // namespace brook::detail::mpi
