# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# The install test (cmake -P): install the build into a scratch prefix, then configure, build and
# run the project beside this script against it, and check the pkg-config file.
# Inputs: BUILD_DIR, SOURCE_DIR, WORK_DIR, LIBDIR (CMAKE_INSTALL_LIBDIR), CXX_COMPILER, CXX_FLAGS
# (the build's, so that a sanitized libbrook is used by sanitized programs); where the Python
# module is built, PYTHON (its interpreter) and PYTHON_DIR (its install folder in the prefix).
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/../run_step.cmake)

# Runs `program` and stops the test unless it printed `expected` (surrounding space aside).
function(expect_output who program expected)
    run_step("running ${who}" ${program})
    string(STRIP "${step_output}" printed)
    if(NOT printed STREQUAL expected)
        message(FATAL_ERROR "${who} printed '${printed}', expected '${expected}'")
    endif()
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})

run_step("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(installed bin/brcc include/brook/brook.hpp ${LIBDIR}/libbrook.so
        ${LIBDIR}/cmake/Brook/BrookConfig.cmake ${LIBDIR}/cmake/Brook/BrookConfigVersion.cmake
        lib/pkgconfig/brook.pc share/man/man1/brcc.1)
    if(NOT EXISTS ${prefix}/${installed})
        message(FATAL_ERROR "the install lacks ${installed}")
    endif()
endforeach()

run_step("configuring the user project" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/project
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}")
run_step("building the user project" ${CMAKE_COMMAND} --build ${WORK_DIR}/project)
expect_output("the user program" ${WORK_DIR}/project/scale "3.0 6.0 9.0 12.0")

expect_output("the brook_target program" ${WORK_DIR}/project/scale_late "3.0 6.0 9.0 12.0")
# Built for x86-64 and x86-64-v3 (on x86-64 only): the kernel's loop is dispatched.
if(EXISTS ${WORK_DIR}/project/scale_targets)
    expect_output("the TARGETS program" ${WORK_DIR}/project/scale_targets "3.0 6.0 9.0 12.0")
    file(READ ${WORK_DIR}/project/scale_targets.brook/scale.cpp translated)
    string(FIND "${translated}" "BROOK_CPU_DISPATCHED\nvoid scale__cpu(" dispatched_at)
    if(dispatched_at EQUAL -1)
        message(FATAL_ERROR "TARGETS x86-64-v3 x86-64 did not clone the kernel's loop")
    endif()
endif()
expect_output("the library's program" ${WORK_DIR}/project/shifts_main "12.0 13.0")
# Each translation is redone when its .br changes: brcc's depfile names it.
file(READ ${WORK_DIR}/project/shifts.brook/second/shift.cpp.d depfile)
string(FIND "${depfile}" "${SOURCE_DIR}/second/shift.br" named_at)
if(named_at EQUAL -1)
    message(FATAL_ERROR "the depfile of second/shift.br does not name it:\n${depfile}")
endif()

# The same program through the installed brcc in driver mode.
separate_arguments(cxx_flags NATIVE_COMMAND "${CXX_FLAGS}")
run_step("installed brcc" ${prefix}/bin/brcc -DFACTOR=3 -I${SOURCE_DIR}/include
    ${SOURCE_DIR}/scale.br -o ${WORK_DIR}/scale_driver -- ${SOURCE_DIR}/scale_host.cpp
    ${cxx_flags})
expect_output("the brcc-built program" ${WORK_DIR}/scale_driver "3.0 6.0 9.0 12.0")

find_program(pkg_config pkg-config)
if(pkg_config)
    set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
    run_step("pkg-config" ${pkg_config} --cflags --libs brook)
    string(STRIP "${step_output}" flags)
    string(REGEX MATCH "-I([^ ]+)" include_flag "${flags}")
    string(FIND "${flags}" "-lbrook" library_at)
    if(NOT EXISTS "${CMAKE_MATCH_1}/brook/brook.hpp" OR library_at EQUAL -1)
        message(FATAL_ERROR "pkg-config gave '${flags}' for the install at ${prefix}")
    endif()
endif()
# The installed Python module, imported from a folder of its own, compiles with the installed
# brcc and runs on the installed libbrook.
if(PYTHON)
    set(script [=[
import sys, brook
assert brook.__file__.startswith(sys.argv[1]), brook.__file__
prog = brook.compile("kernel void twice(float x<>, out float r<>) { r = 2.0 * x; }")
print(*prog.twice([1.5, 2.0, 3.0]))
]=])
    file(MAKE_DIRECTORY ${WORK_DIR}/python)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${prefix}/${PYTHON_DIR}
                XDG_CACHE_HOME=${WORK_DIR}/python/cache ${PYTHON} -c "${script}" ${prefix}
        WORKING_DIRECTORY ${WORK_DIR}/python
        RESULT_VARIABLE result OUTPUT_VARIABLE printed ERROR_VARIABLE printed)
    string(STRIP "${printed}" printed)
    if(NOT result EQUAL 0 OR NOT printed STREQUAL "3.0 4.0 6.0")
        message(FATAL_ERROR "the installed Python module printed '${printed}' (${result}), "
            "expected '3.0 4.0 6.0'")
    endif()
endif()
message(STATUS "install test passed: ${prefix}")
