# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# run_step(<description> <command> <arg>...), for the tests that are cmake -P scripts (install,
# package, headers): runs the command, stops the test with its output when it fails, and leaves
# what it printed (stdout and stderr together) in step_output for the checks that follow.
include_guard(GLOBAL)

function(run_step description)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE output
        ERROR_VARIABLE output)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "${description} failed (${result}):\n${output}")
    endif()
    set(step_output "${output}" PARENT_SCOPE)
endfunction()
