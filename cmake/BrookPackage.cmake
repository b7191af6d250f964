# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# Debian packages by `cpack -G DEB` in a build folder (the `package` target builds them too), from
# the install components of BrookInstall.cmake:
#   libbrook<major>.<minor>  the runtime: libbrook.so.<major>.<minor>, what Brook programs load
#   libbrook-dev             brcc, its man page, the headers, the libbrook.so link, the CMake
#                            package and brook.pc: what building Brook programs takes
#   python3-brook            the Python module (python/), where it is built
# The runtime's name carries its soname, as Debian names libraries, so that programs built
# against two incompatible 0.x releases can be installed side by side. Both install under /usr.
# Binaries are stripped, which also drops the build machine's paths held in debug information.
set(CPACK_PACKAGE_NAME brook)
set(CPACK_PACKAGE_VENDOR "The Brook authors")
set(CPACK_PACKAGE_CONTACT "The Brook authors <brook@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Brook stream programming language for GPUs and CPUs")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(brook_runtime_package libbrook${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME ${brook_runtime_package})
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
# The summary line of both is CPACK_PACKAGE_DESCRIPTION_SUMMARY; these are the long descriptions.
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "The runtime library. libbrook runs the kernels of Brook
programs on the backend chosen at run time by BRT_RUNTIME: the CPU, OpenGL 4.5
through EGL, or CUDA.")
# The gl backend reaches EGL and OpenGL through libepoxy, which loads them only when a program
# asks for gl: recommended, since the cpu backend runs without them.
get_property(brook_packaged_backends GLOBAL PROPERTY BROOK_BACKENDS)
if("gl" IN_LIST brook_packaged_backends)
    set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "libegl1, libgl1-mesa-dri")
endif()
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libbrook-dev)
# brcc runs the C++ compiler it was configured with (g++ 12 or later: the headers are C++20).
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
    "${brook_runtime_package} (= ${PROJECT_VERSION}), g++ (>= 4:12)")
set(CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS "cmake (>= 3.25), pkg-config")
set(CPACK_DEBIAN_DEV_DESCRIPTION "The compiler and development files. brcc translates Brook
(.br files: C with streams and kernels) into C++ and builds programs linked against
libbrook, as nvcc or ispc do. With the headers, the CMake package
(find_package(Brook), brook_add_executable) and a pkg-config file (brook).")
if(TARGET brook_python)
    list(APPEND CPACK_COMPONENTS_ALL python)
    set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-brook)
    set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
    # Written out rather than found by dpkg-shlibdeps, which knows no package of the libbrook
    # built beside it. The module runs brcc (libbrook-dev) for each new source, and its
    # extension is built for one Python version.
    math(EXPR next_python_minor "${BROOK_PYTHON_VERSION_MINOR} + 1")
    set(CPACK_DEBIAN_PYTHON_PACKAGE_SHLIBDEPS OFF)
    set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS
        "${brook_runtime_package} (= ${PROJECT_VERSION}), libbrook-dev (= ${PROJECT_VERSION}), \
python3 (>= ${BROOK_PYTHON_VERSION_MAJOR}.${BROOK_PYTHON_VERSION_MINOR}), \
python3 (<< ${BROOK_PYTHON_VERSION_MAJOR}.${next_python_minor}), python3-numpy")
    set(CPACK_DEBIAN_PYTHON_DESCRIPTION "The Python module brook. brook.compile() builds Brook
kernels from a string or a .br file, and they run on NumPy arrays and streams
kept on the backend, on every backend libbrook has.")
endif()
include(CPack)
