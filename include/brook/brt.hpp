// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// BrookGPU's other public header: the same as brook/brook.hpp.

#include "brook/brook.hpp"
