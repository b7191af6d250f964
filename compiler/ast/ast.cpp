// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "ast/ast.hpp"

namespace brcc {

const ParamDecl* bound_parameter(const Expr& arg) {
    const Expr* value = &arg;
    while (value->kind == NodeKind::ImplicitConvert)
        value = static_cast<const ImplicitConvert*>(value)->operand;
    if (value->kind != NodeKind::NameRef)
        return nullptr;
    const ValueDecl* decl = static_cast<const NameRef*>(value)->decl;
    if (decl == nullptr || decl->decl_kind != ValueDecl::Kind::Param)
        return nullptr;
    return static_cast<const ParamDecl*>(decl);
}

const KernelDecl* TranslationUnit::find_kernel(std::string_view name) const {
    for (const KernelDecl* kernel : kernels)
        if (kernel->name == name)
            return kernel;
    return nullptr;
}

const StructDecl* TranslationUnit::find_struct(std::string_view name) const {
    for (const StructDecl* decl : structs)
        if (decl->name == name || (!decl->tag.empty() && decl->tag == name))
            return decl;
    return nullptr;
}

const Type* TranslationUnit::find_typedef(std::string_view name) const {
    for (const TypedefDecl& alias : typedefs)
        if (alias.name == name)
            return &alias.type;
    return nullptr;
}

} // namespace brcc
