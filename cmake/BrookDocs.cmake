# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# The host-API reference (docs/Doxyfile.in): `make docs` or the target `docs` runs Doxygen
# (Debian: doxygen) into build/docs/html. Without Doxygen the target is left out and the
# configure summary says so.
# The test docs.doxygen fails on any Doxygen warning about the public headers; without Doxygen
# it is a named skip.
find_package(Doxygen QUIET)
if(NOT DOXYGEN_FOUND)
    brook_report("docs target" SKIPPED "Doxygen not found (Debian: doxygen)")
    if(BROOK_BUILD_TESTS)
        add_test(NAME docs.doxygen COMMAND sh -c
            "echo 'docs.doxygen skipped: Doxygen not found (Debian: doxygen)'; exit 77")
        set_tests_properties(docs.doxygen PROPERTIES SKIP_RETURN_CODE 77 LABELS docs)
    endif()
    return()
endif()
set(BROOK_DOCS_OUTPUT ${PROJECT_BINARY_DIR}/docs)
configure_file(${PROJECT_SOURCE_DIR}/docs/Doxyfile.in ${PROJECT_BINARY_DIR}/Doxyfile @ONLY)
add_custom_target(docs
    COMMAND Doxygen::doxygen ${PROJECT_BINARY_DIR}/Doxyfile
    COMMAND ${CMAKE_COMMAND} -E echo "Host API reference: ${BROOK_DOCS_OUTPUT}/html/index.html"
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMENT "Building the host API reference with Doxygen"
    VERBATIM)
brook_report("docs target" BUILT "Doxygen found (make docs)")
if(BROOK_BUILD_TESTS)
    add_test(NAME docs.doxygen
        COMMAND ${CMAKE_COMMAND} -DDOXYGEN=$<TARGET_FILE:Doxygen::doxygen>
            -DDOXYFILE=${PROJECT_BINARY_DIR}/Doxyfile -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
            -DWORK_DIR=${PROJECT_BINARY_DIR}/tests/docs
            -P ${PROJECT_SOURCE_DIR}/tests/docs/run_doxygen_test.cmake)
    set_tests_properties(docs.doxygen PROPERTIES LABELS docs TIMEOUT 300)
endif()
