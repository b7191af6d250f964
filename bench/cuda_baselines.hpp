// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The GPU baselines of the micro-benchmarks (cuda_baselines.cu, compiled by nvcc): what a CUDA
// programmer would run for the same work, on the same GPU, in the same process as Brook on cuda
// or on gl (baselines_wanted): the device's own copy of a buffer (the memory bandwidth a
// streaming kernel can hope for), CUB's DeviceReduce::Sum, cuBLAS's SGEMV and a bare kernel
// launch (the least a kernel call costs). Each owns its device memory; run() only queues work and
// synchronize() waits for it, so the harness times them as it times Brook calls (BareLaunch's
// run() waits too: its figure is a launch and its wait).

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace bench::cuda {

/// cudaMemcpy of `bytes` from one device buffer to another: 2 * bytes of memory traffic.
class DeviceCopy {
public:
    explicit DeviceCopy(std::size_t bytes);
    ~DeviceCopy();
    DeviceCopy(const DeviceCopy&) = delete;
    DeviceCopy& operator=(const DeviceCopy&) = delete;
    void run();
    /// Whether the copy holds the source's bytes (the source is a known pattern).
    bool correct() const;

private:
    std::size_t bytes_;
    void* source_ = nullptr;
    void* target_ = nullptr;
};

/// cub::DeviceReduce::Sum over `values`, kept on the device.
class CubSum {
public:
    explicit CubSum(const std::vector<float>& values);
    ~CubSum();
    CubSum(const CubSum&) = delete;
    CubSum& operator=(const CubSum&) = delete;
    void run();
    float result() const;

private:
    std::size_t count_;
    float* values_ = nullptr;
    float* sum_ = nullptr;
    void* scratch_ = nullptr;
    std::size_t scratch_bytes_ = 0;
};

/// y = alpha * A x + beta * y with cublasSgemv, A row-major rows x columns as Brook holds it.
class CublasSgemv {
public:
    CublasSgemv(const std::vector<float>& a, const std::vector<float>& x,
                const std::vector<float>& y, std::size_t rows, std::size_t columns, float alpha,
                float beta);
    ~CublasSgemv();
    CublasSgemv(const CublasSgemv&) = delete;
    CublasSgemv& operator=(const CublasSgemv&) = delete;
    /// One product into a fresh y (y_old is kept), as Brook's kernel computes.
    void run();
    std::vector<float> result() const;

private:
    std::size_t rows_;
    std::size_t columns_;
    float alpha_;
    float beta_;
    float* a_ = nullptr;
    float* x_ = nullptr;
    float* y_old_ = nullptr;
    float* y_ = nullptr;
    void* handle_ = nullptr;
};

/// The least a kernel call costs on the GPU: bench/issue_cost.br's kernel (43 multiply-adds on
/// each float4 of `inputs`, 4 floats per element) launched with the driver API's cuLaunchKernel,
/// a thread per element in one block, on a non-blocking stream of its own (as the cuda backend
/// launches on its own), and waited for with cuStreamSynchronize. Nothing is looked up per call:
/// the function and the stream are set up once, and the arguments are the addresses of the
/// members that hold them. The driver's entry points come through the CUDA runtime, so that the
/// program needs no libcuda to start where there is none (the cpu and gl runs of a machine
/// without a GPU).
class BareLaunch {
public:
    /// At most 1024 elements (one block).
    BareLaunch(const std::vector<float>& inputs, float b, float c);
    ~BareLaunch();
    BareLaunch(const BareLaunch&) = delete;
    BareLaunch& operator=(const BareLaunch&) = delete;
    /// One launch and its wait: returns when the kernel has run.
    void run();
    /// The results, 4 floats per element.
    std::vector<float> result() const;

private:
    unsigned elements_;
    float b_;
    float c_;
    float* inputs_ = nullptr;
    float* results_ = nullptr;
    void* function_ = nullptr;
    void* stream_ = nullptr;
};

/// Waits for all work on the device.
void synchronize();

/// Whether the CUDA runtime finds a device to run the baselines on. The cuda backend may run
/// without one (its emulation, BRT_CUDA_DRIVER), where the baselines have nothing to measure.
bool device_available();

/// Whether this process times the GPU baselines beside Brook on `backend` (brook::backend_name()):
/// on cuda, and on gl, which runs on NVIDIA's EGL where there is an NVIDIA GPU, each where the
/// CUDA runtime finds a device. On cuda without one (the emulation) it says once that none is
/// timed. On gl without one (Mesa's llvmpipe, a CPU renderer) it says nothing: there the program
/// is the gl benchmark it is without the baselines. On another backend it does not start the
/// CUDA runtime at all.
bool baselines_wanted(const std::string& backend);

/// The device's name.
std::string device_name();

} // namespace bench::cuda
