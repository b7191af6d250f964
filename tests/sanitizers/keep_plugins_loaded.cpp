// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// A dlclose that leaves three kinds of plugin loaded, preloaded into the asan preset's tests
// (CMakePresets.json): Mesa's DRI drivers (NAME_dri.so), Vulkan drivers and layers
// (libvulkan_NAME.so such as lavapipe's, libVkLayer_NAME.so) and the components of Open MPI and
// of PMIx, its process manager interface (mca_NAME.so, pmix_mca_NAME.so), with those of hwloc,
// the library they read the machine's topology with (hwloc_NAME.so). All keep blocks they
// allocated in globals and are unloaded before exit (libEGL_mesa's eglTerminate, the Vulkan
// loader's vkDestroyInstance, MPI_Finalize); LeakSanitizer then finds
// the blocks unreachable and reports them from an "<unknown module>", or from whatever library
// was mapped at that address later, which no suppression can name (tests/sanitizers/lsan.supp
// says more). With the plugin still mapped, its globals are roots again, and anything it did
// leak is reported under its own name. Built without sanitizers: it is preloaded into every
// process the tests start, the C++ compiler included. Every other library is closed as usual.
#include <dlfcn.h>
#include <link.h>

#include <string_view>

namespace {

bool kept_loaded(std::string_view path) {
    const bool dri_driver = path.ends_with("_dri.so");
    const std::string_view file = path.substr(path.rfind('/') + 1);
    const bool mpi_component = file.starts_with("mca_") || file.starts_with("pmix_mca_") ||
                               file.starts_with("hwloc_");
    const bool vulkan_driver = file.starts_with("libvulkan_") || file.starts_with("libVkLayer_");
    return dri_driver || mpi_component || vulkan_driver;
}

} // namespace

extern "C" int dlclose(void* handle) {
    using Close = int (*)(void*);
    static const auto real_dlclose = reinterpret_cast<Close>(dlsym(RTLD_NEXT, "dlclose"));
    link_map* library = nullptr;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &library) == 0 && library != nullptr &&
        library->l_name != nullptr && kept_loaded(library->l_name)) {
        return 0;
    }
    return real_dlclose(handle);
}
