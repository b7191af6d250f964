// Writes what connects a kernel to the runtime. The ParamInfo table tells run_kernel each
// argument's kind and element type so it can check a call before launching it; the stub keeps
// the call syntax of Brook host code (`saxpy(a, x, y, result);`): constants by value (vectors and
// structs by const reference), input streams as const brook::stream references and output
// streams (`out`, `vout`, stream reduce targets) as handles by value, so that a view made in the
// call (`k(a.domain(lo, hi), b.domain(lo, hi))`) binds as an input or an output alike. A copy
// shares the stream, so the runtime's resizing of a `vout` reaches the caller's handle too (and a
// view given as a `vout` is a runtime error naming the argument, not a C++ compile error).

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
        if (param.type.is_scalar())
            return "const " + cpp_host_type_name(param.type) + " " + name;
        return "const " + cpp_host_type_name(param.type) + "& " + name;
    case ParamKind::InputStream:
    case ParamKind::ReduceInput:
    case ParamKind::Gather:
        return "const ::brook::stream& " + name;
    case ParamKind::OutputStream:
    case ParamKind::VariableOutput:
        return "::brook::stream " + name;
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

std::string stub(const KernelDecl& kernel, ReduceTarget target) {
    std::string parameters;
    std::string arguments;
    for (const ParamDecl* param : kernel.params) {
        parameters += (parameters.empty() ? "" : ", ") + stub_parameter(*param, target);
        arguments += "        " + stub_argument(*param, target) + ",\n";
    }
    std::string text = "void " + cpp_identifier(kernel.name) + "(" + parameters + ") {\n";
    text += "    const ::brook::KernelArg brook_args[] = {\n" + arguments + "    };\n";
    text += std::string("    ::brook::") + (kernel.is_reduce ? "run_reduce(" : "run_kernel(") +
            kernel_info_name(kernel) + ", brook_args);\n";
    return text + "}\n";
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
                element_type(param->type) + ", " + std::to_string(param->gather_index_widths) + ", " +
                std::string(boolean(used.read)) + ", " + std::string(boolean(used.written)) +
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
           backend_list + "};\n";
}

std::string kernel_stub(const KernelDecl& kernel) {
    if (!kernel.is_reduce)
        return stub(kernel, ReduceTarget::Stream);
    return stub(kernel, ReduceTarget::Stream) + "\n" + stub(kernel, ReduceTarget::Value);
}

} // namespace brcc
