# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# Warnings every target of ours compiles with; generated code gets the same set so brcc's output
# stays warning-clean too.
add_library(brook_warnings INTERFACE)
target_compile_options(brook_warnings INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Wnon-virtual-dtor
    -Wold-style-cast -Woverloaded-virtual)
