"""A model's step as a native remat graph (docs/formats.md).

The nodes are the groups of memory.analyse (an ATen operation with the
views and aliases of its output), plus, when training:

- ``grad_out``: the incoming gradients of the step's differentiable
  outputs, one node (``copies`` 1: it is given, never computed).  Every
  output, every update of a buffer and the last random operation are made
  its inputs, so a schedule runs them before it: what a schedule runs
  before grad_out is the forward call, the rest the backward call;
- ``grad_sink``: reads every gradient, every output and grad_out, so that
  they stay alive until the end of the backward (autograd accumulates the
  gradients when the backward returns; the caller holds the outputs, the
  autograd engine the output gradients).

Random operations are chained in trace order (each is an input of the
next), so that they first run in the order the plain model draws them.
"""

from __future__ import annotations

import heapq
from typing import Any, Callable, Optional, Sequence

import torch

from ..errors import BridgeError
from .durations import FlopCounter, group_durations, profile
from .memory import FIXED, analyse
from .trace import StepSpec, Trace, hidden_writes, op_name, preserved_rng
from .trace import trace_step, written_args

GRAD_OUT_OP = "grad_out"
SINK_OP = "sink"
SINK_LABEL = "grad_sink"


def node_op(members: Sequence[torch.fx.Node]) -> str:
    """The op a graph node is labelled with: its first member's."""
    first = members[0]
    if first.op == "placeholder":
        return GRAD_OUT_OP
    return op_name(first)


def fresh_flat(trace: Trace) -> list[Any]:
    """New copies of the trace's inputs: the module's tensors and the
    example inputs as the spec holds them, and ones as output gradients."""
    spec = trace.spec
    params, state = spec.tensors()
    flat: list[Any] = [t.detach().clone() for t in params + state]
    for a in spec.inputs + spec.targets:
        flat.append(a.detach().clone() if isinstance(a, torch.Tensor) else a)
    tensors = [t for t in trace.out_leaves if isinstance(t, torch.Tensor)]
    for k in trace.diff_outputs:
        flat.append(torch.ones_like(tensors[k]))
    return flat


class Built:
    """A traced step and its graph: ``graph`` the native graph dict;
    ``members[i]`` the fx nodes of graph node i (id i); ``grad_out`` and
    ``sink`` the ids of the special nodes (None for inference)."""

    def __init__(self, trace: Trace, graph: dict,
                 members: list[list[torch.fx.Node]],
                 grad_out: Optional[int], sink: Optional[int]) -> None:
        self.trace, self.graph, self.members = trace, graph, members
        self.grad_out, self.sink = grad_out, sink


def _descendants(start: int, succ: dict[int, set[int]]) -> set[int]:
    seen, stack = set(), [start]
    while stack:
        u = stack.pop()
        for v in succ.get(u, ()):
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return seen


def build(spec: StepSpec, durations: str = "profile",
          repeat: int = 3) -> Built:
    """Trace spec's step and make its native graph."""
    if durations not in ("profile", "flops"):
        raise BridgeError(f"durations {durations!r}: profile or flops")
    if repeat < 1:
        raise BridgeError(f"repeat {repeat}: must be positive")
    trace = trace_step(spec)
    device = _device(trace)
    flops = FlopCounter()
    with preserved_rng(device), torch.no_grad():
        an = analyse(trace, fresh_flat(trace), flops)
        if durations == "profile":
            per_node = profile(trace, lambda: fresh_flat(trace), repeat)
        else:
            per_node = flops.flops
    dur = group_durations(an, per_node)
    if not an.groups:
        raise BridgeError(f"{spec.name} computes nothing from its input")

    edges = set(an.edges())
    succ: dict[int, set[int]] = {}
    for u, v in edges:
        succ.setdefault(u, set()).add(v)
    group_of, pos = an.group_of, trace.position
    outputs = {group_of[o] for o in trace.outputs} - {FIXED}
    grads = {group_of[g] for g in trace.grads if g is not None} - {FIXED}
    randoms = sorted({group_of[n] for n in trace.random} - {FIXED},
                     key=lambda i: pos[an.groups[i].anchor])
    for a, b in zip(randoms, randoms[1:]):
        edges.add((a, b))

    n_groups = len(an.groups)
    gout = an.grad_out.index if an.grad_out is not None else None
    sink = None
    extra: list[tuple[int, int]] = []
    if spec.train and gout is not None:
        backward = _descendants(gout, succ) | {gout}
        writers = {group_of[n] for n in trace.nodes
                   if n.op == "call_function" and _writes_input(n)}
        before = (outputs | writers | set(randoms[-1:])) - {FIXED}
        extra += [(u, gout) for u in before if u not in backward]
        sink = n_groups
        # the autograd engine holds the output gradients through the
        # backward call: grad_out too lives until the end
        extra += [(u, sink) for u in sorted(outputs | grads | {gout})]
    edges |= set(extra)

    # priority in the input order: the anchor's trace position; grad_out
    # just before its first reader, the sink last
    def key(i: int) -> float:
        if i == sink:
            return float("inf")
        if i == gout:
            readers = [pos[u] for m in an.grad_out.members for u in m.users]
            return min(readers, default=len(pos)) - 0.5
        return pos[an.groups[i].anchor]

    order = _topological(n_groups + (sink is not None), edges, key)
    new_id = {g: i for i, g in enumerate(order)}
    reach_back = (_descendants(gout, _succ(edges)) | {gout}
                  if gout is not None else set())
    nodes, members = [], []
    for i, g in enumerate(order):
        if g == sink:
            nodes.append({"id": i, "duration": 0, "memory": 0,
                          "backward": True, "label": SINK_LABEL,
                          "op": SINK_OP, "shape": []})
            members.append([])
            continue
        grp = an.groups[g]
        fx = sorted(grp.members, key=pos.__getitem__)
        node: dict[str, Any] = {"id": i, "duration": dur[g],
                                "memory": grp.memory}
        if spec.train:
            node["backward"] = g in reach_back
        if g == gout:
            node["duration"] = 0
            node["copies"] = 1
        node["label"] = fx[0].name
        node["op"] = node_op(fx)
        if len(fx) > 1:
            node["members"] = [m.name for m in fx[1:]]
        node["shape"] = grp.shapes
        nodes.append(node)
        members.append(fx)
    out_edges = sorted([new_id[u], new_id[v]] for u, v in edges)
    meta = _meta(spec, trace, an, durations, repeat, device)
    graph = dict(meta)
    graph.update({"nodes": nodes, "edges": out_edges,
                  "order": list(range(len(nodes)))})
    return Built(trace, graph, members,
                 new_id[gout] if gout is not None else None,
                 new_id[sink] if sink is not None else None)


