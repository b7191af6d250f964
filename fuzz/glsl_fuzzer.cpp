// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// libFuzzer harness: every kernel the front end accepts must give GLSL that compiles. Each
// kernel's shader is put together as the gl backend does (runtime/backends/gl/gl_programs.cpp:
// `#version 430 core`, the pass's defines, the prelude, the kernel) and compiled by glslang, the
// Khronos reference front end (what glslangValidator runs); a shader it rejects is a crash, with
// glslang's log and the shader printed. Every output is defined to its own render target, as in
// a pass that draws them all.

#include "fuzzed_compilation.hpp"


#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>

#include <cstdio>
#include <cstdlib>
#include <regex>
#include <set>
#include <string>

namespace brook::detail::gl {
extern const char* const prelude_glsl;
}

namespace {

/// `#define BRT_OUT_P_F N` for every output leaf the shader declares, N counting from 0.
std::string output_defines(const std::string& kernel_glsl) {
    static const std::regex output_name("#ifdef (BRT_OUT_[0-9]+_[0-9]+)");
    std::set<std::string> names;
    for (auto match = std::sregex_iterator(kernel_glsl.begin(), kernel_glsl.end(), output_name);
         match != std::sregex_iterator(); ++match)
        names.insert((*match)[1].str());
    std::string defines;
    int location = 0;
    for (const std::string& name : names)
        defines += "#define " + name + " " + std::to_string(location++) + "\n";
    return defines;
}

void check_compiles(const std::string& kernel_name, const std::string& kernel_glsl) {
    const std::string shader_text = "#version 430 core\n" + output_defines(kernel_glsl) +
                                    brook::detail::gl::prelude_glsl + "\n#line 1 1\n" + kernel_glsl;
    glslang::TShader shader(EShLangFragment);
    const char* text = shader_text.c_str();
    shader.setStrings(&text, 1);
    shader.setEnvClient(glslang::EShClientOpenGL, glslang::EShTargetOpenGL_450);
    if (shader.parse(GetDefaultResources(), 430, false, EShMsgDefault))
        return;
    std::fprintf(stderr, "GLSL of kernel '%s' does not compile:\n%s\n--- shader ---\n%s\n",
                 kernel_name.c_str(), shader.getInfoLog(), shader_text.c_str());
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    glslang::InitializeProcess();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    brcc_fuzz::FuzzedCompilation(data, size).for_each_kernel_source("gl", check_compiles);
    return 0;
}
