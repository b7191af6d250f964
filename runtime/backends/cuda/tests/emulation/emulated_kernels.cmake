# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# cmake -DBRCC=... -DCXX=... -DFLAGS="flag;..." -DPROFILE_FLAGS="flag;..." -DPRELUDE=...
#       -DINCLUDES="dir;..." -DRUNTIME=lib.a -DRUNTIME_LIBRARIES="lib.so;..."
#       -DBACKEND_OBJECT=file.o -DSOURCE="prog.br;..."
#       -DOUT=dir -P this
#
# The fixture cuda.emulation.kernels.NAME of conformance.cuda_emulated.NAME: brcc writes the
# program's kernels as CUDA programs (--emit-kernels=cuda), and the host C++ compiler builds them
# all with FLAGS, with the emulation prelude force-included (PRELUDE, which the build
# precompiled with the same flags) and the emulation runtime linked in (RUNTIME, with the shared
# libraries it needs, RUNTIME_LIBRARIES: Boost.Context's), into OUT/kernels.so, the
# library brook_fake_cuda runs kernels from (FAKE_CUDA_KERNELS), together with the backend's own
# programs, which the build compiled once with the same flags (BACKEND_OBJECT: the scan of
# variable outputs). Any compiler warning fails it.
#
# PROFILE_FLAGS (-fsanitize=thread and its settings) build a library for the memory profile
# instead (memory_profile.cpp, which RUNTIME then holds): the kernels are compiled with them too,
# so that every load and store calls the profile, and linked without ThreadSanitizer's runtime.
foreach(variable BRCC CXX FLAGS PROFILE_FLAGS PRELUDE INCLUDES RUNTIME RUNTIME_LIBRARIES
                 BACKEND_OBJECT SOURCE OUT)
    if(NOT DEFINED ${variable})
        message(FATAL_ERROR "emulated_kernels.cmake: ${variable} is not set")
    endif()
endforeach()

file(REMOVE_RECURSE "${OUT}")
# SOURCE is a list for a program of several files (tests/multifile/): the kernels of them all.
# --backends=cuda: brcc checks the kernels against the cuda backend alone, not also compiling
# each to SPIR-V for the vulkan backend's check (0.2 to 0.4 s of a program's 0.01 s otherwise).
foreach(source IN LISTS SOURCE)
    execute_process(COMMAND "${BRCC}" --backends=cuda --emit-kernels=cuda -o "${OUT}" "${source}"
        RESULT_VARIABLE brcc_status)
    if(NOT brcc_status EQUAL 0)
        message(FATAL_ERROR "brcc --emit-kernels=cuda failed (${brcc_status}) on ${source}")
    endif()
endforeach()
file(MAKE_DIRECTORY "${OUT}")

# One translation unit of every program, each in a namespace of its own (NVRTC compiles each
# alone: their helpers and structs may share names): a compile per file spent most of its time
# starting the compiler and loading the precompiled prelude (0.25 s of a file's 0.27 s), and the
# eight kernel files of expressions.br took 2.5 s apart, 0.8 s together. Every header they
# include is in the prelude, so their own #include lines inside a namespace add nothing.
file(GLOB programs "${OUT}/*.cu")
set(unit "")
set(index 0)
foreach(program IN LISTS programs)
    string(APPEND unit "namespace brook_emulated_program_${index} {\n#include \"${program}\"\n}\n")
    math(EXPR index "${index} + 1")
endforeach()
file(WRITE "${OUT}/kernels.cpp" "${unit}")
set(include_args "")
foreach(directory IN LISTS INCLUDES)
    list(APPEND include_args "-I${directory}")
endforeach()
set(objects "${OUT}/kernels.cpp")
if(PROFILE_FLAGS)
    execute_process(
        COMMAND "${CXX}" ${FLAGS} ${PROFILE_FLAGS} -c -include "${PRELUDE}" ${include_args}
                "${OUT}/kernels.cpp" -o "${OUT}/kernels.o"
        RESULT_VARIABLE cxx_status)
    if(NOT cxx_status EQUAL 0)
        message(FATAL_ERROR "the host compiler could not build the profiled kernels of ${SOURCE}")
    endif()
    set(objects "${OUT}/kernels.o")
endif()
execute_process(
    COMMAND "${CXX}" ${FLAGS} -shared -include "${PRELUDE}" ${include_args} ${objects}
            "${BACKEND_OBJECT}"
            # Whole: brook_emulate_launch is called only through dlsym.
            -Wl,--whole-archive "${RUNTIME}" -Wl,--no-whole-archive ${RUNTIME_LIBRARIES}
            -o "${OUT}/kernels.so"
    RESULT_VARIABLE cxx_status)
if(NOT cxx_status EQUAL 0)
    message(FATAL_ERROR "the host compiler could not build the emulated kernels of ${SOURCE}")
endif()
