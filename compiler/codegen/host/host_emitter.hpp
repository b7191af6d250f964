// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// The host side of the translation: host text copied through (with `#line` so the C++ compiler
// reports host errors at their .br position) and the rewrites of the Brook constructs found in
// host code.

#include "ast/ast.hpp"
#include "codegen/code_writer.hpp"

#include <string>
#include <vector>

namespace brcc {

/// Host C/C++ text, unchanged.
void emit_host_text(const HostText& text, const SourceManager& sources, CodeWriter& out);
/// `float4 x<100>, y<n, m>` -> `::brook::stream x = ::brook::make_stream<float4>(100), y = ...`;
/// a host function's `float s<>` parameter -> `::brook::stream s`, `float (*p)<>` ->
/// `::brook::stream* p`. With `records_errors`, streams are made by make_recording_stream.
void emit_host_stream_decl(const HostStreamDecl& decl, bool records_errors,
                           const SourceManager& sources, CodeWriter& out);
/// `iter float2 s<H, W> = iter(a, b)` ->
/// `::brook::stream s = ::brook::make_iterator<float2>(a, b, H, W)`.
void emit_host_iterator_decl(const HostIteratorDecl& decl, const SourceManager& sources,
                             CodeWriter& out);
/// The reduce function named as streamGatherOp/streamScatterOp's operator -> its KernelInfo,
/// `NAME__info`, which the runtime's operator overloads take.
void emit_host_reduce_operator(const HostReduceOperator& op, const SourceManager& sources,
                               CodeWriter& out);
/// `k.domainSize(` -> `::brook::set_call_domain_size("k", ` for a kernel `k`; else as written.
void emit_host_kernel_domain(const HostKernelDomain& domain, const SourceManager& sources,
                             CodeWriter& out);
/// `0718` -> `57`, a kernel `k` as a value -> `k__value` (HostRewrite).
void emit_host_rewrite(const HostRewrite& rewrite, const SourceManager& sources, CodeWriter& out);
/// `#include "x.brh"` -> `#include "x.hpp"`; an included file's text in `cpp` output ->
/// `#include "file"`.
void emit_host_include(const HostInclude& include, const SourceManager& sources, CodeWriter& out);
/// `void main(` -> `int main(` (C++ requires it).
void emit_void_main(const HostVoidMain& main, const SourceManager& sources, CodeWriter& out);
/// The typedef as written, then the brook::element_traits specialisation that lets streams of
/// it be created and checked (its fields flattened, with their offsets).
void emit_struct(const StructDecl& decl, const SourceManager& sources, CodeWriter& out);
/// Only the element_traits specialisation, for a struct typedef of an included header.
void emit_element_traits(const StructDecl& decl, CodeWriter& out);
/// The member designators of a struct's leaf fields (`position`, `inner.o`), in the order of
/// the fields of its ElementType.
std::vector<std::string> leaf_field_names(const StructDecl& decl);

} // namespace brcc
