# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# The package test (cmake -P): `cpack -G DEB` in the build folder, the packages unpacked into a
# scratch root with dpkg -x, and SAXPY built against what they hold in three ways: the packaged
# brcc, the C++ compiler with `pkg-config --cflags --libs brook`, and a CMake project using
# find_package(Brook COMPONENTS ...). Also checks the packages' names, versions and dependencies,
# that no unpacked file holds a path of the build or source tree, that brook.pc has no rpath,
# that a brcc copied away from its headers says so, and that the man page is there. Without dpkg-deb it prints "package test skipped" (a named skip).
# Inputs: BUILD_DIR, SOURCE_DIR (the project's), WORK_DIR, VERSION, LIBRARY_ARCHITECTURE (the
# toolchain's multiarch name, x86_64-linux-gnu, or empty), BACKENDS (the backends built,
# separated by commas), CXX_COMPILER, CXX_FLAGS; PYTHON, the module's interpreter where it is
# built.
cmake_minimum_required(VERSION 3.25)

include(${CMAKE_CURRENT_LIST_DIR}/../run_step.cmake)

function(expect_output description expected)
    if(NOT step_output MATCHES "${expected}")
        message(FATAL_ERROR "${description}: expected a match for '${expected}', got:\n"
            "${step_output}")
    endif()
endfunction()

foreach(tool dpkg-deb dpkg-shlibdeps pkg-config)
    find_program(${tool}_path ${tool})
    if(NOT ${tool}_path)
        message("package test skipped: ${tool} not found (Debian: apt-get install dpkg-dev "
            "pkg-config)")
        return()
    endif()
endforeach()

file(REMOVE_RECURSE ${WORK_DIR})
set(root ${WORK_DIR}/root)
set(usr ${root}/usr)

# The packages.
run_step("cpack -G DEB" ${CMAKE_CPACK_COMMAND} -G DEB -B ${WORK_DIR}/packages
    --config ${BUILD_DIR}/CPackConfig.cmake)
