// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "backends/cuda/dynamic_library.hpp"

#include <dlfcn.h>
#include <link.h>

namespace brook::detail::cuda {

DynamicLibrary DynamicLibrary::open(const std::string& name, std::string& error) {
    // RTLD_LOCAL keeps the driver's symbols out of the global namespace, where they could satisfy
    // another library's references to a different libcuda (the tests' fake, say).
    void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char* text = dlerror();
        error = text != nullptr ? text : "unknown dlopen error";
    }
    return DynamicLibrary(handle);
}

void* DynamicLibrary::find(const char* symbol) const {
    return dlsym(handle_, symbol);
}

std::string DynamicLibrary::path() const {
    link_map* map = nullptr;
    if (handle_ == nullptr || dlinfo(handle_, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr) {
        return {};
    }
    return map->l_name;
}

} // namespace brook::detail::cuda
