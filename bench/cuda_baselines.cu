// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The micro-benchmarks' GPU baselines: CUDA runtime copies, CUB, cuBLAS and a bare driver-API
// launch, each with its best settings (CUB's tuned reduction, cuBLAS's default math mode, memory
// allocated once and warm, a launch with nothing set up per call).
#include "baselines.hpp"
#include "cuda_baselines.hpp"
#include "cuda_support.cuh"

#include <cub/device/device_reduce.cuh>
#include <cublas_v2.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace bench::cuda {

namespace {

// cuBLAS's and the driver's statuses beside the CUDA runtime's (cuda_support.cuh).
using bench::cuda::check;
void check(cublasStatus_t status, const char* what) {
    if (status != CUBLAS_STATUS_SUCCESS) {
        std::fprintf(stderr, "bench: cuBLAS: %s: status %d\n", what, static_cast<int>(status));
        std::exit(1);
    }
}

void check(CUresult status, const char* what) {
    if (status != CUDA_SUCCESS) {
        std::fprintf(stderr, "bench: CUDA driver: %s: error %d\n", what, static_cast<int>(status));
        std::exit(1);
    }
}

/// The driver API's launch and stream wait, as the CUDA runtime finds them in the libcuda it
/// loaded: linking libcuda would stop the program from starting where there is none. Each is
/// asked for in the version of its signature here (CUDA 4.0's cuLaunchKernel, 2.0's
/// cuStreamSynchronize).
struct DriverCalls {
    PFN_cuLaunchKernel_v4000 launch;
    PFN_cuStreamSynchronize_v2000 synchronize;
};

template <class Function> Function driver_entry(const char* symbol, unsigned version) {
    void* entry = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    check(cudaGetDriverEntryPointByVersion(symbol, &entry, version, cudaEnableDefault, &found),
          symbol);
    if (found != cudaDriverEntryPointSuccess) {
        std::fprintf(stderr, "bench: CUDA driver: %s not found\n", symbol);
        std::exit(1);
    }
    return reinterpret_cast<Function>(entry);
}

const DriverCalls& driver() {
    static const DriverCalls calls{
        driver_entry<PFN_cuLaunchKernel_v4000>("cuLaunchKernel", 4000),
        driver_entry<PFN_cuStreamSynchronize_v2000>("cuStreamSynchronize", 2000)};
    return calls;
}

/// bench/issue_cost.br's mad43: 43 times v = v * b + c on each float4.
__global__ void mad43(const float4* __restrict__ inputs, float b, float c,
                      float4* __restrict__ results, unsigned elements) {
    const unsigned i = threadIdx.x;
    if (i >= elements) {
        return;
    }
    float4 v = inputs[i];
    for (int k = 0; k < mad_count; ++k) {
        v = make_float4(v.x * b + c, v.y * b + c, v.z * b + c, v.w * b + c);
    }
    results[i] = v;
}

} // namespace

