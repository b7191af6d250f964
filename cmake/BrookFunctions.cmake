# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# brook_add_executable(<name> <source>... [DEFINES <NAME[=VALUE]>...] [INCLUDES <dir>...]
#                      [PORTABLE | TARGETS <isa>...])
# brook_add_library(<name> [STATIC|SHARED] <source>... [DEFINES ...] [INCLUDES ...]
#                   [NATIVE | TARGETS <isa>...])
# brook_target(<target> [DEFINES ...] [INCLUDES ...] [PORTABLE | NATIVE | TARGETS <isa>...])
#
# Builds an executable or a library from Brook (.br) and C++ sources. Each .br file is translated
# at build time by `brcc --emit-cpp` into the binary folder, and again whenever it or a Brook header
# it includes changes (brcc's depfile); the result is compiled with the other sources and linked
# to Brook::brook (publicly for a library, whose users launch its kernels through it). DEFINES
# and INCLUDES reach both brcc (which expands macros inside kernels) and the C++ compiler (for the
# host code). Relative paths are taken from the current source folder. Works in Brook's own build
# and after find_package(Brook).
#
# brook_target makes a target created with add_executable or add_library a Brook target: its .br
# sources, those given later with target_sources in the same folder too, are translated when
# CMake has read the folder's CMakeLists.txt (a deferred call), which is what lets a project keep
# its own add_executable and target_sources calls.
#
# A program is tuned for the building machine (-march=native and its widest vectors, which the
# generated kernel loops use), as in brcc's driver mode, unless PORTABLE is given or the cache
# variable BROOK_PORTABLE is ON. A library, which is usually shipped to other machines, is
# portable unless NATIVE is given. TARGETS names the CPU instruction sets instead, as brcc's
# --target does (`brcc --target=list`): one is its -march; with several, each kernel's loops are
# compiled once per set and the program runs the best one the CPU has, while the rest of the
# target is built for the lowest set. TARGETS is the project's own choice, which BROOK_PORTABLE
# leaves as it is. The loops' `#pragma omp simd` needs -fopenmp-simd (no
# runtime); -fno-trapping-math (Brook cannot observe floating-point traps) lets GCC hoist and
# vectorise more of them, and -fno-math-errno (nor can it read errno) makes sqrt an instruction
# rather than a branch to the C library, without which no loop calling it vectorises; as in
# brcc's driver mode.
include_guard(GLOBAL)

option(BROOK_PORTABLE "Build Brook programs for any machine of the target architecture" OFF)

# Installed, BrookConfig.cmake has imported Brook::brcc before including this file; in Brook's own
# build brcc is the target `brcc`, which custom commands must depend on by its real name.
if(TARGET Brook::brcc)
    set(_brook_brcc_depends $<TARGET_FILE:Brook::brcc>)
else()
    add_executable(Brook::brcc ALIAS brcc)
    set(_brook_brcc_depends brcc)
endif()

# The sources of target `name` with each .br file among them replaced by its translation (in
# <binary folder>/<name>.brook/, at its path below the source folder, so that two .br files of one
# name in different folders stay apart), each rebuilt when the .br or a Brook header it includes
# changes (brcc writes a depfile); and the folders of the .br files, where their host code's
# #include "..." looks.
function(_brook_translate name brcc_flags out_sources out_include_dirs)
    set(sources)
    set(include_dirs)
    set(generated_dir ${CMAKE_CURRENT_BINARY_DIR}/${name}.brook)
    foreach(source IN LISTS ARGN)
        cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} NORMALIZE)
        cmake_path(GET source EXTENSION LAST_ONLY extension)
        if(NOT extension STREQUAL ".br")
            list(APPEND sources ${source})
            continue()
        endif()
        cmake_path(RELATIVE_PATH source BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
                   OUTPUT_VARIABLE relative)
        string(REPLACE "../" "__/" generated ${relative})
        cmake_path(REPLACE_EXTENSION generated LAST_ONLY .cpp)
        set(generated ${generated_dir}/${generated})
        cmake_path(GET generated PARENT_PATH generated_parent)
        cmake_path(GET source PARENT_PATH source_dir)
        add_custom_command(
            OUTPUT ${generated}
            COMMAND ${CMAKE_COMMAND} -E make_directory ${generated_parent}
            COMMAND Brook::brcc --emit-cpp ${brcc_flags} ${source} -o ${generated}
                    -MD -MF ${generated}.d
            DEPENDS ${source} ${_brook_brcc_depends}
            DEPFILE ${generated}.d
            COMMENT "Translating Brook source ${relative}"
            VERBATIM)
        list(APPEND sources ${generated})
        list(APPEND include_dirs ${source_dir})
    endforeach()
    set(${out_sources} ${sources} PARENT_SCOPE)
    set(${out_include_dirs} ${include_dirs} PARENT_SCOPE)
