// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The in-memory header "brook_check_prelude.cuh" of clean_kernel.cu, passed with --header; its
// name differs from the file's so that NVRTC cannot find it on disk without --header.
#pragma once

__device__ inline float brook_twice(float x) { return 2.0f * x; }
