// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#ifndef TYPES_H
#define TYPES_H
typedef struct { float x; float y; } Pair;
#endif
