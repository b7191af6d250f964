// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The x86-64 level of the CPU that runs this code, as the psABI defines them and brcc's --target
// names them: 1 is x86-64 (SSE2), 2 x86-64-v2 (SSE4.2, POPCNT), 3 x86-64-v3 (AVX2, FMA, BMI2),
// 4 x86-64-v4 (AVX-512). brcc marks the targets this machine runs with it, and the cpu backend
// names the level under BRT_VERBOSE=1, since a program built for several targets runs the copy
// of its kernels for the best of them up to this level. Asked feature by feature: Clang's
// __builtin_cpu_supports does not know the level names that GCC's does.

namespace brook::detail {

/// The level, or 0 on another architecture.
inline int x86_64_level() {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (!(__builtin_cpu_supports("sse3") && __builtin_cpu_supports("ssse3") &&
          __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("sse4.2") &&
          __builtin_cpu_supports("popcnt")))
        return 1;
    if (!(__builtin_cpu_supports("avx") && __builtin_cpu_supports("avx2") &&
          __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
          __builtin_cpu_supports("fma")))
        return 2;
    if (!(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
          __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
          __builtin_cpu_supports("avx512vl")))
        return 3;
    return 4;
#else
    return 0;
#endif
}

} // namespace brook::detail
