// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Streams: the Brook runtime's collections of records, stored by the current backend. A
// `brook::stream` is a handle; copies share the same storage (a `.domain()` view also does).

#include "brook/host_memory.hpp"
#include "brook/stream_type.hpp"
#include "brook/vector.hpp"

#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <ranges>
#include <source_location>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace brook {

/// The scalar of a stream field: 32-bit float, int and unsigned int; signed and unsigned bytes;
/// `fixed`, an unsigned byte b that reads as the float b / 255; `shortfixed`, an unsigned short
/// b that reads as b / 65535; signed and unsigned shorts; 64-bit double (Brook+).
enum class ScalarKind : unsigned char {
    Float32,
    Int32,
    UInt32,
    Int8,
    UInt8,
    Fixed8,
    Fixed16,
    Int16,
    UInt16,
    Float64
};

/// Size in bytes of one component of `kind`.
std::size_t scalar_size(ScalarKind kind);

/// One leaf field of an element type: `components` values of `scalar`, at `offset` bytes into
/// the C++ object. float4 has one field; `struct { float3 o; float3 d; }` has two.
struct FieldInfo {
    ScalarKind scalar;      ///< the type of each component
    int components;         ///< 1 to 4
    std::size_t offset;     ///< bytes from the start of the C++ object

    /// Same scalar, components and offset.
    friend bool operator==(const FieldInfo&, const FieldInfo&) = default;
};

/// What a stream holds: the C++ type's name, size and fields (nested structs flattened).
struct ElementType {
    std::string name;              ///< the C++ type's name, for messages ("float4", "Pair")
    std::size_t size;              ///< sizeof of the C++ type
    std::vector<FieldInfo> fields; ///< the leaf fields, in declaration order

    /// Number of scalar components over all fields (float4: 4; {float3, float3}: 6).
    int component_count() const;
    /// Size of one element packed without padding, as GPU backends store it.
    std::size_t packed_size() const;
};

/// Same fields and size (the names may differ: two typedefs of one struct are one type).
bool operator==(const ElementType& a, const ElementType& b);

/// element_traits<Element>::type() describes Element. Defined here for float, int, unsigned int,
/// signed char (Brook's `char`; C++'s plain char is described the same way), unsigned char, fixed,
/// shortfixed, short and unsigned short, and their 2- to 4-vectors, and double and double2; brcc
/// specialises it for every struct typedef in a .br file.
template <class Element> struct element_traits;

// The element type last: a template-id's comma would split a macro argument.
#define BROOK_VECTOR_ELEMENT(name, kind, n, ...)                                                   \
    template <> struct element_traits<__VA_ARGS__> {                                               \
        static const ElementType& type() {                                                         \
            static const ElementType t{name, sizeof(__VA_ARGS__), {{ScalarKind::kind, n, 0}}};     \
            return t;                                                                              \
        }                                                                                          \
    };
