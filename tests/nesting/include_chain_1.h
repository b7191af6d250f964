// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The first level of include_chain.br's includes.
#include "include_chain_2.h"
