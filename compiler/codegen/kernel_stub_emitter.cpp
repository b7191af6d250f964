// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Writes what connects a kernel to the runtime. The ParamInfo table tells run_kernel each
// argument's kind and element type so it can check a call before launching it; the stub keeps
// the call syntax of Brook host code (`saxpy(a, x, y, result);`) with BrookGPU's signature
// (COMPAT.md §2.2), which programs also declare by hand: constants as const references, streams
// of every kind but `vout` as handles by value (a copy shares the stream, and a view made in the
// call, `k(a.domain(lo, hi), b.domain(lo, hi))`, binds as an input or an output alike), a `vout`
// by reference, since the runtime replaces the caller's handle with the result. A reduction has
// two overloads, a host variable target first, then a stream target.
//
// Each stub comes twice, both forwarding to NAME__launch, which builds the call. Host code sees
// a template taking the call's std::source_location as a defaulted last argument, so a runtime
// error names the .br line of the call (brook/errors.hpp); the generated file ends with the
// non-template stub of BrookGPU's exact signature, which hand-written declarations and C++
// files reach. It comes last because a visible non-template would win over the template.

#include "codegen/kernel_stub_emitter.hpp"

#include "codegen/cpp_spelling.hpp"
#include "codegen/gather_rows.hpp"
#include "codegen/host/host_emitter.hpp"
#include "codegen/param_access.hpp"

#include <algorithm>
#include <string_view>

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

/// A stream handle taken by value: a copy shares the stream.
constexpr std::string_view handle_type = "::brook::stream";

/// The stub's type for `param`: `const T&`, `::brook::stream`, `::brook::stream&`, ...
std::string stub_parameter_type(const ParamDecl& param, ReduceTarget target) {
    switch (param.param_kind) {
    // Constants and reduce variables have the stream element's layout (a fixed one is a byte).
    case ParamKind::Constant:
        return "const " + cpp_host_type_name(param.type) + "&";
    case ParamKind::InputStream:
    case ParamKind::ReduceInput:
        if (param.is_iter)
            return "const ::brook::iter&";
        [[fallthrough]];
    case ParamKind::Gather:
    case ParamKind::OutputStream:
    case ParamKind::ScatterOutput:
        return std::string(handle_type);
    case ParamKind::VariableOutput:
        return "::brook::stream&";
    case ParamKind::ReduceAccumulator:
        if (target == ReduceTarget::Value)
            return cpp_host_type_name(param.type) + "&";
        return std::string(handle_type);
    }
    return "";
}

std::string stub_parameter(const ParamDecl& param, ReduceTarget target) {
    return stub_parameter_type(param, target) + " " + cpp_identifier(param.name);
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
    case ParamKind::ScatterOutput:
        return "::brook::KernelArg::output_stream(" + name + ")";
    case ParamKind::ReduceAccumulator:
        if (target == ReduceTarget::Value)
            return "::brook::KernelArg::reduce_target(" + name + ")";
        return "::brook::KernelArg::output_stream(" + name + ")";
    }
    return "";
}

/// The stub's parameters, as BrookGPU declared them.
std::string stub_parameters(const KernelDecl& kernel, ReduceTarget target) {
    std::string parameters;
    for (const ParamDecl* param : kernel.params)
        parameters += (parameters.empty() ? "" : ", ") + stub_parameter(*param, target);
    return parameters;
}

/// `::brook::GatherArgument<T, N, M>` for a gather with every extent written (`float w[2][3]`,
/// Brook+'s constant buffer), which also takes a host array of that shape; "" for the others.
std::string constant_buffer_type(const ParamDecl& param) {
    if (param.param_kind != ParamKind::Gather || param.gather_extents.empty() ||
        std::ranges::find(param.gather_extents, 0ULL) != param.gather_extents.end())
        return "";
    std::string type = "::brook::GatherArgument<" + cpp_host_type_name(param.type);
    for (const unsigned long long extent : param.gather_extents)
        type += ", " + std::to_string(extent);
    return type + ">";
}

/// The parameters of the stubs host code calls: BrookGPU's, but a constant buffer's type.
std::string located_parameters(const KernelDecl& kernel, ReduceTarget target) {
    std::string parameters;
    for (const ParamDecl* param : kernel.params) {
        const std::string buffer = constant_buffer_type(*param);
        parameters += (parameters.empty() ? "" : ", ") +
                      (buffer.empty() ? stub_parameter(*param, target)
                                      : buffer + " " + cpp_identifier(param->name));
    }
    return parameters;
}

/// The stub's parameters passed on to NAME__launch: handles by value move on; a constant
/// buffer's argument (`located`: the located stub's parameters) gives its handle.
std::string forwarded_arguments(const KernelDecl& kernel, ReduceTarget target, bool located) {
    std::string arguments;
    for (const ParamDecl* param : kernel.params) {
        const std::string name = cpp_identifier(param->name);
        const bool by_value = stub_parameter_type(*param, target) == handle_type;
        if (located && !constant_buffer_type(*param).empty())
            arguments += name + ".handle(), ";
        else
            arguments += (by_value ? "::std::move(" + name + ")" : name) + ", ";
    }
    return arguments;
}

