"""ONNX models as remat graphs: the inference graph of an ONNX model, with
every value's size from shape inference or, where that leaves a size
unknown, from one onnxruntime run (docs/onnx.md).

    >>> import remat.onnx
    >>> g = remat.onnx.load("resnet18.onnx", batch=8)   # a native graph dict
"""

from .reader import load, loads

__all__ = ["load", "loads"]
