// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Kernels and reductions written by hand against brook/kernel_abi.hpp, the way brcc generates
// them, for the tests of resizing, domains, iterators, variable outputs and gather/scatter ops.
// Each is a template over the element type, so a test picks `hand::copy<float4>` and so on.

#include <brook/brook.hpp>
#include <brook/kernel_abi.hpp>

#include "cpu_only_kernel.hpp"

#include <array>
#include <cstring>
#include <vector>

namespace hand {

using brook::KernelArg;
using brook::KernelInfo;
using brook::ParamInfo;
using brook::ParamKind;
using brook::cpu::Box;
using brook::cpu::Frame;

template <class T> const T& input_at(const Frame& frame, int param, std::size_t i) {
    if (frame.dense) {
        return frame.data<T>(param)[i];
    }
    return *reinterpret_cast<const T*>(
        brook::cpu::resized_element(frame.args[param].stream, frame, i, sizeof(T)));
}

template <class T> T& output_at(const Frame& frame, int param, std::size_t i) {
    if (frame.dense) {
        return frame.data<T>(param)[i];
    }
    return *reinterpret_cast<T*>(
        brook::cpu::output_element(frame.args[param].stream, frame, i, sizeof(T)));
}

// kernel void copy(T a<>, out T b<>) { b = a; }
template <class T> void copy_cpu(const Frame& frame, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        output_at<T>(frame, 1, i) = input_at<T>(frame, 0, i);
    }
}
template <class T>
inline const std::array<ParamInfo, 2> copy_params{{
    {"a", ParamKind::InputStream, &brook::element_traits<T>::type, 0},
    {"b", ParamKind::OutputStream, &brook::element_traits<T>::type, 0},
}};
template <class T>
inline const brook_test::CpuOnlyKernel copy_kernel{
    "copy", copy_params<T>, {.kernel = &copy_cpu<T>}};
template <class T> void copy(const brook::stream& a, brook::stream& b) {
    const KernelArg args[] = {KernelArg::input(a), KernelArg::output_stream(b)};
    brook::run_kernel(copy_kernel<T>, args);
}

// kernel void fetch(float2 p<>, T g[][], out T b<>) { b = g[p]; }: a 2-D gather by position.
template <class T> void fetch_cpu(const Frame& frame, std::size_t begin, std::size_t end) {
    const brook::cpu::StreamView& g = frame.args[1].stream;
    for (std::size_t i = begin; i < end; ++i) {
        const float2 p = input_at<float2>(frame, 0, i);
        const std::array<std::size_t, 4> at{brook::cpu::gather_index(p.y, g.extents[0]),
                                            brook::cpu::gather_index(p.x, g.extents[1]), 0, 0};
        std::memcpy(&output_at<T>(frame, 2, i), brook::cpu::element_at(g, at, sizeof(T)),
                    sizeof(T));
    }
}
template <class T>
inline const std::array<ParamInfo, 3> fetch_params{{
    {"p", ParamKind::InputStream, &brook::element_traits<float2>::type, 0},
    {"g", ParamKind::Gather, &brook::element_traits<T>::type, 2},
    {"b", ParamKind::OutputStream, &brook::element_traits<T>::type, 0},
}};
template <class T>
inline const brook_test::CpuOnlyKernel fetch_kernel{
    "fetch", fetch_params<T>, {.kernel = &fetch_cpu<T>}};
template <class T> void fetch(const brook::stream& p, const brook::stream& g, brook::stream& b) {
    const KernelArg args[] = {KernelArg::input(p), KernelArg::input(g),
                              KernelArg::output_stream(b)};
    brook::run_kernel(fetch_kernel<T>, args);
}

/// The fold and combine brcc generates for `reduce void name(T a<>, reduce T r<>) { Body }`.
template <class T, void (*Body)(T& r, const T& a)>
void fold(const Frame& frame, const Box& box, void* accumulator) {
    T& r = *static_cast<T*>(accumulator);
    bool first = true;
    brook::cpu::for_each_in_box(frame.args[0].stream, box, sizeof(T), [&](const std::byte* e) {
        T a;
        std::memcpy(&a, e, sizeof a);
        if (first) {
            r = a;
            first = false;
        } else {
            Body(r, a);
        }
    });
}
template <class T, void (*Body)(T& r, const T& a)>
void combine(const Frame&, void* accumulator, const void* value) {
    Body(*static_cast<T*>(accumulator), *static_cast<const T*>(value));
}
template <class T>
inline const std::array<ParamInfo, 2> reduce_params{{
    {"a", ParamKind::ReduceInput, &brook::element_traits<T>::type, 0},
    {"r", ParamKind::ReduceAccumulator, &brook::element_traits<T>::type, 0},
}};

template <class T> void add_body(T& r, const T& a) {
    r = r + a;
}
template <class T> void keep_body(T&, const T&) {}
template <class T> void increment_body(T& r, const T&) {
    r = r + T(1);
}
/// Not commutative: shows the order in which values arrive (r = r * 10 + a).
template <class T> void digits_body(T& r, const T& a) {
    r = r * T(10) + a;
}

/// The KernelInfo brcc emits for `reduce void name(T a<>, reduce T r<>) { Body }`.
template <class T, void (*Body)(T& r, const T& a)>
class ReduceKernel : public brook_test::CpuOnlyKernel {
public:
    explicit ReduceKernel(const char* name)
        : CpuOnlyKernel(name, reduce_params<T>,
                        {.fold = &fold<T, Body>, .combine = &combine<T, Body>}) {}
};

// reduce void sum(T a<>, reduce T r<>) { r = r + a; } and the operators of gather/scatter ops.
template <class T> inline const ReduceKernel<T, add_body<T>> sum_kernel{"sum"};
template <class T> inline const ReduceKernel<T, keep_body<T>> keep_kernel{"keep"};
template <class T> inline const ReduceKernel<T, increment_body<T>> increment_kernel{"increment"};
template <class T> inline const ReduceKernel<T, digits_body<T>> digits_kernel{"digits"};

template <class T> void sum(const brook::stream& a, brook::stream& target) {
    const KernelArg args[] = {KernelArg::input(a), KernelArg::output_stream(target)};
    brook::run_reduce(sum_kernel<T>, args);
}
template <class T> T sum_value(const brook::stream& a) {
    T result{};
    const KernelArg args[] = {KernelArg::input(a), KernelArg::reduce_target(result)};
    brook::run_reduce(sum_kernel<T>, args);
    return result;
}

/// The stream's elements, in row-major order.
template <class T> std::vector<T> contents(const brook::stream& s) {
    std::vector<T> values(s.size());
    streamWrite(s, values.data());
    return values;
}

/// 0, 1, 2, ... as floats.
inline std::vector<float> iota(std::size_t n) {
    std::vector<float> values(n);
    for (std::size_t i = 0; i < n; ++i) {
        values[i] = static_cast<float>(i);
    }
    return values;
}

} // namespace hand