std::string launch_name(const KernelDecl& kernel) {
    return cpp_identifier(kernel.name) + "__launch";
}

/// `void NAME__launch(PARAMETERS, location)`: the call itself, which the stubs forward to.
std::string launch_signature(const KernelDecl& kernel, ReduceTarget target) {
    return "void " + launch_name(kernel) + "(" + stub_parameters(kernel, target) +
           (kernel.params.empty() ? "" : ", ") + "const ::std::source_location& brook_call_site)";
}

std::string launch_definition(const KernelDecl& kernel, ReduceTarget target) {
    std::string arguments;
    for (const ParamDecl* param : kernel.params)
        arguments += "        " + stub_argument(*param, target) + ",\n";
    std::string text = launch_signature(kernel, target) + " {\n";
    text += "    const ::brook::KernelArg brook_args[] = {\n" + arguments + "    };\n";
    text += std::string("    ::brook::") + (kernel.is_reduce ? "run_reduce(" : "run_kernel(") +
            kernel_info_name(kernel) + ", brook_args, brook_call_site);\n";
    return text + "}\n";
}

/// The stub that host code in .br files calls: a template, so that a hand-written declaration
/// of the BrookGPU signature, a non-template, wins where it is seen. Its last parameter takes
/// the call's location, which the `#line` directives make a .br file and line.
std::string located_stub(const KernelDecl& kernel, ReduceTarget target) {
    const std::string parameters = located_parameters(kernel, target);
    return "template <class BrookCallSite = ::std::source_location>\nvoid " +
           cpp_identifier(kernel.name) + "(" + parameters + (parameters.empty() ? "" : ", ") +
           "BrookCallSite brook_call_site = BrookCallSite::current()) {\n    " +
           launch_name(kernel) + "(" + forwarded_arguments(kernel, target, true) +
           "brook_call_site);\n}\n";
}

/// A stub with BrookGPU's exact signature named `name` (`specifiers` before it), without a
/// call site.
std::string plain_stub(const KernelDecl& kernel, ReduceTarget target, std::string_view specifiers,
                       std::string_view name) {
    return std::string(specifiers) + "void " + std::string(name) + "(" +
           stub_parameters(kernel, target) + ") {\n    " + launch_name(kernel) + "(" +
           forwarded_arguments(kernel, target, false) + "::std::source_location());\n}\n";
}

/// The stub with BrookGPU's exact signature, for hand-written declarations and C++ files.
std::string compat_stub(const KernelDecl& kernel, ReduceTarget target) {
    return plain_stub(kernel, target, "", cpp_identifier(kernel.name));
}

/// The kernel as a value, `k__value`, which brcc writes where host code names a kernel without
/// calling it (HostRewrite): not overloaded, so `c ? k : l`, `&k` and `{k, l}` have a type. A
/// reduction's is the form with a host variable as its target.
std::string value_stub(const KernelDecl& kernel, ReduceTarget target) {
    return plain_stub(kernel, target, "inline ", cpp_identifier(kernel.name) + "__value");
}

/// The stub's overloads in declaration order: a reduction's host variable target first.
std::vector<ReduceTarget> stub_targets(const KernelDecl& kernel) {
    if (!kernel.is_reduce)
        return {ReduceTarget::Stream};
    return {ReduceTarget::Value, ReduceTarget::Stream};
}

/// A kernel object's parameter for `param`: streams as brook::StreamArgument of the element
/// type, which a Brook+ Stream<T> of those elements or a runtime handle converts to; the rest
/// as the stub takes them.
bool takes_stream_argument(const ParamDecl& param, ReduceTarget target) {
    return stub_parameter_type(param, target) == handle_type ||
           param.param_kind == ParamKind::VariableOutput;
}

std::string object_parameter(const ParamDecl& param, ReduceTarget target) {
    if (const std::string buffer = constant_buffer_type(param); !buffer.empty())
        return buffer + " " + cpp_identifier(param.name);
    return (takes_stream_argument(param, target)
                ? "::brook::StreamArgument<" + cpp_host_type_name(param.type) + ">"
                : stub_parameter_type(param, target)) +
           " " + cpp_identifier(param.name);
}

/// The object's call operator for one stub target: it records the call's errors (Brook+'s
/// model) and runs it through NAME__launch.
std::string object_call(const KernelDecl& kernel, ReduceTarget target) {
    std::string parameters;
    std::string arguments;
    for (const ParamDecl* param : kernel.params) {
        parameters += object_parameter(*param, target) + ", ";
        const std::string name = cpp_identifier(param->name);
        arguments += (takes_stream_argument(*param, target) ? name + ".handle()" : name) + ", ";
    }
    return "    template <class BrookCallSite = ::std::source_location>\n    void operator()(" +
           parameters + "BrookCallSite brook_call_site = BrookCallSite::current()) const {\n" +
           "        const ::brook::detail::RecordingCallErrors brook_recording;\n        " +
           launch_name(kernel) + "(" + arguments + "brook_call_site);\n    }\n";
}

