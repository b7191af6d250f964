// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Brook+'s brook/Stream.h (BROOKPLUS.md §1.1, §2): VectorDataType.h, brook::Stream<T>, BRerror
// and its codes, and the free streamRead/streamWrite on Stream<T>, also by their unqualified
// names as Brook+'s `using namespace brook;` made them.

#include "brook/VectorDataType.h"
#include "brook/brookplus_stream.hpp"

using brook::BRerror;
using brook::Stream;
using brook::BR_NO_ERROR;
using brook::BR_ERROR_DECLARATION;
using brook::BR_ERROR_READ;
using brook::BR_ERROR_WRITE;
using brook::BR_ERROR_KERNEL;
using brook::BR_ERROR_DOMAIN;
using brook::BR_ERROR_ASSIGN;
using brook::BR_ERROR_INVALID_PARAMATER;
using brook::BR_ERROR_NOT_SUPPORTED;
using brook::BR_ERROR_WARNING;
// Again, now that the Stream<T> overloads exist: a using-declaration brings only the overloads
// declared before it.
using brook::streamRead;
using brook::streamWrite;
