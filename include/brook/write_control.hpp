// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Write queries and write masks (COMPAT.md 2.6), BrookGPU's interface to the GPU's occlusion
// queries and depth-buffer culling, on every backend here.
//
// A write_query counts the output elements that the kernel calls made between its begin() and
// end() on the calling thread wrote: an element that runs `discard`, or that a write mask skips,
// is not counted. A write_mask holds one flag per element of a `height` x `width` area; bound
// to the calling thread, it can skip the elements of each kernel call whose flag is set (test)
// and set the flags of the elements each call writes (set). Element i of a call's output domain
// is the area's element (i / last, i % last) for `last` the domain's last extent: row r, column
// c of a 2-D domain, (0, i) of a 1-D one. Reductions and kernels with variable outputs write no
// elements of their own domain: queries do not count them, and a mask neither tests nor sets
// them (testing while one runs is an error, since it could not skip anything).
//
// Both are handles, as in BrookGPU: copies share the object, which lives until release() or
// until the last copy is gone. Results are exact and ready when end() returns, so poll() is
// true and wait() returns at once after end().

#include <cstddef>
#include <memory>

namespace brook {

namespace detail {
struct WriteQueryState;
struct WriteMaskState;
} // namespace detail

/// A count of the output elements that kernel calls write (the comment above): BrookGPU's
/// occlusion query.
class write_query {
public:
    /// An empty handle; create() makes a query.
    write_query() = default;
    /// A new query, not counting yet.
    static write_query create();

    /// Starts counting on the calling thread. One query counts at a time on a thread.
    void begin();
    /// Stops counting; count() then gives the total.
    void end();
    /// True when the count is ready: after end().
    bool poll() const;
    /// Waits until the count is ready (it is once end() has returned).
    void wait() const;
    /// The elements written between begin() and end(), discarded and masked ones left out.
    std::size_t count() const;
    /// Drops this handle's share of the query (ending it first if it is counting).
    void release();

private:
    explicit write_query(std::shared_ptr<detail::WriteQueryState> state);
    detail::WriteQueryState& state() const;
    std::shared_ptr<detail::WriteQueryState> state_;
};

/// One flag per element of an area, which kernel calls can test and set (the comment above):
/// BrookGPU's depth-buffer culling.
class write_mask {
public:
    /// An empty handle; create() makes a mask.
    write_mask() = default;
    /// A mask of `height` rows of `width` elements, every flag clear, test and set disabled.
    static write_mask create(int height, int width);

    /// Makes it the calling thread's mask (in place of any other), for the kernel calls after.
    void bind();
    /// Leaves the calling thread without a mask, if this one is bound.
    void unbind();
    /// Kernel calls skip the elements whose flag is set: their outputs keep their values.
    void enableTest();
    /// Kernel calls no longer test the flags.
    void disableTest();
    /// Kernel calls set the flag of every element they write.
    void enableSet();
    /// Kernel calls no longer set flags.
    void disableSet();
    /// Clears every flag.
    void clear();
    /// Drops this handle's share of the mask (unbinding it first if this thread has it bound).
    void release();

private:
    explicit write_mask(std::shared_ptr<detail::WriteMaskState> state);
    detail::WriteMaskState& state() const;
    std::shared_ptr<detail::WriteMaskState> state_;
};

} // namespace brook
