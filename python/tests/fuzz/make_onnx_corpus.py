"""Writes the seed corpus of fuzz_onnx.py: tiny ONNX models made with
onnx.helper (each under 20 KiB), valid ones and broken ones.

    PYTHONPATH=python python python/tests/fuzz/make_onnx_corpus.py \\
        python/tests/fuzz/corpus/onnx
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper


def _vi(name, shape, elem=T.FLOAT):
    return h.make_tensor_value_info(name, elem, shape)


def _model(nodes, inputs, outputs, inits=(), opset=18, value_info=(),
           domains=()):
    g = h.make_graph(nodes, "g", inputs, outputs, initializer=list(inits),
                     value_info=list(value_info))
    return h.make_model(g, opset_imports=[h.make_opsetid("", opset)] +
                        [h.make_opsetid(d, 1) for d in domains])


def _w(name, *shape, dtype=np.float32):
    rng = np.random.default_rng(len(name) + sum(shape))
    return numpy_helper.from_array(rng.standard_normal(shape).astype(dtype),
                                   name)


def _i64(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def valid() -> dict[str, onnx.ModelProto]:
    """Models the reader must read."""
    out = {}
    out["relu_chain"] = _model(
        [h.make_node("Relu", ["x"], ["a"], "r1"),
         h.make_node("Sigmoid", ["a"], ["b"], "s1"),
         h.make_node("Add", ["a", "b"], ["y"], "add")],
        [_vi("x", [2, 3])], [_vi("y", [2, 3])])
    out["convnet"] = _model(
        [h.make_node("Conv", ["x", "w", "b"], ["c"], "conv", pads=[1] * 4),
         h.make_node("Relu", ["c"], ["r"], "relu"),
         h.make_node("GlobalAveragePool", ["r"], ["p"], "pool"),
         h.make_node("Flatten", ["p"], ["f"], "flatten"),
         h.make_node("Gemm", ["f", "fc", "fb"], ["y"], "fc", transB=1)],
        [_vi("x", [1, 3, 8, 8])], [_vi("y", [1, 5])],
        [_w("w", 4, 3, 3, 3), _w("b", 4), _w("fc", 5, 4), _w("fb", 5)],
        opset=14)
    out["dynamic_batch"] = _model(
        [h.make_node("MatMul", ["x", "w"], ["m"], "mm"),
         h.make_node("Tanh", ["m"], ["y"], "tanh")],
        [_vi("x", ["batch", 4])], [_vi("y", ["batch", 6])], [_w("w", 4, 6)])
    out["shape_arith"] = _model(
        [h.make_node("Shape", ["x"], ["s"], "shape"),
         h.make_node("Gather", ["s", "zero"], ["n"], "gather", axis=0),
         h.make_node("Unsqueeze", ["n", "zero1"], ["n1"], "unsq"),
         h.make_node("Concat", ["n1", "minus1"], ["shp"], "cat", axis=0),
         h.make_node("Reshape", ["x", "shp"], ["r"], "reshape"),
         h.make_node("Exp", ["r"], ["y"], "exp")],
        [_vi("x", [2, 3, 4])], [_vi("y", [2, "rest"])],
        [_i64("zero", 0), _i64("zero1", [0]), _i64("minus1", [-1])])
    out["nonzero"] = _model(        # a data-dependent size: measured
        [h.make_node("NonZero", ["x"], ["nz"], "nonzero"),
         h.make_node("Transpose", ["nz"], ["t"], "transpose"),
         h.make_node("Cast", ["t"], ["y"], "cast", to=T.FLOAT)],
        [_vi("x", [3, 4])], [_vi("y", ["nz", 2])])
    out["constants"] = _model(
        [h.make_node("Constant", [], ["k"], "k",
                     value=numpy_helper.from_array(
                         np.ones((2, 2), np.float32))),
         h.make_node("Identity", ["x"], ["xi"], "id"),
         h.make_node("Dropout", ["xi"], ["d"], "drop"),
         h.make_node("MatMul", ["d", "k"], ["y"], "mm")],
        [_vi("x", [3, 2])], [_vi("y", [3, 2])])
    out["multi_output"] = _model(
        [h.make_node("Split", ["x", "parts"], ["a", "b"], "split", axis=1),
         h.make_node("TopK", ["a", "k"], ["v", "i"], "topk", axis=1),
         h.make_node("Cast", ["i"], ["fi"], "cast", to=T.FLOAT),
         h.make_node("Concat", ["v", "fi", "b"], ["y"], "cat", axis=1)],
        [_vi("x", [2, 6])], [_vi("y", [2, 7])],
        [_i64("parts", [3, 3]), _i64("k", [2])])
    out["types"] = _model(
        [h.make_node("Cast", ["x"], ["h"], "half", to=T.FLOAT16),
         h.make_node("Cast", ["h"], ["d"], "double", to=T.DOUBLE),
         h.make_node("Greater", ["d", "zero"], ["g"], "greater"),
         h.make_node("Cast", ["g"], ["y"], "int", to=T.INT32)],
        [_vi("x", [2, 5])], [_vi("y", [2, 5], T.INT32)],
        [numpy_helper.from_array(np.zeros((), np.float64), "zero")])
    out["attention"] = _model(
        [h.make_node("MatMul", ["x", "wq"], ["q"], "q"),
         h.make_node("MatMul", ["x", "wk"], ["k"], "k"),
         h.make_node("Transpose", ["k"], ["kt"], "kt", perm=[0, 2, 1]),
         h.make_node("MatMul", ["q", "kt"], ["s"], "scores"),
         h.make_node("Softmax", ["s"], ["p"], "softmax", axis=-1),
         h.make_node("MatMul", ["p", "x"], ["y"], "mix")],
        [_vi("x", [1, 4, 8])], [_vi("y", [1, 4, 8])],
        [_w("wq", 8, 8), _w("wk", 8, 8)])
    return out


def broken() -> dict[str, bytes]:
    """Inputs the reader must refuse with BridgeError."""
    out: dict[str, bytes] = {}
    good = valid()["convnet"].SerializeToString()
    out["truncated"] = good[: len(good) // 2]
    out["text"] = b"not a model\n"
    out["empty"] = b""
    out["undefined_input"] = _model(
        [h.make_node("Add", ["x", "w"], ["y"], "add")],
        [_vi("x", [2])], [_vi("y", [2])]).SerializeToString()
    out["shape_clash"] = _model(
        [h.make_node("MatMul", ["x", "x"], ["y"], "mm")],
        [_vi("x", [2, 3])], [_vi("y", [2, 2])]).SerializeToString()
    branch = h.make_graph([h.make_node("Neg", ["a"], ["o"])], "b", [],
                          [_vi("o", [2])])
    out["control_flow"] = _model(
        [h.make_node("Relu", ["x"], ["a"], "relu"),
         h.make_node("If", ["c"], ["y"], "if", then_branch=branch,
                     else_branch=branch)],
        [_vi("x", [2]), _vi("c", [], T.BOOL)],
        [_vi("y", [2])]).SerializeToString()
    out["custom_op"] = _model(
        [h.make_node("Frob", ["x"], ["f"], "frob", domain="my.ops"),
         h.make_node("Relu", ["f"], ["y"], "relu")],
        [_vi("x", [2, 3])], [_vi("y", [2, 3])],
        domains=["my.ops"]).SerializeToString()
    out["symbolic_axis"] = _model(
        [h.make_node("Relu", ["x"], ["y"], "relu")],
        [_vi("x", [2, "h"])], [_vi("y", [2, "h"])]).SerializeToString()
    ext = _model([h.make_node("MatMul", ["x", "w"], ["m"], "mm"),
                  h.make_node("NonZero", ["m"], ["y"], "nonzero")],
                 [_vi("x", [2, 4])], [_vi("y", [2, "nz"], T.INT64)],
                 [_w("w", 4, 4)])
    onnx.external_data_helper.set_external_data(
        ext.graph.initializer[0], "../outside.bin")
    ext.graph.initializer[0].ClearField("raw_data")
    ext.graph.initializer[0].ClearField("float_data")
    ext.graph.initializer[0].data_location = T.EXTERNAL
    out["external_escape"] = ext.SerializeToString()
    return out


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else
                  Path(__file__).parent / "corpus" / "onnx")
    folder.mkdir(parents=True, exist_ok=True)
    files = {f"valid_{k}.onnx": m.SerializeToString()
             for k, m in valid().items()}
    files.update({f"broken_{k}.onnx": b for k, b in broken().items()})
    for name, data in files.items():
        assert len(data) < 20 * 1024, name
        (folder / name).write_bytes(data)
    print(f"wrote {len(files)} files to {folder}")


if __name__ == "__main__":
    main()
