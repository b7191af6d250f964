// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The header of host_variable_in_kernel.br: a host constant declared for the host code.
extern const float LIMIT;
