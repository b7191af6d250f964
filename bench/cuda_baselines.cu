// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The cuda backend's baselines: CUDA runtime copies, CUB and cuBLAS, each with its best settings
// (CUB's tuned reduction, cuBLAS's default math mode, memory allocated once and warm).
#include "cuda_baselines.hpp"
#include "cuda_support.cuh"

#include <cub/device/device_reduce.cuh>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace bench::cuda {

namespace {

void check(cublasStatus_t status, const char* what) {
    if (status != CUBLAS_STATUS_SUCCESS) {
        std::fprintf(stderr, "bench: cuBLAS: %s: status %d\n", what, static_cast<int>(status));
        std::exit(1);
    }
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

void synchronize() {
    check(cudaDeviceSynchronize(), "a baseline failed on the device");
}

bool device_available() {
    int devices = 0;
    return cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
}

std::string device_name() {
    cudaDeviceProp properties{};
    check(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
    return properties.name;
}

} // namespace bench::cuda
