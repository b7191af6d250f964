// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
/* Shared by the host code and the kernels of bgpu_header_macros.br. */
#define WIDTH 4
#define HEIGHT 2
#define DT 0.5
#define DAMP(v) ((v) * 0.5)

typedef struct {
    float2 pos;
    float2 vel;
} Particle;
