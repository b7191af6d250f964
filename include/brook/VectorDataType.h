// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Brook+'s brook/VectorDataType.h (BROOKPLUS.md §1.1, §1.3): the host vector types (float2..4,
// double2, int2..4, uint2..4, char2..4, uchar2..4, short2..4, ushort2..4, each a class at
// global scope), uint, uchar and ushort, and the C headers Brook+'s version brought.

#include "brook/brook.hpp"

#include <stdlib.h>
#include <string.h>
