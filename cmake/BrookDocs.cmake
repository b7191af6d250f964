# The host-API reference (docs/Doxyfile.in): `make docs` or the target `docs` runs Doxygen
# (Debian: doxygen) into build/docs/html. Without Doxygen the target is left out and the
# configure summary says so.
find_package(Doxygen QUIET)
if(NOT DOXYGEN_FOUND)
    brook_report("docs target" SKIPPED "Doxygen not found (Debian: doxygen)")
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
