// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The CPU loop machinery of the code brcc generates for the CPU backend: what a kernel's loop
// functions use around the body (which uses only the kernel language, kernel_language.hpp).
// Gathers made from the Frame's StreamViews, the element addressing of the general (non-dense)
// loop, indexof, and the fold of a reduction.

#include "brook/kernel_abi.hpp"
#include "brook/kernel_language.hpp"
#include "brook/vector.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

// For store_streaming: the widest non-temporal store the instruction set has. <immintrin.h>
// alone where AVX is there to use (it costs a small program's compile about 0.15 s).
#if defined(__AVX__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

// A program built for several instruction sets (brcc --target=A,B) defines BROOK_CPU_TARGETS as
// their GCC target_clones names before it includes this header. Each function marked
// BROOK_CPU_DISPATCHED is then compiled once per set, and the program's loader picks the one the
// CPU runs best (GCC's function multiversioning: an ifunc, resolved once); a call from one
// marked function to another goes straight to the callee's copy of the same set. The kernels'
// loop functions are marked, and so are the functions of this header that they call without
// inlining them, which would otherwise run the lowest set's code: those instantiated for one
// kernel alone (the folds, whose Combine is the kernel's), since a copy shared by translation
// units built for other sets must not differ. The shared ones they call in their loops are
// always inlined instead, which gives them the set of the copy they are inlined into. Clang does
// not clone templates (BROOK_CPU_DISPATCHED_TEMPLATE): there the folds run the lowest set's code.
#ifdef BROOK_CPU_TARGETS
#define BROOK_CPU_DISPATCHED [[gnu::target_clones(BROOK_CPU_TARGETS)]]
#else
#define BROOK_CPU_DISPATCHED
#endif
#ifdef __clang__
#define BROOK_CPU_DISPATCHED_TEMPLATE
#else
#define BROOK_CPU_DISPATCHED_TEMPLATE BROOK_CPU_DISPATCHED
#endif

