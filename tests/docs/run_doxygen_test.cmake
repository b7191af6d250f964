# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# The docs test (cmake -P): Doxygen on the public headers as `make docs` runs it (the Doxyfile
# configured from docs/Doxyfile.in), but with every undocumented public declaration reported, and
# any warning (an undocumented function or type, a reference that resolves to nothing) fails.
# Inputs: DOXYGEN (the program), DOXYFILE (the configured one), SOURCE_DIR, WORK_DIR.
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/../run_step.cmake)

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(warnings ${WORK_DIR}/warnings.txt)
# The reference's own settings, then what makes Doxygen report what the reference hides.
file(WRITE ${WORK_DIR}/Doxyfile "@INCLUDE = ${DOXYFILE}
OUTPUT_DIRECTORY = ${WORK_DIR}/output
WARN_IF_UNDOCUMENTED = YES
HIDE_UNDOC_MEMBERS = NO
HIDE_UNDOC_CLASSES = NO
WARN_LOGFILE = ${warnings}
")
run_step("doxygen" ${DOXYGEN} ${WORK_DIR}/Doxyfile)
file(READ ${warnings} found)
string(REPLACE "${SOURCE_DIR}/" "" found "${found}")
if(NOT found STREQUAL "")
    message(FATAL_ERROR "Doxygen warns about the public headers; document each declaration with "
        "a /// comment (or fix the reference):\n${found}")
endif()
