// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The thread names the mpi backend gives its channels by (runtime/backends/mpi/
// thread_lineage.hpp): the program's first thread and each thread made outside the backend have
// one, siblings and generations differ, two processes that make the same threads give them the
// same names, and threads made inside the backend have none.
#include "backends/mpi/thread_lineage.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <optional>
#include <set>
#include <thread>
#include <vector>

namespace brook::detail::mpi {
namespace {

/// The name a new thread of this one gets, and the names of the `grandchildren` it makes.
struct Family {
    std::optional<std::uint64_t> child;
    std::vector<std::optional<std::uint64_t>> grandchildren;
};

Family make_thread(int grandchildren = 0) {
    Family family;
    std::thread([&] {
        family.child = this_thread_lineage();
        for (int i = 0; i < grandchildren; ++i) {
            std::thread([&] { family.grandchildren.push_back(this_thread_lineage()); }).join();
        }
    }).join();
    return family;
}

TEST(ThreadLineage, TheFirstThreadAndEveryThreadItMakesHaveNamesOfTheirOwn) {
    const std::optional<std::uint64_t> first = this_thread_lineage();
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(this_thread_lineage(), first);
    const Family one = make_thread(2);
    const Family two = make_thread();
    ASSERT_TRUE(one.child && two.child);
    ASSERT_EQ(one.grandchildren.size(), 2u);
    ASSERT_TRUE(one.grandchildren[0] && one.grandchildren[1]);
    const std::set<std::uint64_t> names{*first, *one.child, *two.child, *one.grandchildren[0],
                                        *one.grandchildren[1]};
    EXPECT_EQ(names.size(), 5u);
}

/// ThreadSanitizer restarts its own background thread in a forked child, through the
/// pthread_create it intercepts, which reaches libbrook's: the child then has one thread more
/// than its parent, which no program without the sanitizer has (MPI's ranks are not forked).
#if defined(__SANITIZE_THREAD__)
#define SKIP_UNDER_THREAD_SANITIZER()                                                              \
    GTEST_SKIP() << "ThreadSanitizer starts a thread of its own in a forked child"
#else
#define SKIP_UNDER_THREAD_SANITIZER()
#endif

TEST(ThreadLineage, TwoProcessesThatMakeTheSameThreadsNameThemAlike) {
    SKIP_UNDER_THREAD_SANITIZER();
    make_thread(); // this process's history before the split, copied into the other
    int pipe_ends[2];
    ASSERT_EQ(pipe(pipe_ends), 0);
    const pid_t other = fork();
    ASSERT_GE(other, 0);
    const Family family = make_thread(1);
    const std::uint64_t names[2] = {family.child.value_or(0),
                                    family.grandchildren.at(0).value_or(0)};
    if (other == 0) {
        const bool sent = write(pipe_ends[1], names, sizeof names) == sizeof names;
        _exit(sent ? 0 : 1);
    }
    std::uint64_t others[2] = {};
    ASSERT_EQ(read(pipe_ends[0], others, sizeof others), static_cast<ssize_t>(sizeof others));
    int status = 0;
    waitpid(other, &status, 0);
    close(pipe_ends[0]);
    close(pipe_ends[1]);
    EXPECT_NE(names[0], 0u);
    EXPECT_EQ(others[0], names[0]);
    EXPECT_EQ(others[1], names[1]);
}

TEST(ThreadLineage, ThreadsMadeInsideTheBackendHaveNoName) {
    Family inside;
    {
        const InsideBackend backend;
        inside = make_thread(1);
    }
    EXPECT_FALSE(inside.child.has_value());
    ASSERT_EQ(inside.grandchildren.size(), 1u);
    EXPECT_FALSE(inside.grandchildren[0].has_value());
    EXPECT_TRUE(make_thread().child.has_value());
}

TEST(ThreadLineage, ThreadsMadeInsideTheBackendTakeNoPlace) {
    SKIP_UNDER_THREAD_SANITIZER();
    // The next thread made outside is named as if the inside one had not been made: compare
    // with a process that never made it.
    int pipe_ends[2];
    ASSERT_EQ(pipe(pipe_ends), 0);
    const pid_t other = fork();
    ASSERT_GE(other, 0);
    if (other == 0) {
        const std::uint64_t name = make_thread().child.value_or(0);
        _exit(write(pipe_ends[1], &name, sizeof name) == sizeof name ? 0 : 1);
    }
    {
        const InsideBackend backend;
        make_thread();
    }
    const std::uint64_t name = make_thread().child.value_or(0);
    std::uint64_t others = 0;
    ASSERT_EQ(read(pipe_ends[0], &others, sizeof others), static_cast<ssize_t>(sizeof others));
    int status = 0;
    waitpid(other, &status, 0);
    close(pipe_ends[0]);
    close(pipe_ends[1]);
    EXPECT_NE(name, 0u);
    EXPECT_EQ(others, name);
}

} // namespace
} // namespace brook::detail::mpi