namespace brook::cpu {

namespace detail {

/// The unsigned integer of `Bytes` bytes.
template <std::size_t Bytes> struct unsigned_of;
template <> struct unsigned_of<1> { using type = std::uint8_t; };
template <> struct unsigned_of<2> { using type = std::uint16_t; };
template <> struct unsigned_of<4> { using type = std::uint32_t; };
template <> struct unsigned_of<8> { using type = std::uint64_t; };

} // namespace detail

/// `c ? a : b` with a scalar condition over two vectors, as brcc prints it where the value chosen
/// is data (not on its way to a gather's index): every bit of each component taken under a mask
/// of all ones or all zeros. The component-wise select (lang::select) broadcasts the condition
/// and builds a vector mask from it a bit at a time (about 8 instructions for a float4 on
/// x86-64), or becomes a branch, which mispredicts where the condition is data: the bitonic
/// sort's `lower == ascending ? min(mine, other) : max(mine, other)` took 1.3 to 1.7x longer.
/// Where the value becomes an address a well-predicted branch is better, since it lets the
/// gather's address be computed before the condition is known (the FFT's butterfly's partner:
/// 50 ms with the branch, 77 ms with the blend), so brcc keeps lang::select there.
template <class Vector, class Condition>
[[gnu::always_inline]] inline Vector select_whole(const Condition& c, const Vector& a,
                                                  const Vector& b) {
    using Scalar = lang::detail::scalar_t<Vector>;
    using Bits = typename detail::unsigned_of<sizeof(Scalar)>::type;
    const Bits mask = static_cast<Bits>(Bits{0} - static_cast<Bits>(lang::truth(c)));
    return lang::detail::map(
        [mask](Scalar x, Scalar y) {
            const Bits chosen = static_cast<Bits>((std::bit_cast<Bits>(x) & mask) |
                                                  (std::bit_cast<Bits>(y) & ~mask));
            return std::bit_cast<Scalar>(chosen);
        },
        a, b);
}

/// A gather parameter fetched from the Frame: the lang::Gather over stream argument `view`.
/// Generated loops declare one per gather and pass it to the body, which takes a lang::Gather.
/// `narrow_float_indices` only where fits_int_offsets(view). Set here, after the base's
/// constructor, which GCC may leave out of line, and always inlined: the flag is a constant the
/// loops fold only where the compiler sees it stored.
template <class Element, int Rank> class Gather : public lang::Gather<Element, Rank> {
public:
    [[gnu::always_inline]] explicit Gather(const StreamView& view,
                                           bool narrow_float_indices = false)
        : lang::Gather<Element, Rank>(reinterpret_cast<const Element*>(view.data), view.rank,
                                      view.extents.data(), view.strides.data()) {
        this->narrow_float_indices_ = narrow_float_indices;
    }
};

/// A scatter output parameter fetched from the Frame: the lang::Scatter over stream argument
/// `view`. Each loop function (a thread's share of the call) declares its own.
template <class Element, int Rank> class Scatter : public lang::Scatter<Element, Rank> {
public:
    explicit Scatter(const StreamView& view)
        : lang::Scatter<Element, Rank>(reinterpret_cast<Element*>(view.data), view.rank,
                                       view.extents.data(), view.strides.data()) {}
};

/// Whether every index of the array `view` fits in an int (fewer than 2^31 elements), so that
/// a Gather over it may convert float indices through 32-bit integers.
inline bool fits_int_offsets(const StreamView& view) {
    std::size_t count = 1;
    for (int d = 0; d < view.rank; ++d)
        count *= view.extents[static_cast<std::size_t>(d)];
    return count <= static_cast<std::size_t>(std::numeric_limits<int>::max());
}

/// The end of the output row that element `index` is in, or `end` if that comes first: a dense
/// call's row loop (indexof's) takes the output domain a row (its last dimension) at a time.
inline std::size_t row_end(const Frame& frame, std::size_t index, std::size_t end) {
    const std::size_t row_length =
        frame.output_extents[static_cast<std::size_t>(frame.output_rank - 1)];
    return std::min(end, index - index % row_length + row_length);
}

/// The output rows that a loop function's range [begin, end) crosses, in order, for the general
/// loop, which takes a call a row (its last dimension) at a time: the range's part of the current
/// row, [first(), stop()), and the coordinates of first() (position(): slowest first, right-aligned
/// in four, as ResizedView::unit_run takes them). Worked out by division for `begin` alone and
/// then counted up from row to row: where rows are short, dividing for each row cost more than
/// its elements (SAXPY with one input a domain, 8192x16 floats: 113 us, the dense call 7.8).
class OutputRows {
public:
    [[gnu::always_inline]] OutputRows(const Frame& frame, std::size_t begin, std::size_t end)
        : extents_(frame.output_extents.data()), rank_(static_cast<std::size_t>(frame.output_rank)),
          end_(end), first_(begin), stop_(begin) {
        if (begin >= end)
            return; // (an empty call may have an extent of 0)
        std::size_t rest = begin;
        for (std::size_t d = rank_; d-- > 1;) {
            position_[d + 4 - rank_] = rest % extents_[d];
            rest /= extents_[d];
        }
        position_[4 - rank_] = rest;
        stop_ = std::min(end, begin - position_[3] + extents_[rank_ - 1]);
    }

    [[gnu::always_inline]] bool more() const { return first_ < end_; }
    [[gnu::always_inline]] std::size_t first() const { return first_; }
    [[gnu::always_inline]] std::size_t stop() const { return stop_; }
    [[gnu::always_inline]] const std::array<std::size_t, 4>& position() const { return position_; }

