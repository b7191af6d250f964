// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// StreamType values and element types. Each family of BrookGPU's values (float, fixed, shortfixed,
// char, int, unsigned int, unsigned char; short, unsigned short and double added for Brook+)
// holds its 1- to 4-component types (double: 1 and 2) at consecutive values, so one row per
// family translates both ways. The field lists handed out by getStreamType are kept
// for the program's life, with the element type each came from, so that a stream built from such
// a list has exactly the type a kernel expects (struct names included).
#include "core/stream_type.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace brook {

namespace {

struct Family {
    StreamType first; ///< the 1-component type; n components are first + n - 1
    ScalarKind scalar;
    std::array<const ElementType& (*)(), 4> types; ///< element_traits of 1 to 4 components
    int widest = 4;                                ///< doubles stop at 2 components (Brook+)
};

template <class T1, class T2, class T3, class T4>
constexpr Family family(StreamType first, ScalarKind scalar) {
    return {first,
            scalar,
            {&element_traits<T1>::type, &element_traits<T2>::type, &element_traits<T3>::type,
             &element_traits<T4>::type}};
}

template <class T1, class T2> constexpr Family family(StreamType first, ScalarKind scalar) {
    return {first, scalar, {&element_traits<T1>::type, &element_traits<T2>::type}, 2};
}

const std::array<Family, 10> families = {
    family<float, float2, float3, float4>(__BRTFLOAT, ScalarKind::Float32),
    family<fixed, fixed2, fixed3, fixed4>(__BRTFIXED, ScalarKind::Fixed8),
    family<shortfixed, shortfixed2, shortfixed3, shortfixed4>(__BRTSHORTFIXED, ScalarKind::Fixed16),
    family<char, char2, char3, char4>(__BRTCHAR, ScalarKind::Int8),
    family<int, int2, int3, int4>(__BRTINT, ScalarKind::Int32),
    family<uint, uint2, uint3, uint4>(__BRTUINT, ScalarKind::UInt32),
    family<uchar, uchar2, uchar3, uchar4>(__BRTUCHAR, ScalarKind::UInt8),
    family<short, short2, short3, short4>(__BRTSHORT, ScalarKind::Int16),
    family<ushort, ushort2, ushort3, ushort4>(__BRTUSHORT, ScalarKind::UInt16),
    family<double, double2>(__BRTDOUBLE, ScalarKind::Float64),
};

/// The family of `type` and its component count; null when the value names no field type.
const Family* family_of(StreamType type, int& components) {
    for (const Family& f : families) {
        const int offset = static_cast<int>(type) - static_cast<int>(f.first);
        if (offset >= 0 && offset < f.widest) {
            components = offset + 1;
            return &f;
        }
    }
    return nullptr;
}

/// The lists getStreamType gave out, by the element type they describe and back.
struct FieldLists {
    std::mutex mutex;
    std::map<const ElementType*, std::unique_ptr<std::vector<StreamType>>> by_type;
    std::map<const StreamType*, const ElementType*> by_list;
};

FieldLists& field_lists() {
    static FieldLists lists;
    return lists;
}

/// A list longer than this was not ended by __BRTNONE.
constexpr std::size_t max_fields = 256;

} // namespace

int getElementSize(StreamType type) {
    int components = 0;
    const Family* f = family_of(type, components);
    return f == nullptr ? 0 : static_cast<int>(scalar_size(f->scalar)) * components;
}

namespace detail {

StreamType stream_type_of(const FieldInfo& field) {
    for (const Family& f : families) {
        if (f.scalar == field.scalar && field.components >= 1 && field.components <= f.widest) {
            return static_cast<StreamType>(f.first + field.components - 1);
        }
    }
    return __BRTNONE;
}

const StreamType* stream_types_of(const ElementType& type) {
    FieldLists& lists = field_lists();
    const std::lock_guard lock(lists.mutex);
    std::unique_ptr<std::vector<StreamType>>& list = lists.by_type[&type];
    if (list == nullptr) {
        list = std::make_unique<std::vector<StreamType>>();
        for (const FieldInfo& field : type.fields) {
            const StreamType value = stream_type_of(field);
            if (value == __BRTNONE) {
                fatal("getStreamType: " + type.name + " has a field that no StreamType names");
            }
            list->push_back(value);
        }
        list->push_back(__BRTNONE);
        lists.by_list[list->data()] = &type;
    }
    return list->data();
}

ElementType element_type_of(const StreamType* fields, const char* what) {
    if (fields == nullptr) {
        fatal(std::string(what) + ": the field list is null (use brook::getStreamType((T*)0))");
    }
    {
        FieldLists& lists = field_lists();
        const std::lock_guard lock(lists.mutex);
        if (const auto known = lists.by_list.find(fields); known != lists.by_list.end()) {
            return *known->second;
        }
    }
    std::vector<const Family*> kinds;
    std::vector<int> widths;
    for (std::size_t i = 0; fields[i] != __BRTNONE; ++i) {
        int components = 0;
        const Family* f = family_of(fields[i], components);
        if (f == nullptr) {
            fatal(std::string(what) + ": field " + std::to_string(i) + " has type " +
                  std::to_string(static_cast<int>(fields[i])) +
                  ", which names no stream field type (use the __BRT values of brook::StreamType)");
        }
        if (i + 1 == max_fields) {
            fatal(std::string(what) + ": the field list does not end with __BRTNONE");
        }
        kinds.push_back(f);
        widths.push_back(components);
    }
    if (kinds.empty()) {
        fatal(std::string(what) + ": the field list has no fields before __BRTNONE");
    }
    if (kinds.size() == 1) {
        return kinds[0]->types[static_cast<std::size_t>(widths[0] - 1)]();
    }
    // A struct of the fields: each at the next multiple of its scalar's size, the whole padded
    // to the largest of them, as C lays out a struct of these members.
    ElementType type{"struct {", 0, {}};
    std::size_t alignment = 1;
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        const ElementType& member = kinds[i]->types[static_cast<std::size_t>(widths[i] - 1)]();
        const std::size_t align = scalar_size(kinds[i]->scalar);
        type.size = (type.size + align - 1) / align * align;
        type.fields.push_back({kinds[i]->scalar, widths[i], type.size});
        type.name += " " + member.name + ";";
        type.size += member.size;
        alignment = std::max(alignment, align);
    }
    type.size = (type.size + alignment - 1) / alignment * alignment;
    type.name += " }";
    return type;
}

} // namespace detail

} // namespace brook
