// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// A dlclose that leaves Mesa's DRI drivers (NAME_dri.so) loaded, preloaded into the asan preset's
// tests (CMakePresets.json). Mesa's llvmpipe driver keeps a block it allocates at eglInitialize in
// a global and never frees it; libEGL_mesa unloads the driver at eglTerminate, after which
// LeakSanitizer finds the block unreachable and reports it from an "<unknown module>", which no
// suppression can name (tests/sanitizers/lsan.supp says more). With the driver still mapped, its
// globals are roots again and anything it did leak would be reported under its own name.
// Built without sanitizers: it is preloaded into every process the tests start, the C++
// compiler included. Every other library is closed as usual.
#include <dlfcn.h>
#include <link.h>

#include <string_view>

extern "C" int dlclose(void* handle) {
    using Close = int (*)(void*);
    static const auto real_dlclose = reinterpret_cast<Close>(dlsym(RTLD_NEXT, "dlclose"));
    link_map* library = nullptr;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &library) == 0 && library != nullptr &&
        std::string_view(library->l_name).ends_with("_dri.so")) {
        return 0;
    }
    return real_dlclose(handle);
}
