// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The header Brook programs use: the vector types, streams and the host API, with what
// BrookGPU's headers gave host code (brook/host_support.hpp; brook/brt.hpp is this header under
// BrookGPU's other name). Brook host code is C-style (`float4 X[100]; streamRead(x, X);`), so the
// types and functions are also exported to the global namespace. The stream type itself stays
// `brook::stream` (brcc writes it qualified), so user code may keep its own names such as
// `stream`; BrookGPU's StreamType values and `__BRTIter` are global as they were there.

#include "brook/errors.hpp"
#include "brook/gather_argument.hpp"
#include "brook/host_support.hpp"
#include "brook/recorded_errors.hpp"
#include "brook/stream.hpp"
#include "brook/vector.hpp"
#include "brook/write_control.hpp"

using brook::bool2;
using brook::bool3;
using brook::bool4;
using brook::char2;
using brook::char3;
using brook::char4;
using brook::double2;
using brook::fixed;
using brook::fixed2;
using brook::fixed3;
using brook::fixed4;
using brook::float2;
using brook::float3;
using brook::float4;
using brook::int2;
using brook::int3;
using brook::int4;
using brook::short2;
using brook::short3;
using brook::short4;
using brook::shortfixed;
using brook::shortfixed2;
using brook::shortfixed3;
using brook::shortfixed4;
using brook::uchar;
using brook::uchar2;
using brook::uchar3;
using brook::uchar4;
using brook::uint;
using brook::uint2;
using brook::uint3;
using brook::uint4;
using brook::ushort;
using brook::ushort2;
using brook::ushort3;
using brook::ushort4;

using brook::getElementSize;
using brook::getStreamType;
using brook::StreamType;
using enum brook::StreamType;
typedef brook::iter __BRTIter;

using brook::streamGatherOp;
using brook::streamPrint;
using brook::streamRead;
using brook::streamScatterOp;
using brook::streamSize;
using brook::streamSwap;
using brook::streamWrite;
