// Writes what connects a kernel to the runtime. The ParamInfo table tells run_kernel each
// argument's kind and element type so it can check a call before launching it; the stub keeps
// the call syntax of Brook host code (`saxpy(a, x, y, result);`) with BrookGPU's signature
// (COMPAT.md §2.2), which programs also declare by hand: constants as const references, streams
// of every kind but `vout` as handles by value (a copy shares the stream, and a view made in the
// call, `k(a.domain(lo, hi), b.domain(lo, hi))`, binds as an input or an output alike), a `vout`
// by reference, since the runtime replaces the caller's handle with the result. A reduction has
// two overloads, a host variable target first, then a stream target.

#include "codegen/kernel_stub_emitter.hpp"

#include "codegen/cpp_spelling.hpp"
#include "codegen/param_access.hpp"

namespace brcc {

namespace {

std::string params_name(const KernelDecl& kernel) {
    return cpp_identifier(kernel.name) + "__params";
}

std::string_view runtime_kind(ParamKind kind) {
    switch (kind) {
#define BROOK_PARAM_KIND(name, words, is_stream, reads, writes)                                    \
    case ParamKind::name:                                                                          \
        return #name;
#include "brook/param_kinds.def"
#undef BROOK_PARAM_KIND
    }
    return "";
}

std::string_view boolean(bool value) {
    return value ? "true" : "false";
}

/// `&::brook::element_traits<T>::type`; bool constants have no stream element type.
std::string element_type(const Type& type) {
    if (type.is_arithmetic() && type.scalar_type() == ScalarType::Bool)
        return "nullptr";
    return "&::brook::element_traits<" + cpp_storage_type_name(type) + ">::type";
}

enum class ReduceTarget { Stream, Value };

std::string stub_parameter(const ParamDecl& param, ReduceTarget target) {
    const std::string name = cpp_identifier(param.name);
    switch (param.param_kind) {
    // Constants and reduce variables have the stream element's layout (a fixed one is a byte).
    case ParamKind::Constant:
        return "const " + cpp_host_type_name(param.type) + "& " + name;
    case ParamKind::InputStream:
    case ParamKind::ReduceInput:
        if (param.is_iter)
            return "const ::brook::iter& " + name;
        [[fallthrough]];
    case ParamKind::Gather:
    case ParamKind::OutputStream:
        return "::brook::stream " + name;
    case ParamKind::VariableOutput:
        return "::brook::stream& " + name;
    case ParamKind::ReduceAccumulator:
        if (target == ReduceTarget::Value)
            return cpp_host_type_name(param.type) + "& " + name;
        return "::brook::stream " + name;
    }
    return "";
}

std::string stub_argument(const ParamDecl& param, ReduceTarget target) {
    const std::string name = cpp_identifier(param.name);
    switch (param.param_kind) {
    case ParamKind::Constant:
        return "::brook::KernelArg::constant_value(" + name + ")";
    case ParamKind::InputStream:
    case ParamKind::ReduceInput:
    case ParamKind::Gather:
        return "::brook::KernelArg::input(" + name + ")";
    case ParamKind::OutputStream:
    case ParamKind::VariableOutput:
        return "::brook::KernelArg::output_stream(" + name + ")";
    case ParamKind::ReduceAccumulator:
        if (target == ReduceTarget::Value)
            return "::brook::KernelArg::reduce_target(" + name + ")";
        return "::brook::KernelArg::output_stream(" + name + ")";
    }
    return "";
}

/// `void NAME(PARAMETERS)`, the stub's head.
std::string stub_signature(const KernelDecl& kernel, ReduceTarget target) {
    std::string parameters;
    for (const ParamDecl* param : kernel.params)
        parameters += (parameters.empty() ? "" : ", ") + stub_parameter(*param, target);
    return "void " + cpp_identifier(kernel.name) + "(" + parameters + ")";
}

std::string stub(const KernelDecl& kernel, ReduceTarget target) {
    std::string arguments;
    for (const ParamDecl* param : kernel.params)
        arguments += "        " + stub_argument(*param, target) + ",\n";
    std::string text = stub_signature(kernel, target) + " {\n";
    text += "    const ::brook::KernelArg brook_args[] = {\n" + arguments + "    };\n";
    text += std::string("    ::brook::") + (kernel.is_reduce ? "run_reduce(" : "run_kernel(") +
            kernel_info_name(kernel) + ", brook_args);\n";
    return text + "}\n";
}

/// The stub's overloads in declaration order: a reduction's host variable target first.
std::vector<ReduceTarget> stub_targets(const KernelDecl& kernel) {
    if (!kernel.is_reduce)
        return {ReduceTarget::Stream};
    return {ReduceTarget::Value, ReduceTarget::Stream};
}

} // namespace

std::string kernel_info_name(const KernelDecl& kernel) {
    return cpp_identifier(kernel.name) + "__info";
}

std::string kernel_info(const KernelDecl& kernel, const std::vector<BackendEntry>& backends) {
    const std::vector<ParamAccess> access = param_access(kernel);
    std::string text = "const ::brook::ParamInfo " + params_name(kernel) + "[] = {\n";
    for (const ParamDecl* param : kernel.params) {
        const ParamAccess& used = access[static_cast<std::size_t>(param->index)];
        text += "    {\"" + param->name +
                "\", ::brook::ParamKind::" + std::string(runtime_kind(param->param_kind)) + ", " +
                element_type(param->type) + ", " + std::to_string(param->gather_index_widths) +
                ", " + std::string(boolean(used.read)) + ", " + std::string(boolean(used.written)) +
                "},\n";
    }
    text += "};\n";
    std::string backend_list = "{}";
    if (!backends.empty()) {
        backend_list = cpp_identifier(kernel.name) + "__backends";
        text += "const ::brook::BackendCode " + backend_list + "[] = {\n";
        for (const BackendEntry& entry : backends)
            text += "    {\"" + entry.backend + "\", " + entry.payload + "},\n";
        text += "};\n";
    }
    return text + "const ::brook::KernelInfo " + kernel_info_name(kernel) + "{\"" + kernel.name +
           "\", " + params_name(kernel) + ", " + std::string(boolean(kernel.is_reduce)) + ", " +
           backend_list + ", " + std::string(boolean(kernel.discards)) + "};\n";
}

std::string kernel_stub(const KernelDecl& kernel) {
    std::string text;
    for (const ReduceTarget target : stub_targets(kernel))
        text += (text.empty() ? "" : "\n") + stub(kernel, target);
    return text;
}

std::string kernel_stub_declaration(const KernelDecl& kernel) {
    std::string text;
    for (const ReduceTarget target : stub_targets(kernel))
        text += stub_signature(kernel, target) + ";\n";
    return text;
}

} // namespace brcc
