// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The header of macro_from_header_beside.br.
#define SCALE 3.0f
#define OFFSET(x) ((x) + 1.0f)
