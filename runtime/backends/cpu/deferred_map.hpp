// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The cpu backend's map kernel calls held back for the reduction that consumes their output.
//
// The paper's SGEMV (§3.3) multiplies A by x into a product stream and reduces its rows: run as
// written, the product is stored (a write and, for the cache, a read of every line) and read back,
// three passes over n^2 floats where the matrix alone is one, and it took 2.7x the time of the
// gather loop at 1024 (docs/performance.md). So the cpu backend runs a map kernel's call only
// when something needs its output. When the next operation is a reduction of that output, the
// backend runs the fold brcc printed for the pair, which computes each of the map's elements
// where the reduction folds it (brook::cpu::FusedFold), or, for a pair without one, computes the
// map a cache-sized piece at a time and folds each piece while it is in the cache
// (cpu_backend.cpp); the output is stored later only if something reads it, and not at all if a
// call overwrites it or it is freed first. Any other operation runs the held call first, so
// a program observes nothing but the reduction's speed: every call still does its work, and a
// map whose output nothing consumes is run before whatever the program does next.
//
// So at most one held call is unconsumed, the last map called; the consumed ones wait for a
// read of their output or a write of their inputs. They are independent of each other: a call
// that reads a held call's output, or writes its inputs, runs that one first.
#pragma once

#include "core/backend.hpp"

#include <cstddef>
#include <functional>
#include <mutex>
#include <span>
#include <vector>

namespace brook::detail {

/// The held calls and the rules for when each must run. Shared by the backend and its storages
/// (a freed stream may be a held call's input or output); every member but lock() expects its
/// caller to hold lock(), since host threads (Brook+'s CPUThread) may call kernels at once.
class MapDeferral {
public:
    /// `run` runs a launch at once, as the backend's run_kernel would without deferral.
    explicit MapDeferral(std::function<void(const Launch&)> run);
    MapDeferral(const MapDeferral&) = delete;
    MapDeferral& operator=(const MapDeferral&) = delete;

    [[nodiscard]] std::unique_lock<std::mutex> lock() { return std::unique_lock(mutex_); }

    /// Whether `launch` may be held: one output stream bound whole and contiguous, written at
    /// every element (no discard, write mask, variable or scatter output, thread group or block
    /// of rows) and read by nothing else of the launch, and constants of known size.
    static bool deferrable(const Launch& launch);

    /// Before `launch` runs (or is held): runs the unconsumed call, and each consumed one that
    /// the launch could tell has not run (it reads its output, or writes one of its inputs);
    /// forgets a consumed one whose output `launch`, being deferrable, overwrites whole without
    /// reading it.
    void settle_before(const Launch& launch);
    /// Before an operation that reads `reads` and writes `writes`: as settle_before.
    void settle_before(std::span<const Storage* const> reads,
                       std::span<const Storage* const> writes);
    /// Runs the unconsumed call, if any (finish).
    void settle_unconsumed();
    /// The backend's end: as settle_unconsumed, then nothing is held (an output cannot be read
    /// without the backend).
    void end();

    /// Holds `launch` (deferrable, after settle_before) until something needs its output.
    void hold(const Launch& launch);
    /// The unconsumed call, when its output is argument `input` of `reduction` bound whole and
    /// the reduction's `target` (a stream, or null) is none of its streams, after running the
    /// consumed calls that the target's write would change: the reduction may compute it piece
    /// by piece, then call consume(). Null, having run nothing, otherwise.
    const Launch* map_feeding(const Launch& reduction, int input, const Storage* target = nullptr);
    /// The unconsumed call's values were folded by a reduction: its output is stored only if
    /// needed.
    void consume();
    /// A storage is being freed: a held call reading it runs first; one writing it is
    /// forgotten if consumed, and run if not (its work still happens, as every call's does).
    void storage_freed(const Storage* storage);

private:
    /// One held call: a copy of its launch, with its constants' values (the caller's are gone
    /// when it runs).
    struct Held {
        struct alignas(64) ConstantSlot {
            std::byte bytes[64];
        };
        Launch launch;
        std::vector<ConstantSlot> constants;
        std::size_t output_param = 0;
        bool consumed = false;

        Storage* output() const { return launch.args[output_param].stream.storage; }
        bool reads(const Storage* storage) const;
    };

    /// Applies `decide` to each held call (with the unconsumed one too when `unconsumed_too`):
    /// it returns what becomes of the call.
    enum class Fate { Keep, Run, Forget };
    template <class Decide> void settle(bool unconsumed_too, const Decide& decide);
    /// Runs the consumed calls that reading `reads` or writing `writes` would reveal.
    void settle_consumed(std::span<const Storage* const> reads,
                         std::span<const Storage* const> writes);
    /// The unconsumed call's slot, or null.
    Held* unconsumed();

    std::mutex mutex_;
    std::function<void(const Launch&)> run_;
    /// The held calls are held_[0, count_); the slots after them keep their vectors' capacity,
    /// so that holding a call allocates nothing once one of as many parameters was held.
    std::vector<Held> held_;
    std::size_t count_ = 0;
};

} // namespace brook::detail
