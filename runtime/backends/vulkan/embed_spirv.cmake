# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# cmake -DSPIRV=FILE.spv -DNAME=identifier -DOUTPUT=FILE.hpp -P embed_spirv.cmake
#
# Writes a SPIR-V module as the payload the vulkan backend takes (shader_frame.hpp, SpirvPayload):
# a C++ array of 32-bit words, the number of modules (1), then the module's number of words and
# its words.
file(READ ${SPIRV} bytes HEX)
string(LENGTH "${bytes}" digits)
math(EXPR word_count "${digits} / 8")
math(EXPR whole_digits "${word_count} * 8")
if(NOT digits EQUAL whole_digits OR word_count EQUAL 0)
    message(FATAL_ERROR "${SPIRV} is not a whole number of 32-bit words")
endif()
set(words "")
math(EXPR last "${word_count} - 1")
foreach(word RANGE ${last})
    math(EXPR at "${word} * 8")
    # Little-endian bytes, as glslc writes them on every host: the last byte is the high one.
    string(SUBSTRING "${bytes}" ${at} 8 le)
    string(SUBSTRING "${le}" 0 2 b0)
    string(SUBSTRING "${le}" 2 2 b1)
    string(SUBSTRING "${le}" 4 2 b2)
    string(SUBSTRING "${le}" 6 2 b3)
    string(APPEND words "0x${b3}${b2}${b1}${b0}u,")
    math(EXPR in_line "(${word} + 1) % 8")
    if(in_line EQUAL 0)
        string(APPEND words "\n    ")
    endif()
endforeach()
file(WRITE ${OUTPUT} "// Generated from ${SPIRV} by embed_spirv.cmake.
#pragma once
#include <cstdint>
inline constexpr std::uint32_t ${NAME}[] = {
    1u, ${word_count}u,
    ${words}
};
")
