// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Without a usable libEGL the gl backend says why it cannot start and `auto` runs on cpu; neither
// aborts inside libepoxy (backends/gl/gl_context.cpp).
//
// The simulation: the children run with LD_LIBRARY_PATH starting with a folder whose libEGL.so.1
// has none of EGL's entry points (egl_stand_in.cpp). libepoxy opens EGL by that name through the
// dynamic loader, so it would load this library exactly as the backend's check does, and abort
// at its first EGL call; each child checks that the library behind the name is the stand-in.
// A missing library takes the same path with dlopen failing one step earlier.
#include <brook/brook.hpp>

#include "death_test.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdlib>
#include <optional>
#include <string>

namespace {

using testing::HasSubstr;

class MissingEglDeathTest : public RuntimeDeathTest {
protected:
    // The loader reads LD_LIBRARY_PATH when a process starts, so it is set here, in the parent,
    // before each death test re-executes the program for its child, and restored afterwards.
    void SetUp() override {
#ifndef BROOK_EGL_STAND_IN_DIR
        GTEST_SKIP() << "the gl backend is not built";
#else
        RuntimeDeathTest::SetUp();
        if (const char* old = std::getenv("LD_LIBRARY_PATH"); old != nullptr) {
            saved_ = old;
        }
        const std::string path = BROOK_EGL_STAND_IN_DIR + (saved_ ? ":" + *saved_ : "");
        setenv("LD_LIBRARY_PATH", path.c_str(), 1);
#endif
    }
    void TearDown() override {
        if (saved_) {
            setenv("LD_LIBRARY_PATH", saved_->c_str(), 1);
        } else {
            unsetenv("LD_LIBRARY_PATH");
        }
    }

private:
    std::optional<std::string> saved_;
};

/// Whether the libEGL.so.1 that libepoxy would load is the stand-in.
bool egl_is_stand_in() {
    void* library = dlopen("libEGL.so.1", RTLD_LAZY | RTLD_LOCAL);
    return library != nullptr && dlsym(library, "brook_egl_stand_in") != nullptr;
}

TEST_F(MissingEglDeathTest, GlSaysWhyItCannotStart) {
    EXPECT_EXIT(
        {
            if (!egl_is_stand_in()) {
                std::exit(3);
            }
            setenv("BRT_RUNTIME", "gl", 1);
            brook::make_stream<float>(1);
            std::exit(4);
        },
        testing::ExitedWithCode(1),
        testing::AllOf(
            HasSubstr("brook: error: BRT_RUNTIME=gl: libEGL.so.1 lacks eglGetProcAddress, "),
            HasSubstr("install an EGL driver (Debian: libegl1 with libegl-mesa0, or the GPU "
                      "vendor's driver) or use another backend; backends that can run here: "),
            HasSubstr("cpu")));
}

// auto goes on past gl: to cpu here, to cuda on a machine with an NVIDIA GPU.
TEST_F(MissingEglDeathTest, AutoGoesOnToAnotherBackend) {
    EXPECT_EXIT(
        {
            if (!egl_is_stand_in()) {
                std::exit(3);
            }
            setenv("BRT_RUNTIME", "auto", 1);
            setenv("BRT_VERBOSE", "1", 1);
            brook::make_stream<float>(1);
            const std::string chosen = brook::backend_name();
            std::exit(chosen == "cpu" || chosen == "cuda" ? 0 : 4);
        },
        testing::ExitedWithCode(0),
        testing::ContainsRegex("brook: backend (cpu on the host|cuda on )"));
}

} // namespace
