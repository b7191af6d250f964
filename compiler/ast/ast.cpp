#include "ast/ast.hpp"

namespace brcc {

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
