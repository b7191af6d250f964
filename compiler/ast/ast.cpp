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
        if (decl->name == name)
            return decl;
    return nullptr;
}

} // namespace brcc
