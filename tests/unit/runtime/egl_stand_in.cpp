// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// A stand-in libEGL.so.1 without any of EGL's entry points (egl_missing_test.cpp): the library
// loads, as a broken or foreign libEGL would, but libepoxy would abort at its first EGL call.

/// The only symbol, so that the test can tell that the stand-in is the libEGL.so.1 loaded.
extern "C" int brook_egl_stand_in();
extern "C" int brook_egl_stand_in() {
    return 1;
}
