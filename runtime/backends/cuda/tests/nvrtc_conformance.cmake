# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# cmake -DBRCC=... -DCHECK=... -DSOURCE=prog.br -DOUT=dir -DCACHE=dir -DARCH=90 -P this
#
# The test cuda.nvrtc.NAME: brcc writes the program's kernels as NVRTC programs
# (--emit-kernels=cuda), and brook_cuda_check compiles each of them with NVRTC as the cuda
# backend does, for sm_<ARCH>, any warning failing (NVRTC assembles the CUBIN with its own
# ptxas). It fails when that fails, and when brcc writes no program for a .br file that has
# kernels.
foreach(variable BRCC CHECK SOURCE OUT CACHE ARCH)
    if(NOT DEFINED ${variable})
        message(FATAL_ERROR "nvrtc_conformance.cmake: ${variable} is not set")
    endif()
endforeach()

file(REMOVE_RECURSE "${OUT}")
# --backends=cuda: the cuda backend's checks alone (emulation/emulated_kernels.cmake says why).
execute_process(COMMAND "${BRCC}" --backends=cuda --emit-kernels=cuda -o "${OUT}" "${SOURCE}"
    RESULT_VARIABLE brcc_status)
if(NOT brcc_status EQUAL 0)
    message(FATAL_ERROR "brcc --emit-kernels=cuda failed (${brcc_status}) on ${SOURCE}")
endif()

file(READ "${SOURCE}" text)
file(GLOB programs "${OUT}/*.cu")
if(NOT programs)
    if(text MATCHES "(^|\n)[ \t]*(kernel|reduce)[ \t\n]")
        message(FATAL_ERROR "brcc wrote no .cu file for ${SOURCE}, which has kernels")
    endif()
    message(STATUS "${SOURCE} has no kernels")
    return()
endif()

# Each kernel's program compiled as the backend compiles it on the fake device of the emulated
# runs (ARCH: sm_90, an H100's), into the disk cache those runs read (CACHE): the run of the
# program (conformance.cuda_emulated.NAME, which this test sets up) then compiles nothing. Each
# kernel was compiled twice before, once here (as one NVRTC program for sm_80, through ptxas)
# and once in the run: 390 s of the suite's summed test time went to NVRTC, half of it twice.
execute_process(COMMAND "${CHECK}" --cache "${CACHE}" --arch ${ARCH} ${programs}
    RESULT_VARIABLE check_status)
if(NOT check_status EQUAL 0)
    message(FATAL_ERROR "brook_cuda_check failed (${check_status}) on the kernels of ${SOURCE}")
endif()
# A program that runs with BRT_CHECK=1 also as the backend compiles it then.
if(text MATCHES "// env:[^\n]*BRT_CHECK=1")
    execute_process(
        COMMAND "${CHECK}" --cache "${CACHE}" --arch ${ARCH} --option -DBROOK_CHECK ${programs}
        RESULT_VARIABLE check_status)
    if(NOT check_status EQUAL 0)
        message(FATAL_ERROR "brook_cuda_check -DBROOK_CHECK failed (${check_status}) on the "
                            "kernels of ${SOURCE}")
    endif()
endif()
