// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Runtime errors exit the process, so many tests are death tests. They run in a re-executed
// child ("threadsafe" style): a forked child would inherit OpenMP's thread pool and the backend
// the parent already selected, while a fresh process reads BRT_RUNTIME and BRT_THREADS anew.
// The style is set per test, since a static initialiser could run before GoogleTest's own.

#include <gtest/gtest.h>

class RuntimeDeathTest : public testing::Test {
protected:
    void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};