def _succ(edges: set[tuple[int, int]]) -> dict[int, set[int]]:
    succ: dict[int, set[int]] = {}
    for u, v in edges:
        succ.setdefault(u, set()).add(v)
    return succ


def _writes_input(node: torch.fx.Node) -> bool:
    """Whether an operation writes a placeholder (a buffer's update)."""
    targets = list(written_args(node))
    targets += [node.args[p] for p in hidden_writes(node)]
    return any(t.op == "placeholder" for t in targets)


def _topological(n: int, edges: set[tuple[int, int]],
                 key: Callable[[int], float]) -> list[int]:
    """Kahn's algorithm taking the smallest key first."""
    indeg = [0] * n
    succ = _succ(edges)
    for _, v in edges:
        indeg[v] += 1
    heap = [(key(i), i) for i in range(n) if indeg[i] == 0]
    heapq.heapify(heap)
    out = []
    while heap:
        _, u = heapq.heappop(heap)
        out.append(u)
        for v in succ.get(u, ()):
            indeg[v] -= 1
            if indeg[v] == 0:
                heapq.heappush(heap, (key(v), v))
    if len(out) != n:
        raise RuntimeError("the step's graph has a cycle")
    return out


def _device(trace: Trace) -> torch.device:
    params, state = trace.spec.tensors()
    args = [a for a in trace.spec.inputs if isinstance(a, torch.Tensor)]
    for t in args + params + state:
        return t.device
    return torch.device("cpu")


def _meta(spec: StepSpec, trace: Trace, an: Any, durations: str,
          repeat: int, device: torch.device) -> dict[str, Any]:
    params, state = spec.tensors()

    def total(ts: Sequence[Any]) -> int:
        return sum(t.numel() * t.element_size() for t in ts
                   if isinstance(t, torch.Tensor))

    fixed = an.fixed_bytes
    unit = (f"ns of CPU time, median of {repeat} runs"
            if durations == "profile" else "FLOP (estimate)")
    if durations == "profile" and device.type == "cuda":
        unit = f"ns of wall time (synchronised), median of {repeat} runs"
    return {
        "format": "remat",
        "name": f"{spec.name}_{'train' if spec.train else 'infer'}",
        "source": "remat-torch",
        "train": spec.train,
        "durations": durations,
        "duration_unit": unit,
        "device": str(device),
        "torch": torch.__version__,
        "param_bytes": total(params) + sum(
            t.numel() * t.element_size() for n, t in
            spec.module.named_parameters() if n not in spec.grad_names),
        "grad_bytes": an.grad_bytes,
        "buffer_bytes": total(list(spec.module.buffers())),
        "input_bytes": total(spec.inputs),
        "target_bytes": total(spec.targets),
        "constant_bytes": fixed.get("constant", 0),
        "fx_nodes": len(trace.nodes),
        "fixed_aliases": [n.name for n in an.fixed_aliases],
    }


def export(model: torch.nn.Module, example_inputs: Sequence[Any],
           train: bool = True, loss_fn: Optional[Callable[..., Any]] = None,
           durations: str = "profile", *, targets: Sequence[Any] = (),
           repeat: int = 3) -> dict:
    """The native remat graph of one step of ``model`` on
    ``example_inputs`` (a tuple of positional arguments), at the ATen
    level.

    train: the joint forward and backward (gradients of every parameter
    that requires one, and of the inputs that require one), starting from
    the gradient of the output (or, with ``loss_fn(output, *targets)``, of
    the loss); else the forward alone, without autograd.  The model's
    training/eval mode is used as it is.  durations: "profile" (median
    CPU time per operation over ``repeat`` runs, ns) or "flops" (an
    estimate).  Buffers and the random generators are left as they were.

    Nodes carry id, duration, memory, backward (train), op, label (the fx
    node), members (the fx nodes folded into it: views, aliases) and shape
    (of the tensors it creates).  Raises remat.errors.BridgeError for a
    model that cannot be traced.
    """
    spec = StepSpec(model, tuple(example_inputs), train, loss_fn, targets)
    return build(spec, durations, repeat).graph
