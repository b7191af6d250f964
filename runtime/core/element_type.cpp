// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Element type descriptions: what the runtime knows about a stream's C++ element type. Types are
// compared by value, so the descriptions brcc emits in different translation units for the same
// struct typedef are the same type.
#include "brook/stream.hpp"

namespace brook {

std::size_t scalar_size(ScalarKind kind) {
    switch (kind) {
    case ScalarKind::Float32:
    case ScalarKind::Int32:
    case ScalarKind::UInt32:
        return 4;
    case ScalarKind::Int8:
    case ScalarKind::UInt8:
    case ScalarKind::Fixed8:
        return 1;
    case ScalarKind::Fixed16:
    case ScalarKind::Int16:
    case ScalarKind::UInt16:
        return 2;
    case ScalarKind::Float64:
        return 8;
    }
    return 4;
}

int ElementType::component_count() const {
    int count = 0;
    for (const FieldInfo& field : fields) {
        count += field.components;
    }
    return count;
}

std::size_t ElementType::packed_size() const {
    std::size_t bytes = 0;
    for (const FieldInfo& field : fields) {
        bytes += scalar_size(field.scalar) * static_cast<std::size_t>(field.components);
    }
    return bytes;
}

bool operator==(const ElementType& a, const ElementType& b) {
    // Every kernel call compares its streams' types with its parameters'; both usually are the
    // one description element_traits keeps per type.
    if (&a == &b) {
        return true;
    }
    return a.name == b.name && a.size == b.size && a.fields == b.fields;
}

} // namespace brook
