"""The type and shape of every value of an ONNX graph.

Three sources, in this order:

1. the graph inputs, whose symbolic dimensions the caller fixes (``batch``
   for a symbolic first dimension, ``dims`` by name for the others);
2. the onnx package's shape inference with data propagation, which also
   folds the small integer tensors that TorchScript exports compute shapes
   with (Shape -> Gather -> Concat -> Reshape);
3. for values still without a fixed size: one run of the model with
   onnxruntime (see runtime.py).

The result is a table value name -> Tensor(element type, dims); dims are
ints, or None where a size is unknown.
"""

from __future__ import annotations

import math
from typing import Mapping, NamedTuple

from ..errors import BridgeError

# bits per element of each TensorProto.DataType with a fixed size
# (sub-byte types are packed: a tensor takes ceil(elements * bits / 8) bytes)
ELEMENT_BITS: dict[int, int] = {
    1: 32, 2: 8, 3: 8, 4: 16, 5: 16, 6: 32, 7: 64, 9: 8, 10: 16, 11: 64,
    12: 32, 13: 64, 14: 64, 15: 128, 16: 16, 17: 8, 18: 8, 19: 8, 20: 8,
    21: 4, 22: 4, 23: 4, 24: 8, 25: 2, 26: 2, 27: 6, 28: 6,
}

# remat's sizes and durations are signed 64-bit integers (docs/formats.md)
MAX_SIZE = 2 ** 63 - 1


class Tensor(NamedTuple):
    """A value's element type (TensorProto.DataType) and dimensions."""

    elem_type: int
    dims: list[int | None]

    def known(self) -> bool:
        """Whether every dimension is a fixed size."""
        return all(d is not None for d in self.dims)


def numel(t: Tensor) -> int:
    """The number of elements, unknown dimensions counting 0."""
    return math.prod(d or 0 for d in t.dims)


def nbytes(t: Tensor) -> int | None:
    """The size in bytes, or None for a type of no fixed size (strings)."""
    bits = ELEMENT_BITS.get(t.elem_type)
    if bits is None:
        return None
    return (numel(t) * bits + 7) // 8


def _dims(shape) -> list[int | None]:
    return [d.dim_value if d.HasField("dim_value") else None
            for d in shape.dim]


def fix_inputs(model, name: str, batch: int | None,
               dims: Mapping[str, int]) -> list[str]:
    """Give every symbolic dimension of the graph inputs a size, in place.

    A symbolic first dimension takes ``batch``; any symbolic dimension
    named in ``dims`` takes that size (before ``batch``).  Returns the
    names of the inputs (initializers listed as inputs excluded).  A
    dimension left symbolic, a negative one, or ``batch`` given for a
    model whose inputs all have a static first dimension of another size
    is an error.
    """
    g = model.graph
    inits = {t.name for t in g.initializer}
    names, static_batch, fixed_batch = [], set(), False
    for vi in g.input:
        if vi.name in inits:
            continue
        names.append(vi.name)
        if vi.type.WhichOneof("value") != "tensor_type":
            raise BridgeError(f"{name}: input {vi.name!r} is not a tensor")
        tt = vi.type.tensor_type
        if not tt.elem_type:
            raise BridgeError(f"{name}: input {vi.name!r} has no element "
                              "type")
        if not tt.HasField("shape"):
            raise BridgeError(f"{name}: input {vi.name!r} has no shape "
                              "(not even its rank): the model cannot be "
                              "sized")
        for i, d in enumerate(tt.shape.dim):
            if d.HasField("dim_value"):
                if d.dim_value < 0:
                    raise BridgeError(f"{name}: input {vi.name!r} has a "
                                      f"negative dimension {d.dim_value}")
                if i == 0:
                    static_batch.add(d.dim_value)
                continue
            label = d.dim_param or None
            if label is not None and label in dims:
                d.dim_value = dims[label]
            elif i == 0 and batch is not None:
                d.dim_value = batch
                fixed_batch = True
            elif i == 0:
                raise BridgeError(f"{name}: input {vi.name!r} has a "
                                  f"symbolic dimension {label or i!r}: "
                                  "give --batch N")
            else:
                what = repr(label) if label else "without a name"
                fix = (f"give --dim {label}=N" if label else
                       "re-export the model with static input shapes")
                raise BridgeError(f"{name}: input {vi.name!r} has a "
                                  f"symbolic dimension {what} (axis {i}): "
                                  f"{fix}")
    if batch is not None and static_batch and batch not in static_batch \
            and not fixed_batch:
        have = ", ".join(str(b) for b in sorted(static_batch))
        raise BridgeError(f"{name}: --batch {batch}: the model's inputs "
                          f"have a static batch ({have}); export it with a "
                          "dynamic batch axis, or at the batch you want")
    return names


def infer(model):
    """Shape inference with data propagation: (the model with value_info
    filled, None) or, where strict inference fails, (the model as far as
    lenient inference gets, the strict error's first line)."""
    import onnx
    from .messages import one_line
    try:
        return onnx.shape_inference.infer_shapes(
            model, check_type=True, strict_mode=True, data_prop=True), None
    except Exception as e:   # onnx raises several types; all mean "failed"
        strict_error = one_line(e)
    try:
        return onnx.shape_inference.infer_shapes(
            model, check_type=False, strict_mode=False,
            data_prop=True), strict_error
    except Exception:
        return model, strict_error


def table(model) -> dict[str, Tensor]:
    """value name -> Tensor for every value with a tensor type: graph
    inputs, value_info, graph outputs and initializers (initializers win:
    their dims are exact)."""
    out: dict[str, Tensor] = {}
    g = model.graph
    for vi in list(g.input) + list(g.value_info) + list(g.output):
        if vi.type.WhichOneof("value") != "tensor_type":
            continue
        tt = vi.type.tensor_type
        if not tt.HasField("shape") or not tt.elem_type:
            continue
        old = out.get(vi.name)
        new = Tensor(tt.elem_type, _dims(tt.shape))
        if old is None or (not old.known() and new.known()):
            out[vi.name] = new
    for t in g.initializer:
        out[t.name] = Tensor(t.data_type, list(t.dims))
    for n in g.node:        # Constant nodes: the tensor is the attribute
        if n.op_type == "Constant" and n.domain in ("", "ai.onnx") \
                and len(n.output) == 1:
            for a in n.attribute:
                if a.name == "value" and a.HasField("t"):
                    out[n.output[0]] = Tensor(a.t.data_type, list(a.t.dims))
    return out
