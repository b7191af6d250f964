// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// streamPrint, in the format programs compare against (DESIGN.md §2): row-major elements, each
// component of each field of an element in turn; an element of one component is its value and a
// space, an element of several is `{a, b, c}` (DESIGN gives no separator between such elements,
// so none is printed); a newline after every row of the last dimension. Floats print as `%3.2f`
// except that |x| < 1e-6 prints `0.00` (no `-0.00`), infinities `inf` and NaN `NaN`; integer and
// byte fields print as integers, `fixed` and `shortfixed` ones as their float value. An empty
// stream (a variable output that received nothing) prints nothing. Output goes through C's stdout
// so it interleaves with the program's printf.
#include "core/backend.hpp"
#include "core/errors.hpp"
#include "core/stream_impl.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace brook {

namespace {

/// `Real` float or double: each compares with 1e-6 in its own precision.
template <class Real> void append_float(std::string& text, Real value) {
    if (std::isnan(value)) {
        text += "NaN";
        return;
    }
    if (std::isinf(value)) {
        text += "inf";
        return;
    }
    if (std::fabs(value) < static_cast<Real>(1e-6)) {
        text += "0.00";
        return;
    }
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%3.2f", static_cast<double>(value));
    text += buffer;
}

template <class T> T load(const std::byte* where) {
    T value;
    std::memcpy(&value, where, sizeof value);
    return value;
}

void append_component(std::string& text, const std::byte* element, const FieldInfo& field,
                      int component) {
    const std::byte* where =
        element + field.offset + static_cast<std::size_t>(component) * scalar_size(field.scalar);
    switch (field.scalar) {
    case ScalarKind::Float32:
        append_float(text, load<float>(where));
        return;
    case ScalarKind::Fixed8:
        append_float(text, static_cast<float>(load<fixed>(where)));
        return;
    case ScalarKind::Fixed16:
        append_float(text, static_cast<float>(load<shortfixed>(where)));
        return;
    case ScalarKind::Int32:
        text += std::to_string(load<std::int32_t>(where));
        return;
    case ScalarKind::UInt32:
        text += std::to_string(load<std::uint32_t>(where));
        return;
    case ScalarKind::Int8:
        text += std::to_string(load<std::int8_t>(where));
        return;
    case ScalarKind::UInt8:
        text += std::to_string(load<std::uint8_t>(where));
        return;
    case ScalarKind::Int16:
        text += std::to_string(load<std::int16_t>(where));
        return;
    case ScalarKind::UInt16:
        text += std::to_string(load<std::uint16_t>(where));
        return;
    case ScalarKind::Float64:
        append_float(text, load<double>(where));
        return;
    }
}

} // namespace

void streamPrint(const stream& s, bool /*flatten*/, std::source_location call) {
    const detail::CallSite site(call);
    const detail::StreamImpl& impl = detail::checked_impl(s, "streamPrint");
    const ElementType& type = impl.type();
    const detail::Region& region = impl.region();
    const std::size_t count = region.count();
    if (count == 0) {
        return;
    }
    std::vector<std::byte> host(count * type.size);
    impl.backend().read(impl.storage(), region, host.data());

    const std::size_t row_length = region.extents[static_cast<std::size_t>(region.rank - 1)];
    const bool scalar = type.component_count() == 1;
    std::string text;
    for (std::size_t i = 0; i < count; ++i) {
        const std::byte* element = host.data() + i * type.size;
        text += scalar ? "" : "{";
        bool first = true;
        for (const FieldInfo& field : type.fields) {
            for (int c = 0; c < field.components; ++c) {
                text += first ? "" : ", ";
                first = false;
                append_component(text, element, field, c);
            }
        }
        text += scalar ? " " : "}";
        if ((i + 1) % row_length == 0) {
            text += '\n';
        }
    }
    std::fwrite(text.data(), 1, text.size(), stdout);
}

} // namespace brook