    /// To the next row: its first column, the coordinates before it counted up.
    [[gnu::always_inline]] void next() {
        first_ = stop_;
        position_[3] = 0;
        for (std::size_t d = rank_ - 1; d-- > 0;) {
            std::size_t& coordinate = position_[d + 4 - rank_];
            if (++coordinate < extents_[d] || d == 0)
                break;
            coordinate = 0;
        }
        stop_ = std::min(end_, first_ + extents_[rank_ - 1]);
    }

private:
    const std::size_t* extents_;
    std::size_t rank_;
    std::size_t end_;
    std::size_t first_;
    std::size_t stop_;
    std::array<std::size_t, 4> position_{};
};

/// Streaming stores (Frame::streaming_stores). A plain store into a line that is not cached reads
/// the line first (a read for ownership), so a call that writes a large output whole moves each
/// output byte twice: SAXPY on 64M floats into a third stream 16 bytes a float, where updating y
/// in place moves 12. A non-temporal store writes whole lines without reading them. GCC emits
/// none from a plain loop, so a dense loop that may stream runs its body into small blocks, one
/// per output, and store_streaming copies each block out. 512 bytes a block: a hand-written
/// SAXPY on 64M floats, 2 threads, took 17.6 ms with blocks of 512 bytes, 22.3 with 768 and
/// 22.6 with 1,024 (16-byte stores; 25.3 ms with plain stores, 14.3 in place); in bench_saxpy,
/// 64-byte stores took 17.9-18.4 ms where 16-byte ones took 18.8-19.4.
constexpr std::size_t streaming_line_bytes = 64;
constexpr std::size_t streaming_block_bytes = 512;

/// The elements of a streamed block for outputs of `Outputs`: a whole number of cache lines of
/// each, so that blocks starting at multiples of it in a stream that starts on a line boundary
/// start on one too, and about streaming_block_bytes of the largest.
template <class... Outputs> constexpr std::size_t streaming_block() {
    std::size_t whole_lines = 1;
    ((whole_lines = std::lcm(whole_lines, streaming_line_bytes /
                                              std::gcd(streaming_line_bytes, sizeof(Outputs)))),
     ...);
    const std::size_t largest = std::max({sizeof(Outputs)...});
    const std::size_t wanted = std::max<std::size_t>(1, streaming_block_bytes / largest);
    return (wanted + whole_lines - 1) / whole_lines * whole_lines;
}

/// The end of the streamed block that starts at element `first` of [first, end): the next
/// multiple of `block` (a thread's first block may be short) or `end`.
[[gnu::always_inline]] inline std::size_t streamed_block_end(std::size_t first, std::size_t end,
                                                             std::size_t block) {
    return std::min(end, (first / block + 1) * block);
}

/// Copies `count` elements from `block` to `to` with non-temporal stores, the parts of lines
/// at either end with plain ones. Elsewhere than x86-64 a plain copy.
template <class Element>
[[gnu::always_inline]] inline void store_streaming(Element* to, const Element* block,
                                                   std::size_t count) {
    auto* out = reinterpret_cast<unsigned char*>(to);
    const auto* in = reinterpret_cast<const unsigned char*>(block);
    std::size_t bytes = count * sizeof(Element);
#ifdef __SSE2__
    const std::size_t head =
        std::min(bytes, (streaming_line_bytes -
                         reinterpret_cast<std::uintptr_t>(out) % streaming_line_bytes) %
                            streaming_line_bytes);
    std::memcpy(out, in, head);
    out += head;
    in += head;
    bytes -= head;
    // The widest store (see above).
#if defined(__AVX512F__)
    for (; bytes >= 64; bytes -= 64, out += 64, in += 64) {
        _mm512_stream_si512(reinterpret_cast<__m512i*>(out), _mm512_loadu_si512(in));
    }
#elif defined(__AVX__)
    for (; bytes >= 32; bytes -= 32, out += 32, in += 32) {
        _mm256_stream_si256(reinterpret_cast<__m256i*>(out),
                            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in)));
    }
#else
    for (; bytes >= 16; bytes -= 16, out += 16, in += 16) {
        _mm_stream_si128(reinterpret_cast<__m128i*>(out),
                         _mm_loadu_si128(reinterpret_cast<const __m128i*>(in)));
    }
#endif
#endif
    std::memcpy(out, in, bytes);
}

/// After a loop's streaming stores: orders them before whatever the thread does next (they are
/// weakly ordered), so that the runtime's join makes them visible to every thread.
[[gnu::always_inline]] inline void finish_streaming_stores() {
#ifdef __SSE2__
    _mm_sfence();
#endif
}

