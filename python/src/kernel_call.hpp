// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// A kernel of a loaded library as a Python callable: `prog.saxpy(a, x, y)`. The arguments are
// the parameters that are not outputs, in order; the outputs come from `out=` (one, or a tuple
// in parameter order), or all parameters are given in order as in C++. An output not given is
// made with the shape `shape=` names, else the first input stream's (a reduction to a value
// needs none), and returned; a call returns its outputs, a tuple when there are several.
// brook.stream arguments are used as they are. Arrays are used in place where the backend keeps
// streams in host memory (cpu) and the array is contiguous (an output only when no other
// argument shares its memory); otherwise they are copied to streams before the call and the
// outputs back after it. The kernel runs with the GIL released.

#include <brook/kernel_abi.hpp>

#include <pybind11/pybind11.h>

#include <string>

namespace brook::python {

class Kernel {
public:
    /// `info` lives in a loaded library, which stays loaded (library.hpp).
    explicit Kernel(const KernelInfo& info) : info_(&info) {}

    pybind11::object call(const pybind11::args& args, const pybind11::kwargs& keywords) const;
    /// For the benchmark of the module's cost per call: the call's arguments bound once, then
    /// the kernel run `repeats=` times (default 1000) from C++, as a generated stub runs it; the
    /// seconds per run.
    double cpp_call_seconds(const pybind11::args& args, const pybind11::kwargs& keywords) const;

    const char* name() const { return info_->name; }
    /// `saxpy(float a, float x<>, float y<>, out float r<>)`, as the kernel was declared.
    std::string signature() const;
    /// The NumPy dtype of each element type its stream parameters take, by the type's name.
    pybind11::dict element_dtypes() const;

private:
    struct Call;
    Call bind(const pybind11::args& args, const pybind11::kwargs& keywords) const;
    /// Runs the bound call with the GIL released; a runtime error becomes a ValueError.
    void run(Call& call) const;
    void launch(Call& call) const;
    /// The outputs, copied back into the arrays that were not used in place.
    pybind11::object results(Call& call) const;

    const KernelInfo* info_;
};

} // namespace brook::python
