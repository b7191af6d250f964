# brook_add_executable(<name> <source>... [DEFINES <NAME[=VALUE]>...] [INCLUDES <dir>...]
#                      [PORTABLE])
#
# Builds an executable from Brook (.br) and C++ sources. Each .br file is translated at build time
# by `brcc --emit-cpp` into the binary folder; the result is compiled with the other sources and
# linked to Brook::brook. DEFINES and INCLUDES reach both brcc (which expands macros inside
# kernels) and the C++ compiler (for the host code). Relative paths are taken from the current
# source folder. Works in Brook's own build and after find_package(Brook).
#
# As with brcc's driver mode, the program is tuned for the building machine (-march=native and
# its widest vectors, which the generated kernel loops use) unless PORTABLE is given or the cache
# variable BROOK_PORTABLE is ON. The loops' `#pragma omp simd` needs -fopenmp-simd (no runtime);
# -fno-trapping-math (Brook cannot observe floating-point traps) lets GCC hoist and vectorise
# more of them, as in brcc's driver mode.
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

function(brook_add_executable name)
    cmake_parse_arguments(PARSE_ARGV 1 arg "PORTABLE" "" "DEFINES;INCLUDES")
    if(NOT arg_UNPARSED_ARGUMENTS)
        message(FATAL_ERROR "brook_add_executable(${name}): no source files given")
    endif()

    set(brcc_flags)
    set(include_dirs)
    foreach(define IN LISTS arg_DEFINES)
        list(APPEND brcc_flags -D${define})
    endforeach()
    foreach(dir IN LISTS arg_INCLUDES)
        cmake_path(ABSOLUTE_PATH dir BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} NORMALIZE)
        list(APPEND include_dirs ${dir})
        list(APPEND brcc_flags -I${dir})
    endforeach()

    set(sources)
    set(generated_dir ${CMAKE_CURRENT_BINARY_DIR}/${name}.brook)
    foreach(source IN LISTS arg_UNPARSED_ARGUMENTS)
        cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} NORMALIZE)
        cmake_path(GET source EXTENSION LAST_ONLY extension)
        if(NOT extension STREQUAL ".br")
            list(APPEND sources ${source})
            continue()
        endif()
        cmake_path(GET source STEM stem)
        cmake_path(GET source PARENT_PATH source_dir)
        set(generated ${generated_dir}/${stem}.cpp)
        add_custom_command(
            OUTPUT ${generated}
            COMMAND ${CMAKE_COMMAND} -E make_directory ${generated_dir}
            COMMAND Brook::brcc --emit-cpp ${brcc_flags} ${source} -o ${generated}
            DEPENDS ${source} ${_brook_brcc_depends}
            COMMENT "Translating Brook source ${stem}.br"
            VERBATIM)
        list(APPEND sources ${generated})
        # The host code's #include "..." is relative to the .br file, not to the generated file.
        list(APPEND include_dirs ${source_dir})
    endforeach()

    add_executable(${name} ${sources})
    list(REMOVE_DUPLICATES include_dirs)
    target_include_directories(${name} PRIVATE ${include_dirs})
    target_compile_definitions(${name} PRIVATE ${arg_DEFINES})
    target_link_libraries(${name} PRIVATE Brook::brook)
    target_compile_features(${name} PRIVATE cxx_std_20)
    target_compile_options(${name} PRIVATE -fopenmp-simd -fno-trapping-math)
    if(NOT arg_PORTABLE AND NOT BROOK_PORTABLE)
        target_compile_options(${name} PRIVATE -march=native -mprefer-vector-width=512)
    endif()
    # Inside Brook's own build the generated code must stay as warning-clean as ours.
    if(TARGET brook_warnings)
        target_link_libraries(${name} PRIVATE brook_warnings)
    endif()
endfunction()
