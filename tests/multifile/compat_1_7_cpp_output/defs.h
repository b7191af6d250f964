// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
/* The header the original main file included; `cpp` copied it into main.i. */
typedef struct {
    float x;
    float y;
} Pair;
