# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# The macro test (cmake -P): a user's `-DN=1024` or `brook_add_executable(... DEFINES T=float)`
# must not break Brook's public headers or the C++ that brcc generates. Every single capital
# letter is defined at once, so one compilation finds any header or generated line that uses one
# as a name; the compiler's error names the line.
#  1. one translation unit including every public header (found by globbing, so a new header is
#     covered without editing this file), checked with -fsyntax-only;
#  2. each program in PROGRAMS built by brcc with the same -D flags (which reach both brcc's own
#     macro expansion and the C++ compiler) and run on the cpu backend.
# Inputs: INCLUDE_DIR, BRCC, CXX_COMPILER, CXX_FLAGS, WORK_DIR, PROGRAMS (a list of .br files whose
# own source uses no single capital letter as a name).
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/../run_step.cmake)

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

set(letter_defines "")
foreach(letter A B C D E F G H I J K L M N O P Q R S T U V W X Y Z)
    list(APPEND letter_defines -D${letter}=1)
endforeach()

file(GLOB_RECURSE headers RELATIVE ${INCLUDE_DIR} ${INCLUDE_DIR}/brook/*.hpp)
list(SORT headers)
set(includes "")
foreach(header IN LISTS headers)
    string(APPEND includes "#include \"${header}\"\n")
endforeach()
file(WRITE ${WORK_DIR}/all_headers.cpp "${includes}")

separate_arguments(cxx_flags NATIVE_COMMAND "${CXX_FLAGS}")
run_step("compiling every public header under -DA=1 ... -DZ=1" ${CXX_COMPILER} ${cxx_flags}
    -std=c++20 -fopenmp-simd -fsyntax-only -I${INCLUDE_DIR} ${letter_defines}
    ${WORK_DIR}/all_headers.cpp)

set(ENV{BRT_RUNTIME} cpu)
foreach(program IN LISTS PROGRAMS)
    get_filename_component(name ${program} NAME_WE)
    run_step("brcc ${name}.br under -DA=1 ... -DZ=1" ${BRCC} ${letter_defines} ${program}
        -o ${WORK_DIR}/${name} -- ${cxx_flags})
    run_step("running ${name}" ${WORK_DIR}/${name})
endforeach()
message(STATUS "headers and generated code compile with every single capital letter defined: "
    "${headers}")
