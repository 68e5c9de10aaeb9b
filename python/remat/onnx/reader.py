"""An ONNX model file -> remat's native graph (a dict, docs/formats.md).

The steps: parse the protobuf (external data is not loaded: sizes come from
the tensors' dims), check the model with onnx.checker, fix the graph
inputs' symbolic dimensions, infer every value's shape (shapes.py), measure
with onnxruntime the sizes inference leaves unknown (runtime.py), and build
the graph (graph.py).  Every problem with the model is a BridgeError whose
one-line message starts with the model's name.
"""

from __future__ import annotations

import os
from typing import Any, Mapping

from ..errors import BridgeError
from . import graph as graph_mod
from . import runtime, shapes
from .messages import one_line, size_error

_DEFAULT_DOMAINS = ("", "ai.onnx")


def decode(data: bytes, name: str):
    """The ModelProto in ``data``, checked by onnx.checker."""
    import onnx
    try:
        model = onnx.load_model_from_string(data)
    except Exception:   # DecodeError and whatever else the parser raises
        raise BridgeError(f"{name}: not an ONNX model (the protobuf does "
                          "not parse)") from None
    if not model.graph.node:
        raise BridgeError(f"{name}: not an ONNX model (no graph nodes)")
    bad = next(_non_text(model), None)
    if bad is not None:
        raise BridgeError(f"{name}: not an ONNX model (the name {bad!r} "
                          "is not UTF-8 text)")
    try:
        onnx.checker.check_model(_without_external_data(model))
    except Exception as e:   # ValidationError, and C++ errors on odd input
        raise BridgeError(f"{name}: invalid ONNX model: {one_line(e)}")
    return model


def _non_text(model):
    """The string fields the reader uses that hold bytes, not text (the
    protobuf parser leaves invalid UTF-8 as bytes)."""
    g = model.graph
    values = [g.name]
    for vi in list(g.input) + list(g.output) + list(g.value_info):
        values.append(vi.name)
        tt = vi.type.tensor_type
        values.extend(d.dim_param for d in tt.shape.dim)
    values.extend(t.name for t in g.initializer)
    values.extend(o.domain for o in model.opset_import)
    for n in g.node:
        values.extend([n.name, n.op_type, n.domain])
        values.extend(n.input)
        values.extend(n.output)
        values.extend(a.name for a in n.attribute)
    return (v for v in values if not isinstance(v, str))


def _without_external_data(model):
    """``model``, or where initializers keep their data in other files, a
    copy in which those initializers are graph inputs of their type and
    shape: the checker then checks the graph, not the files (onnxruntime
    reads them, relative to the model, when it runs)."""
    from onnx import TensorProto, helper
    ext = [t for t in model.graph.initializer
           if t.data_location == TensorProto.EXTERNAL]
    if not ext:
        return model
    copy = type(model)()
    copy.CopyFrom(model)
    names = {t.name for t in ext}
    keep = [t for t in copy.graph.initializer if t.name not in names]
    del copy.graph.initializer[:]
    copy.graph.initializer.extend(keep)
    listed = {vi.name for vi in copy.graph.input}
    copy.graph.input.extend(
        helper.make_tensor_value_info(t.name, t.data_type, list(t.dims))
        for t in ext if t.name not in listed)
    return copy


def _producers(model) -> dict[str, tuple[str, str]]:
    """value name -> (node label, op type) of the node writing it."""
    out = {}
    for k, node in enumerate(model.graph.node):
        for o in node.output:
            if o:
                out[o] = (graph_mod.node_label(node, k), node.op_type)
    return out


def _unknown(model, table: Mapping[str, shapes.Tensor]) -> list[str]:
    """Node outputs whose size is unknown, in graph order."""
    out = []
    for node in model.graph.node:
        for o in node.output:
            t = table.get(o)
            if o and (t is None or not t.known()):
                out.append(o)
    return out


def _advice(run: bool) -> str:
    if not run:
        return ("onnxruntime can measure it (leave out --no-run, or "
                "run=False in remat.onnx.load)")
    return ("store the shapes in the model's value_info (torch.onnx.export"
            "(..., dynamo=True) does), or make it one onnxruntime runs")