endfunction()

# For TARGETS `targets` of target `name`: brcc's --target flag and the C++ compiler's flags
# (-march= the lowest, and the widest vectors as for native).
function(_brook_cpu_targets name targets out_brcc_flags out_compile_options)
    # The x86-64 levels that TARGETS may name besides `native`, lowest first, as in brcc's table
    # (compiler/driver/cpu_targets.cpp).
    set(_brook_cpu_levels x86-64 x86-64-v2 x86-64-v3 x86-64-v4)
    set(lowest)
    foreach(level IN LISTS _brook_cpu_levels ITEMS native)
        if(level IN_LIST targets)
            set(lowest ${level})
            break()
        endif()
    endforeach()
    foreach(target IN LISTS targets)
        if(NOT target IN_LIST _brook_cpu_levels AND NOT target STREQUAL "native")
            list(JOIN _brook_cpu_levels ", " known)
            message(FATAL_ERROR "${name}: unknown TARGETS '${target}' (known: ${known}, native; "
                                "brcc --target=list describes them)")
        endif()
    endforeach()
    list(LENGTH targets count)
    if(lowest STREQUAL "native" AND count GREATER 1)
        message(FATAL_ERROR "${name}: TARGETS native builds for this machine alone; name the "
                            "instruction sets instead")
    endif()
    list(JOIN targets "," joined)
    set(${out_brcc_flags} --target=${joined} PARENT_SCOPE)
    set(${out_compile_options} -march=${lowest} -mprefer-vector-width=512 PARENT_SCOPE)
endfunction()

# What every Brook target gets: its includes and macros, libbrook, C++20, and the flags the
# generated loops want: `tuning` (TARGETS' flags), else -march=native when `native`.
function(_brook_configure_target name native tuning include_dirs defines)
    list(REMOVE_DUPLICATES include_dirs)
    target_include_directories(${name} PRIVATE ${include_dirs})
    target_compile_definitions(${name} PRIVATE ${defines})
    target_compile_features(${name} PRIVATE cxx_std_20)
    target_compile_options(${name} PRIVATE -fopenmp-simd -fno-trapping-math -fno-math-errno)
    if(tuning)
        target_compile_options(${name} PRIVATE ${tuning})
    elseif(native AND NOT BROOK_PORTABLE)
        target_compile_options(${name} PRIVATE -march=native -mprefer-vector-width=512)
    endif()
    # Inside Brook's own build the generated code must stay as warning-clean as ours.
    if(TARGET brook_warnings)
        target_link_libraries(${name} PRIVATE brook_warnings)
    endif()
endfunction()

# brcc's -D and -I flags for DEFINES and INCLUDES, and the include folders as absolute paths;
# with TARGETS, brcc's --target and the C++ compiler's flags for them (in `out_tuning`).
function(_brook_flags name defines includes targets out_flags out_include_dirs out_tuning)
    set(flags)
    set(tuning)
    if(targets)
        _brook_cpu_targets(${name} "${targets}" flags tuning)
    endif()
    set(include_dirs)
    foreach(define IN LISTS defines)
        list(APPEND flags -D${define})
    endforeach()
    foreach(dir IN LISTS includes)
        cmake_path(ABSOLUTE_PATH dir BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} NORMALIZE)
        list(APPEND include_dirs ${dir})
        list(APPEND flags -I${dir})
    endforeach()
    set(${out_flags} ${flags} PARENT_SCOPE)
    set(${out_include_dirs} ${include_dirs} PARENT_SCOPE)
    set(${out_tuning} ${tuning} PARENT_SCOPE)
endfunction()

