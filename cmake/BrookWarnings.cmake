# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# Warnings every target of ours compiles with; generated code gets the same set so brcc's output
# stays warning-clean too.
add_library(brook_warnings INTERFACE)
target_compile_options(brook_warnings INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Wnon-virtual-dtor
    -Wold-style-cast -Woverloaded-virtual)
# GCC 12's libstdc++ makes optimised builds (-O3: make release, make bench) report -Wrestrict
# inside std::string's own copies for `s = "x"` and `"x" + s` (GCC bug 105329; Debian 12's GCC
# 12.2 has it). The warning is off only for that compiler.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
   AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(brook_warnings INTERFACE -Wno-restrict)
endif()
