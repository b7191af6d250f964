// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// HostBlock: the execution adaptor of runtime/backends/cuda/device/ on the host, for unit tests.
//
// It simulates one CUDA block in lockstep: each() runs its step for thread 0, 1, ..., threads - 1
// before the algorithm moves to the next step, and a shuffle builds a new per-thread value from the
// values every lane held after the previous step, which is what __shfl_*_sync returns on the
// device. sync() needs no work (steps already run to completion for all threads) and only counts
// barriers.
#pragma once

#include "../device/ordered_reduce.hpp"

#include <cstddef>
#include <stdexcept>
#include <vector>

namespace brook::cuda::device {

class HostBlock {
public:
    explicit HostBlock(unsigned threads) : threads_(threads) {
        if (threads == 0 || threads % warp_size != 0 || threads > max_block_threads)
            throw std::invalid_argument("a block has a multiple of 32 threads, at most 1024");
    }

    template <class T> class PerThread {
    public:
        using value_type = T;
        explicit PerThread(const HostBlock& block) : values_(block.threads()) {}
        T& operator[](ThreadId t) { return values_.at(t.index); }
        const T& operator[](ThreadId t) const { return values_.at(t.index); }

    private:
        std::vector<T> values_;
    };

    unsigned threads() const { return threads_; }
    std::size_t barriers() const { return barriers_; }

    template <class F> void each(F&& f) {
        for (unsigned i = 0; i < threads_; ++i)
            f(ThreadId{i});
    }

    template <class T> PerThread<T> shfl_down(const PerThread<T>& v, unsigned delta) const {
        return shuffle(
            v, [delta](unsigned lane) { return lane + delta < warp_size ? lane + delta : lane; });
    }
    template <class T> PerThread<T> shfl_up(const PerThread<T>& v, unsigned delta) const {
        return shuffle(v, [delta](unsigned lane) { return lane >= delta ? lane - delta : lane; });
    }
    template <class T, class F> PerThread<T> shfl_idx(const PerThread<T>& v, F src_lane) const {
        PerThread<T> result(*this);
        for (unsigned i = 0; i < threads_; ++i) {
            const ThreadId t{i};
            result[t] = v[ThreadId{t.warp() * warp_size + src_lane(t) % warp_size}];
        }
        return result;
    }

    void sync() { ++barriers_; }

    template <class T, unsigned N> T* shared() {
        static_assert(N * sizeof(T) <= sizeof(shared_), "enlarge HostBlock's shared memory");
        return reinterpret_cast<T*>(shared_);
    }

private:
    template <class T, class SrcLane>
    PerThread<T> shuffle(const PerThread<T>& v, SrcLane src_lane) const {
        PerThread<T> result(*this);
        for (unsigned i = 0; i < threads_; ++i) {
            const ThreadId t{i};
            result[t] = v[ThreadId{t.warp() * warp_size + src_lane(t.lane())}];
        }
        return result;
    }

    unsigned threads_;
    std::size_t barriers_ = 0;
    alignas(64) unsigned char shared_[warp_size * 64] = {};
};

} // namespace brook::cuda::device
