// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// A Brook source made into a shared library and loaded: brcc's pipeline runs in this process
// (the front end, every backend's code generator, then the C++ compiler brcc uses, with brcc's
// own flags), and the library's exported table lists its kernels (brook_kernel_table).

#include <brook/kernel_abi.hpp>

#include <string>
#include <utility>
#include <vector>

namespace brook::python {

/// The outcome of a build: whether it made the library, and brcc's diagnostics
/// (`file:line:col: error: ...` lines; the C++ compiler's go to stderr).
struct BuildResult {
    bool built = false;
    std::string diagnostics;
};

/// Builds `source` (a .br file) into the shared library `library` with the headers and
/// libbrook of the brcc at `brcc` (its install, or its build tree), searching `include_dirs`
/// for the files it includes.
BuildResult build_library(const std::string& source, const std::string& library,
                          const std::string& brcc, const std::vector<std::string>& include_dirs);

/// Loads `library` (made by build_library) for good (streams and element types point into it)
/// and returns its kernels' KernelInfo, in source order; an ImportError when it cannot.
std::vector<const KernelInfo*> load_library(const std::string& library);

} // namespace brook::python