string(REGEX MATCH "^([0-9]+)\\.([0-9]+)" major_minor "${VERSION}")
set(runtime_package libbrook${major_minor})
file(GLOB runtime_deb ${WORK_DIR}/packages/${runtime_package}_${VERSION}_*.deb)
file(GLOB dev_deb ${WORK_DIR}/packages/libbrook-dev_${VERSION}_*.deb)
if(NOT runtime_deb OR NOT dev_deb)
    file(GLOB made ${WORK_DIR}/packages/*.deb)
    message(FATAL_ERROR "expected ${runtime_package} and libbrook-dev ${VERSION}, cpack made: "
        "${made}")
endif()
run_step("dpkg-deb -f runtime" ${dpkg-deb_path} -f ${runtime_deb} Depends)
expect_output("${runtime_package}'s dependencies" "libstdc\\+\\+6")
run_step("dpkg-deb -f dev" ${dpkg-deb_path} -f ${dev_deb} Depends)
expect_output("libbrook-dev's dependencies" "${runtime_package} \\(= ${VERSION}\\)")
expect_output("libbrook-dev's dependencies" "g\\+\\+")
# python3-brook where the module is built (PYTHON set).
set(python_deb "")
if(PYTHON)
    file(GLOB python_deb ${WORK_DIR}/packages/python3-brook_${VERSION}_*.deb)
    if(NOT python_deb)
        message(FATAL_ERROR "cpack made no python3-brook ${VERSION} package")
    endif()
    run_step("dpkg-deb -f python" ${dpkg-deb_path} -f ${python_deb} Depends)
    expect_output("python3-brook's dependencies" "libbrook-dev \\(= ${VERSION}\\)")
    expect_output("python3-brook's dependencies" "python3-numpy")
endif()
foreach(deb ${runtime_deb} ${dev_deb} ${python_deb})
    run_step("dpkg -x ${deb}" ${dpkg-deb_path} -x ${deb} ${root})
endforeach()

# What the packages hold: the library and the CMake package in Debian's multiarch folder
# (/usr/lib/x86_64-linux-gnu), where the toolchain has one.
set(libdir lib)
if(LIBRARY_ARCHITECTURE)
    set(libdir lib/${LIBRARY_ARCHITECTURE})
endif()
foreach(installed bin/brcc include/brook/brook.hpp ${libdir}/libbrook.so
        ${libdir}/libbrook.so.${major_minor} ${libdir}/cmake/Brook/BrookConfig.cmake
        lib/pkgconfig/brook.pc share/man/man1/brcc.1)
    if(NOT EXISTS ${usr}/${installed})
        message(FATAL_ERROR "the packages lack /usr/${installed}")
    endif()
endforeach()
if(LIBRARY_ARCHITECTURE AND EXISTS ${usr}/lib/libbrook.so)
    message(FATAL_ERROR "the packages install libbrook in /usr/lib, not /usr/${libdir}")
endif()
# No file names the build machine's folders. Not checked in an AddressSanitizer build (`make
# asan`), which no one packages: ASan records each object's source path, for its reports on
# global variables, and no prefix map reaches that record.
if(CXX_FLAGS MATCHES "-fsanitize=[^ ]*address")
    message(STATUS "build paths not checked: an AddressSanitizer build records its source paths")
else()
    file(GLOB_RECURSE unpacked ${root}/*)
    foreach(file IN LISTS unpacked)
        foreach(tree ${BUILD_DIR} ${SOURCE_DIR})
            file(STRINGS ${file} mentions REGEX "${tree}")
            if(mentions)
                message(FATAL_ERROR "${file} holds the build machine's path ${tree}")
            endif()
        endforeach()
    endforeach()
endif()

# The packaged brcc builds and runs SAXPY (it finds the headers and library beside itself).
separate_arguments(cxx_flags NATIVE_COMMAND "${CXX_FLAGS}")
set(ENV{BRT_RUNTIME} cpu)
set(saxpy ${SOURCE_DIR}/examples/saxpy.br)
run_step("packaged brcc --version" ${usr}/bin/brcc --version)
expect_output("brcc --version" "brcc ${VERSION}")
run_step("packaged brcc" ${usr}/bin/brcc ${saxpy} -o ${WORK_DIR}/saxpy_brcc -- ${cxx_flags})
run_step("SAXPY built by the packaged brcc" ${WORK_DIR}/saxpy_brcc)
expect_output("SAXPY built by the packaged brcc" ": OK")

# The packaged module compiles with the packaged brcc and runs on the packaged libbrook.
if(PYTHON)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env
                PYTHONPATH=${usr}/lib/python3/dist-packages XDG_CACHE_HOME=${WORK_DIR}/cache
                ${PYTHON} -c "import brook; print(*brook.compile('kernel void f(float x<>, \
out float r<>) { r = x + 1.0; }').f([1.0, 2.0]))"
        WORKING_DIRECTORY ${WORK_DIR}
        RESULT_VARIABLE result OUTPUT_VARIABLE step_output ERROR_VARIABLE step_output)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "the packaged Python module failed (${result}):\n${step_output}")
    endif()
    expect_output("the packaged Python module" "^2.0 3.0")
endif()

# A brcc away from its headers and library says so, and what to do, rather than failing in the C++
# compiler.
file(COPY ${usr}/bin/brcc DESTINATION ${WORK_DIR}/orphan/bin)
execute_process(COMMAND ${WORK_DIR}/orphan/bin/brcc ${saxpy} -o ${WORK_DIR}/orphan/saxpy
    RESULT_VARIABLE result ERROR_VARIABLE step_output)
if(NOT result EQUAL 2)
    message(FATAL_ERROR "a brcc without headers exited with ${result}, expected 2:\n${step_output}")
endif()
expect_output("a brcc without headers" "error: cannot find Brook's headers and library: expected ")

# pkg-config's flags are all the C++ compiler needs for brcc --emit-cpp's output; no rpath.
set(ENV{PKG_CONFIG_PATH} ${usr}/lib/pkgconfig)
run_step("pkg-config --cflags brook" ${pkg-config_path} --cflags brook)
string(STRIP "${step_output}" cflags)
expect_output("pkg-config --cflags brook" "-std=c\\+\\+20")
expect_output("pkg-config --cflags brook" "-fopenmp-simd")
run_step("pkg-config --libs brook" ${pkg-config_path} --libs brook)
string(STRIP "${step_output}" libs)
if(libs MATCHES "rpath")
    message(FATAL_ERROR "pkg-config --libs brook gives an rpath: ${libs}")
endif()
separate_arguments(cflags NATIVE_COMMAND "${cflags}")
separate_arguments(libs NATIVE_COMMAND "${libs}")
run_step("brcc --emit-cpp" ${usr}/bin/brcc --emit-cpp ${saxpy} -o ${WORK_DIR}/saxpy.cpp)
run_step("the C++ compiler with pkg-config's flags" ${CXX_COMPILER} ${cxx_flags} ${cflags}
    ${WORK_DIR}/saxpy.cpp ${libs} -o ${WORK_DIR}/saxpy_pkg_config)
set(ENV{LD_LIBRARY_PATH} ${usr}/${libdir})
run_step("SAXPY built with pkg-config" ${WORK_DIR}/saxpy_pkg_config)
expect_output("SAXPY built with pkg-config" ": OK")
unset(ENV{LD_LIBRARY_PATH})

# find_package(Brook COMPONENTS ...) and brook_add_executable against the packages.
run_step("configuring the components project" ${CMAKE_COMMAND}
    -S ${CMAKE_CURRENT_LIST_DIR}/components -B ${WORK_DIR}/components
    -DCMAKE_PREFIX_PATH=${usr} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DBROOK_EXPECTED_BACKENDS=${BACKENDS}"
    -DBROOK_SAXPY=${saxpy})
run_step("building the components project" ${CMAKE_COMMAND} --build ${WORK_DIR}/components)
run_step("SAXPY built by brook_add_executable" ${WORK_DIR}/components/saxpy)
expect_output("SAXPY built by brook_add_executable" ": OK")

# The man page renders (man -l reads the file itself, no man database needed).
find_program(man_path man)
if(man_path)
    set(ENV{MANWIDTH} 80)
    run_step("man -l brcc.1" ${man_path} -l ${usr}/share/man/man1/brcc.1)
    expect_output("man brcc" "NAME[ \n]+brcc +- +the Brook compiler")
    expect_output("man brcc" "Brook ${VERSION}")
endif()
message(STATUS "package test passed: ${runtime_deb} ${dev_deb}")