def sized(model, name: str, batch: int | None = None,
          dims: Mapping[str, int] | None = None, run: bool = True,
          base_dir: str | None = None) -> tuple[Any, dict[str, shapes.Tensor],
                                                 int]:
    """(the model with inferred shapes, value name -> Tensor, the number of
    values measured with onnxruntime); every node output has a known
    size."""
    inputs = shapes.fix_inputs(model, name, batch, dict(dims or {}))
    inferred, strict_error = shapes.infer(model)
    table = shapes.table(inferred)
    wanted = _unknown(inferred, table)
    if strict_error is not None:
        # inference found the model inconsistent: trust only a real run
        wanted = [o for node in model.graph.node for o in node.output if o]
    if not wanted:
        return inferred, table, 0
    producers = _producers(model)
    first = wanted[0]
    node, op = producers.get(first, (None, None))
    if strict_error is not None and not run:
        raise BridgeError(f"{name}: shape inference failed: {strict_error}")
    if not run:
        raise size_error(name, first, node, op, table.get(first),
                                _advice(False))
    feeds = {n: table[n] for n in inputs}
    try:
        measured = runtime.measure(model, wanted, feeds, base_dir)
    except runtime.RunFailed as e:
        if strict_error is not None:
            raise BridgeError(f"{name}: shape inference failed: "
                              f"{strict_error} (and onnxruntime cannot run "
                              f"the model: {e})")
        raise size_error(
            name, first, node, op, table.get(first),
            f"onnxruntime cannot run the model to measure it ({e}); "
            + _advice(True))
    for n in wanted:
        if n not in measured:
            node, op = producers.get(n, (None, None))
            raise size_error(name, n, node, op, table.get(n),
                                    "onnxruntime did not return it; "
                                    + _advice(True))
    table.update(measured)
    return inferred, table, len(wanted)


def _opset(model) -> int:
    return max((o.version for o in model.opset_import
                if o.domain in _DEFAULT_DOMAINS), default=0)


def loads(data: bytes, name: str = "model.onnx", batch: int | None = None,
          dims: Mapping[str, int] | None = None, run: bool = True,
          base_dir: str | None = None) -> dict[str, Any]:
    """The native graph (a dict) of the ONNX model serialized in ``data``.

    ``name`` names the model in messages and in the graph; ``base_dir`` is
    the folder its external data files are relative to.  See load() for
    the other arguments.
    """
    if batch is not None and (isinstance(batch, bool) or
                              not isinstance(batch, int) or batch <= 0):
        raise BridgeError(f"--batch {batch}: must be positive")
    for k, v in (dims or {}).items():
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise BridgeError(f"--dim {k}={v}: must be positive")
    model = decode(data, name)
    inferred, table, measured = sized(model, name, batch, dims, run,
                                      base_dir)
    base = os.path.basename(name)
    meta = {
        "format": "remat",
        "name": base.rsplit(".", 1)[0] if "." in base else base,
        "source": "remat-onnx",
        "onnx_graph": model.graph.name,
        "model": name,
        "train": False,
        "durations": "flops",
        "duration_unit": "FLOP (estimate)",
        "opset": _opset(model),
        "measured_sizes": measured,
    }
    if batch is not None:
        meta["batch"] = batch
    return graph_mod.build(model, table, name, meta)


def load(path: str | os.PathLike, batch: int | None = None,
         dims: Mapping[str, int] | None = None,
         run: bool = True) -> dict[str, Any]:
    """Read the ONNX model at ``path`` as remat's native graph (a dict with
    "nodes", "edges", "order" and the model's fixed memory in
    "param_bytes", "input_bytes", "constant_bytes").

    ``batch`` fixes a symbolic first dimension of the inputs; ``dims`` fixes
    symbolic dimensions by name ({"height": 224}).  With ``run`` (the
    default), sizes that shape inference leaves unknown are measured by
    running the model once with onnxruntime on zero inputs; without it they
    are an error.  Raises remat.errors.BridgeError with a one-line message
    for any model it cannot read.
    """
    name = os.fspath(path)
    try:
        with open(name, "rb") as f:
            data = f.read()
    except OSError as e:
        raise BridgeError(f"{name}: cannot read: {e.strerror}")
    base_dir = os.path.dirname(os.path.abspath(name))
    return loads(data, name, batch, dims, run, base_dir)
