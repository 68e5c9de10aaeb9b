"""Sizes that shape inference leaves unknown, measured by running the model
once with onnxruntime.

The values to measure become extra graph outputs of a copy of the model,
every graph input is fed zeros of its (fixed) shape, and the shapes and
element types of the outputs are read back.  Graph optimizations are off,
so every value is computed as the model states it.  The run holds every
measured value until it ends: its memory is at most the sum of those
values' sizes (plus the weights).

Zeros stand in for the inputs: a model whose sizes depend on the values of
its inputs (NonZero, a data-dependent loop) gets the sizes of a zero input.
"""

from __future__ import annotations

import os
import re
from typing import Iterable, Mapping

from ..errors import BridgeError
from .messages import one_line
from .shapes import Tensor

# ORT's session option for the folder of external initializers when the
# model is given as bytes
_EXTERNAL_FOLDER = "session.model_external_initializers_file_folder_path"


class RunFailed(Exception):
    """onnxruntime could not load or run the model; the message says why
    in one line."""


# "/onnxruntime_src/.../model.cc:256 onnxruntime::Model::Model(...) " before
# the message proper
_SOURCE_PREFIX = re.compile(r"^\S+:\d+ \S.*?\) (?=[A-Z])")
_IR_LIMIT = re.compile(r"max supported IR version: (\d+)")


def _ort_message(e: BaseException) -> str:
    """onnxruntime's message without its '[ONNXRuntimeError] : 2 :
    INVALID_ARGUMENT :' prefix and the C++ source location."""
    text = one_line(e)
    if text.startswith("[ONNXRuntimeError]"):
        parts = text.split(" : ", 3)
        text = parts[-1] if len(parts) == 4 else text
    return _SOURCE_PREFIX.sub("", text, count=1)


def _zeros(name: str, t: Tensor):
    import numpy as np
    import onnx
    try:
        dtype = onnx.helper.tensor_dtype_to_np_dtype(t.elem_type)
    except (KeyError, ValueError, TypeError):
        raise RunFailed(f"input {name!r} has element type {t.elem_type}, "
                        "which cannot be fed")
    if dtype == np.dtype(object):
        return np.full(t.dims, "", dtype=object)
    try:
        return np.zeros(t.dims, dtype=dtype)
    except (MemoryError, ValueError) as e:
        raise RunFailed(f"input {name!r} of shape {t.dims} cannot be "
                        f"allocated ({type(e).__name__})")


def _session(ort, data: bytes, base_dir: str | None):
    """An onnxruntime CPU session for the serialized model, graph
    optimizations off (every value computed as the model states it)."""
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.log_severity_level = 4
    so.enable_cpu_mem_arena = False
    so.intra_op_num_threads = min(4, os.cpu_count() or 1)
    if base_dir is not None:
        so.add_session_config_entry(_EXTERNAL_FOLDER, base_dir)
    try:
        # no fallback: its retry prints to standard output, where
        # remat-onnx may be writing the graph
        return ort.InferenceSession(data, sess_options=so,
                                    providers=["CPUExecutionProvider"],
                                    enable_fallback=0)
    except MemoryError:
        raise RunFailed("out of memory")
    except Exception as e:           # onnxruntime's own exception types
        raise RunFailed(_ort_message(e))


def measure(model, wanted: Iterable[str], inputs: Mapping[str, Tensor],
            base_dir: str | None) -> dict[str, Tensor]:
    """Run ``model`` once and return name -> Tensor for every name in
    ``wanted`` (node outputs).  ``inputs`` gives the graph inputs' fixed
    shapes; ``base_dir`` is the folder of the model's external data files,
    if any.  Raises BridgeError when onnxruntime is missing, RunFailed when
    it cannot load or run the model."""
    try:
        import numpy as np
        import onnxruntime as ort
    except ImportError:
        raise BridgeError("onnxruntime is not installed, and measuring "
                          "sizes needs it (pip install onnxruntime)")
    import onnx
    from onnx import TensorProto

    present = {o.name for o in model.graph.output}
    extra = [n for n in dict.fromkeys(wanted) if n not in present]
    g = model.graph
    n_out, ir_version = len(g.output), model.ir_version
    g.output.extend(onnx.ValueInfoProto(name=n) for n in extra)
    try:
        data = model.SerializeToString()
        try:
            sess = _session(ort, data, base_dir)
        except RunFailed as e:
            # onnx writes IR versions onnxruntime may not know yet; the
            # version only stamps the format, so run it as the newest
            # onnxruntime knows (an op it then lacks fails as such)
            limit = _IR_LIMIT.search(str(e))
            if not limit or int(limit.group(1)) >= ir_version:
                raise
            model.ir_version = int(limit.group(1))
            sess = _session(ort, model.SerializeToString(), base_dir)
    except ValueError as e:          # over protobuf's 2 GiB
        raise RunFailed(one_line(e))
    finally:
        del g.output[n_out:]
        model.ir_version = ir_version
    feeds = {n: _zeros(n, t) for n, t in inputs.items()}
    try:
        names = [o.name for o in sess.get_outputs()]
        results = sess.run(None, feeds)
    except MemoryError:
        raise RunFailed("out of memory")
    except Exception as e:           # onnxruntime's own exception types
        raise RunFailed(_ort_message(e))
    want = set(wanted)
    out: dict[str, Tensor] = {}
    for n, r in zip(names, results):
        if n not in want:
            continue
        if not isinstance(r, np.ndarray):
            raise RunFailed(f"value {n!r} is a {type(r).__name__}, "
                            "not a tensor")
        if r.dtype == np.dtype(object):
            out[n] = Tensor(TensorProto.STRING, list(r.shape))
            continue
        try:
            et = onnx.helper.np_dtype_to_tensor_dtype(r.dtype)
        except (KeyError, ValueError, TypeError):
            raise RunFailed(f"value {n!r} has numpy type {r.dtype}, "
                            "of no ONNX element type")
        out[n] = Tensor(int(et), [int(d) for d in r.shape])
    return out
