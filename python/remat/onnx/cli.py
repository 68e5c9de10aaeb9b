"""remat-onnx: an ONNX model's inference graph as a remat graph.

Shapes come from the onnx package's shape inference (symbolic dimensions
of the graph inputs, such as a dynamic batch, are fixed first by --batch).
Initializers are weights and Constant nodes constants: fixed memory,
reported, never scheduled; the graph inputs too.  Operations that only
reshape their first input (Reshape, Flatten, Squeeze, Unsqueeze, Identity,
Dropout without its mask) are folded into the node that produced it, as
views are in remat-torch.  Every other node is a remat node whose memory is the
bytes of its outputs and whose duration is a FLOP estimate (multiply-adds
count two in Conv, ConvTranspose, Gemm and MatMul; any other operation the
elements it reads or writes, whichever is more; at least 1).
"""

import math
import sys

from ..errors import BridgeError
from ..cliutil import Parser, first_line, log, run_main

USAGE = "remat-onnx MODEL.onnx [-o graph.json] [--batch N] [--quiet]\n"

ALIASES = {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity",
           "Dropout"}
CONTROL_FLOW = {"If", "Loop", "Scan"}

# TensorProto.DataType -> bytes per element
ELEMENT_BYTES = {1: 4, 2: 1, 3: 1, 4: 2, 5: 2, 6: 4, 7: 8, 9: 1, 10: 2,
                 11: 8, 12: 4, 13: 8, 14: 8, 15: 16, 16: 2}


def _load(path, batch):
    import onnx
    from google.protobuf.message import DecodeError
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise BridgeError(f"{path}: cannot read: {e.strerror}")
    try:
        model = onnx.load_model_from_string(data)
    except (DecodeError, ValueError, RuntimeError) as e:
        raise BridgeError(f"{path}: not an ONNX model (the protobuf does "
                          f"not parse: {first_line(e)})")
    if not model.graph.node:
        raise BridgeError(f"{path}: not an ONNX model (no graph nodes)")
    try:
        onnx.checker.check_model(model)
    except Exception as e:
        raise BridgeError(f"{path}: invalid ONNX model: {first_line(e)}")
    inits = {t.name for t in model.graph.initializer}
    for vi in model.graph.input:
        if vi.name in inits:
            continue
        for i, d in enumerate(vi.type.tensor_type.shape.dim):
            if not d.HasField("dim_value"):
                if batch is None:
                    raise BridgeError(
                        f"{path}: input {vi.name!r} has a symbolic "
                        f"dimension {d.dim_param or i!r}: give --batch N")
                d.dim_value = batch
    try:
        model = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    except Exception as e:
        raise BridgeError(f"{path}: shape inference failed: "
                          f"{first_line(e)}")
    return model


def _shapes(model):
    """value name -> (element type, shape) for every typed value."""
    out = {}
    g = model.graph
    for vi in list(g.input) + list(g.value_info) + list(g.output):
        tt = vi.type.tensor_type
        if not tt.HasField("shape"):
            continue
        dims = [d.dim_value if d.HasField("dim_value") else None
                for d in tt.shape.dim]
        out[vi.name] = (tt.elem_type, dims)
    for t in g.initializer:
        out[t.name] = (t.data_type, list(t.dims))
    return out


def _bytes(path, shapes, name):
    if name not in shapes:
        raise BridgeError(f"{path}: value {name!r} has no inferred shape")
    etype, dims = shapes[name]
    if any(d is None for d in dims):
        raise BridgeError(f"{path}: value {name!r} has an unknown size "
                          f"{dims} (give --batch N for a dynamic batch)")
    if etype not in ELEMENT_BYTES:
        raise BridgeError(f"{path}: value {name!r} has an element type "
                          f"({etype}) of no fixed size")
    return math.prod(dims) * ELEMENT_BYTES[etype]


def _numel(shapes, name):
    dims = shapes.get(name, (0, []))[1]
    return math.prod(d or 0 for d in dims)