function(brook_add_executable name)
    cmake_parse_arguments(PARSE_ARGV 1 arg "PORTABLE" "" "DEFINES;INCLUDES;TARGETS")
    if(NOT arg_UNPARSED_ARGUMENTS)
        message(FATAL_ERROR "brook_add_executable(${name}): no source files given")
    endif()
    if(arg_PORTABLE AND arg_TARGETS)
        message(FATAL_ERROR "brook_add_executable(${name}): PORTABLE or TARGETS, not both")
    endif()
    _brook_flags("brook_add_executable(${name})" "${arg_DEFINES}" "${arg_INCLUDES}"
                 "${arg_TARGETS}" brcc_flags include_dirs tuning)
    _brook_translate(${name} "${brcc_flags}" sources source_dirs ${arg_UNPARSED_ARGUMENTS})
    add_executable(${name} ${sources})
    target_link_libraries(${name} PRIVATE Brook::brook)
    set(native TRUE)
    if(arg_PORTABLE)
        set(native FALSE)
    endif()
    _brook_configure_target(${name} "${native}" "${tuning}" "${include_dirs};${source_dirs}"
                            "${arg_DEFINES}")
endfunction()

function(brook_add_library name)
    cmake_parse_arguments(PARSE_ARGV 1 arg "STATIC;SHARED;NATIVE" "" "DEFINES;INCLUDES;TARGETS")
    if(NOT arg_UNPARSED_ARGUMENTS)
        message(FATAL_ERROR "brook_add_library(${name}): no source files given")
    endif()
    if(arg_STATIC AND arg_SHARED)
        message(FATAL_ERROR "brook_add_library(${name}): STATIC or SHARED, not both")
    endif()
    if(arg_NATIVE AND arg_TARGETS)
        message(FATAL_ERROR "brook_add_library(${name}): NATIVE or TARGETS, not both")
    endif()
    set(kind)
    if(arg_STATIC)
        set(kind STATIC)
    elseif(arg_SHARED)
        set(kind SHARED)
    endif()
    _brook_flags("brook_add_library(${name})" "${arg_DEFINES}" "${arg_INCLUDES}"
                 "${arg_TARGETS}" brcc_flags include_dirs tuning)
    _brook_translate(${name} "${brcc_flags}" sources source_dirs ${arg_UNPARSED_ARGUMENTS})
    add_library(${name} ${kind} ${sources})
    # Its users call the kernels through libbrook too.
    target_link_libraries(${name} PUBLIC Brook::brook)
    _brook_configure_target(${name} "${arg_NATIVE}" "${tuning}" "${include_dirs};${source_dirs}"
                            "${arg_DEFINES}")
endfunction()

function(brook_target name)
    cmake_parse_arguments(PARSE_ARGV 1 arg "PORTABLE;NATIVE" "" "DEFINES;INCLUDES;TARGETS")
    if(NOT TARGET ${name})
        message(FATAL_ERROR "brook_target(${name}): no such target; create it first with "
                            "add_executable or add_library")
    endif()
    if((arg_PORTABLE AND arg_NATIVE) OR (arg_TARGETS AND (arg_PORTABLE OR arg_NATIVE)))
        message(FATAL_ERROR "brook_target(${name}): one of PORTABLE, NATIVE and TARGETS")
    endif()
    get_target_property(type ${name} TYPE)
    set(native TRUE)
    if(arg_PORTABLE OR (NOT type STREQUAL "EXECUTABLE" AND NOT arg_NATIVE))
        set(native FALSE)
    endif()
    set(visibility PRIVATE)
    if(NOT type STREQUAL "EXECUTABLE")
        set(visibility PUBLIC)
    endif()
    target_link_libraries(${name} ${visibility} Brook::brook)
    _brook_flags("brook_target(${name})" "${arg_DEFINES}" "${arg_INCLUDES}" "${arg_TARGETS}"
                 brcc_flags include_dirs tuning)
    _brook_configure_target(${name} "${native}" "${tuning}" "${include_dirs}" "${arg_DEFINES}")
    cmake_language(EVAL CODE "
        cmake_language(DEFER CALL _brook_translate_target_sources [[${name}]] [[${brcc_flags}]])")
endfunction()

# brook_target's deferred half: the target's .br sources as they are once its folder is read.
function(_brook_translate_target_sources name brcc_flags)
    get_target_property(all_sources ${name} SOURCES)
    set(brook_sources ${all_sources})
    list(FILTER brook_sources INCLUDE REGEX "\\.br$")
    if(NOT brook_sources)
        message(WARNING "brook_target(${name}): the target has no .br source")
        return()
    endif()
    set_source_files_properties(${brook_sources} PROPERTIES HEADER_FILE_ONLY ON)
    _brook_translate(${name} "${brcc_flags}" generated source_dirs ${brook_sources})
    target_sources(${name} PRIVATE ${generated})
    list(REMOVE_DUPLICATES source_dirs)
    target_include_directories(${name} PRIVATE ${source_dirs})
endfunction()
