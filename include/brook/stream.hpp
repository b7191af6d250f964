#pragma once
// Streams: the Brook runtime's collections of records, stored by the current backend. A
// `brook::stream` is a handle; copies share the same storage (a `.domain()` view also does).

#include "brook/vector.hpp"

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace brook {

enum class ScalarKind : unsigned char { Float32, Int32 };

/// One leaf field of an element type: `components` values of `scalar`, at `offset` bytes into
/// the C++ object. float4 has one field; `struct { float3 o; float3 d; }` has two.
struct FieldInfo {
    ScalarKind scalar;
    int components;
    std::size_t offset;
};

/// What a stream holds: the C++ type's name, size and fields (nested structs flattened).
struct ElementType {
    std::string name;
    std::size_t size; ///< sizeof of the C++ type
    std::vector<FieldInfo> fields;

    /// Number of scalar components over all fields (float4: 4; {float3, float3}: 6).
    int component_count() const;
    /// Size of one element packed without padding, as GPU backends store it.
    std::size_t packed_size() const;
};

bool operator==(const ElementType& a, const ElementType& b);

/// element_traits<T>::type() describes T. Defined here for float..float4 and int..int4; brcc
/// specialises it for every struct typedef in a .br file.
template <class T> struct element_traits;

#define BROOK_VECTOR_ELEMENT(T, kind, n)                                                         \
    template <> struct element_traits<T> {                                                       \
        static const ElementType& type() {                                                       \
            static const ElementType t{#T, sizeof(T), {{ScalarKind::kind, n, 0}}};              \
            return t;                                                                            \
        }                                                                                        \
    };
BROOK_VECTOR_ELEMENT(float, Float32, 1)
BROOK_VECTOR_ELEMENT(float2, Float32, 2)
BROOK_VECTOR_ELEMENT(float3, Float32, 3)
BROOK_VECTOR_ELEMENT(float4, Float32, 4)
BROOK_VECTOR_ELEMENT(int, Int32, 1)
BROOK_VECTOR_ELEMENT(int2, Int32, 2)
BROOK_VECTOR_ELEMENT(int3, Int32, 3)
BROOK_VECTOR_ELEMENT(int4, Int32, 4)
#undef BROOK_VECTOR_ELEMENT

namespace detail {
class StreamImpl;
} // namespace detail

class stream {
public:
    /// An empty handle; assign a stream to it before use.
    stream() = default;
    /// A stream of `extents` (1 to 4 of them, slowest first, each > 0) elements of `type` on the
    /// current backend. Bad extents stop the program with a message.
    stream(const ElementType& type, std::span<const long long> extents);

    /// `::brook::stream x = ::brook::make_stream<float4>(rows, cols);` what brcc emits for
    /// `float4 x<rows, cols>;` (any integer expressions as extents).
    template <class T, class... Extents> friend stream make_stream(Extents... extents);

    const ElementType& element_type() const;
    int rank() const;
    /// Extents of the stream (of the view, for a domain), slowest dimension first.
    std::vector<std::size_t> extents() const;
    /// Number of elements.
    std::size_t size() const;
    /// "float4<100, 100>" for messages.
    std::string describe() const;
    bool valid() const { return impl_ != nullptr; }

    std::shared_ptr<detail::StreamImpl> impl() const { return impl_; }
    explicit stream(std::shared_ptr<detail::StreamImpl> impl) : impl_(std::move(impl)) {}

private:
    std::shared_ptr<detail::StreamImpl> impl_;
};

template <class T, class... Extents> stream make_stream(Extents... extents) {
    static_assert(sizeof...(Extents) >= 1 && sizeof...(Extents) <= 4,
                  "a stream has 1 to 4 dimensions");
    const long long values[] = {static_cast<long long>(extents)...};
    return stream(element_traits<T>::type(), values);
}

/// Copies `streamSize(s)` elements from host memory into the stream (no alignment demands).
void streamRead(stream& s, const void* data);
/// Copies the stream's elements out to host memory.
void streamWrite(const stream& s, void* data);
/// Exchanges the contents of two streams of the same element type and shape.
void streamSwap(stream& a, stream& b);
/// Prints the elements as DESIGN.md §2 says: `%3.2f` values, `{a, b}` for vectors, a newline per row.
void streamPrint(const stream& s);
/// Number of elements (for a stream), as in the original runtime: the extents' product.
std::size_t streamSize(const stream& s);

/// Memory for host arrays that streams read and write; freed with brfree.
void* brmalloc(std::size_t bytes);
void brfree(void* pointer);

} // namespace brook
