// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Host code is C or C++ that brcc does not parse: it is copied by source range, and only the
// constructs the parser found in it are rewritten. Stream declarations become brook::stream
// handles made by brook::make_stream (extents stay the user's expressions, so they are evaluated
// where they were declared), iterator declarations become streams made by brook::make_iterator,
// an include of a Brook header includes the C++ header brcc makes from it,
// the reduce function given to streamGatherOp/streamScatterOp becomes its KernelInfo, and each
// struct typedef is followed by its element_traits.

#include "codegen/host/host_emitter.hpp"

#include "codegen/cpp_spelling.hpp"
#include "codegen/kernel_stub_emitter.hpp"
#include "lex/lexer.hpp"
#include "support/diagnostics.hpp"

namespace brcc {

namespace {

unsigned line_of(const SourceManager& sources, SourceLocation loc) {
    return sources.line_column(loc).line;
}

void copy_source(SourceRange range, const SourceManager& sources, CodeWriter& out) {
    out.source(sources.text(range), line_of(sources, range.begin));
}

/// The runtime's brook::ScalarKind of a field of `type`, which holds the C++ type's bytes: the
/// backends convert each field by it (a byte field is one byte, not a float).
std::string_view scalar_kind_name(const Type& type) {
    switch (type.scalar_type()) {
    case ScalarType::Float:
        return "Float32";
    case ScalarType::Int:
    case ScalarType::Bool: // no stream element (sema)
        return "Int32";
    case ScalarType::UInt:
        return "UInt32";
    case ScalarType::Char:
        return "Int8";
    case ScalarType::UChar:
        return "UInt8";
    case ScalarType::Short:
        return "Int16";
    case ScalarType::UShort:
        return "UInt16";
    case ScalarType::Double:
        return "Float64";
    case ScalarType::Fixed:
        return "Fixed8";
    case ScalarType::ShortFixed:
        return "Fixed16";
    }
    return "Float32";
}

/// A leaf field of a struct: its type and its member designator from the outermost struct
/// (`inner.o`).
struct LeafField {
    const Type* type;
    std::string path;
};

/// The leaf fields of `decl`, nested structs flattened, in declaration order: the order of the
/// fields of its ElementType.
void flatten_fields(const StructDecl& decl, const std::string& prefix,
                    std::vector<LeafField>& leaves) {
    for (const FieldDecl& field : decl.fields) {
        const std::string path = prefix + cpp_identifier(field.name);
        if (field.type.is_struct())
            flatten_fields(*field.type.struct_decl(), path + ".", leaves);
        else
            leaves.push_back({&field.type, path});
    }
}

std::vector<LeafField> leaf_fields(const StructDecl& decl) {
    std::vector<LeafField> leaves;
    flatten_fields(decl, "", leaves);
    return leaves;
}

} // namespace

void emit_host_text(const HostText& text, const SourceManager& sources, CodeWriter& out) {
    copy_source(text.range, sources, out);
}

void emit_host_stream_decl(const HostStreamDecl& decl, bool records_errors,
                           const SourceManager& sources, CodeWriter& out) {
    const unsigned line = line_of(sources, decl.range.begin);
    if (decl.is_parameter) {
        // A handle copy, as BrookGPU passed its stream objects: the function shares the caller's
        // stream, but swapping or reassigning the parameter leaves the caller's handle alone;
        // through a pointer (`float (*p)<>`) it does not.
        std::string text = "::brook::stream";
        for (const StreamDeclarator& declarator : decl.declarators)
            text += std::string(declarator.pointer_depth, '*') + " " +
                    std::string(sources.text(declarator.name_range));
        out.source(text, line);
        return;
    }
    // The element type as the user spelled it: host code resolves it in its own scope (C++
    // has no `unsigned int4`: Brook+'s two-word vector names become the type's C++ name).
    // Each run of stream declarators is one declaration of brook::stream handles, each run of
    // ordinary ones (`float a<8>, total;`) one of the element type, in the order written.
    const std::string element = decl.type_spelled_in_cpp
                                    ? std::string(sources.text(decl.type_range))
                                    : cpp_host_type_name(decl.element_type);
    std::string text;
    for (std::size_t k = 0; k < decl.declarators.size(); ++k) {
        const StreamDeclarator& declarator = decl.declarators[k];
        const bool starts_run = k == 0 || decl.declarators[k - 1].plain != declarator.plain;
        if (starts_run)
            text += (k == 0 ? "" : "; ") + (declarator.plain ? element : "::brook::stream") + " ";
        else
            text += ", ";
        if (declarator.plain) {
            text += with_decimal_literals(sources.text(declarator.range));
            continue;
        }
        text +=
            declarator.name +
            (records_errors ? " = ::brook::make_recording_stream<" : " = ::brook::make_stream<") +
            element + ">(";
        for (std::size_t i = 0; i < declarator.extents.size(); ++i)
            text +=
                (i == 0 ? "" : ", ") + with_decimal_literals(sources.text(declarator.extents[i]));
        text += ")";
    }
    out.source(text, line);
}

void emit_host_iterator_decl(const HostIteratorDecl& decl, const SourceManager& sources,
                             CodeWriter& out) {
    // make_iterator's template argument fixes the type the bounds are converted to, so
    // `iter(0, 10)` on a float iterator means 0.0f to 10.0f, as in C.
    std::string text = "::brook::stream " + decl.declarator.name + " = ::brook::make_iterator<" +
                       cpp_type_name(decl.element_type) + ">(" +
                       with_decimal_literals(sources.text(decl.begin_value)) + ", " +
                       with_decimal_literals(sources.text(decl.end_value));
    for (const SourceRange extent : decl.declarator.extents)
        text += ", " + with_decimal_literals(sources.text(extent));
    out.source(text + ")", line_of(sources, decl.range.begin));
}

void emit_host_reduce_operator(const HostReduceOperator& op, const SourceManager& sources,
                               CodeWriter& out) {
    BRCC_ASSERT(op.reduce != nullptr, "unresolved reduce operator '" + op.name + "'");
    out.source(kernel_info_name(*op.reduce), line_of(sources, op.range.begin));
}

void emit_host_kernel_domain(const HostKernelDomain& domain, const SourceManager& sources,
                             CodeWriter& out) {
    if (domain.decl == nullptr) {
        copy_source(domain.range, sources, out);
        return;
    }
    out.source(std::string("::brook::set_call_domain_") + (domain.size ? "size" : "offset") +
                   "(\"" + domain.decl->name + "\", ",
               line_of(sources, domain.range.begin));
}

void emit_host_rewrite(const HostRewrite& rewrite, const SourceManager& sources, CodeWriter& out) {
    out.source(rewrite.text, line_of(sources, rewrite.range.begin));
}

void emit_host_include(const HostInclude& include, const SourceManager& sources, CodeWriter& out) {
    out.source("#include \"" + include.header + "\"", line_of(sources, include.range.begin));
}

void emit_void_main(const HostVoidMain& main, const SourceManager& sources, CodeWriter& out) {
    out.source("int", line_of(sources, main.void_range.begin));
}

void emit_struct(const StructDecl& decl, const SourceManager& sources, CodeWriter& out) {
    copy_source(decl.range, sources, out);
    emit_element_traits(decl, out);
}

std::vector<std::string> leaf_field_names(const StructDecl& decl) {
    std::vector<std::string> names;
    for (const LeafField& leaf : leaf_fields(decl))
        names.push_back(leaf.path);
    return names;
}

void emit_element_traits(const StructDecl& decl, CodeWriter& out) {
    const std::string name = "::" + cpp_identifier(decl.name);
    // A header's struct gets its traits wherever the header is read: in the file that includes
    // it and in each Brook header (.brh) that includes it too. The guard keeps the first.
    const std::string guard = "BROOK_ELEMENT_TRAITS_" + cpp_identifier(decl.name);
    std::string text = "\n#ifndef " + guard + "\n#define " + guard + "\n";
    text += "namespace brook {\ntemplate <> struct element_traits<" + name + "> {\n";
    text += "    static const ElementType& type() {\n";
    text += "        static const ElementType t{\"" + decl.name + "\", sizeof(" + name + "), {\n";
    for (const LeafField& leaf : leaf_fields(decl))
        text += "            {ScalarKind::" + std::string(scalar_kind_name(*leaf.type)) + ", " +
                std::to_string(leaf.type->width()) + ", offsetof(" + name + ", " + leaf.path +
                ")},\n";
    text += "        }};\n";
    text += "        return t;\n";
    text += "    }\n";
    text += "};\n";
    text += "} // namespace brook\n#endif\n";
    out.generated(text);
}

} // namespace brcc
