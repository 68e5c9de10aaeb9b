"""An ONNX graph with known sizes as remat's native graph (a dict).

Initializers are weights and Constant nodes constants: fixed memory,
reported, never scheduled; the graph inputs too.  Operations that only
reshape their first input (Reshape, Flatten, Squeeze, Unsqueeze, Identity,
Dropout without its mask) are folded into the node that produced it, as
views are in remat-torch.  Every other node is a remat node whose memory is
the bytes of its outputs and whose duration is a FLOP estimate (flops.py).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..errors import BridgeError
from . import flops
from .shapes import MAX_SIZE, Tensor, nbytes

ALIASES = {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity",
           "Dropout"}
CONTROL_FLOW = {"If", "Loop", "Scan", "SequenceMap"}
_DEFAULT_DOMAINS = ("", "ai.onnx")


def node_label(node, k: int) -> str:
    """A node's name for labels and messages."""
    return node.name or (node.output[0] if node.output and node.output[0]
                         else f"node{k}")


def _bytes(name: str, shapes: Mapping[str, Tensor], value: str,
           where: str) -> int:
    t = shapes.get(value)
    if t is None or not t.known():
        raise BridgeError(f"{name}: {where} {value!r} has no known size")
    size = nbytes(t)
    if size is None:
        raise BridgeError(f"{name}: {where} {value!r} has an element type "
                          f"({t.elem_type}) of no fixed size")
    if size > MAX_SIZE:
        raise BridgeError(f"{name}: {where} {value!r} takes {size} bytes, "
                          "more than remat's sizes hold (2^63 - 1)")
    return size


def _checked_sum(name: str, what: str, values) -> int:
    total = sum(values)
    if total > MAX_SIZE:
        raise BridgeError(f"{name}: the {what} total {total}, more than "
                          "remat's sizes hold (2^63 - 1)")
    return total


def build(model, shapes: Mapping[str, Tensor], name: str,
          meta: Mapping[str, Any]) -> dict[str, Any]:
    """The native graph of ``model``: meta's fields, then fixed-memory
    totals, nodes, edges and the order (the ONNX node order)."""
    g = model.graph
    owner: dict[str, int | None] = {}    # value -> node index, None: fixed
    fixed = {"param": 0, "input": 0, "constant": 0}
    for t in g.initializer:
        owner[t.name] = None
        fixed["param"] += _bytes(name, shapes, t.name, "initializer")
    for vi in g.input:
        if vi.name not in owner:
            owner[vi.name] = None
            fixed["input"] += _bytes(name, shapes, vi.name, "input")
    nodes: list[dict[str, Any]] = []
    members: list[list[str]] = []
    fixed_aliases: list[str] = []
    edges: set[tuple[int, int]] = set()
    for k, node in enumerate(g.node):
        op = node.op_type
        label = node_label(node, k)
        standard = node.domain in _DEFAULT_DOMAINS
        if standard and op in CONTROL_FLOW:
            article = "an" if op[0] in "AEIOU" else "a"
            raise BridgeError(f"{name}: node {label!r} is {article} {op}: "
                              "control flow is not supported (export the "
                              "model with its loops unrolled and its "
                              "branches resolved)")
        ins = [i for i in node.input if i]
        for i in ins:
            if i not in owner:
                raise BridgeError(f"{name}: node {label!r} reads {i!r}, "
                                  "which nothing before it produces")
        outs = [o for o in node.output if o]
        where = f"node {label!r} ({op}): output"
        if standard and op == "Constant":
            for o in outs:
                owner[o] = None
                fixed["constant"] += _bytes(name, shapes, o, where)
            continue
        if standard and op in ALIASES and ins and len(outs) == 1:
            base = owner[ins[0]]
            if not {owner[i] for i in ins[1:]} - {None, base}:
                owner[outs[0]] = base
                if base is None:
                    fixed_aliases.append(label)
                else:
                    members[base].append(label)
                continue
        idx = len(nodes)
        for i in ins:
            if owner[i] is not None:
                edges.add((owner[i], idx))
        memory = _checked_sum(name, f"outputs of node {label!r}",
                              (_bytes(name, shapes, o, where) for o in outs))
        for o in outs:
            owner[o] = idx
        duration = min(MAX_SIZE, max(1, flops.estimate(node, shapes)))
        nodes.append({"id": idx, "duration": duration, "memory": memory,
                      "label": label,
                      "op": f"onnx.{op}" if standard
                      else f"onnx.{node.domain}.{op}",
                      "shape": [shapes[o].dims for o in outs]})
        members.append([])
    if not nodes:
        raise BridgeError(f"{name}: no operation on activations")
    for n, m in zip(nodes, members):
        if m:
            n["members"] = m
    _checked_sum(name, "memory", (n["memory"] for n in nodes))
    _checked_sum(name, "duration", (n["duration"] for n in nodes))
    _checked_sum(name, "fixed memory", fixed.values())
    graph: dict[str, Any] = dict(meta)
    graph.update({
        "param_bytes": fixed["param"],
        "input_bytes": fixed["input"],
        "constant_bytes": fixed["constant"],
        "fixed_aliases": fixed_aliases,
        "nodes": nodes,
        "edges": [list(e) for e in sorted(edges)],
        "order": list(range(len(nodes))),
    })
    return graph