DeviceCopy::DeviceCopy(std::size_t bytes)
    : bytes_(bytes), source_(device_array<unsigned char>(bytes)),
      target_(device_array<unsigned char>(bytes)) {
    check(cudaMemset(source_, 0x5a, bytes_), "cudaMemset");
}
DeviceCopy::~DeviceCopy() {
    cudaFree(source_);
    cudaFree(target_);
}
void DeviceCopy::run() {
    check(cudaMemcpyAsync(target_, source_, bytes_, cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
}
bool DeviceCopy::correct() const {
    std::vector<unsigned char> host(bytes_);
    check(cudaMemcpy(host.data(), target_, bytes_, cudaMemcpyDeviceToHost), "cudaMemcpy");
    for (const unsigned char byte : host) {
        if (byte != 0x5a) {
            return false;
        }
    }
    return true;
}

CubSum::CubSum(const std::vector<float>& values)
    : count_(values.size()), values_(device_copy_of(values)), sum_(device_array<float>(1)) {
    check(cub::DeviceReduce::Sum(nullptr, scratch_bytes_, values_, sum_, count_),
          "cub::DeviceReduce::Sum (sizing)");
    check(cudaMalloc(&scratch_, scratch_bytes_), "cudaMalloc");
}
CubSum::~CubSum() {
    cudaFree(values_);
    cudaFree(sum_);
    cudaFree(scratch_);
}
void CubSum::run() {
    check(cub::DeviceReduce::Sum(scratch_, scratch_bytes_, values_, sum_, count_),
          "cub::DeviceReduce::Sum");
}
float CubSum::result() const {
    float sum = 0.0f;
    check(cudaMemcpy(&sum, sum_, sizeof sum, cudaMemcpyDeviceToHost), "cudaMemcpy");
    return sum;
}

CublasSgemv::CublasSgemv(const std::vector<float>& a, const std::vector<float>& x,
                         const std::vector<float>& y, std::size_t rows, std::size_t columns,
                         float alpha, float beta)
    : rows_(rows), columns_(columns), alpha_(alpha), beta_(beta), a_(device_copy_of(a)),
      x_(device_copy_of(x)), y_old_(device_copy_of(y)), y_(device_array<float>(rows)) {
    cublasHandle_t handle = nullptr;
    check(cublasCreate(&handle), "cublasCreate");
    handle_ = handle;
}
CublasSgemv::~CublasSgemv() {
    cublasDestroy(static_cast<cublasHandle_t>(handle_));
    cudaFree(a_);
    cudaFree(x_);
    cudaFree(y_old_);
    cudaFree(y_);
}
void CublasSgemv::run() {
    auto* handle = static_cast<cublasHandle_t>(handle_);
    check(cudaMemcpyAsync(y_, y_old_, rows_ * sizeof(float), cudaMemcpyDeviceToDevice),
          "cudaMemcpyAsync");
    // A row-major rows x columns matrix is a column-major columns x rows one: A x is its
    // transpose times x.
    check(cublasSgemv(handle, CUBLAS_OP_T, static_cast<int>(columns_), static_cast<int>(rows_),
                      &alpha_, a_, static_cast<int>(columns_), x_, 1, &beta_, y_, 1),
          "cublasSgemv");
}
std::vector<float> CublasSgemv::result() const {
    std::vector<float> y(rows_);
    check(cudaMemcpy(y.data(), y_, rows_ * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
    return y;
}

BareLaunch::BareLaunch(const std::vector<float>& inputs, float b, float c)
    : elements_(static_cast<unsigned>(inputs.size() / 4)), b_(b), c_(c),
      inputs_(device_copy_of(inputs)), results_(device_array<float>(inputs.size())) {
    if (inputs.size() % 4 != 0 || elements_ == 0 || elements_ > 1024) {
        std::fprintf(stderr, "bench: BareLaunch: 1 to 1024 float4, not %zu floats\n",
                     inputs.size());
        std::exit(1);
    }
    // The runtime's handle of a kernel of this file is the driver's CUfunction, and its stream
    // the driver's CUstream.
    cudaFunction_t function = nullptr;
    check(cudaGetFuncBySymbol(&function, reinterpret_cast<const void*>(mad43)),
          "cudaGetFuncBySymbol");
    function_ = function;
    cudaStream_t stream = nullptr;
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    stream_ = stream;
    // The entry points are looked up here, not in the first timed call.
    driver();
}
BareLaunch::~BareLaunch() {
    cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
    cudaFree(inputs_);
    cudaFree(results_);
}
void BareLaunch::run() {
    void* arguments[] = {&inputs_, &b_, &c_, &results_, &elements_};
    auto* stream = static_cast<CUstream>(stream_);
    check(driver().launch(static_cast<CUfunction>(function_), 1, 1, 1, elements_, 1, 1, 0, stream,
                          arguments, nullptr),
          "cuLaunchKernel");
    check(driver().synchronize(stream), "cuStreamSynchronize");
}
std::vector<float> BareLaunch::result() const {
    return host_copy_of(results_, 4 * static_cast<std::size_t>(elements_));
}

void synchronize() {
    check(cudaDeviceSynchronize(), "a baseline failed on the device");
}

bool device_available() {
    int devices = 0;
    return cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
}

bool baselines_wanted(const std::string& backend) {
    if (backend != "cuda" && backend != "gl") {
        return false;
    }
    // A process runs on one backend, so the first call's is the one to speak for.
    static const bool available = [&] {
        const bool found = device_available();
        if (!found && backend == "cuda") {
            std::printf("GPU baselines: the CUDA runtime finds no device, none timed\n");
        }
        return found;
    }();
    return available;
}

std::string device_name() {
    cudaDeviceProp properties{};
    check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
    return properties.name;
}

} // namespace bench::cuda