/// A stream argument of a call that is not dense, addressed by output element index: element
/// `index` of the output domain reads the input element that resizing maps it to (DESIGN.md §2),
/// or for an output, the element of its (possibly strided) view. The general loop visits
/// consecutive indices, so the position of the current output row in the stream is worked out
/// once per row (divisions over every dimension), and the elements along it cost a step each.
template <class Element> class ResizedView {
public:
    [[gnu::always_inline]] ResizedView(const Frame& frame, int param)
        : view_(frame.args[param].stream), frame_(&frame),
          last_(static_cast<std::size_t>(frame.output_rank - 1)),
          row_length_(frame.output_extents[last_]), in_length_(view_.extents[last_]),
          stride_(view_.strides[last_]) {}

    [[gnu::always_inline]] Element& operator[](std::size_t index) {
        if (index < row_first_ || index >= row_end_) {
            start_row(index);
        }
        const std::size_t column = index - row_first_;
        const std::size_t in_column =
            in_length_ == row_length_ ? column : column * in_length_ / row_length_;
        return *reinterpret_cast<Element*>(row_ + in_column * stride_ * sizeof(Element));
    }

    /// Where element `index` is when the rest of its output row follows it contiguously (the
    /// stream is not resized along the row and its view does not skip elements there), so that
    /// the general loop can run that row as a plain array loop, which vectorises: a domain of a
    /// stream, or an input repeated down the rows like the paper's x<1, n> in SGEMV. Null
    /// otherwise.
    [[gnu::always_inline]] Element* unit_row(std::size_t index) {
        if (in_length_ != row_length_ || stride_ != 1) {
            return nullptr;
        }
        if (index < row_first_ || index >= row_end_) {
            start_row(index);
        }
        return reinterpret_cast<Element*>(row_) + (index - row_first_);
    }

    /// unit_row for `index`, the first element of a run inside one output row whose
    /// coordinates are `position` (right-aligned in four, as for_each_output_run gives them):
    /// the row's place comes from them, without the divisions that start_row makes.
    [[gnu::always_inline]] Element* unit_run(const std::array<std::size_t, 4>& position,
                                             std::size_t index) {
        const std::size_t shift = 3 - last_;
        row_first_ = index - position[3];
        row_end_ = row_first_ + row_length_;
        std::size_t offset = 0;
        for (std::size_t d = 0; d < last_; ++d) {
            const std::size_t out = frame_->output_extents[d];
            const std::size_t in = view_.extents[d];
            const std::size_t coordinate = position[d + shift];
            // Most dimensions are not resized or repeat one element (SGEMV's x<1, n>).
            const std::size_t resized = in == out ? coordinate
                                        : in == 1 ? 0
                                                  : coordinate * in / out;
            offset += resized * view_.strides[d];
        }
        row_ = view_.data + offset * sizeof(Element);
        return unit_row(index);
    }

private:
    void start_row(std::size_t index) {
        row_first_ = index - index % row_length_;
        row_end_ = row_first_ + row_length_;
        std::size_t rest = index / row_length_;
        std::size_t offset = 0;
        for (std::size_t d = last_; d-- > 0;) {
            const std::size_t out = frame_->output_extents[d];
            offset += (rest % out * view_.extents[d] / out) * view_.strides[d];
            rest /= out;
        }
        row_ = view_.data + offset * sizeof(Element);
    }

    const StreamView& view_;
    const Frame* frame_;
    std::size_t last_;
    std::size_t row_length_; ///< of the output domain
    std::size_t in_length_;  ///< of the stream's last dimension
    std::size_t stride_;     ///< of the stream's last dimension, in elements
    /// The current row: its output indices [row_first_, row_end_) and where it starts in the
    /// stream. Empty at first, so that the first access starts a row.
    std::size_t row_first_ = 1;
    std::size_t row_end_ = 0;
    std::byte* row_ = nullptr;
};

/// Whether the general loop skips output element `index` (a write mask tests it, see
/// Frame::element_flags): it then runs nothing, and its flag becomes 0, not written.
inline bool skips_element(const Frame& frame, std::size_t index) {
    if (frame.element_flags == nullptr || frame.element_flags[index] == 0) {
        return false;
    }
    frame.element_flags[index] = 0;
    return true;
}

/// Records that output element `index` was written, where the runtime asks (Frame::element_flags).
inline void mark_written(const Frame& frame, std::size_t index) {
    if (frame.element_flags != nullptr) {
        frame.element_flags[index] = 1;
    }
}

namespace detail {

/// The position of output element `index` in `view` (resized to the output's shape), or in the
/// output itself when `view` is null, as a float4 whose .x is the last dimension.
inline float4 element_position(const Frame& frame, const StreamView* view, std::size_t index) {
    float4 position;
    for (int d = frame.output_rank - 1, component = 0; d >= 0; --d, ++component) {
        const auto dim = static_cast<std::size_t>(d);
        const std::size_t out = frame.output_extents[dim];
        // The slowest dimension takes what is left, and an input of the output's extent needs
        // no scaling: a 1-D call of same-shaped streams divides nothing.
        const std::size_t i = d == 0 ? index : index % out;
        index /= d == 0 ? 1 : out;
        const std::size_t extent = view != nullptr && d < view->rank ? view->extents[dim] : out;
        position[component] = static_cast<float>(extent == out ? i : i * extent / out);
    }
    return position;
}

} // namespace detail

