// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Brook+'s brook/CPUThread.h (BROOKPLUS.md §1.1): the thread helpers of AMD's Stream SDK samples,
// CPUThread, ThreadLock and CondVar, as classes of libbrook, also by their unqualified names.
// The include guard is the one the samples' own copies of this helper use, so that whichever
// comes first is the one a program gets (not `#pragma once`, on purpose).
#ifndef _CPU_THREAD_H_
#define _CPU_THREAD_H_

#include <memory>

namespace brook {

/// The function a CPUThread runs: it takes create()'s argument.
typedef void* (*CPUThreadFunc)(void*);

/// A thread of the host: create() starts it, join() waits for it.
class CPUThread {
public:
    /// No thread yet: create() starts one.
    CPUThread();
    /// Waits for the thread, as join().
    ~CPUThread();
    CPUThread(const CPUThread&) = delete;
    CPUThread& operator=(const CPUThread&) = delete;

    /// Starts `func(arg)` on a new thread; false when it could not start or this object
    /// already runs one.
    bool create(CPUThreadFunc func, void* arg);
    /// Waits for the thread to end (at once when none runs).
    void join();
    /// A number naming the thread, 0 before create().
    unsigned int getID();
    /// create()'s argument.
    void* getData();

private:
    struct State;
    std::unique_ptr<State> state_;
};

/// A mutex.
class ThreadLock {
public:
    /// An unlocked mutex.
    ThreadLock();
    /// Must not be held.
    ~ThreadLock();
    ThreadLock(const ThreadLock&) = delete;
    ThreadLock& operator=(const ThreadLock&) = delete;

    /// Waits for the lock and takes it.
    void lock();
    /// Takes the lock when it is free; true when it did.
    bool tryLock();
    /// Releases the lock this thread holds.
    void unlock();
    /// True while some thread holds the lock.
    bool isLocked();

private:
    struct State;
    std::unique_ptr<State> state_;
};

/// A barrier for a set number of threads (the samples' use of a condition variable): each
/// thread calling syncThreads() waits until `count` of them have called it, then all go on, and
/// the barrier can be used again.
class CondVar {
public:
    /// A barrier for one thread until create() sets the count.
    CondVar();
    /// No thread may be waiting.
    ~CondVar();
    CondVar(const CondVar&) = delete;
    CondVar& operator=(const CondVar&) = delete;

    /// Sets the number of threads to wait for (at least 1); true when done.
    bool create(unsigned int count);
    /// Forgets the count; true.
    bool destroy();
    /// Waits until `count` threads have called it.
    void syncThreads();

private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace brook

using brook::CondVar;
using brook::CPUThread;
using brook::CPUThreadFunc;
using brook::ThreadLock;

#endif // _CPU_THREAD_H_
