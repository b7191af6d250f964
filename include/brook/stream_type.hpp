// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// BrookGPU's description of a stream's element: a list of field types ended by __BRTNONE, e.g.
// {__BRTFLOAT3, __BRTFLOAT3, __BRTNONE} for `struct { float3 o; float3 d; }`. BrookGPU programs
// build streams from such lists (`brook::stream s(brook::getStreamType((float4*)0), 4, -1)`) and
// ask a stream for its fields; the runtime keeps the richer ElementType (brook/stream.hpp), and
// this header translates between the two.

#include <type_traits>

namespace brook {

struct ElementType;
template <class Element> struct element_traits;

/// BrookGPU's values (1 to 19); 20 and above are ours, so that every Brook element type has a
/// value and survives a round trip through a field list.
enum StreamType {
    __BRTNONE = -1,
    __BRTSTREAM = 0,
    __BRTFLOAT = 1,
    __BRTFLOAT2 = 2,
    __BRTFLOAT3 = 3,
    __BRTFLOAT4 = 4,
    __BRTFIXED = 5,
    __BRTFIXED2 = 6,
    __BRTFIXED3 = 7,
    __BRTFIXED4 = 8,
    __BRTSHORTFIXED = 9,
    __BRTSHORTFIXED2 = 10,
    __BRTSHORTFIXED3 = 11,
    __BRTSHORTFIXED4 = 12,
    __BRTCHAR = 15,
    __BRTCHAR2 = 16,
    __BRTCHAR3 = 17,
    __BRTCHAR4 = 18,
    __BRTINT = 19,
    __BRTINT2 = 20,
    __BRTINT3 = 21,
    __BRTINT4 = 22,
    __BRTUINT = 23,
    __BRTUINT2 = 24,
    __BRTUINT3 = 25,
    __BRTUINT4 = 26,
    __BRTUCHAR = 27,
    __BRTUCHAR2 = 28,
    __BRTUCHAR3 = 29,
    __BRTUCHAR4 = 30,
    __BRTSHORT = 31,
    __BRTSHORT2 = 32,
    __BRTSHORT3 = 33,
    __BRTSHORT4 = 34,
    __BRTUSHORT = 35,
    __BRTUSHORT2 = 36,
    __BRTUSHORT3 = 37,
    __BRTUSHORT4 = 38,
    __BRTDOUBLE = 39, ///< Brook+ has double and double2 only
    __BRTDOUBLE2 = 40,
};

/// Bytes of one field of `type` in host memory (__BRTFLOAT3: 12, __BRTFIXED2: 2); 0 for
/// __BRTNONE, __BRTSTREAM and values that name no field type.
int getElementSize(StreamType type);

namespace detail {
/// The __BRTNONE-ended field list of `type`, kept for the life of the program; a stream created
/// from this very list has `type` again (names included, so kernels accept it).
const StreamType* stream_types_of(const ElementType& type);
} // namespace detail

/// The field list of Element, any type a stream may hold: `getStreamType((float4*)0)` is
/// {__BRTFLOAT4, __BRTNONE}; for a struct typedef brcc translated, one entry per leaf field.
template <class Element> const StreamType* getStreamType(Element*) {
    return detail::stream_types_of(element_traits<std::remove_cv_t<Element>>::type());
}

} // namespace brook