/// `indexof(s)`: the position of output element `index` in stream parameter `param`, as a float4
/// whose .x is the last dimension (an input of another shape is resized as it is read).
/// A scatter output's `param` is -1: its position is the domain's (BROOKPLUS.md §4.6).
inline float4 indexof(const Frame& frame, int param, std::size_t index) {
    return detail::element_position(frame, param < 0 ? nullptr : &frame.args[param].stream, index);
}

/// Whether the output's rows are shorter than 2^31 elements, so that a dense call's row loop
/// may count its columns in an int and take indexof's positions from a DenseRow.
inline bool fits_int_columns(const Frame& frame) {
    return frame.output_extents[static_cast<std::size_t>(frame.output_rank - 1)] <=
           static_cast<std::size_t>(std::numeric_limits<int>::max());
}

/// Positions along one output row of a dense call whose rows fit an int (fits_int_columns), for
/// kernels that use indexof. Every stream of a dense call has the output's shape, so an
/// element's position is the same in all of them, and along a row only .x changes, by one per
/// element: worked out from the row's first element once, indexof costs an addition, where the
/// division per dimension of the general indexof would keep the element loop from vectorising.
/// The column is an int, added as an integer and then converted, so that .x rounds as the
/// general indexof's does beyond 2^24, in one instruction for a vector of columns: x86-64 has no
/// packed conversion of 64-bit integers before AVX-512DQ, and the exact one through doubles that
/// this class made before cost the bitonic sort's passes a fifth of their time. The generated
/// row loop counts in an int too, so that GCC folds `index - first` to its counter and keeps
/// the columns in 32-bit lanes.
class DenseRow {
public:
    DenseRow(const Frame& frame, std::size_t first)
        : first_(first),
          first_column_(static_cast<int>(
              first % frame.output_extents[static_cast<std::size_t>(frame.output_rank - 1)])),
          start_(detail::element_position(frame, nullptr, first)) {}

    float4 at(std::size_t index) const {
        float4 position = start_;
        position.x = static_cast<float>(first_column_ + static_cast<int>(index - first_));
        return position;
    }

private:
    std::size_t first_;
    int first_column_;
    float4 start_;
};

/// `indexof(s)` in a dense call's row loop: see DenseRow.
inline float4 indexof(const DenseRow& row, int /*param*/, std::size_t index) {
    return row.at(index);
}

