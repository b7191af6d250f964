# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# cmake -DPROGRAM=... -DARGS="a b" -DEXPECTED=NAME.txt -P this
#
# The test cuda.coalescing.example_NAME: runs an example (in the environment the test gives: the
# cuda backend on the emulation, its kernels built to profile, BRT_PROFILE=1), which must exit
# with 0, and checks that its stderr holds every line of EXPECTED that is not empty or a `#`
# comment: the memory profile's rows pinned at their measured values.
foreach(variable PROGRAM ARGS EXPECTED)
    if(NOT DEFINED ${variable})
        message(FATAL_ERROR "check_profile.cmake: ${variable} is not set")
    endif()
endforeach()

separate_arguments(arguments UNIX_COMMAND "${ARGS}")
execute_process(COMMAND "${PROGRAM}" ${arguments}
    RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} ${ARGS} exited with ${status}:\n${output}${errors}")
endif()
file(STRINGS "${EXPECTED}" lines)
set(missing "")
foreach(line IN LISTS lines)
    if(line STREQUAL "" OR line MATCHES "^#")
        continue()
    endif()
    string(FIND "${errors}" "${line}" at)
    if(at EQUAL -1)
        string(APPEND missing "  ${line}\n")
    endif()
endforeach()
if(missing)
    message(FATAL_ERROR "the memory profile of ${PROGRAM} lacks these rows of ${EXPECTED}:\n"
        "${missing}what it printed:\n${errors}")
endif()
