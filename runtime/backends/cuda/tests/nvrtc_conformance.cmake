# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# cmake -DBRCC=... -DCHECK=... -DSOURCE=prog.br -DOUT=dir -DHEADERS="NAME=FILE;..." -P this
#
# The test cuda.nvrtc.NAME: brcc writes the program's kernels as NVRTC programs
# (--emit-kernels=cuda), and brook_cuda_check compiles every one of them with NVRTC and ptxas
# (any warning fails) for sm_80. sm_90 is the architecture of the fake device of the emulated
# runs (conformance.cuda_emulated.NAME), where the backend compiles each kernel file with NVRTC
# to an sm_90 image as on an H100, and a kernel that does not compile fails the run; checking
# sm_90 here too spent as long again (builtins: 12.6 s for both, 5.2 s for sm_80). It fails when
# either fails, and when brcc writes no program for a .br file that has kernels.
foreach(variable BRCC CHECK SOURCE OUT HEADERS)
    if(NOT DEFINED ${variable})
        message(FATAL_ERROR "nvrtc_conformance.cmake: ${variable} is not set")
    endif()
endforeach()

file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND "${BRCC}" --emit-kernels=cuda -o "${OUT}" "${SOURCE}"
    RESULT_VARIABLE brcc_status)
if(NOT brcc_status EQUAL 0)
    message(FATAL_ERROR "brcc --emit-kernels=cuda failed (${brcc_status}) on ${SOURCE}")
endif()

file(GLOB programs "${OUT}/*.cu")
if(NOT programs)
    file(READ "${SOURCE}" text)
    if(text MATCHES "(^|\n)[ \t]*(kernel|reduce)[ \t\n]")
        message(FATAL_ERROR "brcc wrote no .cu file for ${SOURCE}, which has kernels")
    endif()
    message(STATUS "${SOURCE} has no kernels")
    return()
endif()

# All of them as one NVRTC program, each in a namespace of its own (their helpers and structs
# may share names), after every header at file scope: each compile paid NVRTC's start and the
# headers again (expressions.br's eight kernel files for two architectures: 5.5 s apart, 3.7 s
# together). The runs on the cuda backend (conformance.cuda_emulated.NAME) compile each file
# alone, as a GPU's would.
set(header_args "")
set(unit "")
foreach(header IN LISTS HEADERS)
    list(APPEND header_args --header "${header}")
    string(REGEX REPLACE "=.*" "" header_name "${header}")
    string(APPEND unit "#include \"${header_name}\"\n")
endforeach()
set(index 0)
foreach(program IN LISTS programs)
    string(APPEND unit "namespace brook_checked_program_${index} {\n#include \"${program}\"\n}\n")
    math(EXPR index "${index} + 1")
endforeach()
set(programs "${OUT}/kernels.cu.all")
file(WRITE "${programs}" "${unit}")
execute_process(COMMAND "${CHECK}" ${header_args} --arch 80 ${programs}
    RESULT_VARIABLE check_status)
if(NOT check_status EQUAL 0)
    message(FATAL_ERROR "brook_cuda_check failed (${check_status}) on the kernels of ${SOURCE}")
endif()
# A program that runs with BRT_CHECK=1 also as the backend compiles it then.
file(READ "${SOURCE}" text)
if(text MATCHES "// env:[^\n]*BRT_CHECK=1")
    execute_process(COMMAND "${CHECK}" ${header_args} --arch 80 --option -DBROOK_CHECK ${programs}
        RESULT_VARIABLE check_status)
    if(NOT check_status EQUAL 0)
        message(FATAL_ERROR "brook_cuda_check -DBROOK_CHECK failed (${check_status}) on the "
                            "kernels of ${SOURCE}")
    endif()
endif()
