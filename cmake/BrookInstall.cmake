# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# Installation: brcc, the public headers, libbrook, the CMake package (find_package(Brook) gives
# Brook::brook, Brook::brcc and brook_add_executable, and the backends built as components) and
# a pkg-config file. Two install components, which cmake/BrookPackage.cmake makes the Debian
# packages: `runtime` (the versioned libbrook that programs load) and `dev` (everything else:
# what building a Brook program takes). An install rule without a COMPONENT belongs to dev.
include(CMakePackageConfigHelpers)
set(CMAKE_INSTALL_DEFAULT_COMPONENT_NAME dev)

set(BROOK_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Brook)
# brook.pc stays in lib/pkgconfig whatever the library folder (DESIGN.md §1), a folder pkg-config
# searches under every prefix; its libdir names the library's.
set(BROOK_INSTALL_PKGCONFIGDIR lib/pkgconfig)

install(TARGETS brcc EXPORT BrookTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS brook EXPORT BrookTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/brook
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h" PATTERN "*.def")
# Headers generated at configure or build time (if any) live under build/include.
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/brook
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    OPTIONAL
    FILES_MATCHING PATTERN "*.hpp")

# brcc's man page, which takes the project's version.
configure_file(${PROJECT_SOURCE_DIR}/docs/man/brcc.1.in ${PROJECT_BINARY_DIR}/man/brcc.1 @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/man/brcc.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

install(EXPORT BrookTargets NAMESPACE Brook:: DESTINATION ${BROOK_INSTALL_CMAKEDIR})
# The backends this libbrook was built with, which BrookConfig.cmake offers as components:
# find_package(Brook REQUIRED COMPONENTS gl) fails where the gl backend was left out.
get_property(BROOK_BUILT_BACKENDS GLOBAL PROPERTY BROOK_BACKENDS)
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
file(RELATIVE_PATH BROOK_PC_PREFIX_FROM_PCFILEDIR /prefix/${BROOK_INSTALL_PKGCONFIGDIR} /prefix)
configure_file(${CMAKE_CURRENT_LIST_DIR}/brook.pc.in ${PROJECT_BINARY_DIR}/brook.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/brook.pc DESTINATION ${BROOK_INSTALL_PKGCONFIGDIR})
