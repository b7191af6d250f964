// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The Stream SDK samples' thread helpers (brook/CPUThread.h) over the C++ thread library.

#include "brook/CPUThread.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>

namespace brook {

struct CPUThread::State {
    std::thread thread;
    void* data = nullptr;
    unsigned int id = 0;
};

CPUThread::CPUThread() : state_(std::make_unique<State>()) {}

CPUThread::~CPUThread() {
    join();
}

bool CPUThread::create(CPUThreadFunc func, void* arg) {
    static std::atomic<unsigned int> next_id{1};
    if (func == nullptr || state_->thread.joinable()) {
        return false;
    }
    try {
        state_->thread = std::thread(func, arg);
    } catch (const std::system_error&) {
        return false;
    }
    state_->data = arg;
    state_->id = next_id++;
    return true;
}

void CPUThread::join() {
    if (state_->thread.joinable()) {
        state_->thread.join();
    }
}

unsigned int CPUThread::getID() {
    return state_->id;
}

void* CPUThread::getData() {
    return state_->data;
}

struct ThreadLock::State {
    std::mutex mutex;
    std::atomic<bool> locked{false};
};

ThreadLock::ThreadLock() : state_(std::make_unique<State>()) {}
ThreadLock::~ThreadLock() = default;

void ThreadLock::lock() {
    state_->mutex.lock();
    state_->locked = true;
}

bool ThreadLock::tryLock() {
    if (!state_->mutex.try_lock()) {
        return false;
    }
    state_->locked = true;
    return true;
}

void ThreadLock::unlock() {
    state_->locked = false;
    state_->mutex.unlock();
}

bool ThreadLock::isLocked() {
    return state_->locked;
}

struct CondVar::State {
    std::mutex mutex;
    std::condition_variable all_arrived;
    unsigned int count = 1;
    unsigned int waiting = 0;
    /// Which use of the barrier the waiting threads are in, so that a thread that goes on and
    /// calls syncThreads again does not count toward the use before.
    unsigned long long generation = 0;
};

CondVar::CondVar() : state_(std::make_unique<State>()) {}
CondVar::~CondVar() = default;

bool CondVar::create(unsigned int count) {
    const std::lock_guard lock(state_->mutex);
    state_->count = count == 0 ? 1 : count;
    state_->waiting = 0;
    return true;
}

bool CondVar::destroy() {
    return create(1);
}

void CondVar::syncThreads() {
    std::unique_lock lock(state_->mutex);
    const unsigned long long generation = state_->generation;
    if (++state_->waiting >= state_->count) {
        state_->waiting = 0;
        ++state_->generation;
        state_->all_arrived.notify_all();
        return;
    }
    state_->all_arrived.wait(lock, [&] { return state_->generation != generation; });
}

} // namespace brook
