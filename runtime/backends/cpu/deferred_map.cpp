// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "deferred_map.hpp"

#include "brook/kernel_abi.hpp"
#include "brook/stream.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace brook::detail {

namespace {

bool writes_argument(ParamKind kind) {
    return kind == ParamKind::OutputStream || kind == ParamKind::VariableOutput ||
           kind == ParamKind::ScatterOutput || kind == ParamKind::ReduceAccumulator;
}

/// `bound` is all of its storage, in order.
bool whole_storage(const BoundStream& bound) {
    return bound.storage != nullptr && bound.first_row == 0 && bound.region.offset == 0 &&
           bound.region.contiguous() && bound.region.count() == bound.storage->count();
}

} // namespace

MapDeferral::MapDeferral(std::function<void(const Launch&)> run) : run_(std::move(run)) {}

bool MapDeferral::deferrable(const Launch& launch) {
    const KernelInfo& kernel = *launch.kernel;
    if (kernel.is_reduce || kernel.discards || kernel.group_size != 0 ||
        launch.pass != Launch::Pass::Single || launch.element_flags != nullptr ||
        launch.runs_rows()) {
        return false;
    }
    int output = -1;
    for (std::size_t i = 0; i < kernel.params.size(); ++i) {
        const ParamInfo& param = kernel.params[i];
        if (param.kind == ParamKind::Constant && param.element_type == nullptr) {
            return false; // a bool constant: its size is not recorded
        }
        if (param.kind == ParamKind::OutputStream) {
            if (output >= 0) {
                return false;
            }
            output = static_cast<int>(i);
        } else if (writes_argument(param.kind)) {
            return false;
        }
    }
    if (output < 0 || !whole_storage(launch.args[static_cast<std::size_t>(output)].stream)) {
        return false;
    }
    const Storage* written = launch.args[static_cast<std::size_t>(output)].stream.storage;
    for (std::size_t i = 0; i < launch.args.size(); ++i) {
        if (static_cast<int>(i) != output && launch.args[i].stream.storage == written) {
            return false;
        }
    }
    return true;
}

bool MapDeferral::Held::reads(const Storage* storage) const {
    for (std::size_t i = 0; i < launch.args.size(); ++i) {
        if (i != output_param && launch.args[i].stream.storage == storage) {
            return true;
        }
    }
    return false;
}

template <class Decide> void MapDeferral::settle(bool unconsumed_too, const Decide& decide) {
    for (std::size_t i = 0; i < count_;) {
        Held& held = held_[i];
        const Fate fate = held.consumed || unconsumed_too ? decide(held) : Fate::Keep;
        if (fate == Fate::Keep) {
            ++i;
            continue;
        }
        if (fate == Fate::Run) {
            run_(held.launch);
        }
        // The last held call takes the slot (their order does not matter: they are
        // independent); the slot's vectors go to the end with their capacity.
        std::swap(held, held_[count_ - 1]);
        --count_;
    }
}

MapDeferral::Held* MapDeferral::unconsumed() {
    for (std::size_t i = 0; i < count_; ++i) {
        if (!held_[i].consumed) {
            return &held_[i];
        }
    }
    return nullptr;
}

