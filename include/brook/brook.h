// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Brook+'s brook/brook.h (BROOKPLUS.md §1.1): the whole host API of AMD's Brook+ 1.4 over this
// project's runtime: brook/VectorDataType.h, brook/Stream.h, the kernel objects' support (the
// header `brcc -h` writes includes this one), and BrookGPU's host API (brook/brook.hpp). Brook+'s
// own names come unqualified as its `using namespace brook;` made them, and only those: a
// Brook+ program may name its own `stream`, `error`, `finish` or `runtime`.

#include "brook/CPUThread.h"
#include "brook/Device.h"
#include "brook/Stream.h"
#include "brook/VectorDataType.h"
#include "brook/brook.hpp"
#include "brook/call_domain.hpp"
