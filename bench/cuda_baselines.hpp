// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The cuda backend's baselines (cuda_baselines.cu, compiled by nvcc): what a CUDA programmer
// would run for the same work, on the same GPU, in the same process as Brook: the device's own
// copy of a buffer (the memory bandwidth a streaming kernel can hope for), CUB's
// DeviceReduce::Sum and cuBLAS's SGEMV. Each owns its device memory; run() only queues work and
// finish() waits for it, so the harness times them as it times Brook calls.

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

/// Waits for all work on the device.
void synchronize();

/// Whether the CUDA runtime finds a device to run the baselines on. The cuda backend may run
/// without one (its emulation, BRT_CUDA_DRIVER), where the baselines have nothing to measure.
bool device_available();

/// The device's name.
std::string device_name();

} // namespace bench::cuda
