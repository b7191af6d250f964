// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The KernelInfo of a kernel written by hand for the cpu backend alone, as brcc would emit it
// with --backends=cpu: one "cpu" entry holding a brook::cpu::KernelCode.

#include <brook/kernel_abi.hpp>

#include <span>

namespace brook_test {

class CpuOnlyKernel {
public:
    /// A stream kernel when `code.kernel` is set, else a reduction (`code.fold`, `code.combine`).
    CpuOnlyKernel(const char* name, std::span<const brook::ParamInfo> params,
                  brook::cpu::KernelCode code)
        : code_(code), backend_{"cpu", &code_}, info_{name, params, code.kernel == nullptr,
                                                      std::span(&backend_, 1)} {}
    // The info points into the object itself.
    CpuOnlyKernel(const CpuOnlyKernel&) = delete;
    CpuOnlyKernel& operator=(const CpuOnlyKernel&) = delete;

    operator const brook::KernelInfo&() const { return info_; }
    const brook::KernelInfo& info() const { return info_; }
    /// The payload of the "cpu" entry, which a FusedFold names as its partner.
    const brook::cpu::KernelCode& code() const { return code_; }

private:
    brook::cpu::KernelCode code_;
    brook::BackendCode backend_;
    brook::KernelInfo info_;
};

} // namespace brook_test
