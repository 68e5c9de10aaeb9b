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

With ``temporaries``, a node whose operations allocate temporaries (bytes
beyond their outputs while they run: temporaries.py) gets a
``temporaries`` node of that size as an input, which a schedule computes
right before it: so the peak counts them.  And an output split off an
operation (memory.py's _split_outputs: a weight gradient, batch norm's
saved statistics) gets a ``held`` node of its bytes (``copies`` 1), an
input of the operation and of the output's readers, since the allocator
holds it from the operation's run, whenever the output's own node (then
memory 0) comes.  The outputs and the gradients are computed once
(``copies`` 1): the caller and the executor hold them from their first
computation.

Random operations first run in the order the plain model draws them: each
has an ``rng_state`` node (``copies`` 1) that reads the previous random
operation and that every computation of it reads: the generator's state
taken between the two first runs, kept until its last computation (5 kB
for the CPU generator, 0 on a GPU: a host tensor), so that a recomputation
draws the same numbers.  An ``rng_end`` node (memory 0) after the last
one is an input of grad_out: the forward call draws what the plain
forward draws.
"""

from __future__ import annotations

import heapq
from typing import Any, Callable, Optional, Sequence

import torch

from ..errors import BridgeError
from .durations import FlopCounter, group_durations, profile
from .memory import FIXED, analyse
from .temporaries import measure_temporaries
from .trace import StepSpec, Trace, hidden_writes, op_name, preserved_rng
from .trace import trace_step, written_args

GRAD_OUT_OP = "grad_out"
SINK_OP = "sink"
SINK_LABEL = "grad_sink"
RNG_OP = "rng_state"
TEMP_OP = "temporaries"
HELD_OP = "held"
TEMP_MIN = 1024


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
    ``sink`` the ids of the special nodes (None for inference);
    ``rng[i]`` the random fx nodes whose generator state rng_state node i
    keeps."""

    def __init__(self, trace: Trace, graph: dict,
                 members: list[list[torch.fx.Node]],
                 grad_out: Optional[int], sink: Optional[int],
                 rng: dict[int, list[torch.fx.Node]]) -> None:
        self.trace, self.graph, self.members = trace, graph, members
        self.grad_out, self.sink, self.rng = grad_out, sink, rng


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
          repeat: int = 3, temporaries: bool = False,
          grads: str = "live") -> Built:
    """Trace spec's step and make its native graph; temporaries: a
    ``temporaries`` node before every node whose operations allocate at
    least TEMP_MIN bytes beyond their outputs while they run.  grads:
    "live" (the gradients are memory of the nodes that make them, read by
    the sink) or "fixed" (counted apart like the parameters, as in
    Checkmate's graphs: no sink)."""
    if grads not in ("live", "fixed"):
        raise BridgeError(f"grads {grads!r}: live or fixed")
    if durations not in ("profile", "flops"):
        raise BridgeError(f"durations {durations!r}: profile or flops")
    if repeat < 1:
        raise BridgeError(f"repeat {repeat}: must be positive")
    trace = trace_step(spec)
    device = _device(trace)
    flops = FlopCounter()
    with preserved_rng(device), torch.no_grad():
        an = analyse(trace, fresh_flat(trace), flops, grads == "live")
        if durations == "profile":
            per_node = profile(trace, lambda: fresh_flat(trace), repeat)
        else:
            per_node = flops.flops
        temps = (measure_temporaries(trace, fresh_flat(trace), device)
                 if temporaries else {})
    dur = group_durations(an, per_node)
    if not an.groups:
        raise BridgeError(f"{spec.name} computes nothing from its input")

    edges = set(an.edges())
    succ: dict[int, set[int]] = {}
    for u, v in edges:
        succ.setdefault(u, set()).add(v)
    group_of, pos = an.group_of, trace.position
    outputs = {group_of[o] for o in trace.outputs} - {FIXED}
    grad_groups = {group_of[g] for g in trace.grads
                   if g is not None} - {FIXED}
    grad_nodes = {g for g in trace.grads if g is not None}

    def excluded(grp: Any) -> set:
        """The gradients' storages among a group's (grads "fixed")."""
        if grads != "fixed":
            return set()
        return {k for m in grp.members if m in grad_nodes
                for k in an.node_keys.get(m, ())}
    randoms = sorted({group_of[n] for n in trace.random} - {FIXED},
                     key=lambda i: pos[an.groups[i].anchor])
    n_groups = len(an.groups)
    # rng_state nodes: R_i before random group r_i, read by every
    # computation of it (the generator's state before its first run),
    # itself after r_(i-1)'s first run; rng_end after the last one's, an
    # input of grad_out (the forward draws what the plain forward draws)
    rng_of = {n_groups + 1 + k: r for k, r in enumerate(randoms)}
    rng_end = n_groups + 1 + len(randoms)
    rng_node = {r: k for k, r in rng_of.items()}
    edges |= {(k, r) for k, r in rng_of.items()}
    for a, b in zip(randoms, randoms[1:]):
        edges.add((a, rng_node[b]))
    rng_bytes = _rng_state_bytes(device)
    granule = _granule(device)
    # one temporaries node per group with temporaries, read by it
    first_tmp = rng_end + 1
    tmp_of: dict[int, int] = {}
    tmp_bytes: dict[int, int] = {}
    for grp in an.groups:
        t = max((temps.get(m, 0) for m in grp.members), default=0)
        if t >= TEMP_MIN and grp is not an.grad_out:
            k = first_tmp + len(tmp_of)
            tmp_of[k], tmp_bytes[k] = grp.index, t
    # with temporaries (the allocator's view), an output split off an
    # operation (memory.py's _split_outputs) is held by a node of its own
    # from the operation's run on, as the allocator holds it: a "held"
    # node of its bytes, computed once, read by the operation and by the
    # split output's readers; the split output's node is then memory 0
    first_held = first_tmp + len(tmp_of)
    held_of: dict[int, int] = {}
    owner_of: dict[int, int] = {}
    if temporaries:
        for s in sorted(an.split_outputs):
            owner = group_of.get(an.groups[s].anchor.args[0], FIXED)
            if owner != FIXED:
                k = first_held + len(held_of)
                held_of[k], owner_of[k] = s, owner
    # after the group's inputs (they are live then anyway), right before it
    for k, g in list(tmp_of.items()) + list(owner_of.items()):
        edges |= {(u, k) for u, v in list(edges) if v == g}
        edges.add((k, g))

    gout = an.grad_out.index if an.grad_out is not None else None
    sink = None
    extra: list[tuple[int, int]] = []
    if spec.train and gout is not None:
        backward = _descendants(gout, succ) | {gout}
        extra += [(u, gout) for u in outputs if u not in backward]
        if randoms:
            extra += [(randoms[-1], rng_end), (rng_end, gout)]
        # buffer updates not already before the outputs (copy_, memory 0)
        pred = _succ({(v, u) for u, v in edges | set(extra)})
        early = _descendants(gout, pred)
        writers = {group_of[n] for n in trace.nodes
                   if n.op == "call_function" and _writes_input(n)}
        extra += [(u, gout) for u in writers - {FIXED}
                  if u not in backward and u not in early]
        sink = n_groups if grads == "live" else None
        # the autograd engine holds the output gradients through the
        # backward call: grad_out too lives until the end
        if sink is not None:
            extra += [(u, sink) for u in sorted(outputs | grad_groups
                                                | {gout})]
    edges |= set(extra)
    for k, s in held_of.items():
        edges |= {(k, v) for u, v in list(edges) if u == s}

    # priority in the input order: the anchor's trace position; grad_out
    # just before its first reader, the sink last
    def key(i: int) -> float:
        if i == n_groups:                 # the sink (unused in inference)
            return float("inf")
        if i in rng_of:
            r = rng_of[i]
            k = randoms.index(r)
            if k == 0:
                return pos[an.groups[r].anchor] - 0.25
            return pos[an.groups[randoms[k - 1]].anchor] + 0.25
        if i == rng_end:
            return (pos[an.groups[randoms[-1]].anchor] + 0.25 if randoms
                    else float("inf"))
        if i in tmp_of:
            return pos[an.groups[tmp_of[i]].anchor] - 0.1
        if i in owner_of:
            return pos[an.groups[owner_of[i]].anchor] - 0.1
        if i == gout:
            readers = [pos[u] for m in an.grad_out.members for u in m.users]
            return min(readers, default=len(pos)) - 0.5
        return pos[an.groups[i].anchor]

    order = _topological(first_held + len(held_of), edges, key)
    if sink is None:
        order.remove(n_groups)
    if not randoms or not (spec.train and gout is not None):
        order.remove(rng_end)
    new_id = {g: i for i, g in enumerate(order)}
    reach_back = (_descendants(gout, _succ(edges)) | {gout}
                  if gout is not None else set())
    nodes, members = [], []
    rng_nodes: dict[int, list[torch.fx.Node]] = {}
    held = set(held_of.values())
    grad_owners = {owner_of[k] for k, s in held_of.items()
                   if s in grad_groups}
    for i, g in enumerate(order):
        if g == sink:
            nodes.append({"id": i, "duration": 0, "memory": 0,
                          "backward": True, "label": SINK_LABEL,
                          "op": SINK_OP, "shape": []})
            members.append([])
            continue
        if g in rng_of or g == rng_end:
            node = {"id": i, "duration": 0,
                    "memory": rng_bytes if g in rng_of else 0}
            if spec.train:
                node["backward"] = g in reach_back
            label = "rng_end"
            if g in rng_of:
                grp = an.groups[rng_of[g]]
                rng_nodes[i] = [m for m in grp.members if m in trace.random]
                label = f"rng_{grp.anchor.name}"
            node.update({"copies": 1, "label": label, "op": RNG_OP,
                         "shape": []})
            nodes.append(node)
            members.append([])
            continue
        if g in tmp_of:
            grp = an.groups[tmp_of[g]]
            node = {"id": i, "duration": 0, "memory": tmp_bytes[g]}
            if spec.train:
                node["backward"] = tmp_of[g] in reach_back
            node.update({"label": f"tmp_{grp.anchor.name}",
                         "op": TEMP_OP, "shape": []})
            nodes.append(node)
            members.append([])
            continue
        if g in held_of:
            grp = an.groups[held_of[g]]
            node = {"id": i, "duration": 0, "memory": _bytes(grp, excluded, granule)}
            if spec.train:
                node["backward"] = owner_of[g] in reach_back
            node.update({"copies": 1, "label": f"held_{grp.anchor.name}",
                         "op": HELD_OP, "shape": grp.shapes})
            nodes.append(node)
            members.append([])
            continue
        grp = an.groups[g]
        fx = sorted(grp.members, key=pos.__getitem__)
        node: dict[str, Any] = {"id": i, "duration": dur[g],
                                "memory": (0 if g in held else
                                           _bytes(grp, excluded, granule))}
        if spec.train:
            node["backward"] = g in reach_back
        if g == gout:
            node["duration"] = 0
            node["copies"] = 1
        # the caller holds the outputs from the forward's end, autograd the
        # gradients from their first computation: each is computed once;
        # so is an operation whose split output holds a gradient (a second
        # run would allocate that output again, beside its held node)
        if g in an.split_outputs or (spec.train and (
                g in outputs or (sink is not None and g in grad_groups)
                or g in grad_owners)):
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
    meta["grads"] = grads
    graph = dict(meta)
    graph.update({"nodes": nodes, "edges": out_edges,
                  "order": list(range(len(nodes)))})
    return Built(trace, graph, members,
                 new_id[gout] if gout is not None else None,
                 new_id[sink] if sink is not None else None, rng_nodes)


