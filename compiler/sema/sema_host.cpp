// Semantic analysis of the Brook constructs found in host code. Host expressions (extents,
// iterator bounds) stay C++ text for the C++ compiler to check; what sema checks is what only
// brcc knows: an iterator's element type and rank, and that the operator argument of
// streamGatherOp / streamScatterOp names a reduce function of this file, which it resolves for
// the code generator.

#include "sema/sema_impl.hpp"

namespace brcc {

void Sema::check_host_item(TopLevelItem& item) {
    if (const auto* iterator = std::get_if<HostIteratorDecl>(&item))
        check_iterator(*iterator);
    else if (auto* op = std::get_if<HostReduceOperator>(&item))
        resolve_reduce_operator(*op);
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

} // namespace brcc
