// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// BrookGPU's field lists (brook/stream_type.hpp) and the runtime's element types, both ways.

#include "brook/stream.hpp"

namespace brook::detail {

/// The element type a __BRTNONE-ended field list describes: the type itself for a list made by
/// getStreamType, the built-in type for a single field, otherwise a struct of the fields laid
/// out as C lays out their members. Stops the program on a null or unknown list.
ElementType element_type_of(const StreamType* fields, const char* what);

/// The type of `field` (float3: __BRTFLOAT3); __BRTNONE when BrookGPU's values name none.
StreamType stream_type_of(const FieldInfo& field);

} // namespace brook::detail