def _flops(node, shapes):
    outs = [o for o in node.output if o]
    ins = [i for i in node.input if i]
    out_n = sum(_numel(shapes, o) for o in outs)
    op = node.op_type
    if op in ("Conv", "ConvTranspose") and len(ins) >= 2:
        w = shapes.get(ins[1], (0, []))[1]
        per = math.prod(w[1:]) if op == "Conv" else math.prod(w) // max(
            1, w[0] if w else 1)
        if op == "ConvTranspose":       # each input element: C_out/g * k
            return 2 * _numel(shapes, ins[0]) * per
        return 2 * out_n * per + (out_n if len(ins) > 2 else 0)
    if op in ("Gemm", "MatMul") and len(ins) >= 2:
        a = shapes.get(ins[0], (0, []))[1]
        trans = any(at.name == "transA" and at.i for at in node.attribute)
        k = (a[-2] if trans else a[-1]) if a else 0
        return 2 * out_n * (k or 0) + (out_n if len(ins) > 2 else 0)
    return max(sum(_numel(shapes, i) for i in ins), out_n)


def export(argv):
    p = Parser(prog="remat-onnx", usage=USAGE)
    p.add_argument("model", metavar="MODEL.onnx")
    p.add_argument("-o", dest="output", default="-")
    p.add_argument("--batch", type=int, default=None)
    p.add_argument("--quiet", "-q", action="store_true")
    args = p.parse_args(argv)
    if args.batch is not None and args.batch <= 0:
        raise BridgeError(f"--batch {args.batch}: must be positive")
    from ..graphfile import write_graph
    path = args.model
    model = _load(path, args.batch)
    g = model.graph
    shapes = _shapes(model)

    owner = {}          # value name -> node index, or None (fixed)
    fixed = {"param": 0, "input": 0, "constant": 0}
    for t in g.initializer:
        owner[t.name] = None
        fixed["param"] += _bytes(path, shapes, t.name)
    for vi in g.input:
        if vi.name not in owner:
            owner[vi.name] = None
            fixed["input"] += _bytes(path, shapes, vi.name)
    nodes, members, fixed_aliases = [], [], []
    edges = set()
    for k, node in enumerate(g.node):
        op = node.op_type
        name = node.name or (node.output[0] if node.output else f"node{k}")
        if op in CONTROL_FLOW:
            raise BridgeError(f"{path}: node {name!r} is a {op}: control "
                              "flow is not supported")
        ins = [i for i in node.input if i]
        for i in ins:
            if i not in owner:
                raise BridgeError(f"{path}: node {name!r} reads {i!r}, "
                                  "which nothing before it produces")
        outs = [o for o in node.output if o]
        if op == "Constant":
            for o in outs:
                owner[o] = None
                fixed["constant"] += _bytes(path, shapes, o)
            continue
        if op in ALIASES and ins and len(outs) == 1:
            base = owner[ins[0]]
            if not {owner[i] for i in ins[1:]} - {None, base}:
                owner[outs[0]] = base
                if base is None:
                    fixed_aliases.append(name)
                else:
                    members[base].append(name)
                continue
        idx = len(nodes)
        for i in ins:
            if owner[i] is not None:
                edges.add((owner[i], idx))
        memory = sum(_bytes(path, shapes, o) for o in outs)
        for o in outs:
            owner[o] = idx
        nodes.append({"id": idx, "duration": max(1, _flops(node, shapes)),
                      "memory": memory, "label": name, "op": f"onnx.{op}",
                      "shape": [shapes[o][1] for o in outs]})
        members.append([])
    if not nodes:
        raise BridgeError(f"{path}: no operation on activations")
    for n, m in zip(nodes, members):
        if m:
            n["members"] = m
    meta = {
        "format": "remat",
        "name": path.rsplit("/", 1)[-1].rsplit(".", 1)[0],
        "source": "remat-onnx",
        "onnx_graph": g.name,
        "model": path,
        "train": False,
        "durations": "flops",
        "duration_unit": "FLOP (estimate)",
        "opset": max((o.version for o in model.opset_import
                      if o.domain in ("", "ai.onnx")), default=0),
        "param_bytes": fixed["param"],
        "input_bytes": fixed["input"],
        "constant_bytes": fixed["constant"],
        "fixed_aliases": fixed_aliases,
    }
    edge_list = sorted(edges)
    write_graph(args.output, meta, nodes, edge_list, list(range(len(nodes))))
    where = "" if args.output == "-" else f"; wrote {args.output}"
    log(args, f"remat-onnx: {path}: {len(nodes)} nodes, {len(edge_list)} "
              f"edges; weights {fixed['param']} B{where}")
    return 0


def main(argv):
    def body(argv):
        if not argv or argv[0] in ("-h", "--help"):
            sys.stdout.write(USAGE)
            return 0 if argv else 2
        return export(argv)
    return run_main("remat-onnx", body, argv)
