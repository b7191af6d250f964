# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# cmake -DBRCC=build/bin/brcc -DHEADER=include/brook/brook.hpp -DOUTPUT=DIR/brook/brook.hpp.gch
#       -P this
#
# Precompiles brook/brook.hpp, the header every program brcc generates includes first, together
# with the headers a program with kernels includes after it (brook/kernel_abi.hpp,
# brook/cpu_kernel.hpp, ...: their #pragma once then skips them), with the command the build
# tree's brcc compiles a program with (as `brcc --dryrun` prints it), so that GCC uses the .gch
# for every compile whose flags agree (compiler/driver/compile.cpp). Writes
# OUTPUT.d, the headers it was made from, for the build's DEPFILE, and a link to HEADER beside
# the .gch: GCC takes the folder where it found the .gch for the header's own, so an include the
# .gch cannot serve (a second one, or one with other flags) opens the header there.
foreach(variable BRCC HEADER OUTPUT)
    if(NOT DEFINED ${variable})
        message(FATAL_ERROR "precompile_brook_header.cmake: ${variable} is not set")
    endif()
endforeach()

get_filename_component(folder ${OUTPUT} DIRECTORY)
file(MAKE_DIRECTORY ${folder})
get_filename_component(header_name ${HEADER} NAME)
file(CREATE_LINK ${HEADER} ${folder}/${header_name} SYMBOLIC)
# The .gch is named for the header it stands for; it is made from a file that includes it, as
# GCC warns about `#pragma once` in a header compiled on its own. The file holds the #include
# lines that open what brcc writes for a program with a kernel (brook/brook.hpp the first): a
# small program's compile spent 0.2 s of its 0.65 s parsing the headers after brook/brook.hpp.
# It is also what brcc is asked to compile, for the command.
set(kernel_program ${OUTPUT}.br)
file(WRITE ${kernel_program} "kernel void copy(float x<>, out float y<>) { y = x; }\n")
execute_process(COMMAND ${BRCC} --emit-cpp ${kernel_program} -o -
    OUTPUT_VARIABLE program RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "brcc --emit-cpp failed (${status}) on ${kernel_program}")
endif()
string(REGEX MATCH "#include <brook/brook.hpp>\n(#include <[^>\n]+>\n|\n)*" includes
       "${program}")
if(NOT includes)
    message(FATAL_ERROR "brcc's program does not start by including brook/brook.hpp:\n${program}")
endif()
set(source ${OUTPUT}.cpp)
file(WRITE ${source} "${includes}")

execute_process(COMMAND ${BRCC} --dryrun -c ${source} -o ${OUTPUT}.o
    ERROR_VARIABLE command_line RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "brcc --dryrun failed (${status}): ${command_line}")
endif()
separate_arguments(command UNIX_COMMAND "${command_line}")
list(FIND command ${source} source_index)
if(source_index LESS 0)
    message(FATAL_ERROR "brcc --dryrun printed no compile of ${source}: ${command_line}")
endif()
list(SUBLIST command 0 ${source_index} command)

file(REMOVE ${OUTPUT})
execute_process(COMMAND ${command} -x c++-header ${source} -o ${OUTPUT}.tmp
                        -MD -MF ${OUTPUT}.d -MT ${OUTPUT}
    RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "precompiling brook/brook.hpp failed (${status})")
endif()
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
