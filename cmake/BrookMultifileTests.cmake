# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# The programs of several files of tests/multifile/ (docs/testing.md), which tests/ runs on every
# backend and the cuda backend's tests run on its emulation: both build them alike.

# brook_multifile_runner_args(<out> <folder> <build> [<runner flag>...]): the brook_test_runner
# arguments that build the program of <folder> as <build> ("together": one brcc call;
# "separately": file by file) in build/tests/multifile/NAME/<build>, and run it.
function(brook_multifile_runner_args out folder build)
    get_filename_component(name ${folder} NAME)
    set(args --brcc $<TARGET_FILE:brcc>
        --work ${PROJECT_BINARY_DIR}/tests/multifile/${name}/${build}
        --depends $<TARGET_FILE:brook> --depends ${PROJECT_SOURCE_DIR}/include
        --depends ${folder} ${ARGN})
    if(build STREQUAL "separately")
        list(APPEND args --separately)
    endif()
    set(${out} ${args} PARENT_SCOPE)
endfunction()
