// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// What BrookGPU's brook.hpp and brt.hpp gave host code besides streams (COMPAT.md 2.1): the C
// and C++ headers its programs rely on without including them, BRTALIGNED and BRTTLS, the 64-bit
// integer, float classification helpers and the C spelling of the runtime control (brook::
// runtimeTargets and friends, brook/runtime_control.hpp).

#include "brook/host_memory.hpp"
#include "brook/runtime_control.hpp"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmath>
#include <iostream>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

/// `BRTALIGNED float data[64];`: 16-byte aligned storage for SIMD code.
#define BRTALIGNED __attribute__((aligned(16)))
/// Thread-local storage.
#define BRTTLS thread_local

typedef long long brint64;

/// 1.0f when x is finite, else 0.0f.
inline float finite_float(double x) {
    return std::isfinite(x) ? 1.0f : 0.0f;
}
/// 1.0f when x is NaN, else 0.0f.
inline float isnan_float(double x) {
    return std::isnan(x) ? 1.0f : 0.0f;
}
/// 1.0f when x is an infinity, else 0.0f.
inline float isinf_float(double x) {
    return std::isinf(x) ? 1.0f : 0.0f;
}

extern "C" {
/// brook::runtimeTargets().
const char** brruntimes(void);
/// brook::initialize(name); returns 1 when the thread now runs on that backend, 0 when it keeps
/// the one it already used.
int brsetruntime(const char* name);
/// brook::microseconds().
brint64 brmicroseconds(void);
}
