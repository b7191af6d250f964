// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "library.hpp"

#include "element_types.hpp"

#include "driver/pipeline.hpp"

#include <pybind11/pybind11.h>

#include <dlfcn.h>

#include <sstream>

namespace py = pybind11;

namespace brook::python {

BuildResult build_library(const std::string& source, const std::string& library,
                          const std::string& brcc, const std::vector<std::string>& include_dirs) {
    brcc::DriverOptions options;
    options.inputs = {source};
    options.include_dirs = include_dirs;
    options.backends = brcc::known_backends();
    options.output = library;
    // Every object of a shared library is position-independent; the link makes the library.
    options.host_args = {"-fPIC", "-shared"};
    options.color = "never";
    options.kernel_table = true;
    options.brook_of = brcc;
    std::ostringstream diagnostics;
    const int status = [&] {
        const py::gil_scoped_release unlocked;
        return brcc::run_pipeline(options, diagnostics);
    }();
    return BuildResult{status == brcc::exit_success, diagnostics.str()};
}

std::vector<const KernelInfo*> load_library(const std::string& library) {
    // Its own symbols stay its own: two programs may both define a kernel `saxpy`.
    void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        throw py::import_error("brook: cannot load " + library + ": " + dlerror());
    }
    const auto* table = static_cast<const KernelInfo* const*>(dlsym(handle, "brook_kernel_table"));
    if (table == nullptr) {
        throw py::import_error("brook: " + library +
                               " has no table of kernels (brook_kernel_table)");
    }
    std::vector<const KernelInfo*> kernels;
    for (; *table != nullptr; ++table) {
        kernels.push_back(*table);
    }
    // The member names of the source's structs, for the dtypes of their arrays: each struct's
    // name, its leaf fields, a null; a null after the last.
    const auto* fields = static_cast<const char* const*>(dlsym(handle, "brook_struct_fields"));
    while (fields != nullptr && *fields != nullptr) {
        const std::string struct_name = *fields++;
        std::vector<std::string> names;
        for (; *fields != nullptr; ++fields) {
            names.emplace_back(*fields);
        }
        ++fields;
        for (const KernelInfo* kernel : kernels) {
            for (const ParamInfo& param : kernel->params) {
                if (param.element_type != nullptr && param.element_type().name == struct_name &&
                    param.element_type().fields.size() == names.size()) {
                    name_fields(param.element_type(), names);
                }
            }
        }
    }
    return kernels;
}

} // namespace brook::python
