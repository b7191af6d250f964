# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# The configure summary: what this build makes and what it leaves out, and why. Each optional
# part reports itself once with brook_report(); the top-level CMakeLists prints them all at the
# end with brook_print_summary(), so one block of the configure output answers "why is X
# missing" and names the Debian package that brings it.
include_guard(GLOBAL)

# brook_report(<part> BUILT|SKIPPED <why>)
function(brook_report part state why)
    set_property(GLOBAL APPEND PROPERTY BROOK_SUMMARY "${part}|${state}|${why}")
endfunction()

function(brook_print_summary)
    get_property(entries GLOBAL PROPERTY BROOK_SUMMARY)
    message(STATUS "Brook ${PROJECT_VERSION} will build:")
    foreach(state IN ITEMS BUILT SKIPPED)
        if(state STREQUAL "SKIPPED")
            message(STATUS "and will not build:")
        endif()
        foreach(entry IN LISTS entries)
            string(REPLACE "|" ";" fields "${entry}")
            list(GET fields 0 part)
            list(GET fields 1 entry_state)
            list(GET fields 2 why)
            if(entry_state STREQUAL state)
                string(LENGTH "${part}" length)
                math(EXPR padding "22 - ${length}")
                string(REPEAT " " ${padding} spaces)
                message(STATUS "  ${part}${spaces}${why}")
            endif()
        endforeach()
    endforeach()
endfunction()
