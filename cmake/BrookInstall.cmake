# Installation: brcc, the public headers, libbrook, the CMake package (find_package(Brook) gives
# Brook::brook, Brook::brcc and brook_add_executable) and a pkg-config file.
include(CMakePackageConfigHelpers)

set(BROOK_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Brook)

install(TARGETS brcc EXPORT BrookTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS brook EXPORT BrookTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/brook
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    FILES_MATCHING PATTERN "*.hpp" PATTERN "*.def")
# Headers generated at configure or build time (if any) live under build/include.
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/brook
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    OPTIONAL
    FILES_MATCHING PATTERN "*.hpp")

install(EXPORT BrookTargets NAMESPACE Brook:: DESTINATION ${BROOK_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/BrookConfig.cmake.in
    ${PROJECT_BINARY_DIR}/BrookConfig.cmake
    INSTALL_DESTINATION ${BROOK_INSTALL_CMAKEDIR})
# 0.x releases may break compatibility between minor versions.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/BrookConfigVersion.cmake
    COMPATIBILITY SameMinorVersion)
install(FILES
    ${PROJECT_BINARY_DIR}/BrookConfig.cmake
    ${PROJECT_BINARY_DIR}/BrookConfigVersion.cmake
    ${CMAKE_CURRENT_LIST_DIR}/BrookFunctions.cmake
    DESTINATION ${BROOK_INSTALL_CMAKEDIR})

# brook.pc finds the prefix from its own location, so the install can be moved (and
# `cmake --install --prefix` needs no reconfiguration).
file(RELATIVE_PATH BROOK_PC_PREFIX_FROM_PCFILEDIR
    /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${CMAKE_CURRENT_LIST_DIR}/brook.pc.in ${PROJECT_BINARY_DIR}/brook.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/brook.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
