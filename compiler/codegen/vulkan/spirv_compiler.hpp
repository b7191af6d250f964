// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// GLSL compute shaders to SPIR-V for Vulkan 1.2, with shaderc (Debian: libshaderc-dev), inside
// brcc: the vulkan backend then needs no shader compiler at run time, and a shader that does not
// compile is brcc's error, at the kernel's place in the program.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace brcc {

/// The compiler's messages, when the shader does not compile (or compiles with warnings, or to
/// SPIR-V that spirv-val's checks reject).
struct SpirvErrors {
    std::string messages;
};

/// `glsl`, a whole compute shader, as SPIR-V words; `name` names it in the messages. The same
/// source is compiled once per process (check_kernel and kernel_code both ask).
std::variant<std::vector<std::uint32_t>, SpirvErrors>
compile_compute_shader(const std::string& glsl, const std::string& name);

} // namespace brcc
