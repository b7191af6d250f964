// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The second level of include_chain.br's includes.
#define CHAIN_DEPTH 2
