"""Small random ONNX models from fuzzer bytes, for fuzz_onnx.py's
structured mode: the inputs reach shape inference, the onnxruntime run and
the graph builder, which raw protobuf mutations rarely get past the parser
and checker to.

Every choice (inputs, ops, which earlier values they read, attributes,
small integer constants) is drawn from atheris' FuzzedDataProvider, so the
same bytes build the same model.  Sizes stay small: dims up to 5, integer
constants from -3 to 8.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from onnx import TensorProto as T
from onnx import helper, numpy_helper

# op -> (number of value inputs, number of int64 constant inputs)
OPS: dict[str, tuple[int, int]] = {
    "Relu": (1, 0), "Sigmoid": (1, 0), "Neg": (1, 0), "Exp": (1, 0),
    "Add": (2, 0), "Mul": (2, 0), "MatMul": (2, 0), "Concat": (2, 0),
    "Transpose": (1, 0), "Softmax": (1, 0), "Shape": (1, 0),
    "Size": (1, 0), "NonZero": (1, 0), "Identity": (1, 0),
    "Flatten": (1, 0), "Reshape": (1, 1), "Expand": (1, 1),
    "Slice": (1, 2), "Gather": (1, 1), "Unsqueeze": (1, 1),
    "Squeeze": (1, 1), "Tile": (1, 1), "ConstantOfShape": (0, 1),
    "Range": (0, 3), "Cast": (1, 0), "Split": (1, 1), "TopK": (1, 1),
    "ReduceSum": (1, 1), "Pad": (1, 1), "Where": (3, 0),
    "Dropout": (1, 0), "Conv": (2, 0), "GlobalAveragePool": (1, 0),
    "Frob": (1, 0),
}
OUTPUTS = {"Split": 2, "TopK": 2, "Dropout": 2}
TYPES = [T.FLOAT, T.FLOAT, T.FLOAT, T.INT64, T.FLOAT16, T.BOOL, T.INT32]


def _dims(fdp: Any, symbolic: bool) -> list:
    rank = fdp.ConsumeIntInRange(0, 4)
    dims: list = [fdp.ConsumeIntInRange(0, 5) for _ in range(rank)]
    if dims and symbolic and fdp.ConsumeBool():
        dims[0] = fdp.PickValueInList(["batch", "n", ""])
    return dims


def _const(fdp: Any, name: str) -> Any:
    n = fdp.ConsumeIntInRange(0, 4)
    values = [fdp.ConsumeIntInRange(-3, 8) for _ in range(n)]
    if fdp.ConsumeBool() and values:
        return numpy_helper.from_array(np.array(values[0], np.int64), name)
    return numpy_helper.from_array(np.array(values, np.int64), name)


def _attrs(fdp: Any, op: str) -> dict:
    a: dict = {}
    if op in ("Concat", "Softmax", "Gather", "Split", "TopK", "Flatten") \
            and fdp.ConsumeBool():
        a["axis"] = fdp.ConsumeIntInRange(-3, 3)
    if op == "Concat" and "axis" not in a:
        a["axis"] = 0
    if op == "Transpose" and fdp.ConsumeBool():
        a["perm"] = [fdp.ConsumeIntInRange(0, 3)
                     for _ in range(fdp.ConsumeIntInRange(1, 4))]
    if op == "Cast":
        a["to"] = fdp.PickValueInList(TYPES)
    if op == "Split" and fdp.ConsumeBool():
        a["num_outputs"] = 2
    return a


def _inferred(nodes, inputs, names, inits) -> list:
    """Value infos for the graph outputs ``names`` as lenient shape
    inference has them (unknown dims where it has none; a float scalar
    where it knows nothing)."""
    import onnx
    g = helper.make_graph(nodes, "probe", inputs, [], initializer=inits,
                          value_info=[])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18),
                                            helper.make_opsetid("my.ops", 1)])
    try:
        m = onnx.shape_inference.infer_shapes(m)
        known = {vi.name: vi for vi in m.graph.value_info}
    except Exception:
        known = {}
    out = []
    for v in names:
        vi = known.get(v)
        if vi is None or not vi.type.tensor_type.HasField("shape"):
            vi = helper.make_tensor_value_info(v, T.FLOAT, [])
        out.append(vi)
    return out


def build(fdp: Any) -> tuple[bytes, int]:
    """(a serialized model, the number of Tile and Expand nodes in it)."""
    inputs, values, inits, nodes = [], [], [], []
    for i in range(fdp.ConsumeIntInRange(1, 2)):
        name = f"in{i}"
        inputs.append(helper.make_tensor_value_info(
            name, fdp.PickValueInList(TYPES), _dims(fdp, True)))
        values.append(name)
    growth = 0
    for k in range(fdp.ConsumeIntInRange(1, 12)):
        op = fdp.PickValueInList(sorted(OPS))
        n_in, n_const = OPS[op]
        ins = [fdp.PickValueInList(values) for _ in range(n_in)]
        for c in range(n_const):
            name = f"c{k}_{c}"
            inits.append(_const(fdp, name))
            ins.append(name)
        outs = [f"v{k}_{j}" for j in range(OUTPUTS.get(op, 1))]
        domain = "my.ops" if op == "Frob" else ""
        nodes.append(helper.make_node(op, ins, outs, f"n{k}_{op}",
                                      domain=domain, **_attrs(fdp, op)))
        values.extend(outs)
        growth += op in ("Tile", "Expand", "ConstantOfShape", "Range")
    names = list(dict.fromkeys(values[-fdp.ConsumeIntInRange(1, 2):]))
    if fdp.ConsumeBool():      # typed outputs, maybe contradicting inference
        outputs = [helper.make_tensor_value_info(
            v, fdp.PickValueInList(TYPES), _dims(fdp, True)) for v in names]
    else:                      # as lenient shape inference types them
        outputs = _inferred(nodes, inputs, names, inits)
    graph = helper.make_graph(nodes, "fuzz", inputs, outputs,
                              initializer=inits)
    model = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", fdp.ConsumeIntInRange(13, 21)),
        helper.make_opsetid("my.ops", 1)])
    model.ir_version = fdp.ConsumeIntInRange(7, 10)
    return model.SerializeToString(), growth
