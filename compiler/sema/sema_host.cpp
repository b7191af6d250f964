// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Semantic analysis of the Brook constructs found in host code. Host expressions (extents,
// iterator bounds) stay C++ text for the C++ compiler to check; what sema checks is what only
// brcc knows: an iterator's element type and rank, and that the operator argument of
// streamGatherOp / streamScatterOp names a reduce function of this file, which it resolves for
// the code generator, as it resolves the kernel of `k.domainSize(...)`.

#include "sema/sema_impl.hpp"

namespace brcc {

void Sema::check_host_item(TopLevelItem& item) {
    if (const auto* iterator = std::get_if<HostIteratorDecl>(&item))
        check_iterator(*iterator);
    else if (auto* op = std::get_if<HostReduceOperator>(&item))
        resolve_reduce_operator(*op);
    else if (auto* domain = std::get_if<HostKernelDomain>(&item))
        domain->decl = unit_.find_kernel(domain->kernel);
    else if (const auto* prototype = std::get_if<KernelPrototype>(&item))
        check_prototype(*prototype);
}

void Sema::check_iterator(const HostIteratorDecl& decl) {
    const Type type = decl.element_type;
    const StreamDeclarator& declarator = decl.declarator;
    if (type.is_error())
        return;
    if (!type.is_arithmetic() || type.scalar_type() != ScalarType::Float) {
        diags_.report(DiagId::iterator_element_type, declarator.name_range)
            << declarator.name << type.name();
        return;
    }
    // The two bounds of a 2-D iterator are its corners: `.x` varies along the last dimension and
    // `.y` along the first, so only float2 can describe them.
    const std::size_t rank = declarator.extents.size();
    if (rank == 1 || (rank == 2 && type.width() == 2))
        return;
    diags_.report(DiagId::iterator_rank, declarator.range)
        << declarator.name << type.name() << count_noun(rank, "dimension");
}

void Sema::resolve_reduce_operator(HostReduceOperator& op) {
    const KernelDecl* kernel = unit_.find_kernel(op.name);
    if (kernel == nullptr) {
        diags_.report(DiagId::reduce_operator_unknown, op.range) << op.name;
        return;
    }
    if (!kernel->is_reduce) {
        diags_.report(DiagId::reduce_operator_not_reduce, op.range) << op.name;
        return;
    }
    op.reduce = kernel;
}

namespace {

/// A parameter as written, qualifiers and brackets included: `out float r<>`, `float g[][]`.
std::string spelled(const ParamDecl& param) {
    std::string qualifier;
    std::string brackets = "<>";
    switch (param.param_kind) {
    case ParamKind::Constant:
        brackets.clear();
        break;
    case ParamKind::InputStream:
    case ParamKind::ReduceInput:
        if (param.is_iter)
            qualifier = "iter ";
        break;
    case ParamKind::OutputStream:
        qualifier = "out ";
        break;
    case ParamKind::VariableOutput:
        qualifier = "vout ";
        break;
    case ParamKind::ReduceAccumulator:
        qualifier = "reduce ";
        break;
    case ParamKind::ScatterOutput:
        qualifier = "out ";
        [[fallthrough]];
    case ParamKind::Gather:
        brackets.clear();
        for (int i = 0; i < param.gather_rank; ++i)
            brackets += "[]";
        break;
    }
    return qualifier + param.type.name() + " " + param.name + brackets;
}

/// How a prototype differs from its definition, in words; empty when they agree. Parameter
/// names may differ, as in C.
std::string prototype_difference(const KernelDecl& prototype, const KernelDecl& definition) {
    if (prototype.is_reduce != definition.is_reduce)
        return definition.is_reduce ? "the definition is a reduce function"
                                    : "the definition is not a reduce function";
    if (prototype.return_type != definition.return_type)
        return "it returns '" + prototype.return_type.name() + "', the definition '" +
               definition.return_type.name() + "'";
    if (prototype.params.size() != definition.params.size())
        return "it has " + count_noun(prototype.params.size(), "parameter") + ", the definition " +
               std::to_string(definition.params.size());
    for (std::size_t i = 0; i < prototype.params.size(); ++i) {
        const ParamDecl& declared = *prototype.params[i];
        const ParamDecl& defined = *definition.params[i];
        if (declared.param_kind != defined.param_kind || declared.type != defined.type ||
            declared.gather_rank != defined.gather_rank || declared.is_iter != defined.is_iter)
            return "parameter " + std::to_string(i + 1) + " is '" + spelled(declared) +
                   "', in the definition '" + spelled(defined) + "'";
    }
    return {};
}

} // namespace

void Sema::check_prototype(const KernelPrototype& prototype) {
    KernelDecl& declared = *prototype.decl;
    if (declared.is_helper()) {
        diags_.report(DiagId::prototype_of_helper, declared.name_range) << declared.name;
        return;
    }
    check_signature(declared);
    const KernelDecl* definition = unit_.find_kernel(declared.name);
    if (definition == nullptr)
        return;
    const std::string difference = prototype_difference(declared, *definition);
    if (difference.empty())
        return;
    diags_.report(DiagId::prototype_mismatch, declared.name_range) << declared.name << difference;
    diags_.report(DiagId::previous_declaration, definition->name_range) << definition->name;
}

} // namespace brcc