# CUDA's caching allocator hands out blocks in multiples of 512 bytes
# (c10/cuda/CUDACachingAllocator.cpp, kMinBlockSize), and its statistics
# count the blocks: a storage on a GPU takes its size rounded up to that.
CUDA_BLOCK = 512


def _granule(device: torch.device) -> int:
    """The allocator's unit of the device's storages, in bytes."""
    return CUDA_BLOCK if device.type == "cuda" else 1


def _bytes(grp: Any, excluded: Callable[[Any], set], granule: int) -> int:
    """A group's memory: its storages' bytes, each rounded up to the
    allocator's granule, but the excluded ones."""
    return sum(-(-k[1] // granule) * granule for k in grp.keys
               if k not in excluded(grp))


def _rng_state_bytes(device: torch.device) -> int:
    """Bytes of the generator state kept for a recomputation, on the
    device (a GPU's generator state is a small host tensor)."""
    if device.type == "cuda":
        return 0
    state = torch.get_rng_state()
    return state.numel() * state.element_size()


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
           repeat: int = 3, temporaries: bool = False,
           grads: str = "live") -> dict:
    """The native remat graph of one step of ``model`` on
    ``example_inputs`` (a tuple of positional arguments), at the ATen
    level.

    train: the joint forward and backward (gradients of every parameter
    that requires one, and of the inputs that require one), starting from
    the gradient of the output (or, with ``loss_fn(output, *targets)``, of
    the loss); else the forward alone, without autograd.  The model's
    training/eval mode is used as it is.  durations: "profile" (median
    CPU time per operation over ``repeat`` runs, ns) or "flops" (an
    estimate).  temporaries: count each operation's temporaries (wrap's
    graphs do).  grads: "live" (gradients are the memory of the nodes that
    make them, alive until the end: what wrap solves) or "fixed" (counted
    apart, like the parameters).  Buffers and the random generators are
    left as they were.

    Nodes carry id, duration, memory, backward (train), op, label (the fx
    node), members (the fx nodes folded into it: views, aliases) and shape
    (of the tensors it creates); the special nodes are described in this
    module's docstring.  Raises remat.errors.BridgeError for a model that
    cannot be traced.
    """
    spec = StepSpec(model, tuple(example_inputs), train, loss_fn, targets)
    return build(spec, durations, repeat, temporaries, grads).graph
