// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Semantic analysis of member accesses, subscripts and brace initialisers: swizzles (.xyzw or
// .rgba, repeats allowed on reads), struct fields, gather subscripts (up to 4 scalars or one
// scalar or vector), vector components, and `{...}` lists that fill a vector or a struct.

#include "sema/sema_impl.hpp"

#include <algorithm>

namespace brcc {

namespace {

/// Streams have at most 4 dimensions, so a gather index has at most 4 components.
constexpr int max_index_components = 4;

/// Swizzle letters: index of `c` in "xyzw" or "rgba", or -1; `set` says which (0 xyzw, 1 rgba).
int swizzle_component(char c, int& set) {
    static constexpr std::string_view sets[] = {"xyzw", "rgba"};
    for (int s = 0; s < 2; ++s) {
        const auto pos = sets[s].find(c);
        if (pos != std::string_view::npos) {
            set = s;
            return static_cast<int>(pos);
        }
    }
    return -1;
}

std::string component_list(int width) {
    static constexpr std::string_view names[] = {".x", ".y", ".z", ".w"};
    if (width == 1)
        return ".x (or .r)";
    std::string result;
    for (int i = 0; i < width; ++i) {
        if (i > 0)
            result += i + 1 == width ? " and " : ", ";
        result += names[i];
    }
    return result + " (or .rgba)";
}

} // namespace

void Sema::visit(Member& expr) {
    const Type base = check(expr.base);
    expr.type = Type::error();
    if (base.is_error())
        return;
    if (base.is_struct()) {
        const auto& fields = base.struct_decl()->fields;
        for (std::size_t i = 0; i < fields.size(); ++i) {
            if (fields[i].name != expr.member)
                continue;
            expr.field_index = static_cast<int>(i);
            expr.type = fields[i].type;
            return;
        }
        diags_.report(DiagId::no_such_field, expr.member_range) << base.name() << expr.member;
        return;
    }
    if (!base.is_arithmetic()) {
        diags_.report(DiagId::member_of_non_aggregate, expr.member_range)
            << expr.member << base.name();
        return;
    }
    const auto report_bad = [&] {
        diags_.report(DiagId::bad_swizzle, expr.member_range)
            << expr.member << base.name() << component_list(base.width());
    };
    if (expr.member.empty() || expr.member.size() > 4) {
        report_bad();
        return;
    }
    int first_set = -1;
    for (std::size_t i = 0; i < expr.member.size(); ++i) {
        int set = 0;
        const int component = swizzle_component(expr.member[i], set);
        if (component < 0 || component >= base.width()) {
            report_bad();
            return;
        }
        if (first_set >= 0 && set != first_set) {
            diags_.report(DiagId::mixed_swizzle, expr.member_range) << expr.member;
            return;
        }
        first_set = set;
        expr.swizzle[i] = static_cast<std::uint8_t>(component);
    }
    expr.is_swizzle = true;
    expr.swizzle_length = static_cast<int>(expr.member.size());
    expr.type = base.with_width(expr.swizzle_length);
}

void Sema::visit(Subscript& expr) {
    check_subscript(expr, false);
}

Type Sema::check_subscript(Subscript& expr, bool assigned) {
    expr.type = Type::error();
    if (expr.base->kind == NodeKind::NameRef) {
        auto& ref = static_cast<NameRef&>(*expr.base);
        resolve_name(ref);
        if (ref.decl == nullptr) {
            for (Expr*& index : expr.indices)
                check(index);
            return expr.type;
        }
        if (ref.decl->decl_kind == ValueDecl::Kind::Local &&
            static_cast<const LocalDecl*>(ref.decl)->shared_extent != 0) {
            check_shared_subscript(expr, static_cast<const LocalDecl&>(*ref.decl));
            return expr.type;
        }
        if (ref.decl->decl_kind == ValueDecl::Kind::Param) {
            const auto& param = static_cast<const ParamDecl&>(*ref.decl);
            if (param.param_kind == ParamKind::Gather) {
                check_array_subscript(expr, param);
                return expr.type;
            }
            if (param.param_kind == ParamKind::ScatterOutput) {
                if (!assigned) {
                    for (Expr*& index : expr.indices)
                        check(index);
                    diags_.report(DiagId::scatter_read, expr.range) << param.name;
                    return expr.type;
                }
                check_array_subscript(expr, param);
                return expr.type;
            }
            // A stream of vectors reads a component like any vector; indexing a stream of
            // scalars or structs means the user wanted a gather.
            if (param.param_kind != ParamKind::Constant && !param.type.is_error() &&
                !param.type.is_vector()) {
                for (Expr*& index : expr.indices)
                    check(index);
                diags_.report(DiagId::stream_subscripted, expr.range)
                    << param_description(param, kernel_->is_reduce) << param.name
                    << param.type.name();
                return expr.type;
            }
        }
    } else {
        check(expr.base);
    }
    bool ok = true;
    for (Expr*& index : expr.indices)
        ok = !check(index).is_error() && ok;
    const Type base = expr.base->type;
    if (base.is_error() || !ok)
        return expr.type;
    if (!base.is_vector()) {
        diags_.report(DiagId::not_subscriptable, expr.base->range) << base.name();
        return expr.type;
    }
    if (expr.indices.size() != 1) {
        diags_.report(DiagId::vector_subscript_count, expr.range) << expr.indices.size();
        return expr.type;
    }
    const Type index = expr.indices[0]->type;
    if (!index.is_scalar() || !is_integer(index.scalar_type())) {
        diags_.report(DiagId::vector_subscript_type, expr.indices[0]->range) << index.name();
        return expr.type;
    }
    expr.type = base.with_width(1);
    return expr.type;
}

void Sema::check_shared_subscript(Subscript& expr, const LocalDecl& array) {
    expr.shared = &array;
    bool ok = true;
    for (Expr*& index : expr.indices)
        ok = !check(index).is_error() && ok;
    if (!ok)
        return;
    if (expr.indices.size() != 1) {
        diags_.report(DiagId::vector_subscript_count, expr.range) << expr.indices.size();
        return;
    }
    const Type index = expr.indices[0]->type;
    if (!index.is_scalar() || !index.is_arithmetic() ||
        (index.scalar_type() != ScalarType::Float && !is_integer(index.scalar_type()))) {
        diags_.report(DiagId::shared_index_type, expr.indices[0]->range) << index.name();
        return;
    }
    expr.type = array.type;
}

void Sema::check_array_subscript(Subscript& expr, const ParamDecl& array) {
    // A scatter output indexes as a gather does, dropping a write outside the stream.
    if (array.param_kind == ParamKind::ScatterOutput)
        expr.scatter = &array;
    else
        expr.gather = &array;
    bool ok = true;
    for (Expr*& index : expr.indices)
        ok = !check(index).is_error() && ok;
    if (!ok)
        return;
    // The rank of the stream bound at run time counts, not the brackets (COMPAT.md §1.9): an
    // index has K components, one per subscript (`g[a][b]` is `g[float2(b, a)]`) or those of a
    // single vector, and the runtime checks K against the stream's rank.
    const auto count = static_cast<int>(expr.indices.size());
    if (count > max_index_components) {
        diags_.report(DiagId::gather_too_many_subscripts, expr.range) << array.name;
        return;
    }
    int width = count;
    bool float_index = false;
    for (Expr* index : expr.indices) {
        const Type type = index->type;
        const bool numeric = type.is_arithmetic() && (type.scalar_type() == ScalarType::Float ||
                                                      is_integer(type.scalar_type()));
        if (numeric && (type.width() == 1 || count == 1)) {
            width = std::max(width, type.width());
            float_index = float_index || type.scalar_type() == ScalarType::Float;
            continue;
        }
        const std::string wanted = count == 1 ? "a float or int scalar or vector"
                                              : "an int or a float scalar in each subscript";
        diags_.report(DiagId::gather_index_type, index->range) << type.name() << wanted;
        return;
    }
    for (ParamDecl* param : kernel_->params) {
        if (param == &array) {
            param->gather_index_widths |= 1u << width;
            param->gather_float_indices = param->gather_float_indices || float_index;
        }
    }
    expr.type = array.type;
    if (expr.gather != nullptr)
        warn_gather_index_outside(expr, array);
}

// ---------------------------------------------------------------------------------------------
// Brace initialisers

void Sema::visit(InitList& expr) {
    // Only a local's initialiser (check_init_list) or a struct field's part of one may be a brace
    // list; the parser builds no other, so this is a list nested in a vector's initialiser.
    diags_.report(DiagId::init_list_outside_initializer, expr.range);
    expr.type = Type::error();
}

void Sema::check_init_list(InitList& list, Type target) {
    list.type = Type::error();
    if (target.is_error())
        return;
    if (target.is_struct()) {
        const auto& fields = target.struct_decl()->fields;
        if (list.elements.size() != fields.size()) {
            diags_.report(DiagId::init_list_count, list.range)
                << target.name() << count_noun(fields.size(), "value")
                << count_noun(list.elements.size(), "value");
            return;
        }
        for (std::size_t i = 0; i < fields.size(); ++i)
            check_initializer(list.elements[i], fields[i].type);
        list.type = target;
        return;
    }
    if (!target.is_vector()) {
        diags_.report(DiagId::init_list_scalar_target, list.range) << target.name();
        return;
    }
    // Like a constructor: the elements' components fill the vector in order.
    int components = 0;
    bool ok = true;
    for (Expr*& element : list.elements) {
        const Type type = check(element);
        if (type.is_error()) {
            ok = false;
        } else if (!type.is_arithmetic()) {
            diags_.report(DiagId::constructor_argument, element->range)
                << target.name() << type.name();
            ok = false;
        } else {
            components += type.width();
        }
    }
    if (!ok)
        return;
    if (components != target.width()) {
        diags_.report(DiagId::init_list_count, list.range)
            << target.name() << count_noun(static_cast<std::size_t>(target.width()), "component")
            << count_noun(static_cast<std::size_t>(components), "component");
        return;
    }
    for (Expr*& element : list.elements)
        convert_scalar(element, target.scalar_type());
    list.type = target;
}

} // namespace brcc
