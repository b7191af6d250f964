// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The call graph of kernels, built from the calls sema recorded while checking bodies. A
// depth-first walk from each kernel in source order finds every cycle through the edge that
// closes it (an edge back to a kernel still on the walk's path), so each recursion is reported
// once, at that call. The same walk, callees first, carries `needs_position` up the calls: a
// callee's indexof(a) is the position of the caller's stream bound to `a`, so that argument
// must name one of the caller's streams, whose position the caller then needs in turn; the
// index widths of gathers passed down; and `discards`, since a callee's discard ends the
// caller's element too.

#include "sema/sema_impl.hpp"

#include <algorithm>
#include <unordered_map>

namespace brcc {

namespace {

class CallGraph {
public:
    CallGraph(const std::vector<CallEdge>& edges, DiagnosticEngine& diags) : diags_(diags) {
        for (const CallEdge& edge : edges)
            out_[edge.caller].push_back(&edge);
    }

    void walk(KernelDecl& kernel) {
        if (state_[&kernel] != State::Unvisited)
            return;
        state_[&kernel] = State::OnPath;
        for (const CallEdge* edge : out_[&kernel]) {
            KernelDecl& callee = *edge->callee;
            if (state_[&callee] == State::OnPath) {
                diags_.report(DiagId::recursive_call, edge->call->callee_range) << callee.name;
                continue;
            }
            walk(callee);
            pass_positions(kernel, *edge);
            if (!callee.discards)
                continue;
            if (const char* what = cannot_discard(kernel))
                diags_.report(DiagId::call_may_discard, edge->call->callee_range)
                    << callee.name << what << kernel.name;
            else
                kernel.discards = true;
        }
        state_[&kernel] = State::Done;
    }

private:
    enum class State { Unvisited, OnPath, Done };

    void pass_positions(KernelDecl& caller, const CallEdge& edge) {
        const std::vector<ParamDecl*>& params = edge.callee->params;
        for (std::size_t i = 0; i < params.size() && i < edge.call->args.size(); ++i) {
            pass_gather_widths(caller, *params[i], *edge.call->args[i]);
            if (!params[i]->needs_position)
                continue;
            const ParamDecl* stream = bound_parameter(*edge.call->args[i]);
            if (stream == nullptr || (stream->param_kind != ParamKind::InputStream &&
                                      stream->param_kind != ParamKind::OutputStream)) {
                diags_.report(DiagId::position_argument_not_stream, edge.call->args[i]->range)
                    << params[i]->name << edge.callee->name;
                continue;
            }
            caller.params[static_cast<std::size_t>(stream->index)]->needs_position = true;
            caller.uses_indexof = true;
        }
    }

    /// The index widths a callee's gather parameter is read with are the caller's gather's
    /// too: the runtime prepares the bound stream for every width used on it (a one-component
    /// offset reads a view densely). So are its float indices, which the caller's loops are
    /// compiled for (codegen/cpu).
    static void pass_gather_widths(KernelDecl& caller, const ParamDecl& param, const Expr& arg) {
        if (param.param_kind != ParamKind::Gather)
            return;
        const ParamDecl* gather = bound_parameter(arg);
        if (gather == nullptr || gather->param_kind != ParamKind::Gather)
            return;
        ParamDecl& bound = *caller.params[static_cast<std::size_t>(gather->index)];
        bound.gather_index_widths |= param.gather_index_widths;
        bound.gather_float_indices = bound.gather_float_indices || param.gather_float_indices;
    }

    DiagnosticEngine& diags_;
    std::unordered_map<const KernelDecl*, std::vector<const CallEdge*>> out_;
    std::unordered_map<const KernelDecl*, State> state_;
};

} // namespace

void analyze_call_graph(const std::vector<KernelDecl*>& kernels, const std::vector<CallEdge>& edges,
                        DiagnosticEngine& diags) {
    for (const CallEdge& edge : edges) {
        auto& callees = edge.caller->callees;
        if (std::find(callees.begin(), callees.end(), edge.callee) == callees.end())
            callees.push_back(edge.callee);
    }
    CallGraph graph(edges, diags);
    for (KernelDecl* kernel : kernels)
        graph.walk(*kernel);
}

} // namespace brcc
