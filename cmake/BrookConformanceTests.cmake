# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# How conformance programs (tests/conformance, tests/corpus) become CTest tests (docs/testing.md).
# tests/CMakeLists.txt compiles each program once (the fixture conformance.compile.NAME) and runs
# it on every backend folder; each backend's folder declares, in its own tests/CMakeLists.txt,
# how its standard run is launched (brook_conformance_backend) and which extra runs it adds
# (brook_add_conformance_run): shared code names no backend. Included before runtime/, so the
# backend folders can call these functions.

# brook_conformance_programs(<out>): every conformance program, as full paths. The test programs
# are data: adding a .br file adds its tests, and CONFIGURE_DEPENDS re-checks the glob on every
# build.
function(brook_conformance_programs out)
    file(GLOB programs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/conformance/*.br
         ${PROJECT_SOURCE_DIR}/tests/corpus/*.br)
    set(${out} ${programs} PARENT_SCOPE)
endfunction()

# brook_conformance_program(<out> <name>): tests/conformance/<name>.br, for a backend's list of
# chosen programs; a name that is not there is a configure error, not a test that silently
# vanishes.
function(brook_conformance_program out name)
    set(program ${PROJECT_SOURCE_DIR}/tests/conformance/${name}.br)
    if(NOT EXISTS ${program})
        message(FATAL_ERROR "no conformance program ${name} (tests/conformance/${name}.br)")
    endif()
    set(${out} ${program} PARENT_SCOPE)
endfunction()

# brook_conformance_control(<out> <program> <keyword>): the words of the program's
# `// <keyword>: ...` control comments (empty without one). CMake reads the comments that decide
# which tests exist (`// ranks:`, `// mpi-over:`); the runner reads the rest.
function(brook_conformance_control out program keyword)
    file(STRINGS ${program} lines REGEX "^[ \t]*//[ \t]*${keyword}:")
    set(words "")
    foreach(line IN LISTS lines)
        string(REGEX REPLACE "^[ \t]*//[ \t]*${keyword}:" "" value "${line}")
        separate_arguments(value UNIX_COMMAND "${value}")
        list(APPEND words ${value})
    endforeach()
    set(${out} ${words} PARENT_SCOPE)
endfunction()

# brook_conformance_runner_args(<out> [WORK <folder>]): the brook_test_runner arguments every
# conformance build and run shares: brcc, the work folder (default: where the compile fixture
# builds, so a run finds the fixture's program), what makes a program stale, and this build's
# C++ flags (the asan preset's sanitizers must reach the programs, or they could not load the
# sanitized libbrook).
function(brook_conformance_runner_args out)
    cmake_parse_arguments(PARSE_ARGV 1 arg "" "WORK" "")
    if(NOT arg_WORK)
        set(arg_WORK ${PROJECT_BINARY_DIR}/tests/conformance)
    endif()
    separate_arguments(cxx_flags NATIVE_COMMAND "${CMAKE_CXX_FLAGS}")
    list(TRANSFORM cxx_flags PREPEND "--cxx-flag=")
    set(${out} --brcc $<TARGET_FILE:brcc> --work ${arg_WORK} --depends $<TARGET_FILE:brook>
        --depends ${PROJECT_SOURCE_DIR}/include ${cxx_flags} PARENT_SCOPE)
endfunction()

# brook_multifile_runner_args(<out> <folder> <build>): the brook_test_runner arguments that
# build the program of several files in <folder> (tests/multifile/NAME) as <build> ("together":
# one brcc call; "separately": file by file) in build/tests/multifile/NAME/<build>, and run it.
function(brook_multifile_runner_args out folder build)
    get_filename_component(name ${folder} NAME)
    brook_conformance_runner_args(args WORK ${PROJECT_BINARY_DIR}/tests/multifile/${name}/${build})
    list(APPEND args --depends ${folder})
    if(build STREQUAL "separately")
        list(APPEND args --separately)
    endif()
    set(${out} ${args} PARENT_SCOPE)
endfunction()

# brook_conformance_backend(<folder> RUN <run name> <brook_add_conformance_run option>...
#                           [TIMED_LAUNCHER <command>...]): how the backend of
# runtime/backends/<folder> runs every conformance program, multi-file program and example, where
# that is not the plain `BRT_RUNTIME=<folder> PROGRAM` (the mpi backend: on two ranks of one MPI
# job). Its tests are named after <run name> instead of the folder (conformance.mpi_np2.NAME),
# and run with the options given (RUNTIME, LAUNCHER, ENVIRONMENT, ...); the examples, which print
# their timings, through TIMED_LAUNCHER where it is given.
function(brook_conformance_backend folder)
    cmake_parse_arguments(PARSE_ARGV 1 arg "" "RUN" "")
    set_property(GLOBAL PROPERTY BROOK_CONFORMANCE_RUN_${folder} ${arg_RUN})
    set_property(GLOBAL PROPERTY BROOK_CONFORMANCE_OPTIONS_${folder} ${arg_UNPARSED_ARGUMENTS})
endfunction()

# brook_conformance_backend_run(<folder> <run out> <options out>): what brook_conformance_backend
# declared for <folder>, or the plain run: named after the folder, BRT_RUNTIME=<folder>.
function(brook_conformance_backend_run folder run_out options_out)
    get_property(run GLOBAL PROPERTY BROOK_CONFORMANCE_RUN_${folder})
    get_property(options GLOBAL PROPERTY BROOK_CONFORMANCE_OPTIONS_${folder})
    if(NOT run)
        set(run ${folder})
        set(options RUNTIME ${folder})
    endif()
    set(${run_out} ${run} PARENT_SCOPE)
    set(${options_out} ${options} PARENT_SCOPE)
endfunction()

# brook_conformance_launch(<runtime out> <launcher out> <environment out> <option>...): from the
# options of a backend's declared run, the BRT_RUNTIME name, the launcher of programs that print
# timings (TIMED_LAUNCHER, else LAUNCHER) and the environment, for tests that run a program
# without the runner (the examples).
function(brook_conformance_launch runtime_out launcher_out environment_out)
    cmake_parse_arguments(PARSE_ARGV 3 arg "" "RUNTIME" "LAUNCHER;TIMED_LAUNCHER;ENVIRONMENT")
    if(NOT arg_TIMED_LAUNCHER)
        set(arg_TIMED_LAUNCHER ${arg_LAUNCHER})
    endif()
    set(${runtime_out} ${arg_RUNTIME} PARENT_SCOPE)
    set(${launcher_out} ${arg_TIMED_LAUNCHER} PARENT_SCOPE)
    set(${environment_out} ${arg_ENVIRONMENT} PARENT_SCOPE)
endfunction()

# brook_add_conformance_run(<run name> <program> RUNTIME <BRT_RUNTIME> [LAUNCHER <command>...]
#     [TIMED_LAUNCHER <command>...] [WORK <folder> | BUILD_ARGS <runner args>...]
#     [TEST <test name>] [RUNNER_ARGS <arg>...] [ENVIRONMENT <NAME=VALUE>...]
#     [FIXTURES <fixture>...] [LABELS <label>...] [TIMEOUT <s>]):
# the test conformance.<run name>.NAME (or TEST), which runs the program with brook_test_runner
# on the backend RUNTIME (through LAUNCHER, a command that takes the program and its arguments
# last) and compares what it prints. The program is the one the compile fixture
# conformance.NAME builds, which the test then needs, unless WORK names another folder (a build
# with other brcc arguments, which the runner makes itself) or BUILD_ARGS gives the runner's
# build arguments whole (a multi-file program); FIXTURES adds others. TIMED_LAUNCHER is for the
# examples and ignored here. A backend that cannot start here is a named skip (exit status 77).
function(brook_add_conformance_run run program)
    cmake_parse_arguments(PARSE_ARGV 2 arg "" "RUNTIME;WORK;TEST;TIMEOUT"
        "LAUNCHER;TIMED_LAUNCHER;BUILD_ARGS;RUNNER_ARGS;ENVIRONMENT;FIXTURES;LABELS")
    get_filename_component(name ${program} NAME_WE)
    if(NOT arg_TEST)
        set(arg_TEST conformance.${run}.${name})
    endif()
    set(fixtures ${arg_FIXTURES})
    if(arg_BUILD_ARGS)
        set(args ${arg_BUILD_ARGS})
    elseif(arg_WORK)
        brook_conformance_runner_args(args WORK ${arg_WORK})
    else()
        brook_conformance_runner_args(args)
        list(PREPEND fixtures conformance.${name})
    endif()
    foreach(word IN LISTS arg_LAUNCHER)
        list(APPEND args --launcher ${word})
    endforeach()
    if(NOT arg_TIMEOUT)
        set(arg_TIMEOUT 300)
    endif()
    add_test(NAME ${arg_TEST}
        COMMAND brook_test_runner conformance ${args} ${arg_RUNNER_ARGS} --backend ${arg_RUNTIME}
                ${program})
    set_tests_properties(${arg_TEST} PROPERTIES
        SKIP_RETURN_CODE 77 LABELS "conformance;${arg_LABELS}" TIMEOUT ${arg_TIMEOUT})
    if(fixtures)
        set_tests_properties(${arg_TEST} PROPERTIES FIXTURES_REQUIRED "${fixtures}")
    endif()
    if(arg_ENVIRONMENT)
        set_tests_properties(${arg_TEST} PROPERTIES ENVIRONMENT "${arg_ENVIRONMENT}")
    endif()
endfunction()
