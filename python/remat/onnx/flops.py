"""A node's duration: an estimate of its floating-point operations.

Multiply-adds count two in Conv, ConvTranspose, Gemm and MatMul (plus one
per output element for a bias); any other operation counts the elements it
reads or writes, whichever is more.  The caller makes it at least 1.
"""

from __future__ import annotations

import math
from typing import Mapping

from .shapes import Tensor, numel

_EMPTY = Tensor(0, [])


def _dims(shapes: Mapping[str, Tensor], name: str) -> list[int]:
    return [d or 0 for d in shapes.get(name, _EMPTY).dims]


def _size(shapes: Mapping[str, Tensor], name: str) -> int:
    t = shapes.get(name)
    return numel(t) if t is not None else 0


def _attr_int(node, name: str) -> int:
    for a in node.attribute:
        if a.name == name:
            return a.i
    return 0


def estimate(node, shapes: Mapping[str, Tensor]) -> int:
    """The FLOP estimate of ``node`` from the sizes in ``shapes``."""
    ins = [i for i in node.input if i]
    outs = [o for o in node.output if o]
    out_n = sum(_size(shapes, o) for o in outs)
    op = node.op_type
    bias = out_n if len(ins) > 2 else 0
    if op == "Conv" and len(ins) >= 2:
        w = _dims(shapes, ins[1])          # C_out x C_in/g x k...
        return 2 * out_n * math.prod(w[1:]) + bias
    if op == "ConvTranspose" and len(ins) >= 2:
        w = _dims(shapes, ins[1])          # C_in x C_out/g x k...
        return 2 * _size(shapes, ins[0]) * math.prod(w[1:]) + bias
    if op in ("Gemm", "MatMul") and len(ins) >= 2:
        a = _dims(shapes, ins[0])
        if not a:
            return out_n
        k = a[-2] if (op == "Gemm" and _attr_int(node, "transA")
                      and len(a) >= 2) else a[-1]
        return 2 * out_n * k + (bias if op == "Gemm" else 0)
    return max(sum(_size(shapes, i) for i in ins), out_n)