namespace detail {

/// Element k of a run of elements `stride` apart in memory: what the folds read from a stream.
/// (A fused fold reads elements that a map kernel computes instead: see FusedFoldFunction.)
template <class Element> struct StridedRun {
    const Element* data;
    std::size_t stride;
    [[gnu::always_inline]] Element operator()(std::size_t k) const { return data[k * stride]; }
};

/// As StridedRun, for a stride of one: the form the vectorised folds take. The element is
/// returned as a value: returned by reference, a float3's was read as three loads that GCC 12
/// regrouped with permutes, and tonemap's max took 0.27 ms against 0.24.
template <class Element> struct ContiguousRun {
    const Element* data;
    [[gnu::always_inline]] Element operator()(std::size_t k) const { return data[k]; }
};

/// Folds elements 0 to `count` - 1 of `run` (a callable from the index to the element) into
/// `result` (or starts it from the first element when `first`). Where `contiguous` (elements
/// next to each other, cheap to reach in any order), a long run is cut into `chains`
/// consecutive parts folded side by side, each into its own accumulator, which are then joined
/// in order: the operands are re-associated, never re-ordered, and the independent chains keep
/// the core's adders busy where one chain would wait on each step's latency.
template <class Element, class Run, class Combine>
BROOK_CPU_DISPATCHED_TEMPLATE void fold_run(Run run, std::size_t count, bool contiguous,
                                            Element& result, bool& first, Combine& combine) {
    constexpr std::size_t chains = 8;
    constexpr std::size_t min_part = 32;
    if (count == 0) {
        return;
    }
    std::size_t start = 0;
    if (first) {
        result = run(0);
        first = false;
        start = 1;
    }
    if (!contiguous || count - start < chains * min_part) {
        for (std::size_t i = start; i < count; ++i) {
            combine(run(i), result);
        }
        return;
    }
    const std::size_t length = count - start;
    const std::size_t part = length / chains;
    Element partial[chains];
    for (std::size_t c = 0; c < chains; ++c) {
        partial[c] = run(start + c * part);
    }
    for (std::size_t i = 1; i < part; ++i) {
        for (std::size_t c = 0; c < chains; ++c) {
            combine(run(start + c * part + i), partial[c]);
        }
    }
    // The elements after the last full part continue its chain.
    for (std::size_t i = chains * part; i < length; ++i) {
        combine(run(start + i), partial[chains - 1]);
    }
    for (std::size_t c = 0; c < chains; ++c) {
        combine(partial[c], result);
    }
}

/// fold_run for an operator brcc has shown to be commutative as well as associative (such as
/// `r = max(r, a)` or `r += a`), where any order gives the same result up to rounding: element
/// i of a long contiguous run goes to accumulator i % lanes. Each step then combines a
/// contiguous block of elements into a contiguous block of accumulators, which the compiler
/// turns into a few full-width vector operations whatever the element's width (a float3 is
/// not a vector register, but sixteen of them are six), with `lanes` independent chains.
///
/// Not inlined: inside fold_box's loops GCC vectorises the blocks both as full-width and as
/// 128-bit operations and stores the accumulators to the stack on every step, which costs a
/// quarter of the speed of the sum of float4s. `Unrolled` unrolls the block loop (see below),
/// for elements that cost a load each: the steps of a fused fold whose map reads other types
/// than it writes took GCC seconds to compile unrolled (a float4's components summed: 5 s).
template <bool Unrolled, class Element, class Run, class Combine>
[[gnu::noinline]] BROOK_CPU_DISPATCHED_TEMPLATE void
fold_run_commutative(Run run, std::size_t count, bool contiguous, Element& result, bool& first,
                     Combine& combine) {
    // At least 8 chains and 256 bytes of accumulators: four AVX-512 registers' worth, eight
    // AVX ones. With 128 bytes (two AVX-512 registers), a 1024-float row of SGEMV's row sum
    // waited on the adds' latency: its fused multiply and row sum took 80-82 µs at 1024,
    // against 75-76 µs with 256 (bench_sgemv, 2 threads). Runs of two blocks or more take
    // this way: fold_run took twice as long over rows of 192 floats.
    constexpr std::size_t lanes = std::bit_ceil(std::max<std::size_t>(8, 256 / sizeof(Element)));
    if (!contiguous || count < 2 * lanes) {
        fold_run(run, count, contiguous, result, first, combine);
        return;
    }
    Element partial[lanes];
    const std::size_t blocked = count / lanes * lanes;
    if constexpr (Unrolled && std::has_single_bit(sizeof(Element))) {
        // GCC 12 keeps the accumulators in registers only when the block loop is unrolled and
        // works on an array that nothing else indexes: unrolled over `partial`, which the loops
        // below index by variables, it stored three of the four vectors back on every block
        // (float4 sums of 16 MB on 2 threads: 0.71-0.95x the OpenMP reduction, 0.83-1.14x
        // with this copy). Two forms, since GCC 12 does not vectorise the unrolled form for
        // 12-byte elements, whose blocks it vectorises well as they are (a float3 max ran 5x
        // slower unrolled), and refuses an unroll count that depends on Element.
        Element chains[lanes];
#pragma GCC unroll 64
        for (std::size_t k = 0; k < lanes; ++k) {
            chains[k] = run(k);
        }
        for (std::size_t i = lanes; i < blocked; i += lanes) {
#pragma GCC unroll 64
            for (std::size_t k = 0; k < lanes; ++k) {
                combine(run(i + k), chains[k]);
            }
        }
#pragma GCC unroll 64
        for (std::size_t k = 0; k < lanes; ++k) {
            partial[k] = chains[k];
        }
    } else {
        for (std::size_t k = 0; k < lanes; ++k) {
            partial[k] = run(k);
        }
        for (std::size_t i = lanes; i < blocked; i += lanes) {
            for (std::size_t k = 0; k < lanes; ++k) {
                combine(run(i + k), partial[k]);
            }
        }
    }
    for (std::size_t i = blocked; i < count; ++i) {
        combine(run(i), partial[i - blocked]);
    }
    // The accumulators are joined by halves, each halving a vector step too, rather than one
    // by one in a chain that waits on every step's latency (a row of a reduction to a stream,
    // such as SGEMV's, is only a few dozen blocks long).
    for (std::size_t half = lanes / 2; half >= 1; half /= 2) {
        for (std::size_t k = 0; k < half; ++k) {
            combine(partial[k + half], partial[k]);
        }
    }
    if (first) {
        result = partial[0];
        first = false;
    } else {
        combine(partial[0], result);
    }
}

/// The runs of a box of a `rank`-dimensional array with `extents`, its elements `strides`
/// apart: its dimensions right-aligned in four, so that the innermost loop runs along the last
/// dimension whatever the rank, and, where `join_rows`, whole rows that follow each other in
/// memory joined into one run, still in row-major order (a box of a thread's rows folds as one
/// long run rather than a short one per row, each of which would pay for starting and joining
/// its chains).
struct BoxRuns {
    std::array<std::size_t, 4> lo{0, 0, 0, 0};
    std::array<std::size_t, 4> hi{1, 1, 1, 1};
    std::array<std::size_t, 4> stride{0, 0, 0, 0};

