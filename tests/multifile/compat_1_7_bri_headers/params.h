// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
/* Shared by host code and kernels: brcc reads this header for its macros and typedefs. */
#define GAIN 3.0
#define CLAMPED(x) min(max((x), 0.0), LIMIT)
#define LIMIT 10.0
typedef struct {
    float lo;
    float hi;
} Range;
