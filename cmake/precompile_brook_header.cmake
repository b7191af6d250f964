# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# cmake -DBRCC=build/bin/brcc -DHEADER=include/brook/brook.hpp -DOUTPUT=DIR/brook/brook.hpp.gch
#       -P this
#
# Precompiles brook/brook.hpp, the header every program brcc generates includes first, with the
# command the build tree's brcc compiles a program with (as `brcc --dryrun` prints it), so that
# GCC uses the .gch for every compile whose flags agree (compiler/driver/compile.cpp). Writes
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
# GCC warns about `#pragma once` in a header compiled on its own. The file is also what brcc is
# asked to compile, for the command.
set(source ${OUTPUT}.cpp)
file(WRITE ${source} "#include <brook/brook.hpp>\n")

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
