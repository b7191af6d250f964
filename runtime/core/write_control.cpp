// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Write queries and write masks (brook/write_control.hpp) on any backend. The mask's flags live
// in host memory: a call that tests them gets a dense byte per element of its domain
// (Launch::element_flags) holding the flags it covers, and hands back which elements it wrote,
// which the query counts and the mask's set marks. A call that can neither skip nor discard
// writes every element, so it needs no flags at all; nor does any call while no query counts and
// no mask is bound, which keeps Brook's ordinary calls exactly as they are.
#include "core/write_control.hpp"

#include "core/errors.hpp"
#include "core/launch.hpp"
#include "core/registry.hpp"

#include "brook/write_control.hpp"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace brook {

namespace detail {

struct WriteQueryState {
    std::mutex mutex;
    std::size_t written = 0;
    bool counting = false;
    bool ended = false;
};

struct WriteMaskState {
    std::mutex mutex;
    std::size_t height = 0;
    std::size_t width = 0;
    std::vector<std::uint8_t> flags; ///< row-major, height x width
    bool test = false;
    bool set = false;
};

namespace {

/// The calling thread's counting query and bound mask.
struct ThreadWriteControl {
    std::shared_ptr<WriteQueryState> query;
    std::shared_ptr<WriteMaskState> mask;
};

ThreadWriteControl& thread_control() {
    thread_local ThreadWriteControl control;
    return control;
}

/// Where a launch's domain lies in a mask: `rows` rows of its last extent, `columns`.
struct MaskArea {
    std::size_t rows;
    std::size_t columns;
};

/// The area of the mask that `launch` covers, checked to fit.
MaskArea covered_area(const WriteMaskState& mask, const Launch& launch) {
    const std::size_t columns = launch.extents[static_cast<std::size_t>(launch.rank - 1)];
    const MaskArea area{launch.element_count / columns, columns};
    if (area.rows > mask.height || area.columns > mask.width) {
        fatal(call_label(*launch.kernel) + " runs over " + std::to_string(area.rows) + " rows of " +
              std::to_string(area.columns) + " elements, but the bound write mask is " +
              std::to_string(mask.height) + " x " + std::to_string(mask.width) +
              "; create the mask (write_mask::create(height, width)) at least as large as the "
              "outputs of the calls it is bound for");
    }
    return area;
}

/// Calls f(element, flag) for each element of `launch`'s domain and its flag in the mask.
template <class F> void for_each_covered(WriteMaskState& mask, const Launch& launch, F&& f) {
    const MaskArea area = covered_area(mask, launch);
    for (std::size_t row = 0; row < area.rows; ++row) {
        for (std::size_t column = 0; column < area.columns; ++column) {
            f(row * area.columns + column, mask.flags[row * mask.width + column]);
        }
    }
}

/// Turns a mask's test or set on or off.
void set_mode(WriteMaskState& mask, bool WriteMaskState::*mode, bool on) {
    const std::lock_guard lock(mask.mutex);
    mask.*mode = on;
}

/// Counts `written` elements for the thread's query, if one is counting.
void count_written(std::size_t written) {
    if (WriteQueryState* query = thread_control().query.get(); query != nullptr) {
        const std::lock_guard lock(query->mutex);
        query->written += written;
    }
}

} // namespace

void run_controlled(Backend& backend, Launch& launch, const DomainBox* box) {
    const ThreadWriteControl& control = thread_control();
    WriteMaskState* mask = control.mask.get();
    bool test = false;
    bool set = false;
    if (mask != nullptr) {
        const std::lock_guard lock(mask->mutex);
        test = mask->test;
        set = mask->set;
    }
    const bool boxed = box != nullptr && !box->covers(launch);
    if (control.query == nullptr && !test && !set && !boxed) {
        backend.run_kernel(launch);
        return;
    }
    if (!test && !boxed && !launch.kernel->discards) {
        backend.run_kernel(launch);
        note_every_element_written(launch);
        return;
    }
    if (!backend.tracks_elements()) {
        const std::string able = backends_that(&Backend::tracks_elements);
        fatal(call_label(*launch.kernel) + ": the " + std::string(backend.name()) +
              " backend cannot tell which elements a call writes, which " +
              (boxed         ? "the call's execution domain"
               : test || set ? "the thread's write mask"
                             : "the thread's write query") +
              " needs" + (able.empty() ? "" : "; run it on " + able));
    }
    std::vector<std::uint8_t> flags(launch.element_count, 0);
    if (test) {
        const std::lock_guard lock(mask->mutex);
        for_each_covered(*mask, launch,
                         [&](std::size_t element, std::uint8_t flag) { flags[element] = flag; });
    }
    if (boxed) {
        for (std::size_t element = 0; element < launch.element_count; ++element) {
            if (!box->contains(launch, element)) {
                flags[element] = 1;
            }
        }
    }
    const std::unique_ptr<Storage> storage =
        backend.allocate(element_traits<uchar>::type(), launch.element_count);
    const Region dense = Region::dense(1, {launch.element_count, 0, 0, 0});
    if (test || boxed) {
        backend.write(*storage, dense, flags.data());
    }
    launch.element_flags = storage.get();
    launch.dense = false;
    backend.run_kernel(launch);
    launch.element_flags = nullptr;
    backend.read(*storage, dense, flags.data());
    count_written(static_cast<std::size_t>(std::count(flags.begin(), flags.end(), 1)));
    if (set) {
        const std::lock_guard lock(mask->mutex);
        for_each_covered(*mask, launch, [&](std::size_t element, std::uint8_t& flag) {
            flag = static_cast<std::uint8_t>(flag | flags[element]);
        });
    }
}

void check_runs_every_element(const Launch& launch) {
    WriteMaskState* mask = thread_control().mask.get();
    if (mask == nullptr) {
        return;
    }
    const std::lock_guard lock(mask->mutex);
    if (mask->test) {
        fatal(call_label(*launch.kernel) +
              " has variable outputs, so it runs every element of its domain, but the thread's "
              "write mask has its test enabled; call disableTest() or unbind() before it");
    }
}

void note_every_element_written(const Launch& launch) {
    count_written(launch.element_count);
    WriteMaskState* mask = thread_control().mask.get();
    if (mask == nullptr) {
        return;
    }
    const std::lock_guard lock(mask->mutex);
    if (mask->set) {
        for_each_covered(*mask, launch, [](std::size_t, std::uint8_t& flag) { flag = 1; });
    }
}

} // namespace detail

