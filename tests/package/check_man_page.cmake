# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# The man page keeps up with brcc (cmake -P): every option that `brcc --help` lists must appear
# in docs/man/brcc.1.in, so a new option fails this test until it is documented.
# Inputs: BRCC, MAN_PAGE.
cmake_minimum_required(VERSION 3.25)

execute_process(COMMAND ${BRCC} --help OUTPUT_VARIABLE help RESULT_VARIABLE result)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "brcc --help failed (${result})")
endif()
file(READ ${MAN_PAGE} page)
# roff writes a hyphen as \-.
string(REPLACE "\\-" "-" page "${page}")

# Options are the words starting with - at the start of --help's lines and after commas
# ("  -h,--help  ...", "  -I DIR ...").
string(REGEX MATCHALL "\n  (-[-a-zA-Z0-9]+(,-[-a-zA-Z0-9]+)*)" option_fields "${help}")
set(missing "")
foreach(field IN LISTS option_fields)
    string(STRIP "${field}" field)
    string(REPLACE "," ";" options "${field}")
    foreach(option IN LISTS options)
        string(REGEX MATCH "[^-a-zA-Z0-9]${option}[^-a-zA-Z0-9]" found "${page}")
        if(NOT found)
            list(APPEND missing ${option})
        endif()
    endforeach()
endforeach()
if(NOT option_fields)
    message(FATAL_ERROR "found no options in brcc --help:\n${help}")
endif()
if(missing)
    message(FATAL_ERROR "docs/man/brcc.1.in does not describe these options of brcc --help: "
        "${missing}")
endif()