// A scalar and its vectors; `Vector` is the class template of the vectors (vec, fixed_vector).
#define BROOK_VECTOR_ELEMENTS(Scalar, Vector, Stored, name, kind)                                  \
    BROOK_VECTOR_ELEMENT(#name, kind, 1, Scalar)                                                   \
    BROOK_VECTOR_ELEMENT(#name "2", kind, 2, Vector<Stored, 2>)                                    \
    BROOK_VECTOR_ELEMENT(#name "3", kind, 3, Vector<Stored, 3>)                                    \
    BROOK_VECTOR_ELEMENT(#name "4", kind, 4, Vector<Stored, 4>)
BROOK_VECTOR_ELEMENTS(float, vec, float, float, Float32)
BROOK_VECTOR_ELEMENTS(int, vec, int, int, Int32)
BROOK_VECTOR_ELEMENTS(unsigned int, vec, unsigned int, uint, UInt32)
BROOK_VECTOR_ELEMENTS(char, vec, signed char, char, Int8)
BROOK_VECTOR_ELEMENTS(unsigned char, vec, unsigned char, uchar, UInt8)
BROOK_VECTOR_ELEMENTS(fixed, fixed_vector, unsigned char, fixed, Fixed8)
BROOK_VECTOR_ELEMENTS(shortfixed, fixed_vector, unsigned short, shortfixed, Fixed16)
BROOK_VECTOR_ELEMENTS(short, vec, short, short, Int16)
BROOK_VECTOR_ELEMENTS(unsigned short, vec, unsigned short, ushort, UInt16)
// Brook+ has no double3 or double4 (brcc rejects them).
BROOK_VECTOR_ELEMENT("double", Float64, 1, double)
BROOK_VECTOR_ELEMENT("double2", Float64, 2, vec<double, 2>)
#undef BROOK_VECTOR_ELEMENTS
#undef BROOK_VECTOR_ELEMENT
template <> struct element_traits<signed char> : element_traits<char> {};
/// A named vector (float4, int2, ...) as the vec it derives from.
template <class Element>
    requires requires { typename Element::brook_host_vector_base; }
struct element_traits<Element> : element_traits<typename Element::brook_host_vector_base> {};
/// Kernels keep fixed vectors as vec<fixed, N>: the same bytes as host code's fixed2..4.
template <class Bits, int Components>
struct element_traits<vec<basic_fixed<Bits>, Components>>
    : element_traits<fixed_vector<Bits, Components>> {};

namespace detail {
class StreamImpl;

/// A first parameter that also records the location of the call it is passed to. A function
/// whose parameters end in a pack (`make_stream<float>(rows, cols)`, BrookGPU's `stream(fields,
/// rows, cols, -1)`) cannot take a defaulted std::source_location last, so its first argument,
/// converted where the call is made, carries it (brook/errors.hpp).
template <class Value> struct Located {
    template <class Given>
        requires std::convertible_to<Given, Value>
    Located(Given given, // NOLINT(google-explicit-constructor): takes any argument of Value
            std::source_location call = std::source_location::current())
        : value(static_cast<Value>(given)), where(call) {}

    Value value;
    std::source_location where;
};
} // namespace detail

struct KernelInfo;
class StreamInfo;

/// Brook+'s error codes (brook/recorded_errors.hpp) and devices (brook/brookplus_device.hpp).
enum BRerror : int;
class Device;

/// A stream: a handle to 1- to 4-dimensional storage of elements on the current backend, what
/// brcc makes of `float4 s<rows, cols>;`. Copies share the storage; `.domain()` views do too.
class stream {
public:
    /// An empty handle; assign a stream to it before use.
    stream() = default;
    /// A stream of `extents` (1 to 4 of them, slowest first, each >= 0; an extent of 0 makes an
    /// empty stream) elements of `type` on the current backend. Bad extents stop the program
    /// with a message, located at `where` (the runtime's own calls pass none).
    stream(const ElementType& type, std::span<const long long> extents,
           const std::source_location& where = {});
    /// A stream whose elements are the ones at `host` (the C++ type's layout, row-major), used
    /// in place rather than copied: kernels read and write that memory. An empty handle where
    /// the current backend keeps streams elsewhere (every backend but cpu), which then needs a
    /// stream and streamRead. `host` must outlive the stream and its views, and nothing else
    /// may write it while a call uses it.
    static stream borrow(const ElementType& type, std::span<const long long> extents, void* host,
                         const std::source_location& where = {});

    /// The type of the elements (stops the program for an empty handle, as the getters below).
    const ElementType& element_type() const;
    /// The number of dimensions, 1 to 4.
    int rank() const;
    /// Extents of the stream (of the view, for a domain), slowest dimension first.
    std::vector<std::size_t> extents() const;
    /// Number of elements.
    std::size_t size() const;
    /// "float4<100, 100>" for messages.
    std::string describe() const;
    /// False for an empty handle (default-constructed, or moved from).
    bool valid() const { return impl_ != nullptr; }

    /// `s.domain(lo, hi)`: a view of the half-open region [lo, hi) of the stream that shares its
    /// storage, usable wherever a stream is. Bounds are in the `.x`-is-last order: an int for a
    /// 1-D stream, int2..int4 for 2-D to 4-D (`.x` bounds the last dimension). lo == hi in a
    /// dimension gives an empty view; bounds outside the stream, lo > hi or a wrong number of
    /// components stop the program.
    ///@{
    stream domain(int lo, int hi,
                  std::source_location where = std::source_location::current()) const;
    stream domain(int2 lo, int2 hi,
                  std::source_location where = std::source_location::current()) const;
    stream domain(int3 lo, int3 hi,
                  std::source_location where = std::source_location::current()) const;
    stream domain(int4 lo, int4 hi,
                  std::source_location where = std::source_location::current()) const;
    ///@}

    /// The runtime's stream behind the handle, for the runtime and its backends.
    std::shared_ptr<detail::StreamImpl> impl() const { return impl_; }
    /// A handle of the runtime's stream `impl`, for the runtime and its backends.
    explicit stream(std::shared_ptr<detail::StreamImpl> impl) : impl_(std::move(impl)) {}

    // BrookGPU's C++ interface (COMPAT.md 2.3), for programs that build streams by hand.

    /// `stream(getStreamType((float4*)0), rows, cols, -1)`: the extents, slowest first, end with
    /// -1. An iterator (brook::iter) converts to a stream sharing its elements.
    template <std::integral... Extents>
    stream(detail::Located<const StreamType*> fields, Extents... extents_then_minus_one) {
        const long long values[] = {static_cast<long long>(extents_then_minus_one)...};
        *this = from_field_list(fields.value, values, fields.where);
    }
    /// `dims` extents, slowest first. BrookGPU's `read_only` hint changes nothing here.
    stream(const unsigned* extents, unsigned dims, const StreamType* fields,
           bool read_only = false, std::source_location where = std::source_location::current());
    /// `stream::create<float4>(n)`, `stream::create<float4>(rows, cols)`.
    ///@{
    template <class Element>
    static stream create(int n, std::source_location where = std::source_location::current());
    template <class Element>
    static stream create(int rows, int columns,
                         std::source_location where = std::source_location::current());
    ///@}
    /// streamRead, streamWrite and streamSwap as members.
    ///@{
    void read(const void* data,
              std::source_location where = std::source_location::current()) const;
    void write(void* data, std::source_location where = std::source_location::current()) const;
    void swap(stream& other);
    ///@}
    /// Brook+'s members (BROOKPLUS.md §2.5), for its programs' streams declared in .br files:
    /// what brook::Stream<T> (brook/brookplus_stream.hpp) gives them, each recording its errors
    /// on the stream and returning. `domain` takes unsigned bounds fastest first; on an empty
    /// handle (an invalid view) error() is BR_ERROR_INVALID_PARAMATER.
    ///@{
    void read(const void* data, const char* flags) const;
    void write(void* data, const char* flags) const;
    BRerror error() const;
    const char* errorLog() const;
    bool isSync() const;
    void finish() const;
    stream domain(const unsigned* start, const unsigned* end) const;
    stream execDomain(int n) const;
    void assign(const stream& source) const;
    Device* getDevices(unsigned* count) const;
    ///@}
    /// BrookGPU's stream object, with its getters (`s->getDimension()`); it lives as long as any
    /// handle of the stream does. Null for an empty handle.
    operator StreamInfo*() const;
    /// The stream object for `s->getDimension()`. On an empty handle, an object whose every
    /// getter stops the program, naming the line of the getter's call.
    StreamInfo* operator->() const;

private:
    /// The view for bounds lo[i], hi[i] where i = 0 is `.x`, the last dimension.
    stream domain_view(const int* lo, const int* hi, int components,
                       const std::source_location& where) const;
    /// The stream of the field list's element type and the extents before the -1 in `values`.
    static stream from_field_list(const StreamType* fields, std::span<const long long> values,
                                  const std::source_location& where);

    std::shared_ptr<detail::StreamImpl> impl_;
};

/// What `->` on a stream handle reaches: BrookGPU's getters of a stream's shape and fields,
/// and its Read/Write. The runtime's description of a stream derives from it. BrookGPU called
/// this class `brook::Stream`; programs reach it only through `->` and the pointer conversion,
/// so the name is free for Brook+'s stream template, `brook::Stream<T>` (brook/brook.h).
class StreamInfo {
public:
    StreamInfo(const StreamInfo&) = delete;
    StreamInfo& operator=(const StreamInfo&) = delete;

    // Each getter takes its caller's location, for the error of `->` on an empty handle.

    /// The extents, slowest first (getDimension() of them).
    const unsigned* getExtents(std::source_location where = std::source_location::current()) const;
    /// The number of dimensions, 1 to 4.
    unsigned getDimension(std::source_location where = std::source_location::current()) const;
    /// Number of elements.
    unsigned getTotalSize(std::source_location where = std::source_location::current()) const;
    /// Leaf fields of the element type (float4: 1; {float3, float3}: 2).
    unsigned getFieldCount(std::source_location where = std::source_location::current()) const;
    /// The type of leaf field `i` (0 to getFieldCount() - 1; another `i` stops the program).
    StreamType getIndexedFieldType(
        unsigned i, std::source_location where = std::source_location::current()) const;
    /// Bytes of one element in host memory, as Read and Write move it.
    unsigned getElementSize(std::source_location where = std::source_location::current()) const;
    /// streamRead and streamWrite of the stream, as BrookGPU's members.
    ///@{
    void Read(const void* data, std::source_location where = std::source_location::current());
    void Write(void* data, std::source_location where = std::source_location::current()) const;
    ///@}

protected:
    StreamInfo() = default;
    ~StreamInfo() = default;

private:
    /// getExtents' answer, filled on each call: a variable output may change the shape.
    mutable unsigned extents_[4] = {};
};

/// `::brook::stream x = ::brook::make_stream<float4>(rows, cols);` what brcc emits for
/// `float4 x<rows, cols>;` (any integer expressions as extents); bad extents stop the program,
/// naming the line of the declaration.
template <class Element, class... Extents>
stream make_stream(detail::Located<long long> first, Extents... rest) {
    static_assert(sizeof...(Extents) <= 3, "a stream has 1 to 4 dimensions");
    const long long values[] = {first.value, static_cast<long long>(rest)...};
    return stream(element_traits<Element>::type(), values, first.where);
}

template <class Element> stream stream::create(int n, std::source_location where) {
    const long long values[] = {n};
    return stream(element_traits<Element>::type(), values, where);
}
template <class Element> stream stream::create(int rows, int columns, std::source_location where) {
    const long long values[] = {rows, columns};
    return stream(element_traits<Element>::type(), values, where);
}

/// A stream of `type` (float..float4) holding the values of `iter(begin, end)` (DESIGN.md §2):
/// `begin + (end - begin) * i / N` at index i of a dimension of extent N. For a 1-D stream every
/// component uses the element's index; for more dimensions the type has one component per
/// dimension and `.x` varies along the last dimension, `.y` along the one before it, and so on.
/// Errors name `where`, the user's call that made the iterator.
stream make_iterator_stream(const ElementType& type, std::span<const long long> extents,
                            std::span<const float> begin, std::span<const float> end,
                            const std::source_location& where = {});

/// `iter float2 s<H, W> = iter(a, b);` becomes
/// `::brook::stream s = ::brook::make_iterator<float2>(a, b, H, W);`
template <class Element, class... Extents>
stream make_iterator(Element begin, Element end, detail::Located<long long> first,
                     Extents... rest) {
    static_assert(sizeof...(Extents) <= 3, "a stream has 1 to 4 dimensions");
    const long long values[] = {first.value, static_cast<long long>(rest)...};
    constexpr int components = sizeof(Element) / sizeof(float);
    float b[components];
    float e[components];
    if constexpr (components == 1) {
        b[0] = static_cast<float>(begin);
        e[0] = static_cast<float>(end);
    } else {
        for (int i = 0; i < components; ++i) {
            b[i] = static_cast<float>(begin[i]);
            e[i] = static_cast<float>(end[i]);
        }
    }
    return make_iterator_stream(element_traits<Element>::type(), values, b, e, first.where);
}

/// BrookGPU's iterator object: a stream of float..float4 holding `iter(start, end)`'s values
/// (make_iterator above), usable wherever a stream is read. Kernel stubs take iterator
/// parameters as `const brook::iter&`, which an ordinary stream also converts to (sharing it).
class iter : public stream {
public:
    iter() = default;
    /// An iterator sharing the elements of the stream `s`.
    iter(const stream& s) : stream(s) {} // NOLINT(google-explicit-constructor): as BrookGPU
    /// `iter(__BRTFLOAT2, rows, cols, -1, x0, y0, x1, y1, -1)`: the type (__BRTFLOAT to
    /// __BRTFLOAT4, n components), the extents ended by -1, then n start and n end values;
    /// what follows is ignored.
    template <class... Values>
    requires(std::is_arithmetic_v<Values>&&...) iter(detail::Located<StreamType> type,
                                                      Values... values)
        : stream(from_values(type.value, {static_cast<double>(values)...}, type.where)) {}

private:
    static stream from_values(StreamType type, std::initializer_list<double> values,
                              const std::source_location& where);
};

// Every host API call that can fail takes its caller's location as a defaulted last argument,
// so that an error names the .br line of the call (brook/errors.hpp).

/// Copies the stream's elements from host memory into it (no alignment demands). The handle is
/// const so that views (`s.domain(...)`) can be filled; the elements change. The pointer form
/// trusts the buffer to hold the whole stream; the forms below check its size.
void streamRead(const stream& s, const void* data,
                std::source_location where = std::source_location::current());
/// Copies the stream's elements out to host memory.
void streamWrite(const stream& s, void* data,
                 std::source_location where = std::source_location::current());
/// streamRead and streamWrite from and to a buffer of `count` elements of the stream's type;
/// a buffer shorter than the stream stops the program with a message.
///@{
void streamRead(const stream& s, const void* data, std::size_t count,
                std::source_location where = std::source_location::current());
void streamWrite(const stream& s, void* data, std::size_t count,
                 std::source_location where = std::source_location::current());
///@}

namespace detail {
/// streamRead and streamWrite with a buffer of `bytes` bytes, which must hold the whole stream.
void read_sized(const stream& s, const void* data, std::size_t bytes,
                const std::source_location& where);
void write_sized(const stream& s, void* data, std::size_t bytes,
                 const std::source_location& where);
} // namespace detail

/// streamRead and streamWrite from and to a host array whose size the compiler knows (`float
/// a[16]`, std::array, std::vector, std::span): an array with fewer bytes than the stream's
/// elements stops the program with a message, rather than being read or written past its end.
///@{
template <std::ranges::contiguous_range Range>
    requires std::ranges::sized_range<Range>
void streamRead(const stream& s, Range&& data,
                std::source_location where = std::source_location::current()) {
    detail::read_sized(s, std::ranges::data(data),
                       std::ranges::size(data) * sizeof(*std::ranges::data(data)), where);
}
template <std::ranges::contiguous_range Range>
    requires std::ranges::sized_range<Range> &&
             (!std::is_const_v<std::remove_reference_t<std::ranges::range_reference_t<Range>>>)
void streamWrite(const stream& s, Range&& data,
                 std::source_location where = std::source_location::current()) {
    detail::write_sized(s, std::ranges::data(data),
                        std::ranges::size(data) * sizeof(*std::ranges::data(data)), where);
}
///@}

/// The part of a stream this process holds: the rows [first_row, first_row + rows) of its
/// slowest dimension (of a view: of the view's rows; of a 1-D stream: its elements), which are
/// `elements` elements in row-major order. On a backend that is one process (cpu, gl, cuda)
/// that is the whole stream; under `mpi:LOCAL` each rank holds one block of every stream's rows
/// (docs/mpi.md), and a rank may hold none (`rows == 0`) when the stream has fewer rows than
/// there are ranks.
struct LocalRegion {
    std::size_t first_row = 0; ///< the first row held, counted from the stream's first
    std::size_t rows = 0;      ///< how many consecutive rows are held
    std::size_t elements = 0;  ///< rows times the elements of one row
};

/// The rows of `s` this process holds. Under mpi every rank must ask for the same streams in
/// the same order: a stream last used with another shape is redistributed first (collective).
LocalRegion local_region(const stream& s,
                         std::source_location where = std::source_location::current());

/// streamRead and streamWrite of only the rows this process holds (local_region(s)), for
/// programs whose host arrays would not fit one machine: the host buffer holds
/// local_region(s).elements elements, the held rows in row-major order, and neither call moves
/// other processes' elements (a stream last used with another shape is first redistributed, as
/// local_region says). On one process they are streamRead and streamWrite. The pointer form trusts
/// the buffer's size; the forms below check it, as streamRead's do.
///@{
void streamReadLocal(const stream& s, const void* data,
                     std::source_location where = std::source_location::current());
void streamWriteLocal(const stream& s, void* data,
                      std::source_location where = std::source_location::current());
void streamReadLocal(const stream& s, const void* data, std::size_t count,
                     std::source_location where = std::source_location::current());
void streamWriteLocal(const stream& s, void* data, std::size_t count,
                      std::source_location where = std::source_location::current());
///@}

namespace detail {
/// streamReadLocal and streamWriteLocal with a buffer of `bytes` bytes, which must hold this
/// process's rows.
void read_local_sized(const stream& s, const void* data, std::size_t bytes,
                      const std::source_location& where);
void write_local_sized(const stream& s, void* data, std::size_t bytes,
                       const std::source_location& where);
} // namespace detail

/// streamReadLocal and streamWriteLocal from and to a host array whose size the compiler knows:
/// an array with fewer bytes than this process's rows stops the program with a message.
///@{
template <std::ranges::contiguous_range Range>
    requires std::ranges::sized_range<Range>
void streamReadLocal(const stream& s, Range&& data,
                     std::source_location where = std::source_location::current()) {
    detail::read_local_sized(s, std::ranges::data(data),
                             std::ranges::size(data) * sizeof(*std::ranges::data(data)), where);
}
template <std::ranges::contiguous_range Range>
    requires std::ranges::sized_range<Range> &&
             (!std::is_const_v<std::remove_reference_t<std::ranges::range_reference_t<Range>>>)
void streamWriteLocal(const stream& s, Range&& data,
                      std::source_location where = std::source_location::current()) {
    detail::write_local_sized(s, std::ranges::data(data),
                              std::ranges::size(data) * sizeof(*std::ranges::data(data)), where);
}
///@}

/// Exchanges the two handles (storage, extents, element type), whatever their shapes; other
/// handles of either stream (copies, views) keep the stream they had. Copies nothing, and under
/// mpi communicates nothing: each rank swaps its handles, whose blocks stay where they are.
void streamSwap(stream& a, stream& b);
/// Prints the elements to stdout as DESIGN.md §2 says, in row-major order: an element of one
/// component as its value and a space (`1.00 `), one of several as `{1.00, 2.00}` with nothing
/// between two such elements; float values as `%3.2f`, `0.00` when |x| < 1e-6, `inf` for either
/// infinity, `NaN` for NaN; int values as integers; a newline after every row of the last
/// dimension. BrookGPU's `flatten` flag changes nothing.
void streamPrint(const stream& s, bool flatten = false,
                 std::source_location where = std::source_location::current());
/// The stream's extents as the original runtime gave them, in the `.x`-is-last order: .x is the
/// last (fastest) extent, .y the one before it, and so on; absent dimensions are 0.
float4 streamSize(const stream& s, std::source_location where = std::source_location::current());

/// `streamScatterOp(dst, index, src, op)`: for each position p of `dst` in row-major order, j =
/// index[p] and dst[p] = op(acc = dst[p], value = src[j]): it folds src[index[p]] into dst[p]
/// (BrookGPU's definition, despite the name). `op` is a reduce function `reduce void op(T
/// value<>, reduce T acc<>)`, parameters in either order (brcc passes its KernelInfo); dst takes
/// the reduce argument's final value. `index` (a stream or an iterator) has dst's extents and
/// float or int elements (a 1-D src) or floatN or intN (an N-D src, `.x` the last dimension); a
/// float component v becomes (int)(v + 0.5). A position outside src (v + 0.5 < 0 or >= the
/// extent) stops the program with a message naming it, before anything is changed; pass
/// `brook::clamped(index)` to clamp positions to the extents instead. dst and src hold op's
/// element type and are different streams. Mismatched types or shapes stop the program.
void streamScatterOp(const stream& dst, const stream& index, const stream& src,
                     const KernelInfo& op,
                     std::source_location where = std::source_location::current());

/// An index stream whose positions streamScatterOp clamps to src's extents.
struct ClampedIndex {
    stream index; ///< the index stream, as streamScatterOp takes it
};
/// `streamScatterOp(dst, brook::clamped(index), src, op)`.
inline ClampedIndex clamped(stream index) {
    return ClampedIndex{std::move(index)};
}
/// streamScatterOp with the positions of `index` clamped to src's extents.
void streamScatterOp(const stream& dst, const ClampedIndex& index, const stream& src,
                     const KernelInfo& op,
                     std::source_location where = std::source_location::current());

/// `streamGatherOp(dst, index, src, op)`, a fetch-and-op: for each position p of `dst` in
/// row-major order, j = index[p] (the rule above, positions always clamped to src's extents,
/// as BrookGPU did); dst[p] = src[j], then op runs with both arguments equal to that old src[j],
/// and src[j] takes the reduce argument's final value, so later positions see the update. `r =
/// r` or `r = a` make it a plain fetch, `r = r + 1` a fetch-and-increment.
void streamGatherOp(const stream& dst, const stream& index, const stream& src,
                    const KernelInfo& op,
                    std::source_location where = std::source_location::current());

/// Waits until every kernel, reduction and copy the calling thread issued has finished. Backends
/// that queue work (cuda) return from launches early; streamWrite and reductions to host variables
/// wait by themselves, so only timing and interop with other APIs need this. A GPU error it meets
/// stops the program at this call.
void finish(std::source_location where = std::source_location::current());

/// The backend the calling thread runs on ("cpu", "gl", "cuda"), chosen as
/// brook/runtime_control.hpp says; BRT_VERBOSE=1 prints it with device_name() at the start.
/// A backend that cannot start stops the program at this call.
const char* backend_name(std::source_location where = std::source_location::current());
/// What that backend runs on, as BRT_VERBOSE=1 prints it: "the host, 16 threads" (cpu), the
/// renderer and OpenGL version (gl), the GPU and its compute capability (cuda). The text is for
/// people, not for parsing; it stays valid for the whole run.
const char* device_name(std::source_location where = std::source_location::current());

} // namespace brook