// ---------------------------------------------------------------------------------------------
// write_query

write_query::write_query(std::shared_ptr<detail::WriteQueryState> state)
    : state_(std::move(state)) {}

write_query write_query::create() {
    return write_query(std::make_shared<detail::WriteQueryState>());
}

detail::WriteQueryState& write_query::state() const {
    if (state_ == nullptr) {
        detail::fatal("write_query used before write_query::create() (or after release())");
    }
    return *state_;
}

void write_query::begin() {
    detail::WriteQueryState& query = state();
    auto& current = detail::thread_control().query;
    if (current != nullptr) {
        detail::fatal(current == state_
                          ? "write_query::begin() on a query that is already counting; call end() "
                            "first"
                          : "write_query::begin() while another query counts on this thread; "
                            "call end() on that one first");
    }
    const std::lock_guard lock(query.mutex);
    query.written = 0;
    query.counting = true;
    query.ended = false;
    current = state_;
}

void write_query::end() {
    detail::WriteQueryState& query = state();
    auto& current = detail::thread_control().query;
    if (current != state_) {
        detail::fatal("write_query::end() on a query that is not counting on this thread; call "
                      "begin() first, on the thread that issues the kernel calls");
    }
    current.reset();
    const std::lock_guard lock(query.mutex);
    query.counting = false;
    query.ended = true;
}

bool write_query::poll() const {
    detail::WriteQueryState& query = state();
    const std::lock_guard lock(query.mutex);
    return query.ended;
}

void write_query::wait() const {
    if (!poll()) {
        detail::fatal("write_query::wait() on a query that has not ended, which would wait "
                      "forever; call end() first");
    }
}

std::size_t write_query::count() const {
    detail::WriteQueryState& query = state();
    const std::lock_guard lock(query.mutex);
    if (!query.ended) {
        detail::fatal("write_query::count() on a query that has not ended; call end() first");
    }
    return query.written;
}

void write_query::release() {
    if (state_ != nullptr && detail::thread_control().query == state_) {
        end();
    }
    state_.reset();
}

// ---------------------------------------------------------------------------------------------
// write_mask

write_mask::write_mask(std::shared_ptr<detail::WriteMaskState> state) : state_(std::move(state)) {}

write_mask write_mask::create(int height, int width) {
    if (height <= 0 || width <= 0) {
        detail::fatal("write_mask::create(" + std::to_string(height) + ", " +
                      std::to_string(width) + "): a mask needs at least one row and one column");
    }
    auto state = std::make_shared<detail::WriteMaskState>();
    state->height = static_cast<std::size_t>(height);
    state->width = static_cast<std::size_t>(width);
    state->flags.assign(state->height * state->width, 0);
    return write_mask(std::move(state));
}

detail::WriteMaskState& write_mask::state() const {
    if (state_ == nullptr) {
        detail::fatal("write_mask used before write_mask::create() (or after release())");
    }
    return *state_;
}

void write_mask::bind() {
    state();
    detail::thread_control().mask = state_;
}

void write_mask::unbind() {
    auto& current = detail::thread_control().mask;
    if (current == state_) {
        current.reset();
    }
}

void write_mask::enableTest() {
    detail::set_mode(state(), &detail::WriteMaskState::test, true);
}

void write_mask::disableTest() {
    detail::set_mode(state(), &detail::WriteMaskState::test, false);
}

void write_mask::enableSet() {
    detail::set_mode(state(), &detail::WriteMaskState::set, true);
}

void write_mask::disableSet() {
    detail::set_mode(state(), &detail::WriteMaskState::set, false);
}

void write_mask::clear() {
    detail::WriteMaskState& mask = state();
    const std::lock_guard lock(mask.mutex);
    std::fill(mask.flags.begin(), mask.flags.end(), std::uint8_t{0});
}

void write_mask::release() {
    if (state_ != nullptr) {
        unbind();
    }
    state_.reset();
}

} // namespace brook
