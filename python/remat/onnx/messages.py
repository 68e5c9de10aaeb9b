"""The one-line messages of the ONNX reader."""

from __future__ import annotations

from ..errors import BridgeError
from .shapes import Tensor


def one_line(e: BaseException | str, limit: int = 400) -> str:
    """An exception's message on one line: the onnx checker and shape
    inference spread theirs (a node's text) over several lines."""
    text = " ".join(str(e).split()) or type(e).__name__
    return text if len(text) <= limit else text[:limit - 3] + "..."


def size_error(name: str, value: str, node: str | None, op: str | None,
               t: Tensor | None, why: str) -> BridgeError:
    """The error for a value whose size remains unknown, naming the node
    that writes it."""
    where = (f"node {node!r} ({op}): output {value!r}" if node is not None
             else f"value {value!r}")
    what = "has no inferred shape" if t is None else \
        f"has an unknown size {t.dims}"
    return BridgeError(f"{name}: {where} {what}: {why}")