    BoxRuns(int rank, const std::size_t* extents, const std::size_t* strides, const Box& box,
            bool join_rows) {
        std::array<std::size_t, 4> extent{1, 1, 1, 1};
        const int shift = 4 - rank;
        for (int d = 0; d < rank; ++d) {
            const auto from = static_cast<std::size_t>(d);
            const auto to = static_cast<std::size_t>(d + shift);
            lo[to] = box.lo[from];
            hi[to] = box.hi[from];
            stride[to] = strides[from];
            extent[to] = extents[from];
        }
        std::size_t run_extent = extent[3];
        for (std::size_t d = 3; join_rows && d-- > 0;) {
            if (lo[3] != 0 || hi[3] != run_extent || stride[d] != run_extent * stride[3]) {
                break;
            }
            lo[3] = lo[d] * run_extent;
            hi[3] = hi[d] * run_extent;
            run_extent *= extent[d];
            lo[d] = 0;
            hi[d] = 1;
        }
    }

    /// visit(offset, count, position) for each run: where its first element is, in elements
    /// from the array's first, how many it has, and (without joined rows) its first element's
    /// coordinates, right-aligned in four.
    template <class Visit> [[gnu::always_inline]] void for_each(const Visit& visit) const {
        std::array<std::size_t, 4> position{0, 0, 0, lo[3]};
        for (position[0] = lo[0]; position[0] < hi[0]; ++position[0]) {
            for (position[1] = lo[1]; position[1] < hi[1]; ++position[1]) {
                for (position[2] = lo[2]; position[2] < hi[2]; ++position[2]) {
                    visit(position[0] * stride[0] + position[1] * stride[1] +
                              position[2] * stride[2] + lo[3] * stride[3],
                          hi[3] - lo[3], position);
                }
            }
        }
    }
};

} // namespace detail

/// How a reduction's operator may be applied: `Ordered` keeps the elements in row-major order
/// and only re-associates (any associative operator, a matrix product included); `Commutative`
/// may also re-order them, for operators brcc has shown to commute.
enum class FoldOrder { Ordered, Commutative };

/// detail::fold_run, or for a commutative operator over `Contiguous` elements
/// detail::fold_run_commutative, `Unrolled` or not. (Elements that are not contiguous take
/// fold_run's one chain either way, and the commutative fold is not instantiated for them.)
template <FoldOrder Order, bool Contiguous, bool Unrolled = Contiguous, class Element, class Run,
          class Combine>
[[gnu::always_inline]] inline void fold_elements(Run run, std::size_t count, Element& result,
                                                 bool& first, Combine& combine) {
    if constexpr (Order == FoldOrder::Commutative && Contiguous) {
        detail::fold_run_commutative<Unrolled>(run, count, true, result, first, combine);
    } else {
        detail::fold_run(run, count, Contiguous, result, first, combine);
    }
}

