// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Brook+'s brook/KernelInterface.h: what kernel objects need, with the rest of brook/brook.h.

#include "brook/brook.h"