/// Brook+'s `k.domainOffset(o)` and `k.domainSize(s)`: the execution domain of the next call
/// of `k` on this thread (BROOKPLUS.md §3.2).
std::string object_domain_setters(const KernelDecl& kernel) {
    std::string text;
    for (const std::string_view setting : {"Offset", "Size"}) {
        std::string lower(setting);
        lower[0] = static_cast<char>(lower[0] - 'A' + 'a');
        text += "    void domain" + std::string(setting) + "(const ::brook::vec<unsigned, 4>& " +
                lower + ") const {\n        ::brook::set_call_domain_" + lower + "(\"" +
                kernel.name + "\", " + lower + ");\n    }\n";
    }
    return text;
}

} // namespace

std::string kernel_object(const KernelDecl& kernel) {
    const std::string guard = "BRCC_OBJECT_" + cpp_identifier(kernel.name);
    const std::string type = cpp_identifier(kernel.name) + "__object";
    std::string text = "#ifndef " + guard + "\n#define " + guard + "\n";
    for (const ReduceTarget target : stub_targets(kernel))
        text += launch_signature(kernel, target) + ";\n";
    text += "struct " + type + " {\n";
    for (const ReduceTarget target : stub_targets(kernel))
        text += object_call(kernel, target);
    text += object_domain_setters(kernel);
    return text + "};\ninline constexpr " + type + " " + cpp_identifier(kernel.name) +
           "{};\n#endif\n";
}

std::string kernel_info_name(const KernelDecl& kernel) {
    return cpp_identifier(kernel.name) + "__info";
}

std::string kernel_table(const std::vector<const KernelDecl*>& kernels,
                         const std::vector<const StructDecl*>& structs) {
    std::string text = "extern \"C\" const ::brook::KernelInfo* const brook_kernel_table[] = {\n";
    for (const KernelDecl* kernel : kernels)
        text += "    &" + kernel_info_name(*kernel) + ",\n";
    text += "    nullptr,\n};\nextern \"C\" const char* const brook_struct_fields[] = {\n";
    for (const StructDecl* decl : structs) {
        text += "    \"" + decl->name + "\",";
        for (const std::string& field : leaf_field_names(*decl))
            text += " \"" + field + "\",";
        text += " nullptr,\n";
    }
    return text + "    nullptr,\n};\n";
}

std::string kernel_info(const KernelDecl& kernel, const std::vector<BackendEntry>& backends) {
    const std::vector<ParamAccess> access = param_access(kernel);
    const std::vector<GatherRows> rows = gather_rows(kernel);
    std::string text = "const ::brook::ParamInfo " + params_name(kernel) + "[] = {\n";
    for (const ParamDecl* param : kernel.params) {
        const ParamAccess& used = access[static_cast<std::size_t>(param->index)];
        const GatherRows& reach = rows[static_cast<std::size_t>(param->index)];
        text += "    {\"" + param->name +
                "\", ::brook::ParamKind::" + std::string(runtime_kind(param->param_kind)) + ", " +
                element_type(param->type) + ", " + std::to_string(param->gather_index_widths) +
                ", " + std::string(boolean(used.read)) + ", " + std::string(boolean(used.written));
        // A gather whose rows are bounded says so; the others keep the defaults (any row).
        if (reach.from >= 0)
            text += ", " + std::to_string(reach.from) + ", " + std::to_string(reach.stream) + ", " +
                    std::to_string(reach.reach_low) + ", " + std::to_string(reach.reach_high) +
                    (reach.argument >= 0 ? ", " + std::to_string(reach.argument) + ", " +
                                               std::to_string(reach.argument_component)
                                         : "");
        text += "},\n";
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
           backend_list + ", " + std::string(boolean(kernel.discards)) +
           (kernel.has_group_size() ? ", " + std::to_string(kernel.group_size[0]) : "") + "};\n";
}

std::string kernel_stub_declaration(const KernelDecl& kernel) {
    // A prototype, a header and the definition may all declare the stub in one translation
    // unit; the template may be defined only once.
    const std::string guard = "BRCC_STUB_" + cpp_identifier(kernel.name);
    std::string text = "#ifndef " + guard + "\n#define " + guard + "\n";
    for (const ReduceTarget target : stub_targets(kernel))
        text += launch_signature(kernel, target) + ";\n" + located_stub(kernel, target);
    return text + value_stub(kernel, stub_targets(kernel).front()) + "#endif\n";
}

std::string kernel_stub(const KernelDecl& kernel) {
    std::string text = kernel_stub_declaration(kernel);
    for (const ReduceTarget target : stub_targets(kernel))
        text += launch_definition(kernel, target);
    return text;
}

std::string kernel_compat_stub(const KernelDecl& kernel) {
    std::string text;
    for (const ReduceTarget target : stub_targets(kernel))
        text += compat_stub(kernel, target);
    return text;
}

} // namespace brcc