/// Folds the elements of `view` inside `box`: the accumulator becomes the first element, then
/// `combine(element, accumulator)` takes each next one, in row-major order (long rows are
/// re-associated, see detail::fold_run) or, for a commutative operator, in the order that
/// vectorises (detail::fold_run_commutative). The fold runs on a local copy, so the accumulator
/// stays in registers rather than in memory the compiler must assume the input may alias.
template <FoldOrder Order, class Element, class Combine>
BROOK_CPU_DISPATCHED_TEMPLATE void fold_box(const StreamView& view, const Box& box,
                                            Element& accumulator, Combine combine) {
    const Element* base = reinterpret_cast<const Element*>(view.data);
    // The stride of a run: the last dimension's, joined rows included.
    const std::size_t stride = view.strides[static_cast<std::size_t>(view.rank - 1)];
    Element result{};
    bool first = true;
    detail::BoxRuns(view.rank, view.extents.data(), view.strides.data(), box, true)
        .for_each([&](std::size_t offset, std::size_t count, const auto&) {
            if (stride == 1 || count == 1) {
                fold_elements<Order, true>(detail::ContiguousRun<Element>{base + offset}, count,
                                           result, first, combine);
            } else {
                fold_elements<Order, false>(detail::StridedRun<Element>{base + offset, stride},
                                            count, result, first, combine);
            }
        });
    accumulator = result;
}

/// A fused fold's runs (FusedFoldFunction): visit(begin, end, position) for each run of the
/// map's output elements inside `box`, as output element indices [begin, end), in row-major
/// order. A dense call's whole rows join into one run as fold_box joins a stored output's, so
/// that the fused fold re-associates as the fold of the stored output would; another call's
/// runs are each inside one output row, whose coordinates `position` gives (right-aligned in
/// four), for ResizedView::unit_run.
template <class Visit>
[[gnu::always_inline]] inline void for_each_output_run(const Frame& frame, const Box& box,
                                                       const Visit& visit) {
    std::array<std::size_t, 4> strides{};
    std::size_t stride = 1;
    for (int d = frame.output_rank; d-- > 0;) {
        strides[static_cast<std::size_t>(d)] = stride;
        stride *= frame.output_extents[static_cast<std::size_t>(d)];
    }
    detail::BoxRuns(frame.output_rank, frame.output_extents.data(), strides.data(), box,
                    frame.dense)
        .for_each([&](std::size_t begin, std::size_t count, const auto& position) {
            visit(begin, begin + count, position);
        });
}

// ---------------------------------------------------------------------------------------------
// Thread groups (BROOKPLUS.md §4.8)

/// The body of a kernel with a GroupSize, one coroutine per thread of a group: a thread runs to
/// its next syncGroup() (`co_await sync_group()`) or its end, and run_group takes the group's
/// threads in turn, so that each of them reaches a barrier before any passes it.
class GroupTask {
public:
    struct promise_type {
        GroupTask get_return_object() {
            return GroupTask(std::coroutine_handle<promise_type>::from_promise(*this));
        }
        std::suspend_always initial_suspend() noexcept { return {}; }
        std::suspend_always final_suspend() noexcept { return {}; }
        void return_void() noexcept {}
        void unhandled_exception() { throw; }
    };

    explicit GroupTask(std::coroutine_handle<promise_type> handle) : handle_(handle) {}
    GroupTask(GroupTask&& other) noexcept : handle_(other.handle_) { other.handle_ = {}; }
    GroupTask(const GroupTask&) = delete;
    GroupTask& operator=(const GroupTask&) = delete;
    GroupTask& operator=(GroupTask&&) = delete;
    ~GroupTask() {
        if (handle_)
            handle_.destroy();
    }

    /// Runs the thread to its next barrier or its end; false once it has ended.
    bool resume() {
        if (!handle_.done())
            handle_.resume();
        return !handle_.done();
    }

private:
    std::coroutine_handle<promise_type> handle_;
};

/// `syncGroup()` in a group kernel's body: `co_await sync_group()`.
inline std::suspend_always sync_group() noexcept {
    return {};
}

/// Runs the `size` threads of a group, start(t) making thread t's GroupTask: round after round,
/// each thread that has not ended runs to its next barrier. A thread that ends while others wait
/// at a barrier lets them go on (where a GPU would hang: Brook+ asks barriers to be reached by
/// the whole group).
template <class Start> void run_group(int size, const Start& start) {
    thread_local std::vector<GroupTask> threads;
    threads.clear();
    threads.reserve(static_cast<std::size_t>(size));
    for (int t = 0; t < size; ++t)
        threads.push_back(start(t));
    for (bool running = true; running;) {
        running = false;
        for (GroupTask& thread : threads)
            running = thread.resume() || running;
    }
    threads.clear();
}

} // namespace brook::cpu
