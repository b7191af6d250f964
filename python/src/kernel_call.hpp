// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// A kernel of a loaded library as a Python callable: `prog.saxpy(a, x, y)`. The arguments are
// the parameters that are not outputs, in order; the outputs come from `out=` (one, or a tuple
// in parameter order), or all parameters are given in order as in C++. An output not given is
// made with the shape `shape=` names, else the first input stream's (a reduction to a value
// needs none), and returned; a call returns its outputs, a tuple when there are several.
// Arrays are copied to streams before the call and the outputs back after it; brook.stream
// arguments are used as they are. The kernel runs with the GIL released.

#include <brook/kernel_abi.hpp>

#include <pybind11/pybind11.h>

#include <string>

namespace brook::python {

class Kernel {
public:
    /// `info` lives in a loaded library, which stays loaded (library.hpp).
    explicit Kernel(const KernelInfo& info) : info_(&info) {}

    pybind11::object call(const pybind11::args& args, const pybind11::kwargs& keywords) const;

    const char* name() const { return info_->name; }
    /// `saxpy(float a, float x<>, float y<>, out float r<>)`, as the kernel was declared.
    std::string signature() const;
    /// The NumPy dtype of each element type its stream parameters take, by the type's name.
    pybind11::dict element_dtypes() const;

private:
    const KernelInfo* info_;
};

} // namespace brook::python