void MapDeferral::hold(const Launch& launch) {
    if (count_ == held_.size()) {
        held_.emplace_back();
    }
    Held& held = held_[count_];
    held.launch.kernel = launch.kernel;
    held.launch.code = launch.code;
    held.launch.args.assign(launch.args.begin(), launch.args.end());
    held.launch.rank = launch.rank;
    held.launch.extents = launch.extents;
    held.launch.element_count = launch.element_count;
    held.launch.dense = launch.dense;
    // Two passes: the slots are all made before any is addressed.
    const auto slots_for = [](std::size_t bytes) {
        return (bytes + sizeof(Held::ConstantSlot) - 1) / sizeof(Held::ConstantSlot);
    };
    const std::span<const ParamInfo> params = launch.kernel->params;
    std::size_t slots = 0;
    for (const ParamInfo& param : params) {
        if (param.kind == ParamKind::Constant) {
            slots += slots_for(param.element_type().size);
        }
    }
    held.constants.resize(slots);
    std::size_t next = 0;
    for (std::size_t i = 0; i < params.size(); ++i) {
        if (params[i].kind == ParamKind::Constant) {
            auto* slot = reinterpret_cast<std::byte*>(held.constants.data() + next);
            std::memcpy(slot, launch.args[i].constant, params[i].element_type().size);
            held.launch.args[i].constant = slot;
            next += slots_for(params[i].element_type().size);
        } else if (params[i].kind == ParamKind::OutputStream) {
            held.output_param = i;
        }
    }
    held.consumed = false;
    ++count_;
}

void MapDeferral::settle_before(const Launch& launch) {
    settle(true, [&](const Held& held) {
        if (!held.consumed) {
            return Fate::Run;
        }
        const Storage* output = held.output();
        bool reads_output = launch.element_flags == output;
        bool writes_output = false;
        bool writes_input = false;
        for (std::size_t i = 0; i < launch.args.size(); ++i) {
            const Storage* storage = launch.args[i].stream.storage;
            if (storage == nullptr) {
                continue;
            }
            const bool written = writes_argument(launch.kernel->params[i].kind);
            reads_output = reads_output || (storage == output && !written);
            writes_output = writes_output || (storage == output && written);
            writes_input = writes_input || (written && held.reads(storage));
        }
        if (reads_output || writes_input || (writes_output && !deferrable(launch))) {
            return Fate::Run;
        }
        // Overwritten whole before anything read it.
        return writes_output ? Fate::Forget : Fate::Keep;
    });
}

void MapDeferral::settle_consumed(std::span<const Storage* const> reads,
                                  std::span<const Storage* const> writes) {
    settle(false, [&](const Held& held) {
        const Storage* output = held.output();
        const bool needed = std::ranges::find(reads, output) != reads.end() ||
                            std::ranges::any_of(writes, [&](const Storage* storage) {
                                return storage == output || held.reads(storage);
                            });
        return needed ? Fate::Run : Fate::Keep;
    });
}

void MapDeferral::settle_before(std::span<const Storage* const> reads,
                                std::span<const Storage* const> writes) {
    settle_unconsumed();
    settle_consumed(reads, writes);
}

void MapDeferral::settle_unconsumed() {
    settle(true, [](const Held& held) { return held.consumed ? Fate::Keep : Fate::Run; });
}

void MapDeferral::end() {
    settle(true, [](const Held& held) { return held.consumed ? Fate::Forget : Fate::Run; });
}

const Launch* MapDeferral::map_feeding(const Launch& reduction, int input, const Storage* target) {
    const Held* held = unconsumed();
    if (held == nullptr || reduction.runs_rows() ||
        (target != nullptr && (target == held->output() || held->reads(target)))) {
        return nullptr;
    }
    const BoundStream& bound = reduction.args[static_cast<std::size_t>(input)].stream;
    if (bound.storage != held->output() || !whole_storage(bound) ||
        reduction.extents != held->launch.extents || reduction.rank != held->launch.rank) {
        return nullptr;
    }
    if (target != nullptr) {
        settle_consumed({}, std::span(&target, 1)); // may move the held calls
    }
    return &unconsumed()->launch;
}

void MapDeferral::consume() {
    if (Held* held = unconsumed()) {
        held->consumed = true;
    }
}

void MapDeferral::storage_freed(const Storage* storage) {
    settle(true, [&](const Held& held) {
        if (held.reads(storage)) {
            return Fate::Run;
        }
        if (held.output() == storage) {
            return held.consumed ? Fate::Forget : Fate::Run;
        }
        return Fate::Keep;
    });
}

} // namespace brook::detail
